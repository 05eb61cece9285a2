from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.problem_item_location import (
    ProblemItemLocation,
    check_problem_item_location,
)

T = TypeVar("T", bound="ProblemItem")


@_attrs_define
class ProblemItem:
    """
    Attributes:
        location (ProblemItemLocation): Where the problem is (named `location`, not `in`, since 1.1.0).
        name (str): The parameter's name, or a JSON pointer into the body.
        message (str):
    """

    location: ProblemItemLocation
    name: str
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        location: str = self.location

        name = self.name

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "location": location,
                "name": name,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        location = check_problem_item_location(d.pop("location"))

        name = d.pop("name")

        message = d.pop("message")

        problem_item = cls(
            location=location,
            name=name,
            message=message,
        )

        problem_item.additional_properties = d
        return problem_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
