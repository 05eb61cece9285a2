from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiKeyRequest")


@_attrs_define
class ApiKeyRequest:
    """
    Attributes:
        name (str): What the key is for, as the user will recognise it in a list: 1 to 64 characters
            (Unicode code points, as JSON Schema counts them: an emoji is one), with at least one
            visible character (variation selectors and other default-ignorable characters draw
            nothing), no control or format characters (no bidi overrides such as U+202E, no
            zero-width characters such as U+200B or U+200D, no lone surrogates), and at most four
            combining marks on one character.
        current_password (str): The account's current password, to confirm that its owner asks.
        expires_in_days (int | Unset): Lifetime of the key in days, at most 365. Default: 90.
    """

    name: str
    current_password: str
    expires_in_days: int | Unset = 90

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        current_password = self.current_password

        expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "current_password": current_password,
            }
        )
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        current_password = d.pop("current_password")

        expires_in_days = d.pop("expires_in_days", UNSET)

        api_key_request = cls(
            name=name,
            current_password=current_password,
            expires_in_days=expires_in_days,
        )

        return api_key_request
