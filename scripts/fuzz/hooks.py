"""Schemathesis hooks for `npm run fuzz` (loaded through SCHEMATHESIS_HOOKS, set by scripts/fuzz/main.ts).

Authentication: schemathesis logs in itself, through `POST /v1/auth` of the server under test, as
the demo user (src/config.ts DEMO_EMAIL / DEMO_PASSWORD, public, present when NODE_ENV=development),
and sends `Authorization: Bearer <token>` on every operation whose security includes `bearerAuth`.

The fuzzer revokes and rotates tokens itself (that is what those operations are for), so one token
cached for a fixed time (schemathesis' built-in dynamic auth: 300 s) goes dead in the middle of a
run. Schemathesis 4.32 replays a 401 with a fresh token only in the examples, coverage and fuzzing
phases (schemathesis/engine/run/unit/_case.py calls auths.reauth_and_replay); the stateful phase
sends steps with `case.call` (schemathesis/generation/stateful/state_machine.py) and would keep
sending the revoked token for the rest of the scenario. So the token is kept here, and every
response is watched (after_call) for what ends it:

- `DELETE /v1/auth` answered 204 for our token: it is revoked; the next case logs in again;
- `POST /v1/auth/rotate` answered 200 for our token: the old one is revoked, the new one (in the
  response) is used from now on;
- `DELETE /v1/tokens/{tokenId}` answered 204 for our token's id: revoked; log in again;
- logins by the fuzzer (`POST /v1/auth` 200): a user holds at most 100 live tokens and a login
  beyond that revokes the oldest (src/domain/accounts/credentials.ts MAX_LIVE_TOKENS), so after 90 logins
  since ours we log in again before ours can be pushed out;
- the token is 50 minutes old (tokens live TOKEN_TTL_SECONDS, 3600 s by default): log in again;
- and, as a safety net, any 401 to a request that carried our token: log in again.

API keys: `POST /v1/keys/{tokenId}/rotate` and `PATCH /v1/keys/{tokenId}` only do their work for a
live key of the caller's, which a random UUID never is. So every other generated UUID for it is replaced (map_path_parameters) by
the id of a live key of the demo user's: one the fuzzer made itself (seen in after_call), or one
made here for the purpose. Ids the fuzzer rotated, revoked or lost to a password change leave the
pool when the answer shows it.

Schools: `GET /v1/schools/{schoolId}` answers 200 only for an id of the catalog, which a random UUID
never is. So every other generated UUID for it is replaced by the id of a real school: one found by
the fuzzer's own searches (seen in after_call), or by a few searches made here for the purpose
(colleges, K-12 schools, a Canadian one), so that the records' whole shapes are validated too.

Failures that are not the API's (filter_failure), each dropped only when it is exactly that:

- ST202 on the search: a query the schema allows but the contract refuses in words, which no JSON
  Schema of separate parameters can say: `radius_km` without `near`, or a `near` matching the
  pattern but off the globe (`999,999`). The API answers the documented 400 naming that parameter;
  a 400 for anything else, or for a case that does not break the rule, stays a failure.
- ST202 on `POST /v1/publishable-keys` and `PATCH /v1/keys/{tokenId}`, the same for the key rules
  the schema cannot say: an origin the pattern lets through that is no origin (a wildcard before a
  single label, port 0 or above 65535: restated from origins.ts and checked against the case), a
  budget above what the account or the key's own minute allows (the 400 says the bound; the case
  must exceed it), origins or budgets for a secret key.
- ST302 on `POST /v1/keys/{tokenId}/rotate` or `PATCH /v1/keys/{tokenId}` after the same key was revoked through
  `DELETE /v1/tokens/{tokenId}` (or by a password change): schemathesis counts a DELETE as removing
  a resource only on the resource's own path, and an API key's is `/v1/tokens/…`, not `/v1/keys/…`,
  so it takes the correct 404 for "created resource not found".
"""

from __future__ import annotations

import ipaddress
import math
import re
import threading
import time
from typing import Any

import requests
import schemathesis

EMAIL = "demo@example.com"
PASSWORD = "demo-password-123"
LOGINS_BEFORE_RENEWAL = 90
MAX_AGE_SECONDS = 3000


