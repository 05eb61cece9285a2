from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DailyUsageByOriginItem")


@_attrs_define
class DailyUsageByOriginItem:
    """
    Attributes:
        origin (None | str):
        request_count (int):
        total_cost (int):
    """

    origin: None | str
    request_count: int
    total_cost: int

    def to_dict(self) -> dict[str, Any]:
        origin: None | str
        origin = self.origin

        request_count = self.request_count

        total_cost = self.total_cost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origin": origin,
                "request_count": request_count,
                "total_cost": total_cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_origin(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin = _parse_origin(d.pop("origin"))

        request_count = d.pop("request_count")

        total_cost = d.pop("total_cost")

        daily_usage_by_origin_item = cls(
            origin=origin,
            request_count=request_count,
            total_cost=total_cost,
        )

        return daily_usage_by_origin_item
