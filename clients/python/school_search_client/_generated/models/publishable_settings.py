from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PublishableSettings")


@_attrs_define
class PublishableSettings:
    """A publishable key's origins and budgets (present on publishable keys only).

    Attributes:
        origins (list[str]): The pages the key works from (at most 20 origins).
        searches_per_minute (int): Searches and school reads a minute with this key, from every visitor together.
        searches_per_day (int): Searches and school reads with this key in 24 hours (a window that starts at the first).
        visitor_searches_per_minute (int): Each visitor's share a minute (one client address; behind a proxy, as
            `TRUST_PROXY`
            says), at most `searches_per_minute`: one visitor or bot cannot spend the site's
            budget.
    """

    origins: list[str]
    searches_per_minute: int
    searches_per_day: int
    visitor_searches_per_minute: int

    def to_dict(self) -> dict[str, Any]:
        origins = self.origins

        searches_per_minute = self.searches_per_minute

        searches_per_day = self.searches_per_day

        visitor_searches_per_minute = self.visitor_searches_per_minute

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origins": origins,
                "searches_per_minute": searches_per_minute,
                "searches_per_day": searches_per_day,
                "visitor_searches_per_minute": visitor_searches_per_minute,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        origins = cast(list[str], d.pop("origins"))

        searches_per_minute = d.pop("searches_per_minute")

        searches_per_day = d.pop("searches_per_day")

        visitor_searches_per_minute = d.pop("visitor_searches_per_minute")

        publishable_settings = cls(
            origins=origins,
            searches_per_minute=searches_per_minute,
            searches_per_day=searches_per_day,
            visitor_searches_per_minute=visitor_searches_per_minute,
        )

        return publishable_settings
