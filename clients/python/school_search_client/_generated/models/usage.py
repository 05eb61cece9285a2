from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Attributes:
        request_count (int): Number of metered requests the user made.
        total_cost (int): Sum of their costs, in credits.
        last_request_at (datetime.datetime | None): Time of the newest metered request, null when there is none.
    """

    request_count: int
    total_cost: int
    last_request_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        request_count = self.request_count

        total_cost = self.total_cost

        last_request_at: None | str
        if isinstance(self.last_request_at, datetime.datetime):
            last_request_at = self.last_request_at.isoformat()
        else:
            last_request_at = self.last_request_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request_count": request_count,
                "total_cost": total_cost,
                "last_request_at": last_request_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        request_count = d.pop("request_count")

        total_cost = d.pop("total_cost")

        def _parse_last_request_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_request_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_request_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_request_at = _parse_last_request_at(d.pop("last_request_at"))

        usage = cls(
            request_count=request_count,
            total_cost=total_cost,
            last_request_at=last_request_at,
        )

        return usage
