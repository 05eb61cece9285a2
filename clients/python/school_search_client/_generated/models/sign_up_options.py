from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.sign_up_options_signup import (
    SignUpOptionsSignup,
    check_sign_up_options_signup,
)

T = TypeVar("T", bound="SignUpOptions")


@_attrs_define
class SignUpOptions:
    """
    Attributes:
        signup (SignUpOptionsSignup): `open`: anyone can sign up; `invite`: only addresses the operator invited; `off`:
            accounts are made by the operator.
        password_reset (bool): Whether a forgotten password can be reset by e-mail (`POST /v1/password/forgot`).
    """

    signup: SignUpOptionsSignup
    password_reset: bool

    def to_dict(self) -> dict[str, Any]:
        signup: str = self.signup

        password_reset = self.password_reset

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "signup": signup,
                "password_reset": password_reset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        signup = check_sign_up_options_signup(d.pop("signup"))

        password_reset = d.pop("password_reset")

        sign_up_options = cls(
            signup=signup,
            password_reset=password_reset,
        )

        return sign_up_options
