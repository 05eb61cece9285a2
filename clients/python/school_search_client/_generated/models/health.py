from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.health_status import HealthStatus, check_health_status
from ..types import UNSET, Unset

T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """
    Attributes:
        status (HealthStatus):
        store (str | Unset): Which store answered.
    """

    status: HealthStatus
    store: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        store = self.store

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if store is not UNSET:
            field_dict["store"] = store

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = check_health_status(d.pop("status"))

        store = d.pop("store", UNSET)

        health = cls(
            status=status,
            store=store,
        )

        return health
