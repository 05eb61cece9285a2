from typing import Literal

SchoolLevel = Literal["elementary", "high", "middle", "other", "postsecondary"]

SCHOOL_LEVEL_VALUES: set[SchoolLevel] = {
    "elementary",
    "high",
    "middle",
    "other",
    "postsecondary",
}


def check_school_level(value: str) -> SchoolLevel:
    if value in SCHOOL_LEVEL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHOOL_LEVEL_VALUES!r}"
    )
