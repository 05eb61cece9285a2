from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PasswordReset")


@_attrs_define
class PasswordReset:
    """
    Attributes:
        token (str): The token of a link from an e-mail (after `#confirm/`, `#reset/` or `#invitation/` in the link).
        new_password (str): The new password, 8 to 1024 characters.
        revoke_api_keys (bool | Unset): Also revoke every API key of the account. Keys are what programs use, so by
            default they
            keep working across a password change or reset; choose this when someone else may know
            (or have known) the password: a key they made with it would otherwise outlive the change.
    """

    token: str
    new_password: str
    revoke_api_keys: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        new_password = self.new_password

        revoke_api_keys = self.revoke_api_keys

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "new_password": new_password,
            }
        )
        if revoke_api_keys is not UNSET:
            field_dict["revoke_api_keys"] = revoke_api_keys

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        new_password = d.pop("new_password")

        revoke_api_keys = d.pop("revoke_api_keys", UNSET)

        password_reset = cls(
            token=token,
            new_password=new_password,
            revoke_api_keys=revoke_api_keys,
        )

        return password_reset
