"""The client's logic, written once for the sync and the async client.

Each operation is a generator (a *flow*) that yields what it needs and is sent the result: a
``Send`` (one HTTP exchange through a generated operation) is answered with the httpx.Response, or
the exception the exchange raised is thrown into the flow; ``TOKEN`` is answered with the token to
use now. ``SchoolSearchClient`` drives flows with httpx.Client and a thread lock,
``AsyncSchoolSearchClient`` with httpx.AsyncClient and asyncio. Every decision (when to log in,
rotate, retry or give up) is taken here, once: the shape of httpx's own auth flows ("sans-I/O").

Requests are built by each generated operation module's ``_get_kwargs`` and successful answers
parsed by its ``_parse_response``, rather than through its ``sync_detailed``/``asyncio_detailed``:
those take the token from an AuthenticatedClient fixed when it is made (this client's token
changes), and parse every documented error body as a JSON problem (a proxy's HTML 503 would raise a
JSONDecodeError instead of an error carrying the status). Every openapi-python-client operation
module has these two functions; the generator's version is pinned (requirements-dev.txt).
"""

from __future__ import annotations

import enum
import math
import threading
from collections.abc import Awaitable, Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, Literal, TypeAlias, TypeVar
from uuid import UUID

import httpx

from . import _checks
from ._errors import SchoolSearchApiError, SchoolSearchError
from ._generated.api.account import change_password, fetch_my_data, fetch_my_requests, fetch_my_usage
from ._generated.api.auth import create_token, list_my_tokens, revoke_current_token, revoke_my_token, rotate_token
from ._generated.api.keys import create_api_key, create_publishable_key, rotate_api_key, update_api_key
from ._generated.api.schools import fetch_school_search, get_school
from ._generated.client import Client
from ._generated.models import (
    Account,
    ApiKey,
    ApiKeyRequest,
    ApiKeyUpdate,
    Credentials,
    DailyUsage,
    PasswordChange,
    PasswordConfirmation,
    PublishableKeyRequest,
    RequestHistory,
    SchoolLevel,
    SchoolRecord,
    SchoolSearchResponse,
    SchoolTypeFilter,
    SearchResult,
    Token,
    TokenInfo,
    TokenList,
)
from ._generated.types import UNSET
from ._version import __version__

T = TypeVar("T")

#: Seconds on a monotonic scale; tests pass a clock they can move.
Clock: TypeAlias = Callable[[], float]

#: Told each new device proof a login's answer carries (e.g. to persist it).
DeviceProofListener: TypeAlias = Callable[[str], None]

#: The contract's bound on a device proof (``DeviceProof``: a string of at most 100 characters).
MAX_DEVICE_PROOF: Final = 100

#: A point as ``(latitude, longitude)`` in decimal degrees (WGS 84), or the contract's ``"<lat>,<lon>"`` text.
Near: TypeAlias = tuple[float, float] | str

# fetchSchoolSearch's bounds in the contract: `limit` at most 25, `offset` at most 10000.
PAGE_SIZE: Final = 25
MAX_OFFSET: Final = 10_000

#: Where a publishable key goes: the ``key`` query parameter (no preflight from a page), or ``Authorization``.
KeyPlacement: TypeAlias = Literal["query", "header"]

#: The operations that take a publishable key as their ``key`` query parameter.
_KEY_PARAMETER: Final = (fetch_school_search, get_school)

USER_AGENT: Final = f"school-search-client-python/{__version__}"


class _Need(enum.Enum):
    TOKEN = "the token to send now: the cached one, or one from the login or renewal all callers share"


TOKEN: Final = _Need.TOKEN


@dataclass(frozen=True)
class Send:
    """One HTTP exchange: the generated ``operation`` module called with ``kwargs``, as ``token``'s bearer."""

    operation: ModuleType
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    token: str | None = None


Step: TypeAlias = Send | _Need
Flow: TypeAlias = Generator[Step, Any, T]


def http_request(step: Send) -> dict[str, Any]:
    """The keyword arguments of ``httpx.Client.request`` for ``step``."""
    request: dict[str, Any] = step.operation._get_kwargs(**step.kwargs)
    if step.token is not None:
        # Only ever the Authorization header: never the contract's deprecated `tokenID` query
        # parameter, which would put the token into logs.
        request["headers"] = {**request.get("headers", {}), "Authorization": f"Bearer {step.token}"}
    return request