class _Token:
    """The token the fuzzer authenticates with, shared by every worker."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.value: str | None = None
        self.token_id: str | None = None
        self.issued_at = 0.0
        self.logins_since = 0
        self.logins = 0

    def current(self, base_url: str) -> str:
        with self.lock:
            stale = time.monotonic() - self.issued_at > MAX_AGE_SECONDS or self.logins_since >= LOGINS_BEFORE_RENEWAL
            if self.value is None or stale:
                response = requests.post(
                    f"{base_url.rstrip('/')}/v1/auth", json={"email": EMAIL, "password": PASSWORD}, timeout=30
                )
                if response.status_code != 200:
                    raise RuntimeError(f"login as {EMAIL} failed: {response.status_code} {response.text[:300]}")
                self._adopt(response.json())
                self.logins += 1
            return self.value  # type: ignore[return-value]

    def _adopt(self, body: dict[str, Any]) -> None:
        self.value = body["token"]
        self.token_id = str(body["token_id"]).lower()
        self.issued_at = time.monotonic()
        self.logins_since = 0

    def observe(self, method: str, path: str, sent: str | None, status: int, case: Any, response: Any) -> None:
        with self.lock:
            ours = self.value is not None and sent == f"Bearer {self.value}"
            if method == "POST" and path == "/v1/auth" and status == 200:
                self.logins_since += 1
            elif ours and method == "POST" and path == "/v1/auth/rotate" and status == 200:
                try:
                    self._adopt(response.json())
                except (ValueError, KeyError, TypeError):
                    self.value = None
            elif ours and method == "DELETE" and path == "/v1/auth" and status == 204:
                self.value = None
            elif method == "DELETE" and path == "/v1/tokens/{tokenId}" and status == 204:
                token_id = str((case.path_parameters or {}).get("tokenId", "")).lower()
                if token_id == self.token_id:
                    self.value = None
            elif ours and status == 401:
                self.value = None


TOKEN = _Token()

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
ROTATE_KEY = "/v1/keys/{tokenId}/rotate"
UPDATE_KEY = "/v1/keys/{tokenId}"


class _Keys:
    """Live API keys of the demo user, to rotate."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: list[str] = []
        self.turn = 0

    def pick(self, base_url: str) -> str | None:
        with self.lock:
            self.turn += 1
            if self.turn % 2 == 1:
                return None  # every other case keeps its random UUID (the 404 path)
            if not self.ids:
                response = requests.post(
                    f"{base_url.rstrip('/')}/v1/keys",
                    json={"name": "fuzzer key", "expires_in_days": 1, "current_password": PASSWORD},
                    headers={"Authorization": f"Bearer {TOKEN.current(base_url)}"},
                    timeout=30,
                )
                if response.status_code == 201:
                    self.ids.append(str(response.json()["token_id"]).lower())
            return self.ids[-1] if self.ids else None

    def observe(self, method: str, path: str, status: int, case: Any, response: Any) -> None:
        with self.lock:
            path_id = str((case.path_parameters or {}).get("tokenId", "")).lower()
            if method == "POST" and path in ("/v1/keys", "/v1/publishable-keys") and status == 201:
                self._add(response)
            elif method == "POST" and path == ROTATE_KEY and status in (200, 404):
                self.ids = [i for i in self.ids if i != path_id]
                if status == 200:
                    self._add(response)
            elif method == "DELETE" and path == "/v1/tokens/{tokenId}" and status == 204:
                self.ids = [i for i in self.ids if i != path_id]
            elif method == "POST" and path == "/v1/account/password" and status == 204:
                self.ids = []

    def _add(self, response: Any) -> None:
        try:
            self.ids.append(str(response.json()["token_id"]).lower())
        except (ValueError, KeyError, TypeError):
            pass


KEYS = _Keys()
SCHOOL = "/v1/schools/{schoolId}"
SEARCH = "/v1/fetchSchoolSearch"
# Searches whose first pages hold schools of every shape: colleges with aliases and tags, K-12
# schools with grades, charter and private schools, Canadian ones.
SCHOOL_QUERIES = ("university", "lincoln elementary", "charter academy", "high school", "ecole", "college")
MAX_SCHOOL_IDS = 500


