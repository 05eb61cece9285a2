from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="DailyUsageByKeyItem")


@_attrs_define
class DailyUsageByKeyItem:
    """
    Attributes:
        key_id (None | UUID):
        request_count (int):
        total_cost (int):
    """

    key_id: None | UUID
    request_count: int
    total_cost: int

    def to_dict(self) -> dict[str, Any]:
        key_id: None | str
        if isinstance(self.key_id, UUID):
            key_id = str(self.key_id)
        else:
            key_id = self.key_id

        request_count = self.request_count

        total_cost = self.total_cost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key_id": key_id,
                "request_count": request_count,
                "total_cost": total_cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_key_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                key_id_type_0 = UUID(data)

                return key_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        key_id = _parse_key_id(d.pop("key_id"))

        request_count = d.pop("request_count")

        total_cost = d.pop("total_cost")

        daily_usage_by_key_item = cls(
            key_id=key_id,
            request_count=request_count,
            total_cost=total_cost,
        )

        return daily_usage_by_key_item
