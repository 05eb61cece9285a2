from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.usage import Usage


T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        user_id (UUID):
        email (str): An e-mail address: a local part of letters, digits and ``!#$%&'*+/=?^_`{|}~-`` (dots
            between them), `@`, and a domain name of letters, digits and hyphens.
        created_at (datetime.datetime):
        usage (Usage):
        active_tokens (int): Number of the user's tokens that are neither expired nor revoked.
    """

    user_id: UUID
    email: str
    created_at: datetime.datetime
    usage: Usage
    active_tokens: int

    def to_dict(self) -> dict[str, Any]:
        user_id = str(self.user_id)

        email = self.email

        created_at = self.created_at.isoformat()

        usage = self.usage.to_dict()

        active_tokens = self.active_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
                "email": email,
                "created_at": created_at,
                "usage": usage,
                "active_tokens": active_tokens,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage import Usage

        d = dict(src_dict)
        user_id = UUID(d.pop("userId"))

        email = d.pop("email")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        usage = Usage.from_dict(d.pop("usage"))

        active_tokens = d.pop("active_tokens")

        account = cls(
            user_id=user_id,
            email=email,
            created_at=created_at,
            usage=usage,
            active_tokens=active_tokens,
        )

        return account