class _Schools:
    """Ids of real schools, to read."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: list[str] = []
        self.seeded = False
        self.turn = 0

    def pick(self, base_url: str) -> str | None:
        with self.lock:
            self.turn += 1
            if self.turn % 2 == 1:
                return None  # every other case keeps its random UUID (the 404 path)
            if not self.seeded:
                self.seeded = True
                for query in SCHOOL_QUERIES:
                    response = requests.get(
                        f"{base_url.rstrip('/')}{SEARCH}",
                        params={"query": query, "limit": 25},
                        headers={"Authorization": f"Bearer {TOKEN.current(base_url)}"},
                        timeout=30,
                    )
                    if response.status_code == 200:
                        self._add(response)
            return self.ids[self.turn // 2 % len(self.ids)] if self.ids else None

    def observe(self, method: str, path: str, status: int, response: Any) -> None:
        if method == "GET" and path == SEARCH and status == 200:
            with self.lock:
                self._add(response)

    def _add(self, response: Any) -> None:
        try:
            found = [str(school["schoolid"]) for school in response.json()["requestresult"]["schools"]]
        except (ValueError, KeyError, TypeError):
            return
        known = set(self.ids)
        self.ids.extend(i for i in found if i not in known and len(self.ids) < MAX_SCHOOL_IDS)


SCHOOLS = _Schools()


class _Revoked:
    """Ids of the demo user's tokens and keys that a request of the run revoked."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: set[str] = set()
        self.keys: set[str] = set()

    def observe(self, method: str, path: str, status: int, case: Any, response: Any) -> None:
        with self.lock:
            path_id = str((case.path_parameters or {}).get("tokenId", "")).lower()
            if method == "POST" and path in ("/v1/keys", "/v1/publishable-keys", ROTATE_KEY) and status in (200, 201):
                try:
                    self.keys.add(str(response.json()["token_id"]).lower())
                except (ValueError, KeyError, TypeError):
                    pass
            revoked = (method, path, status) in (("DELETE", "/v1/tokens/{tokenId}", 204), ("POST", ROTATE_KEY, 200))
            if revoked:
                self.ids.add(path_id)
            elif (method, path, status) == ("POST", "/v1/account/password", 204):
                self.ids |= self.keys

    def __contains__(self, token_id: str) -> bool:
        with self.lock:
            return token_id.lower() in self.ids


REVOKED = _Revoked()

# The search's rules in words (src/http/operations/search-input.ts): what the API's 400 says.
RADIUS_WITHOUT_NEAR = "needs near (a point to measure from)"
NEAR_OFF_THE_GLOBE = "must be <latitude>,<longitude> with latitude -90 to 90 and longitude -180 to 180"


def _off_the_globe(near: Any) -> bool:
    try:
        latitude, longitude = (float(part) for part in str(near).split(","))
    except ValueError:
        return False
    return not (math.isfinite(latitude) and math.isfinite(longitude) and abs(latitude) <= 90 and abs(longitude) <= 180)


def _refused_in_words(case: Any, response: Any) -> bool:
    """Whether a valid search was refused with the 400 of one of the rules the schema cannot say, and broke it."""
    if response.status_code != 400:
        return False
    try:
        errors = [(e["location"], e["name"], e["message"]) for e in response.json()["errors"]]
    except (ValueError, KeyError, TypeError):
        return False
    query = case.query or {}
    if errors == [("query", "radius_km", RADIUS_WITHOUT_NEAR)]:
        return "radius_km" in query and "near" not in query
    if errors == [("query", "near", NEAR_OFF_THE_GLOBE)]:
        return "near" in query and _off_the_globe(query["near"])
    return False


KEY_OPERATIONS = (("POST", "/v1/publishable-keys"), ("PATCH", UPDATE_KEY))
BUDGETS = ("searches_per_minute", "searches_per_day", "visitor_searches_per_minute")
ONLY_PUBLISHABLE = "only a publishable key has origins and budgets"
ORIGIN_SHAPE = re.compile(r"^(https?)://(\*\.)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$")
LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
WITHIN = re.compile(r"^must be 1 to ([0-9,]+)")


