from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.api_request import ApiRequest
    from ..models.search_result import SearchResult


T = TypeVar("T", bound="SchoolSearchResponse")


@_attrs_define
class SchoolSearchResponse:
    """
    Attributes:
        apirequest (ApiRequest):
        requestresult (SearchResult):
    """

    apirequest: ApiRequest
    requestresult: SearchResult

    def to_dict(self) -> dict[str, Any]:
        apirequest = self.apirequest.to_dict()

        requestresult = self.requestresult.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apirequest": apirequest,
                "requestresult": requestresult,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_request import ApiRequest
        from ..models.search_result import SearchResult

        d = dict(src_dict)
        apirequest = ApiRequest.from_dict(d.pop("apirequest"))

        requestresult = SearchResult.from_dict(d.pop("requestresult"))

        school_search_response = cls(
            apirequest=apirequest,
            requestresult=requestresult,
        )

        return school_search_response
