"""Shared fixtures. The live tests run against a real, running School Search API:

    SCHOOL_SEARCH_BASE_URL   e.g. http://127.0.0.1:3000
    SCHOOL_SEARCH_EMAIL      an existing user (e.g. demo@example.com outside production)
    SCHOOL_SEARCH_PASSWORD

and some (the ``accounts`` fixture) against a second one, started with the settings they need
(scripts/clients/main.ts, ACCOUNTS_APP): TOKEN_TTL_SECONDS=SESSION_MAX_LIFETIME_SECONDS (each
session one token long), TRUST_PROXY=loopback, RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS=3,
SIGNUP=open and the development outbox (no SMTP_URL: e-mails go to its JSON log):

    SCHOOL_SEARCH_ACCOUNTS_BASE_URL   e.g. http://127.0.0.1:3001
    SCHOOL_SEARCH_ACCOUNTS_LOG        the file its log (LOG_FORMAT=json) goes to

Unset, the live tests are skipped (the offline ones still run); with SCHOOL_SEARCH_REQUIRE=1
(CI), unset is a failure instead.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from school_search_client import SchoolSearchClient
from school_search_client._generated import AuthenticatedClient, Client
from school_search_client._generated.api.account import fetch_my_data
from school_search_client._generated.api.auth import create_token, revoke_current_token
from school_search_client._generated.api.signup import confirm_sign_up, sign_up
from school_search_client._generated.models import Credentials, LinkPassword, SignUp, Token


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


def _environment(*names: str) -> list[str]:
    """The variables' values; skips the test (or fails it, with SCHOOL_SEARCH_REQUIRE=1) when one is unset."""
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        reason = f"live test: {', '.join(missing)} not set (see clients/python/README.md, Testing)"
        if os.environ.get("SCHOOL_SEARCH_REQUIRE") == "1":
            pytest.fail(f"{reason}, and SCHOOL_SEARCH_REQUIRE=1", pytrace=False)
        pytest.skip(reason)
    return [os.environ[name] for name in names]


@pytest.fixture(scope="session")
def server() -> Server:
    return Server(*_environment("SCHOOL_SEARCH_BASE_URL", "SCHOOL_SEARCH_EMAIL", "SCHOOL_SEARCH_PASSWORD"))


@dataclass(frozen=True)
class Account:
    email: str
    password: str


@dataclass
class AccountsApp:
    """The second app (see the module's docstring): accounts of the tests' own, signed up through
    the generated low-level client (not the wrapper under test), with the links its log shows."""

    base_url: str
    log: str
    #: Lines of the log whose e-mail a test took already.
    taken: set[int] = field(default_factory=set)

    def new_account(self, purpose: str) -> Account:
        """A fresh account: signed up with its e-mail alone, its password chosen with the link."""
        account = Account(f"py-{purpose}-{uuid.uuid4().hex[:8]}@example.org", f"pw-{uuid.uuid4().hex}")
        with Client(base_url=self.base_url) as anonymous:
            assert sign_up.sync_detailed(client=anonymous, body=SignUp(email=account.email)).status_code == 202
            link = LinkPassword(token=self.next_link(account.email, "confirm"), password=account.password)
            assert isinstance(confirm_sign_up.sync(client=anonymous, body=link), Token)
        return account

    def next_link(self, email: str, kind: str, timeout: float = 10.0) -> str:
        """The token of the next link of ``kind`` (``confirm``, ``reset``) mailed to ``email``:
        what follows ``#<kind>/`` in it. Other e-mails to the address (notices) are passed over."""
        deadline = time.monotonic() + timeout
        pattern = re.compile(rf"#{kind}/(ssl_[A-Za-z0-9_-]{{43}})")
        while True:
            with open(self.log, encoding="utf-8") as log:
                lines = log.read().split("\n")
            for number, line in enumerate(lines):
                if number in self.taken or '"mail"' not in line:
                    continue
                try:
                    mail = json.loads(line)["mail"]
                except (ValueError, KeyError):
                    continue  # a line still being written
                if mail["to"] != email:
                    continue
                self.taken.add(number)
                for link in mail["links"]:
                    if found := pattern.search(link):
                        return found.group(1)
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind} link mailed to {email} within {timeout} s (log: {self.log})")
            time.sleep(0.05)

    def login(self, account: Account) -> Token:
        with Client(base_url=self.base_url) as anonymous:
            token = create_token.sync(
                client=anonymous, body=Credentials(email=account.email, password=account.password)
            )
        assert isinstance(token, Token), token
        return token

    def failed_login(self, email: str, from_address: str) -> int:
        """A stranger's wrong guess at the account from ``from_address`` (X-Forwarded-For, which
        the app trusts from loopback); the answer's status."""
        body = Credentials(email=email, password=f"wrong-{uuid.uuid4().hex}")
        with Client(base_url=self.base_url, headers={"X-Forwarded-For": from_address}) as stranger:
            return create_token.sync_detailed(client=stranger, body=body).status_code

    def status_with(self, token: str) -> int:
        with AuthenticatedClient(base_url=self.base_url, token=token) as client:
            return fetch_my_data.sync_detailed(client=client).status_code

    def revoke(self, token: str) -> None:
        with AuthenticatedClient(base_url=self.base_url, token=token) as client:
            assert revoke_current_token.sync_detailed(client=client).status_code == 204


@pytest.fixture(scope="session")
def accounts() -> AccountsApp:
    base_url, log = _environment("SCHOOL_SEARCH_ACCOUNTS_BASE_URL", "SCHOOL_SEARCH_ACCOUNTS_LOG")
    return AccountsApp(base_url, log)


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
    #: Each token answer (login or rotation), as JSON.
    issued: list[dict[str, Any]] = field(default_factory=list)
    #: The body of each login sent, as JSON.
    login_bodies: list[dict[str, Any]] = field(default_factory=list)

    def record(self, response: httpx.Response) -> None:
        request = response.request
        auth = request.headers.get("Authorization")
        bearer = auth.removeprefix("Bearer ") if auth else None
        params = list(request.url.params.multi_items())
        self.calls.append(Call(request.method, request.url.path, response.status_code, bearer, params))

    def hooks(self) -> dict[str, Any]:
        def on_response(response: httpx.Response) -> None:
            request = response.request
            if request.method == "POST" and request.url.path.endswith("/v1/auth"):
                self.login_bodies.append(json.loads(request.content))
            if request.url.path.endswith(("/v1/auth", "/v1/auth/rotate")) and response.status_code == 200:
                response.read()
                self.issued.append(response.json())
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
        if not {"api_key", "token", "publishable_key"} & options.keys():
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
