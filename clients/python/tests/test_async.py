"""AsyncSchoolSearchClient against the real API: the same behaviour through httpx.AsyncClient."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from school_search_client import AsyncSchoolSearchClient, SchoolSearchApiError

if TYPE_CHECKING:
    from conftest import Recorder, Server

pytestmark = pytest.mark.anyio


async def test_when_tasks_search_at_once_then_one_login_serves_them_all(server: Server, recorder: Recorder) -> None:
    async with AsyncSchoolSearchClient(
        server.base_url, email=server.email, password=server.password, httpx_args=recorder.async_hooks()
    ) as api:
        pages = await asyncio.gather(*(api.search(query, limit=3) for query in ("harvard", "yale", "duke", "rice")))

        assert recorder.logins == 1
        assert all(page.requestresult.schools for page in pages)
        history = await api.my_requests(limit=10)
        assert {page.apirequest.tid for page in pages} <= {record.tid for record in history.requests}

        texas = await api.search("univ", state_code="TX", limit=5)
        assert {school.stateprovince for school in texas.requestresult.schools} == {"TX"}

        schools = [school async for school in api.search_all("lincoln")]
        assert len({school.schoolid for school in schools}) == len(schools) == schools[0].total_count

        server.revoke(recorder.last_bearer)
        me = await api.my_data()
        assert me.email.lower() == server.email.lower()
        assert recorder.logins == 2, "a revoked token means one new login"
        last = recorder.last_bearer

    assert server.status_with(last) == 401, "leaving `async with` logs out"


async def test_when_the_password_is_wrong_then_the_async_client_raises_the_problem(
    server: Server, recorder: Recorder
) -> None:
    async with AsyncSchoolSearchClient(
        server.base_url, email=server.email, password="not-the-password-1", httpx_args=recorder.async_hooks()
    ) as api:
        with pytest.raises(SchoolSearchApiError) as caught:
            await api.my_data()

    assert caught.value.status == 401
    assert caught.value.type == "/problems/invalid-credentials"
    assert recorder.logins == 1
