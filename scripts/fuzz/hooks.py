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
  beyond that revokes the oldest (src/domain/auth.service.ts MAX_LIVE_TOKENS), so after 90 logins
  since ours we log in again before ours can be pushed out;
- the token is 50 minutes old (tokens live TOKEN_TTL_SECONDS, 3600 s by default): log in again;
- and, as a safety net, any 401 to a request that carried our token: log in again.

API keys: `POST /v1/keys/{tokenId}/rotate` only does its work for a live key of the caller's, which
a random UUID never is. So every other generated UUID for it is replaced (map_path_parameters) by
the id of a live key of the demo user's: one the fuzzer made itself (seen in after_call), or one
made here for the purpose. Ids the fuzzer rotated, revoked or lost to a password change leave the
pool when the answer shows it.
"""

from __future__ import annotations

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
                    json={"name": "fuzzer key", "expires_in_days": 1},
                    headers={"Authorization": f"Bearer {TOKEN.current(base_url)}"},
                    timeout=30,
                )
                if response.status_code == 201:
                    self.ids.append(str(response.json()["token_id"]).lower())
            return self.ids[-1] if self.ids else None

    def observe(self, method: str, path: str, status: int, case: Any, response: Any) -> None:
        with self.lock:
            path_id = str((case.path_parameters or {}).get("tokenId", "")).lower()
            if method == "POST" and path == "/v1/keys" and status == 201:
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


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
    operation = context.operation
    if operation is None or operation.path != ROTATE_KEY or not path_parameters:
        return path_parameters
    token_id = path_parameters.get("tokenId")
    # Only a valid UUID is swapped for another: a case meant to be invalid stays invalid.
    if not isinstance(token_id, str) or not UUID.match(token_id):
        return path_parameters
    key_id = KEYS.pick(operation.base_url or operation.schema.get_base_url())
    return path_parameters if key_id is None else {**path_parameters, "tokenId": key_id}


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
    TOKEN.observe(case.method.upper(), case.operation.path, sent, response.status_code, case, response)
    KEYS.observe(case.method.upper(), case.operation.path, response.status_code, case, response)
