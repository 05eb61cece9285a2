from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PasswordConfirmation")


@_attrs_define
class PasswordConfirmation:
    """
    Attributes:
        current_password (str): The account's current password, to confirm that its owner asks.
    """

    current_password: str

    def to_dict(self) -> dict[str, Any]:
        current_password = self.current_password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current_password": current_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        current_password = d.pop("current_password")

        password_confirmation = cls(
            current_password=current_password,
        )

        return password_confirmation
