from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PasswordReset")


@_attrs_define
class PasswordReset:
    """
    Attributes:
        token (str): The token of a link from an e-mail (after `#confirm/`, `#reset/` or `#invitation/` in the link).
        new_password (str): The new password, 8 to 1024 characters.
    """

    token: str
    new_password: str

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        new_password = self.new_password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "new_password": new_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        new_password = d.pop("new_password")

        password_reset = cls(
            token=token,
            new_password=new_password,
        )

        return password_reset
