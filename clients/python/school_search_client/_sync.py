"""SchoolSearchClient: the blocking client, safe to share between threads."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future
from types import TracebackType
from typing import Any, Self, TypeVar
from uuid import UUID

import httpx

from ._core import (
    PAGE_SIZE,
    TOKEN,
    ClientCore,
    Clock,
    DeviceProofListener,
    Filters,
    Flow,
    KeyPlacement,
    Near,
    Send,
    Step,
    check_offset,
    drive,
    http_request,
    next_offset,
)
from ._errors import SchoolSearchError
from ._generated.models import (
    Account,
    ApiKey,
    DailyUsage,
    RequestHistory,
    School,
    SchoolLevel,
    SchoolRecord,
    SchoolSearchResponse,
    SchoolTypeFilter,
    TokenInfo,
    TokenList,
)

T = TypeVar("T")

_log = logging.getLogger("school_search_client")


class SchoolSearchClient:
    """The School Search API, with the token handled for you.

    Give either ``email`` and ``password`` (the client logs in on first use, renews the token
    shortly before it expires, and logs in again once when the API answers 401), or an
    ``api_key`` (alias ``token``): used as is, never renewed, a 401 reaches you. Given both, the
    client starts with the key and logs in when it is refused.

    An error answer raises :class:`SchoolSearchApiError`; a request that breaks the API's contract
    raises :class:`SchoolSearchValidationError` before it is sent, with the items the server would
    list; network failures raise httpx's errors.
    Methods return the generated model classes. One instance may be shared by many threads:
    concurrent calls that need a token share one login or renewal. ``close()`` (or leaving a
    ``with`` block) logs out the session the client logged in itself and closes its connections.
    """

    def __init__(
        self,
        base_url: str,
        *,
        email: str | None = None,
        password: str | None = None,
        api_key: str | None = None,
        token: str | None = None,
        renew_before_seconds: float = 60.0,
        timeout: float | httpx.Timeout | None = 30.0,
        httpx_args: Mapping[str, Any] | None = None,
        clock: Clock = time.monotonic,
        device_proof: str | None = None,
        on_device_proof: DeviceProofListener | None = None,
        publishable_key: str | None = None,
        publishable_key_in: KeyPlacement = "query",
    ) -> None:
        """
        Args:
            base_url: where the API is, e.g. ``https://api.example.com`` (without ``/v1``).
            email, password: the credentials to log in with.
            api_key: an API key (or any token) to use as is; ``token`` is an alias.
            renew_before_seconds: rotate the token this long before it expires (at most half
                its lifetime).
            timeout: seconds per request (connect, read, write, pool); None for none.
            httpx_args: more arguments for the ``httpx.Client`` (``transport``, ``proxy``,
                ``event_hooks``, ``verify``, ``headers``, …).
            clock: monotonic seconds, for expiry; tests pass one they can move.
            device_proof: the :attr:`device_proof` of an earlier client for this account, sent with
                the first login (default: none yet, which asks the server for one).
            on_device_proof: called with each new device proof a login's answer carries: where a
                long-lived program persists it (e.g. to a file), to pass as ``device_proof`` next time.
            publishable_key: a publishable key (``spk_…``), for a web page's calls: ``search``,
                ``search_all`` and ``get_school`` work from the key's origins (the ``Origin`` header,
                e.g. through ``httpx_args={"headers": {"Origin": …}}``); any other method is the
                server's 403 ``/problems/publishable-key-not-allowed``. Never renewed.
            publishable_key_in: ``"query"`` (default) sends it as the ``key`` query parameter, as a
                page does to avoid a CORS preflight; ``"header"`` as ``Authorization: Bearer spk_…``.
        """
        self._core = ClientCore(
            base_url,
            email=email,
            password=password,
            api_key=api_key,
            token=token,
            renew_before_seconds=renew_before_seconds,
            timeout=timeout,
            httpx_args=httpx_args,
            clock=clock,
            device_proof=device_proof,
            on_device_proof=on_device_proof,
            publishable_key=publishable_key,
            publishable_key_in=publishable_key_in,
        )
        self._http = self._core.api.get_httpx_client()
        # The login or renewal in flight, which concurrent callers wait for instead of starting their own.
        self._pending: Future[str] | None = None
        self._pending_lock = threading.Lock()

    @property
    def device_proof(self) -> str | None:
        """The device proof of this client's last login (or the one it was given), sent with its
        next login: it keeps the client out of the all-clients ceiling on failed logins when
        strangers guess at the account. None until a login answers with one."""
        return self._core.keeper.device_proof

    def search(
        self,
        query: str,
        state_code: str | None = None,
        offset: int = 0,
        limit: int = PAGE_SIZE,
        *,
        level: SchoolLevel | Iterable[SchoolLevel] | None = None,
        type: SchoolTypeFilter | Iterable[SchoolTypeFilter] | None = None,
        near: Near | None = None,
        radius_km: float | None = None,
        idempotency_key: str | None = None,
    ) -> SchoolSearchResponse:
        """One page of the schools matching ``query``, best first. Each call is metered: its
        request record is ``apirequest``.

        Args:
            state_code: only schools in this US state or territory, or Canadian province or territory
                (its two-letter code, in any case: ``"TX"`` or ``"tx"``).
            level: only schools of this level, or of any of these levels (``"high"``, ``["middle", "high"]``).
            type: only schools of this type, or of any of these (``public``, ``private``,
                ``postsecondary``, ``charter``).
            near: ``(latitude, longitude)`` in decimal degrees (or the text ``"<lat>,<lon>"``):
                equally good matches nearest first, each school with its ``distance_km``.
            radius_km: with ``near``, only schools within this many kilometres of it.
            idempotency_key: makes a retry of this search free: sent again with the same key, the
                search answers with the first one's request record and is metered once (any 1 to
                255 visible ASCII characters, one per search you mean to send: a UUID does).
        """
        filters = Filters(state_code, level, type, near, radius_km)
        return self._run(self._core.search(query, filters, offset, limit, idempotency_key))

    def search_all(
        self,
        query: str,
        state_code: str | None = None,
        *,
        level: SchoolLevel | Iterable[SchoolLevel] | None = None,
        type: SchoolTypeFilter | Iterable[SchoolTypeFilter] | None = None,
        near: Near | None = None,
        radius_km: float | None = None,
    ) -> Iterator[School]:
        """Every matching school, once each, fetching pages of 25 as the loop asks for them, with
        the filters of :meth:`search` on every page. Every page is a metered search. Raises
        SchoolSearchError where the API's deep-paging guard begins (offset 10000): narrow the query."""
        filters = Filters(state_code, level, type, near, radius_km)
        offset: int | None = 0
        while offset is not None:
            result = self._run(self._core.search(query, filters, check_offset(offset, query), PAGE_SIZE)).requestresult
            yield from result.schools
            offset = next_offset(offset, result)

    def get_school(self, school_id: UUID | str) -> SchoolRecord:
        """One school's whole record by its ``schoolid`` (from a search): aliases, directory ids
        (``source_ids``), ``updated_at``. Not metered. An unknown id raises SchoolSearchApiError 404."""
        return self._run(self._core.get_school(school_id))

    def my_data(self) -> Account:
        """The caller's account: e-mail, usage totals, number of live tokens."""
        return self._run(self._core.my_data())

    def my_requests(
        self, offset: int = 0, limit: int = PAGE_SIZE, cursor: str | None = None, *, key_id: UUID | str | None = None
    ) -> RequestHistory:
        """The caller's request records, newest first, with ``total_count``; ``cursor`` (a
        page's ``next_cursor``) continues after that page, however deep; ``key_id`` (a key's
        ``token_id``) keeps only the requests made with that API key."""
        return self._run(self._core.my_requests(offset, limit, cursor, key_id))

    def my_usage(self, days: int = 30, *, key_id: UUID | str | None = None) -> DailyUsage:
        """The caller's requests and cost per UTC day over the last ``days`` days, oldest first,
        and the same period split ``by_key`` and ``by_origin``; ``key_id`` counts one API key's only."""
        return self._run(self._core.my_usage(days, key_id))

    def create_api_key(
        self, name: str, expires_in_days: int | None = None, *, current_password: str | None = None
    ) -> ApiKey:
        """A new named API key living ``expires_in_days`` days (1–365, default 90). Its value
        (``token``) is in this answer only: give it to a program as its ``api_key``. The API
        confirms it with the account's password: ``current_password``, else the client's own."""
        return self._run(self._core.create_api_key(name, expires_in_days, current_password))

    def create_publishable_key(
        self,
        name: str,
        origins: Iterable[str],
        *,
        searches_per_minute: int | None = None,
        searches_per_day: int | None = None,
        visitor_searches_per_minute: int | None = None,
        expires_in_days: int | None = None,
        current_password: str | None = None,
    ) -> ApiKey:
        """A new publishable key (``spk_…``) for the web pages of ``origins`` (``https://www.example.org``,
        ``https://*.example.org``), with budgets of its own (left out: the server's defaults). Its value
        (``token``) is in this answer only: put it in the page, or give it to a client as its
        ``publishable_key``. Confirmed with ``current_password``, else the client's own password."""
        return self._run(
            self._core.create_publishable_key(
                name,
                origins,
                searches_per_minute=searches_per_minute,
                searches_per_day=searches_per_day,
                visitor_searches_per_minute=visitor_searches_per_minute,
                expires_in_days=expires_in_days,
                current_password=current_password,
            )
        )

    def update_api_key(
        self,
        token_id: UUID | str,
        *,
        name: str | None = None,
        origins: Iterable[str] | None = None,
        searches_per_minute: int | None = None,
        searches_per_day: int | None = None,
        visitor_searches_per_minute: int | None = None,
    ) -> TokenInfo:
        """Renames one of the caller's API keys, or changes a publishable key's origins (the list
        replaces the old one) and budgets; what is not given stays. Needs no password. A secret key
        given origins or budgets is the server's 400. Returns the key as it is now."""
        return self._run(
            self._core.update_api_key(
                token_id,
                name=name,
                origins=origins,
                searches_per_minute=searches_per_minute,
                searches_per_day=searches_per_day,
                visitor_searches_per_minute=visitor_searches_per_minute,
            )
        )

    def rotate_api_key(self, token_id: UUID | str, *, current_password: str | None = None) -> ApiKey:
        """A new value for one of the caller's API keys; the old value stops working at once.
        Confirmed with ``current_password``, else the client's own password."""
        return self._run(self._core.rotate_api_key(token_id, current_password))

    def change_password(self, current_password: str, new_password: str, *, revoke_api_keys: bool = False) -> None:
        """Sets a new password for the caller's account after checking the current one (a wrong
        one raises SchoolSearchApiError 403 ``/problems/wrong-password``). Every other session of
        the account ends; this client's token keeps working, and its later logins (and key
        confirmations) use ``new_password``. API keys keep working unless ``revoke_api_keys``:
        choose it when someone else may know the password."""
        self._run(self._core.change_password(current_password, new_password, revoke_api_keys))

    def list_tokens(self) -> TokenList:
        """The caller's live session tokens and API keys (``kind``), never their values."""
        return self._run(self._core.list_tokens())

    def revoke_token(self, token_id: UUID | str) -> None:
        """Revokes one of the caller's tokens or API keys (this client's own too: it then forgets it)."""
        self._run(self._core.revoke_token(token_id))

    def logout(self) -> None:
        """Revokes the current token and forgets it. With credentials, a later call logs in again."""
        token = self._release()
        if token is not None:
            self._run(self._core.logout(token))

    def close(self) -> None:
        """Logs out the session this client logged in itself (an API key or token you gave it is
        left alone), then closes the connections. A failed logout is only logged: the token
        expires on its own."""
        try:
            token = self._release(obtained_only=True)
            if token is not None:
                self._run(self._core.logout(token))
        except (SchoolSearchError, httpx.HTTPError) as error:
            _log.warning("school-search-client: logout on close failed: %s", error)
        finally:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def _run(self, flow: Flow[T]) -> T:
        return drive(flow, self._do)

    def _do(self, step: Step) -> Any:
        if isinstance(step, Send):
            return self._http.request(**http_request(step))
        if step is TOKEN:
            return self._token()
        raise AssertionError(step)

    def _token(self) -> str:
        with self._pending_lock:
            pending = self._pending
            if pending is None:
                token = self._core.keeper.usable()
                if token is not None:
                    return token
                pending = self._pending = Future()
                leading = True
            else:
                leading = False
        if not leading:
            return pending.result()
        try:
            token = drive(self._core.keeper.replace(), self._do)
        except BaseException as error:
            pending.set_exception(error)
            raise
        else:
            pending.set_result(token)
            return token
        finally:
            with self._pending_lock:
                self._pending = None

    def _release(self, *, obtained_only: bool = False) -> str | None:
        """Takes the current token for logout, after any login or renewal in flight."""
        with self._pending_lock:
            pending = self._pending
        if pending is not None:
            pending.exception()  # waits; its failure is its callers' to report
        return self._core.keeper.take(obtained_only=obtained_only)
