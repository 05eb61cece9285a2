"""The contract's checks of what a caller gives, made before anything is sent, in the server's words.

The server answers a request that breaks its contract with a 400 whose ``errors`` name each field
and say what is wrong (express-openapi-validator's words for bounds, lengths, enums and types, its
own for what a pattern means: src/http/problems/library-errors.ts). This client refuses the same
inputs itself, with the same items, so that a program sees one wording whether the client or the
server said no. The bounds are the contract's (openapi/openapi.yaml); the live tests
(tests/test_messages.py) ask the server and the client the same and compare the answers, so a
contract change that this table misses fails there.

The server checks more than this (a key name's combining marks, an origin's port, duplicate
origins, budgets above the account's): those still go to the server and come back as its 400.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, get_args
from uuid import UUID

from ._errors import SchoolSearchValidationError
from ._generated.models import ProblemItem, ProblemItemLocation, StateCode


@dataclass(frozen=True)
class Bounds:
    """An integer (or, with ``exclusive_minimum``, a number) between ``minimum`` and ``maximum``."""

    minimum: float
    maximum: float
    integer: bool = True
    exclusive_minimum: bool = False


OFFSET: Final = Bounds(0, 10_000)
LIMIT: Final = Bounds(1, 25)
DAYS: Final = Bounds(1, 366)
RADIUS_KM: Final = Bounds(0, 20_015, integer=False, exclusive_minimum=True)
SECRET_KEY_DAYS: Final = Bounds(1, 365)
PUBLISHABLE_KEY_DAYS: Final = Bounds(1, 3650)
PER_MINUTE: Final = Bounds(1, 100_000)
PER_DAY: Final = Bounds(1, 100_000_000)

QUERY_LENGTH: Final = 200
KEY_NAME_LENGTH: Final = 64
ORIGIN_LENGTH: Final = (8, 270)
MAX_ORIGINS: Final = 20

#: JavaScript's ``\s`` (the contract's patterns are ECMA-262 ones); Python's differs in a few characters.
_SPACE: Final = "\t\n\u000b\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_VISIBLE: Final = re.compile(f"[^{_SPACE}]")
#: The contract's patterns, as its generated validators run them (ECMA-262 regular expressions).
_NEAR: Final = re.compile(
    f"^[{_SPACE}]*[-+]?[0-9]{{1,3}}(\\.[0-9]+)?[{_SPACE}]*,[{_SPACE}]*[-+]?[0-9]{{1,3}}(\\.[0-9]+)?[{_SPACE}]*$"
)
_ORIGIN: Final = re.compile(
    r"^https?://(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(:[0-9]{1,5})?$|^https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$"
)
# KeyName: no control or format characters, and one character that draws something.
_INVISIBLE: Final = (
    "\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
)
_BLANK: Final = "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2065\u2800\u3164\ufe00-\ufe0f\ufff0-\ufff8\uffa0"
_KEY_NAME: Final = re.compile(f"^[^{_INVISIBLE}]*[^{_SPACE}{_INVISIBLE}{_BLANK}][^{_INVISIBLE}]*$")
_STATE_CODES: Final = frozenset(get_args(StateCode))
#: The enums in the contract's order, which the server's message lists them in (the generated
#: Literal types are sorted).
LEVELS: Final = ("elementary", "middle", "high", "other", "postsecondary")
TYPES: Final = ("public", "private", "charter", "postsecondary")
# JSON Schema's "uuid" format, as the server's validator (ajv-formats) checks it.
_UUID: Final = re.compile(r"^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$", re.IGNORECASE)

STATE_CODE_MESSAGE: Final = "is not a US or Canadian state, province or territory code (two letters, e.g. TX or on)"
PATTERN_MESSAGES: Final = {
    "query": "must have a character other than white space",
    "near": "must be <latitude>,<longitude> in decimal degrees (e.g. 40.8136,-96.7026)",
    "/name": "must have a visible character, and no control or format characters",
    "/origins/*": "must be scheme://host[:port] with http or https, and no path, query or trailing slash",
}


class Checks:
    """The problems found so far in one request; ``done()`` raises them all, as the server lists them all."""

    def __init__(self) -> None:
        self.items: list[ProblemItem] = []

    def add(self, location: ProblemItemLocation, name: str, message: str) -> None:
        self.items.append(ProblemItem(location=location, name=name, message=message))

    def done(self) -> None:
        if self.items:
            raise SchoolSearchValidationError(self.items)

    # Query and path parameters: named as they are; an empty text is refused before its schema.

    def _text(self, location: ProblemItemLocation, name: str, value: str) -> bool:
        """Whether ``value`` is text worth checking further (an empty query parameter is one item, alone)."""
        if not isinstance(value, str):
            self.add(location, name, "must be string")
            return False
        if value == "" and location == "query":
            self.add(location, name, f"Empty value found for query parameter '{name}'")
            return False
        return True

    def number(self, location: ProblemItemLocation, name: str, value: object, bounds: Bounds) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.add(location, name, "must be integer" if bounds.integer else "must be number")
            return
        if bounds.integer and not (isinstance(value, int) or (math.isfinite(value) and value.is_integer())):
            self.add(location, name, "must be integer")
            return
        if not math.isfinite(value):
            # NaN and infinity are not JSON numbers: as text, the server cannot read them as one.
            self.add(location, name, "must be number")
            return
        if bounds.exclusive_minimum and value <= bounds.minimum:
            self.add(location, name, f"must be > {_plain(bounds.minimum)}")
        elif not bounds.exclusive_minimum and value < bounds.minimum:
            self.add(location, name, f"must be >= {_plain(bounds.minimum)}")
        if value > bounds.maximum:
            self.add(location, name, f"must be <= {_plain(bounds.maximum)}")

    def query(self, value: str) -> None:
        if not self._text("query", "query", value):
            return
        if len(value) > QUERY_LENGTH:
            self.add("query", "query", f"must NOT have more than {QUERY_LENGTH} characters")
        if not _VISIBLE.search(value):
            self.add("query", "query", PATTERN_MESSAGES["query"])

    def state_code(self, value: str) -> None:
        if not self._text("query", "stateCode", value):
            return
        # The server says the same for each thing wrong (a length, the set of codes).
        if len(value) != 2:
            self.add("query", "stateCode", STATE_CODE_MESSAGE)
        # StateCodeInput's pattern is StateCode's codes with each letter in either case.
        if not (value.isascii() and value.upper() in _STATE_CODES):
            self.add("query", "stateCode", STATE_CODE_MESSAGE)

    def one_of(self, name: str, values: Sequence[object], allowed: Iterable[str]) -> None:
        options = [str(option) for option in allowed]
        for index, value in enumerate(values):
            if str(value) not in options:
                self.add(
                    "query", f"{name}/{index}", f"must be equal to one of the allowed values: {', '.join(options)}"
                )

    def near(self, value: str) -> None:
        if not self._text("query", "near", value):
            return
        if len(value) < 3:
            self.add("query", "near", "must NOT have fewer than 3 characters")
        if len(value) > 64:
            self.add("query", "near", "must NOT have more than 64 characters")
        if not _NEAR.match(value):
            self.add("query", "near", PATTERN_MESSAGES["near"])

    def uuid(self, location: ProblemItemLocation, name: str, value: UUID | str) -> None:
        if isinstance(value, UUID):
            return
        if not self._text(location, name, value):
            return
        if len(value) > 36:
            self.add(location, name, "must NOT have more than 36 characters")
        if not _UUID.match(value):
            self.add(location, name, 'must match format "uuid"')

    # Body fields: named by their JSON pointer.

    def key_name(self, value: str) -> None:
        if not isinstance(value, str):
            self.add("body", "/name", "must be string")
            return
        if len(value) < 1:
            self.add("body", "/name", "must NOT have fewer than 1 characters")
        if len(value) > KEY_NAME_LENGTH:
            self.add("body", "/name", f"must NOT have more than {KEY_NAME_LENGTH} characters")
        if not _KEY_NAME.match(value):
            self.add("body", "/name", PATTERN_MESSAGES["/name"])

    def origins(self, values: Sequence[str]) -> None:
        if len(values) < 1:
            self.add("body", "/origins", "must NOT have fewer than 1 items")
        if len(values) > MAX_ORIGINS:
            self.add("body", "/origins", f"must NOT have more than {MAX_ORIGINS} items")
        shortest, longest = ORIGIN_LENGTH
        for index, value in enumerate(values):
            name = f"/origins/{index}"
            if not isinstance(value, str):
                self.add("body", name, "must be string")
                continue
            if len(value) < shortest:
                self.add("body", name, f"must NOT have fewer than {shortest} characters")
            if len(value) > longest:
                self.add("body", name, f"must NOT have more than {longest} characters")
            if not _ORIGIN.match(value):
                self.add("body", name, PATTERN_MESSAGES["/origins/*"])

    def budgets(
        self, searches_per_minute: int | None, searches_per_day: int | None, visitor_searches_per_minute: int | None
    ) -> None:
        for name, value, bounds in (
            ("searches_per_minute", searches_per_minute, PER_MINUTE),
            ("searches_per_day", searches_per_day, PER_DAY),
            ("visitor_searches_per_minute", visitor_searches_per_minute, PER_MINUTE),
        ):
            if value is not None:
                self.number("body", f"/{name}", value, bounds)


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def search(
    query: str,
    *,
    state_code: str | None,
    level: Sequence[object] | None,
    type_: Sequence[object] | None,
    near: str | None,
    radius_km: float | None,
    offset: int,
    limit: int,
) -> None:
    """fetchSchoolSearch's parameters, as given (``near`` as its text)."""
    checks = Checks()
    checks.query(query)
    if state_code is not None:
        checks.state_code(state_code)
    if level is not None:
        checks.one_of("level", level, LEVELS)
    if type_ is not None:
        checks.one_of("type", type_, TYPES)
    if near is not None:
        checks.near(near)
    if radius_km is not None:
        checks.number("query", "radius_km", radius_km, RADIUS_KM)
    checks.number("query", "offset", offset, OFFSET)
    checks.number("query", "limit", limit, LIMIT)
    checks.done()