def _not_an_origin(text: Any) -> bool:
    """Whether src/domain/accounts/origins.ts parseOriginPattern refuses `text` (its rules, restated)."""
    if not isinstance(text, str):
        return False
    lower = text.strip().lower()
    match = ORIGIN_SHAPE.match(lower)
    if lower in ("*", "null") or not match:
        return True
    _scheme, wildcard, host, port = match.groups()
    if host.startswith("["):
        if wildcard:
            return True
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return True
    elif len(host) > 253 or not all(LABEL.match(label) for label in host.split(".")):
        return True
    elif wildcard and "." not in host and host != "localhost":
        return True
    return port is not None and not 1 <= int(port) <= 65535


def _key_refused_in_words(case: Any, response: Any) -> bool:
    """Whether a valid key request was refused with a 400 of a rule the schema cannot say (an origin
    that is no origin, a budget beyond the account's or the key's minute, a secret key's scope), and broke it."""
    if response.status_code != 400:
        return False
    try:
        errors = [(e["location"], e["name"], e["message"]) for e in response.json()["errors"]]
    except (ValueError, KeyError, TypeError):
        return False
    body = case.body if isinstance(case.body, dict) else {}
    for location, name, message in errors:
        field = name.lstrip("/").split("/")
        if location != "body":
            return False
        if message == ONLY_PUBLISHABLE:
            if not any(k in body for k in ("origins", *BUDGETS)):
                return False
        elif field[0] == "origins" and len(field) == 2 and field[1].isdigit():
            origins = body.get("origins") or []
            if int(field[1]) >= len(origins) or not _not_an_origin(origins[int(field[1])]):
                return False
        elif field[0] in BUDGETS and len(field) == 1:
            within = WITHIN.match(message)
            value = body.get(field[0])
            if not within or not isinstance(value, (int, float)) or value <= int(within.group(1).replace(",", "")):
                return False
        else:
            return False
    return bool(errors)


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
    operation = context.operation
    if operation is None or operation.path not in (ROTATE_KEY, UPDATE_KEY, SCHOOL) or not path_parameters:
        return path_parameters
    name, pool = ("schoolId", SCHOOLS) if operation.path == SCHOOL else ("tokenId", KEYS)
    given = path_parameters.get(name)
    # Only a valid UUID is swapped for another: a case meant to be invalid stays invalid.
    if not isinstance(given, str) or not UUID.match(given):
        return path_parameters
    swapped = pool.pick(operation.base_url or operation.schema.get_base_url())
    return path_parameters if swapped is None else {**path_parameters, name: swapped}


def _needs_bearer(operation: Any) -> bool:
    """Whether the contract lets this operation be called with bearerAuth."""
    security = operation.definition.raw.get("security", operation.schema.raw_schema.get("security", []))
    return any("bearerAuth" in requirement for requirement in security or [])


# refresh_interval=None: no schemathesis-side cache; _Token decides when a token is dead.
@schemathesis.auth(refresh_interval=None)
class DemoUserBearer:
    def get(self, case: Any, context: Any) -> str | None:
        if not _needs_bearer(case.operation):
            return None  # security: [] (log in, images, health): nothing to send
        return TOKEN.current(case.operation.base_url or case.operation.schema.get_base_url())

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    sent = response.request.headers.get("Authorization")
    method, path, status = case.method.upper(), case.operation.path, response.status_code
    TOKEN.observe(method, path, sent, status, case, response)
    KEYS.observe(method, path, status, case, response)
    SCHOOLS.observe(method, path, status, response)
    REVOKED.observe(method, path, status, case, response)


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """False drops the failure (see the module's docstring): only the two that are not the API's."""
    method, path = case.method.upper(), case.operation.path
    if failure.code == "ST202" and method == "GET" and path == SEARCH:
        return not _refused_in_words(case, response)
    if failure.code == "ST202" and (method, path) in KEY_OPERATIONS:
        return not _key_refused_in_words(case, response)
    if failure.code == "ST302" and (method, path) in (("POST", ROTATE_KEY), ("PATCH", UPDATE_KEY)) and response.status_code == 404:
        token_id = str((case.path_parameters or {}).get("tokenId", ""))
        return token_id not in REVOKED
    return True
