from typing import Literal

SchoolTag = Literal[
    "catholic",
    "charter",
    "for_profit",
    "francophone",
    "private_control",
    "public_control",
    "separate",
]

SCHOOL_TAG_VALUES: set[SchoolTag] = {
    "catholic",
    "charter",
    "for_profit",
    "francophone",
    "private_control",
    "public_control",
    "separate",
}


def check_school_tag(value: str) -> SchoolTag:
    if value in SCHOOL_TAG_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHOOL_TAG_VALUES!r}"
    )
