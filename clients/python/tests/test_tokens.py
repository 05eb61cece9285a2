"""What the client does with the token, against the real API: one login, renewal by rotation,
a new login after a revocation, logout, and a wrong password."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from school_search_client import SchoolSearchApiError, SchoolSearchClient

if TYPE_CHECKING:
    from conftest import Recorder, Server

MakeClient = Callable[..., SchoolSearchClient]


class FakeClock:
    """The client's clock, moved by the test; the server keeps its own."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_when_searching_twice_then_the_client_logs_in_once(make_client: MakeClient, recorder: Recorder) -> None:
    api = make_client()
    assert recorder.calls == [], "nothing is sent before the first call"

    api.search("harvard")
    api.search("yale")

    assert recorder.logins == 1
    searches = [call for call in recorder.calls if call.path.endswith("/v1/fetchSchoolSearch")]
    assert [call.status for call in searches] == [200, 200]
    assert searches[0].bearer == searches[1].bearer


def test_when_the_token_was_revoked_then_the_client_logs_in_again_and_retries_once(
    make_client: MakeClient, recorder: Recorder, server: Server
) -> None:
    api = make_client()
    api.my_data()
    revoked = recorder.last_bearer
    server.revoke(revoked)  # e.g. signed out everywhere from the dashboard
    recorder.calls.clear()

    page = api.search("harvard")

    assert page.requestresult.schools
    assert [(call.method, call.status) for call in recorder.calls] == [("GET", 401), ("POST", 200), ("GET", 200)]
    assert recorder.calls[0].bearer == revoked
    assert recorder.calls[2].bearer != revoked


def test_when_the_token_nears_expiry_then_it_is_rotated_and_after_expiry_a_login_follows(
    make_client: MakeClient, recorder: Recorder, server: Server
) -> None:
    clock = FakeClock()
    api = make_client(clock=clock, renew_before_seconds=60)
    api.my_data()
    first = recorder.last_bearer
    lifetime = recorder.lifetimes[0]

    clock.now += lifetime - min(60, lifetime / 2) / 2  # inside the renewal margin, before expiry
    api.my_data()

    assert recorder.count("POST", "/v1/auth/rotate") == 1
    assert recorder.logins == 1
    rotated = recorder.last_bearer
    assert rotated != first
    assert server.status_with(first) == 401, "rotation revokes the old token"

    clock.now += recorder.lifetimes[-1] + 1  # expired on the client's clock: no rotation, a login
    api.my_data()

    assert recorder.logins == 2
    assert recorder.count("POST", "/v1/auth/rotate") == 1
    assert recorder.last_bearer not in (first, rotated)


def test_when_logging_out_then_the_token_is_revoked_and_the_next_call_logs_in(
    make_client: MakeClient, recorder: Recorder, server: Server
) -> None:
    api = make_client()
    api.my_data()
    first = recorder.last_bearer

    api.logout()

    assert server.status_with(first) == 401
    api.my_data()
    assert recorder.logins == 2
    second = recorder.last_bearer

    api.close()

    assert server.status_with(second) == 401, "close() logs out the session the client made"
    assert recorder.count("DELETE", "/v1/auth") == 2


def test_when_threads_share_a_client_then_they_share_one_login(make_client: MakeClient, recorder: Recorder) -> None:
    api = make_client()
    start = threading.Barrier(8)

    def call() -> str:
        start.wait()
        return api.my_data().email

    with ThreadPoolExecutor(max_workers=8) as pool:
        emails = list(pool.map(lambda _: call(), range(8)))

    assert len(set(emails)) == 1
    assert recorder.logins == 1
    assert len({call.bearer for call in recorder.calls if call.bearer}) == 1


def test_when_the_password_is_wrong_then_an_invalid_credentials_problem_is_raised(
    make_client: MakeClient, recorder: Recorder
) -> None:
    api = make_client(password="not-the-password-1")

    with pytest.raises(SchoolSearchApiError) as caught:
        api.search("harvard")

    error = caught.value
    assert error.status == 401
    assert error.type == "/problems/invalid-credentials"
    assert error.title and error.detail
    assert error.request_id
    assert error.problem is not None and error.problem.status == 401
    assert recorder.logins == 1, "a refused login is not retried"
    assert recorder.count("GET", "/v1/fetchSchoolSearch") == 0
