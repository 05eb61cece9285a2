from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiRequest")


@_attrs_define
class ApiRequest:
    """
    Attributes:
        tid (UUID): Identifier of the request record.
        trequestmade (str): What was requested, e.g. `search_schools:<query>` for a search.
        ttimemade (datetime.datetime): When the request was made (ISO 8601, UTC).
        trequestcost (int): Cost of the request in credits. A search costs 1 credit.
    """

    tid: UUID
    trequestmade: str
    ttimemade: datetime.datetime
    trequestcost: int

    def to_dict(self) -> dict[str, Any]:
        tid = str(self.tid)

        trequestmade = self.trequestmade

        ttimemade = self.ttimemade.isoformat()

        trequestcost = self.trequestcost

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tid": tid,
                "trequestmade": trequestmade,
                "ttimemade": ttimemade,
                "trequestcost": trequestcost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tid = UUID(d.pop("tid"))

        trequestmade = d.pop("trequestmade")

        ttimemade = datetime.datetime.fromisoformat(d.pop("ttimemade"))

        trequestcost = d.pop("trequestcost")

        api_request = cls(
            tid=tid,
            trequestmade=trequestmade,
            ttimemade=ttimemade,
            trequestcost=trequestcost,
        )

        return api_request
