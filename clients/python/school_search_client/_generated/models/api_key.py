from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiKey")


@_attrs_define
class ApiKey:
    """
    Attributes:
        token_id (UUID): Identifier of the key, for `GET /v1/tokens`, rotation and revocation.
        name (str):
        token (str): The key's value, sent as `Authorization: Bearer ssk_…`. Shown once; store it like a password.
        token_type (Literal['Bearer']):
        hint (str): The first characters of the value, as `GET /v1/tokens` shows them.
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    token_id: UUID
    name: str
    token: str
    token_type: Literal["Bearer"]
    hint: str
    created_at: datetime.datetime
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        token_id = str(self.token_id)

        name = self.name

        token = self.token

        token_type = self.token_type

        hint = self.hint

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token_id": token_id,
                "name": name,
                "token": token,
                "token_type": token_type,
                "hint": hint,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token_id = UUID(d.pop("token_id"))

        name = d.pop("name")

        token = d.pop("token")

        token_type = cast(Literal["Bearer"], d.pop("token_type"))
        if token_type != "Bearer":
            raise ValueError(
                f"token_type must match const 'Bearer', got '{token_type}'"
            )

        hint = d.pop("hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        api_key = cls(
            token_id=token_id,
            name=name,
            token=token,
            token_type=token_type,
            hint=hint,
            created_at=created_at,
            expires_at=expires_at,
        )

        return api_key
