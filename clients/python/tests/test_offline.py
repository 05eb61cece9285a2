"""Token decisions the real API cannot easily be made to show (a failing rotation, a proxy's error
page, a token refused right after login), against a small fake API on httpx.MockTransport. No
server needed: these always run."""

from __future__ import annotations

import asyncio
import pickle
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from school_search_client import AsyncSchoolSearchClient, SchoolSearchApiError, SchoolSearchClient

BASE = "http://api.test"


class FakeApi:
    """Logins, rotation and fetchMyData, with switches for misbehaving."""

    def __init__(self, expires_in: int = 3600) -> None:
        self.expires_in = expires_in
        self.valid: set[str] = set()
        self.calls: list[str] = []
        self.rotation_fails_with: httpx.Response | None = None
        self.login_fails_with: httpx.Response | None = None
        self.refuse_everything = False
        #: Whether the tokens it issues expire with their session (expires_at = session_expires_at).
        self.last_of_session = False

    def __call__(self, request: httpx.Request) -> httpx.Response:
        route = f"{request.method} {request.url.path}"
        self.calls.append(route)
        bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if route == "POST /v1/auth" and self.login_fails_with is not None:
            return self.login_fails_with
        if route == "POST /v1/auth":
            return httpx.Response(200, json=self._issue())
        if route == "POST /v1/auth/rotate" and self.rotation_fails_with is not None:
            return self.rotation_fails_with
        if bearer not in self.valid or self.refuse_everything:
            return problem(401, "/problems/unauthorized")
        if route == "POST /v1/auth/rotate":
            self.valid.discard(bearer)
            return httpx.Response(200, json=self._issue())
        if route == "DELETE /v1/auth":
            self.valid.discard(bearer)
            return httpx.Response(204)
        if route == "GET /v1/fetchMyData":
            usage = {"request_count": 0, "total_cost": 0, "last_request_at": None}
            return httpx.Response(
                200,
                json={
                    "userId": str(uuid.uuid4()),
                    "email": "a@example.com",
                    "created_at": NOW,
                    "usage": usage,
                    "active_tokens": 1,
                },
            )
        return problem(404, "/problems/not-found")

    def _issue(self) -> dict[str, object]:
        token = f"ssk_{uuid.uuid4().hex}"
        self.valid.add(token)
        return {
            "userId": str(uuid.uuid4()),
            "token": token,
            "expires_in": self.expires_in,
            "token_type": "Bearer",
            "expires_at": NOW,
            "token_id": str(uuid.uuid4()),
            "session_expires_at": NOW if self.last_of_session else LATER,
        }

    def count(self, route: str) -> int:
        return self.calls.count(route)


NOW = datetime.now(UTC).isoformat()
LATER = (datetime.now(UTC) + timedelta(hours=12)).isoformat()


def problem(status: int, kind: str) -> httpx.Response:
    body = {"type": kind, "title": "Refused", "status": status, "detail": "No.", "request_id": "req-1"}
    return httpx.Response(status, json=body, headers={"content-type": "application/problem+json"})


def client(api: FakeApi, clock: Callable[[], float] = lambda: 0.0, **options: Any) -> SchoolSearchClient:
    if "api_key" not in options:
        options = {"email": "a@example.com", "password": "password-1", **options}
    return SchoolSearchClient(BASE, clock=clock, httpx_args={"transport": httpx.MockTransport(api)}, **options)


def test_when_the_token_is_short_lived_then_it_is_renewed_at_half_its_lifetime() -> None:
    api, now = FakeApi(expires_in=100), [0.0]
    with client(api, clock=lambda: now[0], renew_before_seconds=60) as c:
        c.my_data()
        now[0] = 49.0
        c.my_data()
        assert api.count("POST /v1/auth/rotate") == 0
        now[0] = 51.0
        c.my_data()
        assert api.count("POST /v1/auth/rotate") == 1
        assert api.count("POST /v1/auth") == 1


