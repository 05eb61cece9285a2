from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.school import School


T = TypeVar("T", bound="SearchResult")


@_attrs_define
class SearchResult:
    """
    Attributes:
        schools (list[School]):
        total_count (int): Number of all matching schools, also when `schools` is empty.
        offset (int): The offset this page starts at.
        limit (int): The page size that was asked for.
    """

    schools: list[School]
    total_count: int
    offset: int
    limit: int

    def to_dict(self) -> dict[str, Any]:
        schools = []
        for schools_item_data in self.schools:
            schools_item = schools_item_data.to_dict()
            schools.append(schools_item)

        total_count = self.total_count

        offset = self.offset

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schools": schools,
                "total_count": total_count,
                "offset": offset,
                "limit": limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.school import School

        d = dict(src_dict)
        schools = []
        _schools = d.pop("schools")
        for schools_item_data in _schools:
            schools_item = School.from_dict(schools_item_data)

            schools.append(schools_item)

        total_count = d.pop("total_count")

        offset = d.pop("offset")

        limit = d.pop("limit")

        search_result = cls(
            schools=schools,
            total_count=total_count,
            offset=offset,
            limit=limit,
        )

        return search_result
