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

from ..types import UNSET, Unset

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
        session_expires_at (datetime.datetime): When the session ends, whatever rotation does (UTC): the absolute
            session lifetime,
            counted from when the password was given (by default 12 hours). `expires_at` is never
            later; once they are equal, renew by logging in, not by rotating.
        device_proof (str | Unset): In a login: the `device_proof` of this client's last successful login to the
            account,
            or an empty string when it has none yet; either asks for one in the answer. It keeps the
            client out of the all-clients ceiling on failed logins for the e-mail (many addresses
            failing at an account do not lock out a client that logged in to it recently). Valid 30
            days; a password change voids it. It authenticates nothing; keep it with the client, like
            a cookie. Browsers get the same proof as the `ss_device` cookie instead.
    """

    user_id: UUID
    token: str
    expires_in: int
    token_type: Literal["Bearer"]
    expires_at: datetime.datetime
    token_id: UUID
    session_expires_at: datetime.datetime
    device_proof: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        user_id = str(self.user_id)

        token = self.token

        expires_in = self.expires_in

        token_type = self.token_type

        expires_at = self.expires_at.isoformat()

        token_id = str(self.token_id)

        session_expires_at = self.session_expires_at.isoformat()

        device_proof = self.device_proof

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
                "token": token,
                "expires_in": expires_in,
                "token_type": token_type,
                "expires_at": expires_at,
                "token_id": token_id,
                "session_expires_at": session_expires_at,
            }
        )
        if device_proof is not UNSET:
            field_dict["device_proof"] = device_proof

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

        session_expires_at = datetime.datetime.fromisoformat(
            d.pop("session_expires_at")
        )

        device_proof = d.pop("device_proof", UNSET)

        token = cls(
            user_id=user_id,
            token=token,
            expires_in=expires_in,
            token_type=token_type,
            expires_at=expires_at,
            token_id=token_id,
            session_expires_at=session_expires_at,
            device_proof=device_proof,
        )

        return token
