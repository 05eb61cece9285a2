from typing import Literal

SchoolTypeFilter = Literal["charter", "postsecondary", "private", "public"]

SCHOOL_TYPE_FILTER_VALUES: set[SchoolTypeFilter] = {
    "charter",
    "postsecondary",
    "private",
    "public",
}


def check_school_type_filter(value: str) -> SchoolTypeFilter:
    if value in SCHOOL_TYPE_FILTER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHOOL_TYPE_FILTER_VALUES!r}"
    )
