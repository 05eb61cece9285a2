from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DayUsage")


@_attrs_define
class DayUsage:
    """
    Attributes:
        date (datetime.date): The calendar day (UTC).
        request_count (int): Metered requests the user made that day.
        total_cost (int): Sum of their costs, in credits.
    """

    date: datetime.date
    request_count: int
    total_cost: int

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        request_count = self.request_count

        total_cost = self.total_cost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
                "request_count": request_count,
                "total_cost": total_cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        request_count = d.pop("request_count")

        total_cost = d.pop("total_cost")

        day_usage = cls(
            date=date,
            request_count=request_count,
            total_cost=total_cost,
        )

        return day_usage
