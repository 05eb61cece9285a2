from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LinkPassword")


@_attrs_define
class LinkPassword:
    """
    Attributes:
        token (str): The token of a link from an e-mail (after `#confirm/`, `#reset/` or `#invitation/` in the link).
        password (str): The new account's password (8 to 1024 characters). For a sign-up link sent before sign-up
            stopped asking for a password, the password chosen then.
    """

    token: str
    password: str

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        password = d.pop("password")

        link_password = cls(
            token=token,
            password=password,
        )

        return link_password