def test_when_rotation_fails_while_the_token_is_valid_then_the_call_goes_ahead_and_the_next_retries() -> None:
    api, now = FakeApi(expires_in=100), [0.0]
    api.rotation_fails_with = httpx.Response(
        503, text="<html>upstream down</html>", headers={"content-type": "text/html"}
    )
    with client(api, clock=lambda: now[0]) as c:
        c.my_data()
        now[0] = 80.0
        c.my_data()
        c.my_data()
        assert api.count("POST /v1/auth/rotate") == 2
        assert api.count("GET /v1/fetchMyData") == 3
        assert api.count("POST /v1/auth") == 1


def test_when_the_token_expires_with_its_session_then_it_is_renewed_by_a_login_not_a_rotation() -> None:
    api, now = FakeApi(expires_in=100), [0.0]
    api.last_of_session = True
    with client(api, clock=lambda: now[0]) as c:
        c.my_data()
        now[0] = 80.0
        c.my_data()
        assert api.count("POST /v1/auth/rotate") == 0
        assert api.count("POST /v1/auth") == 2


def test_when_that_login_fails_while_the_token_is_valid_then_the_call_goes_ahead_and_the_next_retries() -> None:
    api, now = FakeApi(expires_in=100), [0.0]
    api.last_of_session = True
    with client(api, clock=lambda: now[0]) as c:
        c.my_data()
        api.login_fails_with = problem(429, "/problems/rate-limited")
        now[0] = 80.0
        c.my_data()
        c.my_data()
        assert api.count("POST /v1/auth") == 3
        assert api.count("GET /v1/fetchMyData") == 3
        api.login_fails_with = problem(401, "/problems/invalid-credentials")
        with pytest.raises(SchoolSearchApiError) as caught:
            c.my_data()
        assert caught.value.status == 401, "a refused login is raised: the password is no longer right"


def test_when_a_fresh_token_is_refused_too_then_the_401_is_raised_not_retried_forever() -> None:
    api = FakeApi()
    api.refuse_everything = True
    c = client(api)

    with pytest.raises(SchoolSearchApiError) as caught:
        c.my_data()

    assert caught.value.status == 401
    assert api.calls == ["POST /v1/auth", "GET /v1/fetchMyData", "POST /v1/auth", "GET /v1/fetchMyData"]


def test_when_an_api_key_is_refused_then_the_401_reaches_the_caller_without_a_login() -> None:
    api = FakeApi()
    c = client(api, api_key="ssk_revoked")

    with pytest.raises(SchoolSearchApiError) as caught:
        c.my_data()

    assert (caught.value.status, caught.value.type) == (401, "/problems/unauthorized")
    assert api.calls == ["GET /v1/fetchMyData"]
    c.close()
    assert api.calls == ["GET /v1/fetchMyData"], "close() leaves a given key alone"


def test_when_a_given_token_is_refused_and_credentials_are_known_then_the_client_logs_in() -> None:
    api = FakeApi()
    c = SchoolSearchClient(
        BASE,
        token="ssk_expired",
        email="a@example.com",
        password="password-1",
        httpx_args={"transport": httpx.MockTransport(api)},
    )

    c.my_data()

    assert api.calls == ["GET /v1/fetchMyData", "POST /v1/auth", "GET /v1/fetchMyData"]


def test_when_a_proxy_answers_with_a_page_then_the_error_still_has_the_status() -> None:
    def gateway(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            502, text="<html>Bad Gateway</html>", headers={"content-type": "text/html", "Retry-After": "5"}
        )

    c = SchoolSearchClient(BASE, api_key="ssk_x", httpx_args={"transport": httpx.MockTransport(gateway)})

    with pytest.raises(SchoolSearchApiError) as caught:
        c.search("harvard")

    error = caught.value
    assert (error.status, error.type, error.problem, error.retry_after) == (502, "about:blank", None, 5.0)
    assert (error.title, error.detail) == ("Bad Gateway", None)
    assert error.errors == []


