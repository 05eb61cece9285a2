from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SignUp")


@_attrs_define
class SignUp:
    """
    Attributes:
        email (str): An e-mail address: a local part of letters, digits and ``!#$%&'*+/=?^_`{|}~-`` (dots
            between them), `@`, and a domain name of letters, digits and hyphens.
        password (str | Unset): Ignored (checked for its length only, so that older clients keep working): the
            password is chosen when the confirmation link is used (`POST /v1/signup/confirm`).
    """

    email: str
    password: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password", UNSET)

        sign_up = cls(
            email=email,
            password=password,
        )

        return sign_up
