from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PublishableKeyRequest")


@_attrs_define
class PublishableKeyRequest:
    """
    Attributes:
        name (str): What the key is for, as the user will recognise it in a list: 1 to 64 characters
            (Unicode code points, as JSON Schema counts them: an emoji is one), with at least one
            visible character (variation selectors and other default-ignorable characters draw
            nothing), no control or format characters (no bidi overrides such as U+202E, no
            zero-width characters such as U+200B or U+200D, no lone surrogates), and at most four
            combining marks on one character.
        origins (list[str]): The pages the key will work from (at most 20 origins).
        current_password (str): The account's current password, to confirm that its owner asks.
        searches_per_minute (int | Unset): The key's searches a minute; the account's whole search quota a minute unless
            given.
        searches_per_day (int | Unset): The key's searches in 24 hours; the server's ceiling for one key unless given.
        visitor_searches_per_minute (int | Unset): Each visitor's share a minute; 60 (or `searches_per_minute`, if
            lower) unless given.
        expires_in_days (int | Unset): Lifetime of the key in days, at most 3650 (ten years). Default: 365.
    """

    name: str
    origins: list[str]
    current_password: str
    searches_per_minute: int | Unset = UNSET
    searches_per_day: int | Unset = UNSET
    visitor_searches_per_minute: int | Unset = UNSET
    expires_in_days: int | Unset = 365

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        origins = self.origins

        current_password = self.current_password

        searches_per_minute = self.searches_per_minute

        searches_per_day = self.searches_per_day

        visitor_searches_per_minute = self.visitor_searches_per_minute

        expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "origins": origins,
                "current_password": current_password,
            }
        )
        if searches_per_minute is not UNSET:
            field_dict["searches_per_minute"] = searches_per_minute
        if searches_per_day is not UNSET:
            field_dict["searches_per_day"] = searches_per_day
        if visitor_searches_per_minute is not UNSET:
            field_dict["visitor_searches_per_minute"] = visitor_searches_per_minute
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        origins = cast(list[str], d.pop("origins"))

        current_password = d.pop("current_password")

        searches_per_minute = d.pop("searches_per_minute", UNSET)

        searches_per_day = d.pop("searches_per_day", UNSET)

        visitor_searches_per_minute = d.pop("visitor_searches_per_minute", UNSET)

        expires_in_days = d.pop("expires_in_days", UNSET)

        publishable_key_request = cls(
            name=name,
            origins=origins,
            current_password=current_password,
            searches_per_minute=searches_per_minute,
            searches_per_day=searches_per_day,
            visitor_searches_per_minute=visitor_searches_per_minute,
            expires_in_days=expires_in_days,
        )

        return publishable_key_request
