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

T = TypeVar("T", bound="Token")


@_attrs_define
class Token:
    """
    Attributes:
        user_id (UUID): Identifier of the user the token belongs to.
        token (str): The bearer token. Shown once; store it like a password.
        expires_in (int): Lifetime of the token in seconds from now.
        token_type (Literal['Bearer']):
        expires_at (datetime.datetime): When the token expires (UTC).
        token_id (UUID): Identifier of the token, for `GET /v1/tokens` and `DELETE /v1/tokens/{tokenId}`.
    """

    user_id: UUID
    token: str
    expires_in: int
    token_type: Literal["Bearer"]
    expires_at: datetime.datetime
    token_id: UUID

    def to_dict(self) -> dict[str, Any]:
        user_id = str(self.user_id)

        token = self.token

        expires_in = self.expires_in

        token_type = self.token_type

        expires_at = self.expires_at.isoformat()

        token_id = str(self.token_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
                "token": token,
                "expires_in": expires_in,
                "token_type": token_type,
                "expires_at": expires_at,
                "token_id": token_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = UUID(d.pop("userId"))

        token = d.pop("token")

        expires_in = d.pop("expires_in")

        token_type = cast(Literal["Bearer"], d.pop("token_type"))
        if token_type != "Bearer":
            raise ValueError(
                f"token_type must match const 'Bearer', got '{token_type}'"
            )

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        token_id = UUID(d.pop("token_id"))

        token = cls(
            user_id=user_id,
            token=token,
            expires_in=expires_in,
            token_type=token_type,
            expires_at=expires_at,
            token_id=token_id,
        )

        return token
