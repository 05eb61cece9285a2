from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiKeyUpdate")


@_attrs_define
class ApiKeyUpdate:
    """What to change; what is not given stays.

    Attributes:
        name (str | Unset): What the key is for, as the user will recognise it in a list: 1 to 64 characters
            (Unicode code points, as JSON Schema counts them: an emoji is one), with at least one
            visible character (variation selectors and other default-ignorable characters draw
            nothing), no control or format characters (no bidi overrides such as U+202E, no
            zero-width characters such as U+200B or U+200D, no lone surrogates), and at most four
            combining marks on one character.
        origins (list[str] | Unset): A publishable key's new list of origins (it replaces the old one).
        searches_per_minute (int | Unset):
        searches_per_day (int | Unset):
        visitor_searches_per_minute (int | Unset):
    """

    name: str | Unset = UNSET
    origins: list[str] | Unset = UNSET
    searches_per_minute: int | Unset = UNSET
    searches_per_day: int | Unset = UNSET
    visitor_searches_per_minute: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        origins: list[str] | Unset = UNSET
        if not isinstance(self.origins, Unset):
            origins = self.origins

        searches_per_minute = self.searches_per_minute

        searches_per_day = self.searches_per_day

        visitor_searches_per_minute = self.visitor_searches_per_minute

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if origins is not UNSET:
            field_dict["origins"] = origins
        if searches_per_minute is not UNSET:
            field_dict["searches_per_minute"] = searches_per_minute
        if searches_per_day is not UNSET:
            field_dict["searches_per_day"] = searches_per_day
        if visitor_searches_per_minute is not UNSET:
            field_dict["visitor_searches_per_minute"] = visitor_searches_per_minute

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        origins = cast(list[str], d.pop("origins", UNSET))

        searches_per_minute = d.pop("searches_per_minute", UNSET)

        searches_per_day = d.pop("searches_per_day", UNSET)

        visitor_searches_per_minute = d.pop("visitor_searches_per_minute", UNSET)

        api_key_update = cls(
            name=name,
            origins=origins,
            searches_per_minute=searches_per_minute,
            searches_per_day=searches_per_day,
            visitor_searches_per_minute=visitor_searches_per_minute,
        )

        return api_key_update
