from typing import Literal

ProblemItemLocation = Literal["body", "header", "path", "query"]

PROBLEM_ITEM_LOCATION_VALUES: set[ProblemItemLocation] = {
    "body",
    "header",
    "path",
    "query",
}


def check_problem_item_location(value: str) -> ProblemItemLocation:
    if value in PROBLEM_ITEM_LOCATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROBLEM_ITEM_LOCATION_VALUES!r}"
    )
