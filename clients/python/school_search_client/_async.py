"""AsyncSchoolSearchClient: the asyncio client. Same behaviour as SchoolSearchClient (the logic is
shared, in _core.py); use one instance within one event loop."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterable, Mapping
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
    adrive,
    check_offset,
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


class AsyncSchoolSearchClient:
    """The School Search API for asyncio, with the token handled for you.

    The same arguments, methods (as coroutines) and token behaviour as
    :class:`SchoolSearchClient`; ``search_all`` is an async iterator, and ``aclose()`` (or leaving
    an ``async with`` block) logs out the session the client logged in itself and closes its
    connections. Concurrent tasks that need a token share one login or renewal.
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
        """Arguments as for :class:`SchoolSearchClient`; ``httpx_args`` go to ``httpx.AsyncClient``
        (``event_hooks`` must then be async functions)."""
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
        self._http = self._core.api.get_async_httpx_client()
        # The login or renewal in flight, which concurrent tasks wait for instead of starting their own.
        self._pending: asyncio.Task[str] | None = None

    @property
    def device_proof(self) -> str | None:
        """As :attr:`SchoolSearchClient.device_proof`."""
        return self._core.keeper.device_proof

    async def search(
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
        """One page of the schools matching ``query``, best first, with the filters of
        :meth:`SchoolSearchClient.search` (``idempotency_key`` too). Each call is metered, once per key."""
        filters = Filters(state_code, level, type, near, radius_km)
        return await self._run(self._core.search(query, filters, offset, limit, idempotency_key))

    async def search_all(
        self,
        query: str,
        state_code: str | None = None,
        *,
        level: SchoolLevel | Iterable[SchoolLevel] | None = None,
        type: SchoolTypeFilter | Iterable[SchoolTypeFilter] | None = None,
        near: Near | None = None,
        radius_km: float | None = None,
    ) -> AsyncIterator[School]:
        """Every matching school, once each, a page of 25 (one metered search) at a time."""
        filters = Filters(state_code, level, type, near, radius_km)
        offset: int | None = 0
        while offset is not None:
            page = await self._run(self._core.search(query, filters, check_offset(offset, query), PAGE_SIZE))
            for school in page.requestresult.schools:
                yield school
            offset = next_offset(offset, page.requestresult)

    async def get_school(self, school_id: UUID | str) -> SchoolRecord:
        """One school's whole record by its ``schoolid``. Not metered; an unknown id raises a 404."""
        return await self._run(self._core.get_school(school_id))

    async def my_data(self) -> Account:
        return await self._run(self._core.my_data())

    async def my_requests(
        self, offset: int = 0, limit: int = PAGE_SIZE, cursor: str | None = None, *, key_id: UUID | str | None = None
    ) -> RequestHistory:
        return await self._run(self._core.my_requests(offset, limit, cursor, key_id))

    async def my_usage(self, days: int = 30, *, key_id: UUID | str | None = None) -> DailyUsage:
        return await self._run(self._core.my_usage(days, key_id))

    async def create_api_key(
        self, name: str, expires_in_days: int | None = None, *, current_password: str | None = None
    ) -> ApiKey:
        return await self._run(self._core.create_api_key(name, expires_in_days, current_password))

    async def create_publishable_key(
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
        return await self._run(
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

    async def update_api_key(
        self,
        token_id: UUID | str,
        *,
        name: str | None = None,
        origins: Iterable[str] | None = None,
        searches_per_minute: int | None = None,
        searches_per_day: int | None = None,
        visitor_searches_per_minute: int | None = None,
    ) -> TokenInfo:
        return await self._run(
            self._core.update_api_key(
                token_id,
                name=name,
                origins=origins,
                searches_per_minute=searches_per_minute,
                searches_per_day=searches_per_day,
                visitor_searches_per_minute=visitor_searches_per_minute,
            )
        )

    async def rotate_api_key(self, token_id: UUID | str, *, current_password: str | None = None) -> ApiKey:
        return await self._run(self._core.rotate_api_key(token_id, current_password))

    async def change_password(self, current_password: str, new_password: str, *, revoke_api_keys: bool = False) -> None:
        """As :meth:`SchoolSearchClient.change_password`."""
        await self._run(self._core.change_password(current_password, new_password, revoke_api_keys))

    async def list_tokens(self) -> TokenList:
        return await self._run(self._core.list_tokens())

    async def revoke_token(self, token_id: UUID | str) -> None:
        await self._run(self._core.revoke_token(token_id))

    async def logout(self) -> None:
        """Revokes the current token and forgets it. With credentials, a later call logs in again."""
        token = await self._release()
        if token is not None:
            await self._run(self._core.logout(token))

    async def aclose(self) -> None:
        """Logs out the session this client logged in itself, then closes the connections."""
        try:
            token = await self._release(obtained_only=True)
            if token is not None:
                await self._run(self._core.logout(token))
        except (SchoolSearchError, httpx.HTTPError) as error:
            _log.warning("school-search-client: logout on close failed: %s", error)
        finally:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.aclose()

    async def _run(self, flow: Flow[T]) -> T:
        return await adrive(flow, self._do)

    async def _do(self, step: Step) -> Any:
        if isinstance(step, Send):
            return await self._http.request(**http_request(step))
        if step is TOKEN:
            return await self._token()
        raise AssertionError(step)

    async def _token(self) -> str:
        if self._pending is None:
            token = self._core.keeper.usable()
            if token is not None:
                return token
            self._pending = asyncio.get_running_loop().create_task(adrive(self._core.keeper.replace(), self._do))
            self._pending.add_done_callback(self._landed)
        # Shielded: a caller that is cancelled must not cancel the login the others wait for.
        return await asyncio.shield(self._pending)

    def _landed(self, task: asyncio.Task[str]) -> None:
        if self._pending is task:
            self._pending = None
        if not task.cancelled():
            task.exception()  # marks it retrieved: its waiters raise it, asyncio need not log it

    async def _release(self, *, obtained_only: bool = False) -> str | None:
        """Takes the current token for logout, after any login or renewal in flight."""
        if self._pending is not None:
            await asyncio.wait([self._pending])
        return self._core.keeper.take(obtained_only=obtained_only)
