from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.state_code import StateCode, check_state_code
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiRequest")


@_attrs_define
class ApiRequest:
    """
    Attributes:
        tid (UUID): Identifier of the request record.
        trequestmade (str): What was requested, e.g. `search_schools:<query>` for a search.
        ttimemade (datetime.datetime): When the request was made (ISO 8601, UTC).
        trequestcost (int): Cost of the request in credits. A search costs 1 credit.
        state_code (StateCode | Unset): Two-letter code of a US state, the District of Columbia, a US territory or
            freely
            associated state (AS, FM, GU, MH, MP, PR, PW, VI), or a Canadian province or territory.
        offset (int | Unset): The search's `offset` (its default, 0, when it gave none); absent on older records.
        limit (int | Unset): The search's `limit` (its default, 25, when it gave none); absent on older records.
    """

    tid: UUID
    trequestmade: str
    ttimemade: datetime.datetime
    trequestcost: int
    state_code: StateCode | Unset = UNSET
    offset: int | Unset = UNSET
    limit: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        tid = str(self.tid)

        trequestmade = self.trequestmade

        ttimemade = self.ttimemade.isoformat()

        trequestcost = self.trequestcost

        state_code: str | Unset = UNSET
        if not isinstance(self.state_code, Unset):
            state_code = self.state_code

        offset = self.offset

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tid": tid,
                "trequestmade": trequestmade,
                "ttimemade": ttimemade,
                "trequestcost": trequestcost,
            }
        )
        if state_code is not UNSET:
            field_dict["stateCode"] = state_code
        if offset is not UNSET:
            field_dict["offset"] = offset
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tid = UUID(d.pop("tid"))

        trequestmade = d.pop("trequestmade")

        ttimemade = datetime.datetime.fromisoformat(d.pop("ttimemade"))

        trequestcost = d.pop("trequestcost")

        _state_code = d.pop("stateCode", UNSET)
        state_code: StateCode | Unset
        if isinstance(_state_code, Unset):
            state_code = UNSET
        else:
            state_code = check_state_code(_state_code)

        offset = d.pop("offset", UNSET)

        limit = d.pop("limit", UNSET)

        api_request = cls(
            tid=tid,
            trequestmade=trequestmade,
            ttimemade=ttimemade,
            trequestcost=trequestcost,
            state_code=state_code,
            offset=offset,
            limit=limit,
        )

        return api_request
