from typing import Literal

KeyType = Literal["publishable", "secret"]

KEY_TYPE_VALUES: set[KeyType] = {
    "publishable",
    "secret",
}


def check_key_type(value: str) -> KeyType:
    if value in KEY_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_TYPE_VALUES!r}")
