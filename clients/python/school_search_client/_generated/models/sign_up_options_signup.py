from typing import Literal

SignUpOptionsSignup = Literal["invite", "off", "open"]

SIGN_UP_OPTIONS_SIGNUP_VALUES: set[SignUpOptionsSignup] = {
    "invite",
    "off",
    "open",
}


def check_sign_up_options_signup(value: str) -> SignUpOptionsSignup:
    if value in SIGN_UP_OPTIONS_SIGNUP_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SIGN_UP_OPTIONS_SIGNUP_VALUES!r}"
    )
