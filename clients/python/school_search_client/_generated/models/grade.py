from typing import Literal

Grade = Literal[
    "1", "10", "11", "12", "2", "3", "4", "5", "6", "7", "8", "9", "K", "PK"
]

GRADE_VALUES: set[Grade] = {
    "1",
    "10",
    "11",
    "12",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "K",
    "PK",
}


def check_grade(value: str) -> Grade:
    if value in GRADE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GRADE_VALUES!r}")