# The parser's client: `_parse_response` asks it only whether an undocumented status should raise.
_PARSER: Final = Client(base_url="", raise_on_unexpected_status=True)


def parse(operation: ModuleType, response: httpx.Response, expect: type[T]) -> T:
    """The answer's model, or SchoolSearchApiError for an error status."""
    if not response.is_success:
        raise SchoolSearchApiError.from_response(response)
    try:
        parsed = operation._parse_response(client=_PARSER, response=response)
    except (ValueError, KeyError, TypeError) as error:
        raise SchoolSearchError(
            f"{_what(response)}: the answer does not match the API's contract: {error!r}"
        ) from error
    if not isinstance(parsed, expect):
        raise SchoolSearchError(f"{_what(response)}: expected {expect.__name__}, got {type(parsed).__name__}")
    return parsed


def expect_no_content(response: httpx.Response) -> None:
    if not response.is_success:
        raise SchoolSearchApiError.from_response(response)


def _what(response: httpx.Response) -> str:
    return f"{response.request.method} {response.request.url.path} → {response.status_code}"


def drive(flow: Flow[T], do: Callable[[Step], Any]) -> T:
    """Runs ``flow`` to its end, doing each step it yields with ``do``."""
    reply: Any = None
    error: Exception | None = None
    while True:
        try:
            step = flow.send(reply) if error is None else flow.throw(error)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        try:
            reply, error = do(step), None
        except Exception as failure:  # noqa: BLE001 - thrown into the flow, which decides (a failed renewal is not fatal)
            reply, error = None, failure


async def adrive(flow: Flow[T], do: Callable[[Step], Awaitable[Any]]) -> T:
    """``drive`` for the async client: the same flow, each step awaited."""
    reply: Any = None
    error: Exception | None = None
    while True:
        try:
            step = flow.send(reply) if error is None else flow.throw(error)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        try:
            reply, error = await do(step), None
        except Exception as failure:  # noqa: BLE001 - as in drive()
            reply, error = None, failure


@dataclass(frozen=True)
class _Session:
    token: str
    #: Lower-case UUID text; None for a token the caller handed in.
    token_id: str | None
    #: On the client's clock; None for a token the caller handed in: its lifetime is unknown.
    expires_at: float | None
    lifetime: float | None
    #: The token expires with its session (``expires_at`` = ``session_expires_at``): a rotation cannot renew it.
    last_of_session: bool = False


