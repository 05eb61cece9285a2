"""Shared fixtures. The live tests run against a real, running School Search API:

    SCHOOL_SEARCH_BASE_URL   e.g. http://127.0.0.1:3000
    SCHOOL_SEARCH_EMAIL      an existing user (e.g. demo@example.com outside production)
    SCHOOL_SEARCH_PASSWORD

Unset, the live tests are skipped (the offline ones still run); with SCHOOL_SEARCH_REQUIRE=1
(CI), unset is a failure instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from school_search_client import SchoolSearchClient
from school_search_client._generated import AuthenticatedClient, Client
from school_search_client._generated.api.account import fetch_my_data
from school_search_client._generated.api.auth import create_token, revoke_current_token
from school_search_client._generated.models import Credentials, Token


@dataclass(frozen=True)
class Server:
    base_url: str
    email: str
    password: str

    def login(self) -> Token:
        """A session token through the generated low-level client, bypassing the wrapper."""
        with Client(base_url=self.base_url) as anonymous:
            token = create_token.sync(client=anonymous, body=Credentials(email=self.email, password=self.password))
        assert isinstance(token, Token), token
        return token

    def status_with(self, token: str) -> int:
        """What the API answers a request made with ``token`` (200 while it is valid, 401 after)."""
        with AuthenticatedClient(base_url=self.base_url, token=token) as client:
            return fetch_my_data.sync_detailed(client=client).status_code

    def revoke(self, token: str) -> None:
        with AuthenticatedClient(base_url=self.base_url, token=token) as client:
            assert revoke_current_token.sync_detailed(client=client).status_code == 204


@pytest.fixture(scope="session")
def server() -> Server:
    names = ("SCHOOL_SEARCH_BASE_URL", "SCHOOL_SEARCH_EMAIL", "SCHOOL_SEARCH_PASSWORD")
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        reason = f"live test: {', '.join(missing)} not set (see clients/python/README.md, Testing)"
        if os.environ.get("SCHOOL_SEARCH_REQUIRE") == "1":
            pytest.fail(f"{reason}, and SCHOOL_SEARCH_REQUIRE=1", pytrace=False)
        pytest.skip(reason)
    return Server(*(os.environ[name] for name in names))


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    status: int
    bearer: str | None
    #: The query string's parameters, in order, repeated ones repeated.
    params: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Recorder:
    """Every exchange a client makes, seen through httpx's event hooks."""

    calls: list[Call] = field(default_factory=list)
    #: The `expires_in` of each token the API issued (login or rotation).
    lifetimes: list[int] = field(default_factory=list)

    def record(self, response: httpx.Response) -> None:
        request = response.request
        auth = request.headers.get("Authorization")
        bearer = auth.removeprefix("Bearer ") if auth else None
        params = list(request.url.params.multi_items())
        self.calls.append(Call(request.method, request.url.path, response.status_code, bearer, params))

    def hooks(self) -> dict[str, Any]:
        def on_response(response: httpx.Response) -> None:
            if response.request.url.path.endswith(("/v1/auth", "/v1/auth/rotate")) and response.status_code == 200:
                response.read()
                self.lifetimes.append(response.json()["expires_in"])
            self.record(response)

        return {"event_hooks": {"response": [on_response]}}

    def async_hooks(self) -> dict[str, Any]:
        async def on_response(response: httpx.Response) -> None:
            self.record(response)

        return {"event_hooks": {"response": [on_response]}}

    def count(self, method: str, path: str) -> int:
        # endswith: the base URL may have a path of its own (behind a proxy).
        return sum(1 for call in self.calls if call.method == method and call.path.endswith(path))

    def to(self, path: str) -> list[Call]:
        return [call for call in self.calls if call.path.endswith(path)]

    @property
    def logins(self) -> int:
        return self.count("POST", "/v1/auth")

    @property
    def last_bearer(self) -> str:
        bearers = [call.bearer for call in self.calls if call.bearer is not None]
        assert bearers, "no authenticated request was made"
        return bearers[-1]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture(scope="module")
def module_recorder() -> Recorder:
    """A recorder for a client a whole module shares (one login for its tests)."""
    return Recorder()


@pytest.fixture
def make_client(server: Server, recorder: Recorder) -> Iterator[Callable[..., SchoolSearchClient]]:
    """SchoolSearchClient factory: the server's credentials and the recorder unless told otherwise;
    every client made is closed after the test."""
    made: list[SchoolSearchClient] = []

    def make(**options: Any) -> SchoolSearchClient:
        if "api_key" not in options and "token" not in options:
            options = {"email": server.email, "password": server.password, **options}
        client = SchoolSearchClient(server.base_url, httpx_args=recorder.hooks(), **options)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
