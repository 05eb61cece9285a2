from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.daily_usage_by_key_item import DailyUsageByKeyItem
    from ..models.daily_usage_by_origin_item import DailyUsageByOriginItem
    from ..models.day_usage import DayUsage


T = TypeVar("T", bound="DailyUsage")


@_attrs_define
class DailyUsage:
    """
    Attributes:
        from_ (datetime.date): The first day counted (UTC).
        to (datetime.date): The last day counted, today (UTC).
        days (list[DayUsage]): One element per day from `from` to `to`, oldest first.
        by_key (list[DailyUsageByKeyItem]): The period's requests per API key, most first; `key_id` null for session
            tokens.
        by_origin (list[DailyUsageByOriginItem]): The period's requests per web origin a publishable key was used from,
            most first
            (only listed origins are let in: at most 20 keys of 20 origins); `origin` null for
            requests made without a publishable key.
    """

    from_: datetime.date
    to: datetime.date
    days: list[DayUsage]
    by_key: list[DailyUsageByKeyItem]
    by_origin: list[DailyUsageByOriginItem]

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)

        by_key = []
        for by_key_item_data in self.by_key:
            by_key_item = by_key_item_data.to_dict()
            by_key.append(by_key_item)

        by_origin = []
        for by_origin_item_data in self.by_origin:
            by_origin_item = by_origin_item_data.to_dict()
            by_origin.append(by_origin_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "days": days,
                "by_key": by_key,
                "by_origin": by_origin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.daily_usage_by_key_item import DailyUsageByKeyItem
        from ..models.daily_usage_by_origin_item import DailyUsageByOriginItem
        from ..models.day_usage import DayUsage

        d = dict(src_dict)
        from_ = datetime.date.fromisoformat(d.pop("from"))

        to = datetime.date.fromisoformat(d.pop("to"))

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = DayUsage.from_dict(days_item_data)

            days.append(days_item)

        by_key = []
        _by_key = d.pop("by_key")
        for by_key_item_data in _by_key:
            by_key_item = DailyUsageByKeyItem.from_dict(by_key_item_data)

            by_key.append(by_key_item)

        by_origin = []
        _by_origin = d.pop("by_origin")
        for by_origin_item_data in _by_origin:
            by_origin_item = DailyUsageByOriginItem.from_dict(by_origin_item_data)

            by_origin.append(by_origin_item)

        daily_usage = cls(
            from_=from_,
            to=to,
            days=days,
            by_key=by_key,
            by_origin=by_origin,
        )

        return daily_usage
