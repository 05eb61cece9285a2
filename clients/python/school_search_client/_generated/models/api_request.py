from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.school_level import SchoolLevel, check_school_level
from ..models.school_type_filter import SchoolTypeFilter, check_school_type_filter
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
        level (list[SchoolLevel] | Unset): The search's `level` filter, each level once, when it had one.
        type_ (list[SchoolTypeFilter] | Unset): The search's `type` filter, each type once, when it had one.
        near (str | Unset): The search's `near` point, when it had one, as `<latitude>,<longitude>` in decimal
            degrees without spaces (`42.3736,-71.1097`), whatever spacing or `+` signs it was sent
            with.
        radius_km (float | Unset): The search's `radius_km` (more than 0), when it had one.
        key_id (UUID | Unset): The API key (secret or publishable) the request was made with, its `token_id`; absent
            when a session token made it, and on records stored before the API kept it.
        origin (str | Unset): The web page's origin a publishable key's request came from (`https://www.example.org`);
            absent on requests made without a publishable key.
    """

    tid: UUID
    trequestmade: str
    ttimemade: datetime.datetime
    trequestcost: int
    state_code: StateCode | Unset = UNSET
    offset: int | Unset = UNSET
    limit: int | Unset = UNSET
    level: list[SchoolLevel] | Unset = UNSET
    type_: list[SchoolTypeFilter] | Unset = UNSET
    near: str | Unset = UNSET
    radius_km: float | Unset = UNSET
    key_id: UUID | Unset = UNSET
    origin: str | Unset = UNSET

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

        level: list[str] | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = []
            for level_item_data in self.level:
                level_item: str = level_item_data
                level.append(level_item)

        type_: list[str] | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = []
            for type_item_data in self.type_:
                type_item: str = type_item_data
                type_.append(type_item)

        near = self.near

        radius_km = self.radius_km

        key_id: str | Unset = UNSET
        if not isinstance(self.key_id, Unset):
            key_id = str(self.key_id)

        origin = self.origin

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
        if level is not UNSET:
            field_dict["level"] = level
        if type_ is not UNSET:
            field_dict["type"] = type_
        if near is not UNSET:
            field_dict["near"] = near
        if radius_km is not UNSET:
            field_dict["radius_km"] = radius_km
        if key_id is not UNSET:
            field_dict["key_id"] = key_id
        if origin is not UNSET:
            field_dict["origin"] = origin

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

        _level = d.pop("level", UNSET)
        level: list[SchoolLevel] | Unset = UNSET
        if _level is not UNSET:
            level = []
            for level_item_data in _level:
                level_item = check_school_level(level_item_data)

                level.append(level_item)

        _type_ = d.pop("type", UNSET)
        type_: list[SchoolTypeFilter] | Unset = UNSET
        if _type_ is not UNSET:
            type_ = []
            for type_item_data in _type_:
                type_item = check_school_type_filter(type_item_data)

                type_.append(type_item)

        near = d.pop("near", UNSET)

        radius_km = d.pop("radius_km", UNSET)

        _key_id = d.pop("key_id", UNSET)
        key_id: UUID | Unset
        if isinstance(_key_id, Unset):
            key_id = UNSET
        else:
            key_id = UUID(_key_id)

        origin = d.pop("origin", UNSET)

        api_request = cls(
            tid=tid,
            trequestmade=trequestmade,
            ttimemade=ttimemade,
            trequestcost=trequestcost,
            state_code=state_code,
            offset=offset,
            limit=limit,
            level=level,
            type_=type_,
            near=near,
            radius_km=radius_km,
            key_id=key_id,
            origin=origin,
        )

        return api_request