def test_when_an_error_is_pickled_then_its_fields_survive() -> None:
    error = SchoolSearchApiError.from_response(problem(429, "/problems/rate-limited"))

    copy = pickle.loads(pickle.dumps(error))

    assert (copy.status, copy.type, copy.request_id, str(copy)) == (429, "/problems/rate-limited", "req-1", str(error))


def test_when_async_tasks_need_a_token_at_once_then_they_share_one_login() -> None:
    api = FakeApi()

    async def main() -> None:
        async with AsyncSchoolSearchClient(
            BASE, email="a@example.com", password="password-1", httpx_args={"transport": httpx.MockTransport(api)}
        ) as c:
            await asyncio.gather(*(c.my_data() for _ in range(10)))

    asyncio.run(main())

    assert api.count("POST /v1/auth") == 1
    assert api.count("GET /v1/fetchMyData") == 10
    assert api.count("DELETE /v1/auth") == 1, "leaving the block logs out"


SCHOOL_ID = "f10acf2b-e7bd-50fc-892e-50b34cddeaca"
SCHOOL = {
    "schoolid": SCHOOL_ID,
    "schoolname": "Harvard University",
    "stateprovince": "MA",
    "city": "Cambridge",
    "image_url": f"{BASE}/images/schools/{SCHOOL_ID}.svg",
    "latitude": 42.374471,
    "longitude": -71.118313,
    "level": "postsecondary",
    "type": "postsecondary",
}


def catalog(request: httpx.Request) -> httpx.Response:
    """A search answering one school 0.705 km from its point, and that school's record."""
    if request.url.path == "/v1/fetchSchoolSearch":
        record = {
            "tid": str(uuid.uuid4()),
            "trequestmade": "search_schools:harvard",
            "ttimemade": NOW,
            "trequestcost": 1,
        }
        school = {**SCHOOL, "similarity_score": 1, "total_count": 1, "distance_km": 0.705}
        result = {"total_count": 1, "offset": 0, "limit": 25, "schools": [school]}
        return httpx.Response(200, json={"apirequest": record, "requestresult": result})
    if request.url.path == f"/v1/schools/{SCHOOL_ID}":
        extra = {"aliases": ["Harvard"], "source_ids": ["ipeds:166027"], "updated_at": "2026-11-20T08:00:00.000Z"}
        return httpx.Response(200, json={**SCHOOL, **extra})
    return problem(404, "/problems/not-found")


def test_when_a_search_has_a_point_then_each_school_has_its_distance() -> None:
    sent: list[httpx.Request] = []

    def recording(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return catalog(request)

    c = SchoolSearchClient(BASE, api_key="ssk_x", httpx_args={"transport": httpx.MockTransport(recording)})

    page = c.search("harvard", level="postsecondary", type=("private", "postsecondary"), near=(42.3736, -71.1097))

    assert page.requestresult.schools[0].distance_km == 0.705
    assert sent[0].url.params.get_list("type") == ["private", "postsecondary"]
    assert sent[0].url.params["near"] == "42.3736,-71.1097"
    assert "radius_km" not in sent[0].url.params


def test_when_getting_a_school_then_the_record_is_parsed_by_both_clients() -> None:
    c = SchoolSearchClient(BASE, api_key="ssk_x", httpx_args={"transport": httpx.MockTransport(catalog)})

    async def both() -> list[Any]:
        async with AsyncSchoolSearchClient(
            BASE, api_key="ssk_x", httpx_args={"transport": httpx.MockTransport(catalog)}
        ) as a:
            return [c.get_school(SCHOOL_ID), await a.get_school(uuid.UUID(SCHOOL_ID))]

    for record in asyncio.run(both()):
        assert (record.schoolname, record.aliases, record.source_ids) == (
            "Harvard University",
            ["Harvard"],
            ["ipeds:166027"],
        )
        assert record.updated_at == datetime(2026, 11, 20, 8, tzinfo=UTC)
        assert str(record.schoolid) == SCHOOL_ID
