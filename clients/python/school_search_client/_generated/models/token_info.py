from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.key_type import KeyType, check_key_type
from ..models.token_info_kind import TokenInfoKind, check_token_info_kind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.publishable_settings import PublishableSettings


T = TypeVar("T", bound="TokenInfo")


@_attrs_define
class TokenInfo:
    """
    Attributes:
        token_id (UUID):
        kind (TokenInfoKind): `session`: issued by a login or a rotation. `key`: an API key, secret (`POST
            /v1/keys`) or publishable (`POST /v1/publishable-keys`), as `key_type` says.
        name (None | str): The API key's name; null for a session token.
        hint (str): The first characters of the token value (not enough to use it).
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        last_used_at (datetime.datetime | None): When the token last authenticated a request, to the minute (it is
            recorded at most
            once a minute); null when it never has.
        current (bool): True for the token that authenticated this request.
        key_type (KeyType | Unset): An API key's type (absent on session tokens). `secret`: every right of its user, for
            programs. `publishable`: search and school records only, from the origins listed, for
            web pages.
        publishable (PublishableSettings | Unset): A publishable key's origins and budgets (present on publishable keys
            only).
    """

    token_id: UUID
    kind: TokenInfoKind
    name: None | str
    hint: str
    created_at: datetime.datetime
    expires_at: datetime.datetime
    last_used_at: datetime.datetime | None
    current: bool
    key_type: KeyType | Unset = UNSET
    publishable: PublishableSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token_id = str(self.token_id)

        kind: str = self.kind

        name: None | str
        name = self.name

        hint = self.hint

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        current = self.current

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
                "kind": kind,
                "name": name,
                "hint": hint,
                "created_at": created_at,
                "expires_at": expires_at,
                "last_used_at": last_used_at,
                "current": current,
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

        kind = check_token_info_kind(d.pop("kind"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        hint = d.pop("hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at"))

        current = d.pop("current")

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

        token_info = cls(
            token_id=token_id,
            kind=kind,
            name=name,
            hint=hint,
            created_at=created_at,
            expires_at=expires_at,
            last_used_at=last_used_at,
            current=current,
            key_type=key_type,
            publishable=publishable,
        )

        return token_info