class TokenKeeper:
    """The client's one current token, and the decisions about it.

    No I/O and no waiting: ``replace()`` is a flow, and the drivers see to it that one caller at
    a time runs it while the others wait for its result. The lock guards only the session's
    reads and writes (never held across I/O), so it is harmless inside an event loop too.
    """

    def __init__(
        self,
        *,
        credentials: Credentials | None,
        token: str | None,
        renew_before: float,
        clock: Clock,
        device_proof: str | None = None,
        on_device_proof: DeviceProofListener | None = None,
    ) -> None:
        if device_proof is not None and (not isinstance(device_proof, str) or len(device_proof) > MAX_DEVICE_PROOF):
            raise TypeError(
                f"device_proof is a string of at most {MAX_DEVICE_PROOF} characters, as a login answered it"
            )
        self._credentials = credentials
        self._renew_before = renew_before
        self._clock = clock
        self._device_proof = device_proof
        self._on_device_proof = on_device_proof
        self._lock = threading.Lock()
        self._session = _Session(token, None, None, None) if token is not None else None

    @property
    def can_log_in(self) -> bool:
        return self._credentials is not None

    @property
    def password(self) -> str | None:
        """The password logins use, when the client has credentials."""
        with self._lock:
            return self._credentials.password if self._credentials is not None else None

    @property
    def device_proof(self) -> str | None:
        """The proof the last login's answer carried (or the one given), sent with the next login."""
        with self._lock:
            return self._device_proof

    def password_changed(self, password: str) -> None:
        """The account's password was changed through this client: later logins use the new one."""
        with self._lock:
            if self._credentials is not None:
                self._credentials = Credentials(email=self._credentials.email, password=password)

    def usable(self) -> str | None:
        """The cached token, unless it is missing or due for renewal."""
        with self._lock:
            session = self._session
        if session is None or self._due(session):
            return None
        return session.token

    def replace(self) -> Flow[str]:
        """A new token: the cached one rotated while it is still valid and ends before its
        session, else a login."""
        with self._lock:
            current = self._session
        if current is not None and self._can_rotate(current):
            rotated = yield from self._rotate(current)
            # None: the server refused the token, so nothing is left to fall back on.
            return rotated.token if rotated is not None else (yield from self._log_in()).token
        try:
            return (yield from self._log_in()).token
        except (SchoolSearchApiError, httpx.HTTPError) as error:
            # Renewing the session's last token by login: as with a rotation, a failure other
            # than 401 does not fail the caller while that token still works; the next call
            # tries again.
            refused = isinstance(error, SchoolSearchApiError) and error.status == 401
            if refused or current is None or current.expires_at is None or self._clock() >= current.expires_at:
                raise
            return current.token

    def _can_rotate(self, current: _Session) -> bool:
        """Rotation renews only a token that still works and ends before its session does: one
        that expires with its session would come back no later, and after the session's end the
        server refuses the rotation (401). A token the caller handed in is never rotated."""
        return current.expires_at is not None and self._clock() < current.expires_at and not current.last_of_session

    def forget(self, token: str) -> None:
        """The server refused ``token`` (401): drop it, unless another caller already replaced it."""
        with self._lock:
            if self._session is not None and self._session.token == token:
                self._session = None

    def forget_token_id(self, token_id: UUID | str) -> None:
        with self._lock:
            if self._session is not None and self._session.token_id == str(token_id).lower():
                self._session = None

    def take(self, *, obtained_only: bool = False) -> str | None:
        """Hands over the current token and forgets it (logout). With ``obtained_only``, only a
        token this client obtained itself: never an API key or token the caller gave it."""
        with self._lock:
            session = self._session
            if session is None or (obtained_only and session.expires_at is None):
                return None
            self._session = None
            return session.token

    def _due(self, session: _Session) -> bool:
        if session.expires_at is None or session.lifetime is None:
            return False
        # Never more than half the lifetime early: with a short-lived token and a large margin
        # the client would otherwise rotate on every call.
        margin = min(self._renew_before, session.lifetime / 2)
        return self._clock() >= session.expires_at - margin

    def _rotate(self, current: _Session) -> Flow[_Session | None]:
        """None when the server no longer accepts the token, so that a login is the way on."""
        sent_at = self._clock()
        try:
            response = yield Send(rotate_token, {}, current.token)
            token = parse(rotate_token, response, Token)
        except (SchoolSearchApiError, httpx.HTTPError) as error:
            if isinstance(error, SchoolSearchApiError) and error.status == 401:
                return None
            # A failed renewal must not fail the caller while the token still works; the next
            # call tries again.
            if current.expires_at is not None and self._clock() < current.expires_at:
                return current
            raise
        return self._adopt(token, sent_at)

    def _log_in(self) -> Flow[_Session]:
        with self._lock:
            credentials, proof = self._credentials, self._device_proof
        if credentials is None:
            raise SchoolSearchError(
                "no token left and no email/password to get one (logged out, or the API key was refused)"
            )
        # Without a cookie jar, the device proof travels in the body: an empty one asks for a
        # first proof, the last answer's keeps this client out of the ceiling on failed logins
        # that strangers guessing at the account run up.
        body = Credentials(email=credentials.email, password=credentials.password, device_proof=proof or "")
        sent_at = self._clock()
        response = yield Send(create_token, {"body": body})
        token = parse(create_token, response, Token)
        session = self._adopt(token, sent_at)
        if isinstance(token.device_proof, str) and token.device_proof != proof:
            with self._lock:
                self._device_proof = token.device_proof
            # After the token is kept: a listener that raises fails this call, not the session.
            if self._on_device_proof is not None:
                self._on_device_proof(token.device_proof)
        return session

    def _adopt(self, token: Token, sent_at: float) -> _Session:
        # Expiry counts from when the request left, on the client's own clock: the server's
        # `expires_at` is on the server's clock, and the two need not agree. Whether the token is
        # the session's last compares two times of the server's clock, which is sound.
        lifetime = float(token.expires_in)
        last = token.expires_at >= token.session_expires_at
        session = _Session(token.token, str(token.token_id).lower(), sent_at + lifetime, lifetime, last)
        with self._lock:
            self._session = session
        return session


