from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="MailAccepted")


@_attrs_define
class MailAccepted:
    """
    Attributes:
        status (Literal['accepted']):
        detail (str): What happens next, in words; the same for every address.
    """

    status: Literal["accepted"]
    detail: str

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = cast(Literal["accepted"], d.pop("status"))
        if status != "accepted":
            raise ValueError(f"status must match const 'accepted', got '{status}'")

        detail = d.pop("detail")

        mail_accepted = cls(
            status=status,
            detail=detail,
        )

        return mail_accepted