def school_id(value: UUID | str) -> None:
    checks = Checks()
    checks.uuid("path", "schoolId", value)
    checks.done()


def history(offset: int, limit: int, key_id: UUID | str | None) -> None:
    checks = Checks()
    checks.number("query", "offset", offset, OFFSET)
    checks.number("query", "limit", limit, LIMIT)
    if key_id is not None:
        checks.uuid("query", "key_id", key_id)
    checks.done()


def usage(days: int, key_id: UUID | str | None) -> None:
    checks = Checks()
    if key_id is not None:
        checks.uuid("query", "key_id", key_id)
    checks.number("query", "days", days, DAYS)
    checks.done()


def secret_key(name: str, expires_in_days: int | None) -> None:
    checks = Checks()
    checks.key_name(name)
    if expires_in_days is not None:
        checks.number("body", "/expires_in_days", expires_in_days, SECRET_KEY_DAYS)
    checks.done()


def publishable_key(
    name: str,
    origins: Sequence[str],
    searches_per_minute: int | None,
    searches_per_day: int | None,
    visitor_searches_per_minute: int | None,
    expires_in_days: int | None,
) -> None:
    checks = Checks()
    checks.key_name(name)
    checks.origins(origins)
    checks.budgets(searches_per_minute, searches_per_day, visitor_searches_per_minute)
    if expires_in_days is not None:
        checks.number("body", "/expires_in_days", expires_in_days, PUBLISHABLE_KEY_DAYS)
    checks.done()


def key_update(
    token_id: UUID | str,
    name: str | None,
    origins: Sequence[str] | None,
    searches_per_minute: int | None,
    searches_per_day: int | None,
    visitor_searches_per_minute: int | None,
) -> None:
    checks = Checks()
    checks.uuid("path", "tokenId", token_id)
    if name is not None:
        checks.key_name(name)
    if origins is not None:
        checks.origins(origins)
    checks.budgets(searches_per_minute, searches_per_day, visitor_searches_per_minute)
    if not checks.items and all(
        value is None for value in (name, origins, searches_per_minute, searches_per_day, visitor_searches_per_minute)
    ):
        checks.add("body", "/", "must NOT have fewer than 1 properties")
    checks.done()
