from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Credentials")


@_attrs_define
class Credentials:
    """
    Attributes:
        email (str): An e-mail address: a local part of letters, digits and ``!#$%&'*+/=?^_`{|}~-`` (dots
            between them), `@`, and a domain name of letters, digits and hyphens.
        password (str): The user's password.
        device_proof (str | Unset): In a login: the `device_proof` of this client's last successful login to the
            account,
            or an empty string when it has none yet; either asks for one in the answer. It keeps the
            client out of the all-clients ceiling on failed logins for the e-mail (many addresses
            failing at an account do not lock out a client that logged in to it recently). Valid 30
            days; a password change voids it. It authenticates nothing; keep it with the client, like
            a cookie. Browsers get the same proof as the `ss_device` cookie instead.
    """

    email: str
    password: str
    device_proof: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        device_proof = self.device_proof

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "password": password,
            }
        )
        if device_proof is not UNSET:
            field_dict["device_proof"] = device_proof

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        device_proof = d.pop("device_proof", UNSET)

        credentials = cls(
            email=email,
            password=password,
            device_proof=device_proof,
        )

        return credentials
