from typing import Literal

SchoolType = Literal["postsecondary", "private", "public"]

SCHOOL_TYPE_VALUES: set[SchoolType] = {
    "postsecondary",
    "private",
    "public",
}


def check_school_type(value: str) -> SchoolType:
    if value in SCHOOL_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHOOL_TYPE_VALUES!r}"
    )
