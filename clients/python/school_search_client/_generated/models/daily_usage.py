from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.day_usage import DayUsage


T = TypeVar("T", bound="DailyUsage")


@_attrs_define
class DailyUsage:
    """
    Attributes:
        from_ (datetime.date): The first day counted (UTC).
        to (datetime.date): The last day counted, today (UTC).
        days (list[DayUsage]): One element per day from `from` to `to`, oldest first.
    """

    from_: datetime.date
    to: datetime.date
    days: list[DayUsage]

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "days": days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.day_usage import DayUsage

        d = dict(src_dict)
        from_ = datetime.date.fromisoformat(d.pop("from"))

        to = datetime.date.fromisoformat(d.pop("to"))

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = DayUsage.from_dict(days_item_data)

            days.append(days_item)

        daily_usage = cls(
            from_=from_,
            to=to,
            days=days,
        )

        return daily_usage
