from typing import Literal

TokenInfoKind = Literal["key", "session"]

TOKEN_INFO_KIND_VALUES: set[TokenInfoKind] = {
    "key",
    "session",
}


def check_token_info_kind(value: str) -> TokenInfoKind:
    if value in TOKEN_INFO_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {TOKEN_INFO_KIND_VALUES!r}"
    )