def pick_token(token: str | None, api_key: str | None) -> str | None:
    if token is not None and api_key is not None and token != api_key:
        raise TypeError("token and api_key are the same thing; give one of them")
    return token if token is not None else api_key


def pick_credentials(email: str | None, password: str | None) -> Credentials | None:
    if (email is None) != (password is None):
        raise TypeError("give both email and password, or neither")
    return Credentials(email=email, password=password) if email is not None and password is not None else None


def next_offset(offset: int, result: SearchResult) -> int | None:
    """Where ``search_all``'s next page starts; None when this page was the last."""
    offset += len(result.schools)
    # An empty page also ends it: schools deleted between pages must not make it spin.
    return None if not result.schools or offset >= result.total_count else offset


@dataclass(frozen=True)
class Filters:
    """What a search keeps besides its words, as ``search`` and ``search_all`` take it."""

    state_code: str | None = None
    level: SchoolLevel | Iterable[SchoolLevel] | None = None
    type: SchoolTypeFilter | Iterable[SchoolTypeFilter] | None = None
    near: Near | None = None
    radius_km: float | None = None

    def __post_init__(self) -> None:
        # A generator given as a list of levels or types is read once, here: it is used twice.
        for name in ("level", "type"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                object.__setattr__(self, name, tuple(value))

    def check(self, query: str, offset: int, limit: int) -> None:
        """Refuses, in the server's words, what the contract does not allow (SchoolSearchValidationError)."""
        _checks.search(
            query,
            state_code=self.state_code,
            level=None if self.level is None else _listed("level", self.level),
            type_=None if self.type is None else _listed("type", self.type),
            near=None if self.near is None else near_text(self.near),
            radius_km=self.radius_km,
            offset=offset,
            limit=limit,
        )

    def query(self) -> dict[str, Any]:
        """The keyword arguments of fetch_school_search's ``_get_kwargs`` (absent ones UNSET)."""
        return {
            "state_code": UNSET if self.state_code is None else self.state_code,
            "level": _listed("level", self.level),
            "type_": _listed("type", self.type),
            "near": UNSET if self.near is None else near_text(self.near),
            "radius_km": UNSET if self.radius_km is None else self.radius_km,
        }


def _listed(name: str, value: str | Iterable[str] | None) -> Any:
    """One value or several, as the contract's list; None: the parameter is left out."""
    if value is None:
        return UNSET
    values = [value] if isinstance(value, str) else list(value)
    if not values:
        # httpx would send nothing for an empty list, and the search would silently not be
        # filtered at all; the contract wants at least one value.
        raise ValueError(f"{name}: give at least one value, or None for no {name} filter")
    return values


def near_text(near: Near) -> str:
    """``"<lat>,<lon>"`` in plain decimals (``str()`` would write ``1e-07``, which the contract refuses);
    text is sent as given."""
    if isinstance(near, str):
        return near
    latitude, longitude = near
    return f"{_decimal(latitude)},{_decimal(longitude)}"


def _decimal(degrees: float) -> str:
    # 10 decimals (~0.01 mm) keep every digit a position has; trailing zeros go. nan and inf stay
    # as they are, for the API to refuse.
    if not math.isfinite(degrees):
        return str(degrees)
    text = f"{degrees:.10f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def check_offset(offset: int, query: str) -> int:
    if offset > MAX_OFFSET:
        raise SchoolSearchError(f'more than {MAX_OFFSET} schools match "{query}"; narrow the query to see the rest')
    return offset


class ClientCore:
    """What both clients hold, and the flow of each of their methods."""

    def __init__(
        self,
        base_url: str,
        *,
        email: str | None,
        password: str | None,
        api_key: str | None,
        token: str | None,
        renew_before_seconds: float,
        timeout: float | httpx.Timeout | None,
        httpx_args: Mapping[str, Any] | None,
        clock: Clock,
        device_proof: str | None = None,
        on_device_proof: DeviceProofListener | None = None,
        publishable_key: str | None = None,
        publishable_key_in: KeyPlacement = "query",
    ) -> None:
        if publishable_key is not None:
            if token is not None or api_key is not None or email is not None or password is not None:
                raise TypeError("a publishable_key is the only credential: give no api_key, token, email or password")
            if not isinstance(publishable_key, str) or not publishable_key.startswith("spk_"):
                raise TypeError("publishable_key is a publishable key (spk_…); give a secret key as api_key")
        if publishable_key_in not in ("query", "header"):
            raise TypeError('publishable_key_in is "query" or "header"')
        given = publishable_key if publishable_key is not None else pick_token(token, api_key)
        credentials = pick_credentials(email, password)
        if given is None and credentials is None:
            raise TypeError("give either email and password, an api_key (token), or a publishable_key")
        #: Send the publishable key as the `key` query parameter where an operation takes one.
        self.key_in_query = publishable_key is not None and publishable_key_in == "query"
        self.keeper = TokenKeeper(
            credentials=credentials,
            token=given,
            renew_before=renew_before_seconds,
            clock=clock,
            device_proof=device_proof,
            on_device_proof=on_device_proof,
        )
        # Options that the generated Client passes to httpx itself are taken out of httpx_args
        # (httpx would get them twice); the rest (transport, proxy, event_hooks, …) go through.
        args = dict(httpx_args or {})
        self.api = Client(
            base_url=base_url,
            headers={"User-Agent": USER_AGENT, **args.pop("headers", {})},
            cookies=args.pop("cookies", {}),
            timeout=httpx.Timeout(timeout) if isinstance(timeout, (int, float)) else timeout,
            verify_ssl=args.pop("verify", True),
            follow_redirects=args.pop("follow_redirects", False),
            httpx_args=args,
            raise_on_unexpected_status=True,
        )

    def _send(self, operation: ModuleType, kwargs: Mapping[str, Any], token: str) -> Send:
        """As a bearer token; a publishable key as the ``key`` parameter where the operation takes it
        (elsewhere as a bearer token too, for the server to refuse with its 403)."""
        if self.key_in_query and operation in _KEY_PARAMETER:
            return Send(operation, {**kwargs, "key": token})
        return Send(operation, kwargs, token)

    def authed(self, operation: ModuleType, kwargs: Mapping[str, Any]) -> Flow[httpx.Response]:
        """Sends with the current token; after a 401, once more with a fresh login."""
        token: str = yield TOKEN
        first: httpx.Response = yield self._send(operation, kwargs, token)
        if first.status_code != 401 or not self.keeper.can_log_in:
            return first
        self.keeper.forget(token)
        retry: str = yield TOKEN
        second: httpx.Response = yield self._send(operation, kwargs, retry)
        # Returned, not retried again: a token refused right after a login means something other
        # than expiry is wrong, and looping would only hammer the (deliberately slow) login.
        if second.status_code == 401:
            self.keeper.forget(retry)
        return second

    def call(self, operation: ModuleType, expect: type[T], **kwargs: Any) -> Flow[T]:
        response = yield from self.authed(operation, kwargs)
        return parse(operation, response, expect)

    def search(
        self, query: str, filters: Filters, offset: int, limit: int, idempotency_key: str | None = None
    ) -> Flow[SchoolSearchResponse]:
        filters.check(query, offset, limit)
        keyed: dict[str, Any] = {} if idempotency_key is None else {"idempotency_key": idempotency_key}
        return self.call(
            fetch_school_search,
            SchoolSearchResponse,
            query=query,
            offset=offset,
            limit=limit,
            **filters.query(),
            **keyed,
        )

    def get_school(self, school_id: UUID | str) -> Flow[SchoolRecord]:
        _checks.school_id(school_id)
        return self.call(get_school, SchoolRecord, school_id=school_id)

    def my_data(self) -> Flow[Account]:
        return self.call(fetch_my_data, Account)

    def my_requests(
        self, offset: int, limit: int, cursor: str | None, key_id: UUID | str | None = None
    ) -> Flow[RequestHistory]:
        _checks.history(offset, limit, key_id)
        given: dict[str, Any] = {"offset": offset, "limit": limit}
        if cursor is not None:
            given["cursor"] = cursor
        if key_id is not None:
            given["key_id"] = key_id
        return self.call(fetch_my_requests, RequestHistory, **given)

    def my_usage(self, days: int, key_id: UUID | str | None = None) -> Flow[DailyUsage]:
        _checks.usage(days, key_id)
        if key_id is None:
            return self.call(fetch_my_usage, DailyUsage, days=days)
        return self.call(fetch_my_usage, DailyUsage, days=days, key_id=key_id)

    def confirmation(self, current_password: str | None) -> str:
        """The password that confirms a key's creation or rotation: given, else the client's own."""
        password = current_password if current_password is not None else self.keeper.password
        if password is None:
            raise TypeError("creating or rotating an API key needs the current password: pass current_password")
        return password

    def create_api_key(self, name: str, expires_in_days: int | None, current_password: str | None) -> Flow[ApiKey]:
        _checks.secret_key(name, expires_in_days)
        password = self.confirmation(current_password)
        body = (
            ApiKeyRequest(name=name, current_password=password)
            if expires_in_days is None
            else ApiKeyRequest(name=name, current_password=password, expires_in_days=expires_in_days)
        )
        return self.call(create_api_key, ApiKey, body=body)

    def create_publishable_key(
        self,
        name: str,
        origins: Iterable[str],
        *,
        searches_per_minute: int | None,
        searches_per_day: int | None,
        visitor_searches_per_minute: int | None,
        expires_in_days: int | None,
        current_password: str | None,
    ) -> Flow[ApiKey]:
        listed = _origins(origins)
        _checks.publishable_key(
            name, listed, searches_per_minute, searches_per_day, visitor_searches_per_minute, expires_in_days
        )
        body = PublishableKeyRequest(
            name=name,
            origins=listed,
            current_password=self.confirmation(current_password),
            **_given(
                searches_per_minute=searches_per_minute,
                searches_per_day=searches_per_day,
                visitor_searches_per_minute=visitor_searches_per_minute,
                expires_in_days=expires_in_days,
            ),
        )
        return self.call(create_publishable_key, ApiKey, body=body)

    def update_api_key(
        self,
        token_id: UUID | str,
        *,
        name: str | None,
        origins: Iterable[str] | None,
        searches_per_minute: int | None,
        searches_per_day: int | None,
        visitor_searches_per_minute: int | None,
    ) -> Flow[TokenInfo]:
        listed = None if origins is None else _origins(origins)
        _checks.key_update(token_id, name, listed, searches_per_minute, searches_per_day, visitor_searches_per_minute)
        body = ApiKeyUpdate(
            **_given(
                name=name,
                origins=listed,
                searches_per_minute=searches_per_minute,
                searches_per_day=searches_per_day,
                visitor_searches_per_minute=visitor_searches_per_minute,
            )
        )
        return self.call(update_api_key, TokenInfo, token_id=token_id, body=body)

    def rotate_api_key(self, token_id: UUID | str, current_password: str | None) -> Flow[ApiKey]:
        body = PasswordConfirmation(current_password=self.confirmation(current_password))
        return self.call(rotate_api_key, ApiKey, token_id=token_id, body=body)

    def change_password(self, current_password: str, new_password: str, revoke_api_keys: bool) -> Flow[None]:
        # revoke_api_keys only when asked for: false is the API's default anyway.
        body = (
            PasswordChange(current_password=current_password, new_password=new_password, revoke_api_keys=True)
            if revoke_api_keys
            else PasswordChange(current_password=current_password, new_password=new_password)
        )
        response = yield from self.authed(change_password, {"body": body})
        expect_no_content(response)
        # The server carried this client's token over; its later logins need the new password.
        self.keeper.password_changed(new_password)

    def list_tokens(self) -> Flow[TokenList]:
        return self.call(list_my_tokens, TokenList)

    def revoke_token(self, token_id: UUID | str) -> Flow[None]:
        response = yield from self.authed(revoke_my_token, {"token_id": token_id})
        expect_no_content(response)
        self.keeper.forget_token_id(token_id)

    def logout(self, token: str) -> Flow[None]:
        """Logout: revokes ``token`` (already taken from the keeper)."""
        response = yield Send(revoke_current_token, {}, token)
        # Already dead is as logged out as it gets.
        if response.status_code != 401:
            expect_no_content(response)


def _origins(origins: Iterable[str]) -> list[str]:
    # One text is one origin, not its characters.
    return [origins] if isinstance(origins, str) else list(origins)


def _given(**fields: Any) -> dict[str, Any]:
    """The fields that were given: the generated models take UNSET, not None, for "left out"."""
    return {name: value for name, value in fields.items() if value is not None}
