from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.api_request import ApiRequest


T = TypeVar("T", bound="RequestHistory")


@_attrs_define
class RequestHistory:
    """
    Attributes:
        requests (list[ApiRequest]):
        next_cursor (None | str): Pass it as `cursor` for the page after this one; null when this page holds the
            caller's oldest record (or none).
        total_count (int):
        offset (int):
        limit (int):
    """

    requests: list[ApiRequest]
    next_cursor: None | str
    total_count: int
    offset: int
    limit: int

    def to_dict(self) -> dict[str, Any]:
        requests = []
        for requests_item_data in self.requests:
            requests_item = requests_item_data.to_dict()
            requests.append(requests_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        total_count = self.total_count

        offset = self.offset

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requests": requests,
                "next_cursor": next_cursor,
                "total_count": total_count,
                "offset": offset,
                "limit": limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_request import ApiRequest

        d = dict(src_dict)
        requests = []
        _requests = d.pop("requests")
        for requests_item_data in _requests:
            requests_item = ApiRequest.from_dict(requests_item_data)

            requests.append(requests_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        total_count = d.pop("total_count")

        offset = d.pop("offset")

        limit = d.pop("limit")

        request_history = cls(
            requests=requests,
            next_cursor=next_cursor,
            total_count=total_count,
            offset=offset,
            limit=limit,
        )

        return request_history
