from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

from ..models.key_type import KeyType, check_key_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.publishable_settings import PublishableSettings


T = TypeVar("T", bound="ApiKey")


@_attrs_define
class ApiKey:
    """
    Attributes:
        token_id (UUID): Identifier of the key, for `GET /v1/tokens`, rotation and revocation.
        name (str):
        token (str): The key's value. A secret key (`ssk_…`) is sent as `Authorization: Bearer ssk_…`;
            shown once, store it like a password. A publishable key (`spk_…`) goes in a page, as
            the `key` query parameter; it is shown once too (`GET /v1/tokens` shows its hint).
        token_type (Literal['Bearer']):
        hint (str): The first characters of the value, as `GET /v1/tokens` shows them.
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        key_type (KeyType | Unset): An API key's type (absent on session tokens). `secret`: every right of its user, for
            programs. `publishable`: search and school records only, from the origins listed, for
            web pages.
        publishable (PublishableSettings | Unset): A publishable key's origins and budgets (present on publishable keys
            only).
    """

    token_id: UUID
    name: str
    token: str
    token_type: Literal["Bearer"]
    hint: str
    created_at: datetime.datetime
    expires_at: datetime.datetime
    key_type: KeyType | Unset = UNSET
    publishable: PublishableSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token_id = str(self.token_id)

        name = self.name

        token = self.token

        token_type = self.token_type

        hint = self.hint

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        key_type: str | Unset = UNSET
        if not isinstance(self.key_type, Unset):
            key_type = self.key_type

        publishable: dict[str, Any] | Unset = UNSET
        if not isinstance(self.publishable, Unset):
            publishable = self.publishable.to_dict()

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
        if key_type is not UNSET:
            field_dict["key_type"] = key_type
        if publishable is not UNSET:
            field_dict["publishable"] = publishable

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.publishable_settings import PublishableSettings

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

        _key_type = d.pop("key_type", UNSET)
        key_type: KeyType | Unset
        if isinstance(_key_type, Unset):
            key_type = UNSET
        else:
            key_type = check_key_type(_key_type)

        _publishable = d.pop("publishable", UNSET)
        publishable: PublishableSettings | Unset
        if isinstance(_publishable, Unset):
            publishable = UNSET
        else:
            publishable = PublishableSettings.from_dict(_publishable)

        api_key = cls(
            token_id=token_id,
            name=name,
            token=token,
            token_type=token_type,
            hint=hint,
            created_at=created_at,
            expires_at=expires_at,
            key_type=key_type,
            publishable=publishable,
        )

        return api_key
