"""A request the client refuses before sending says what the server would: each input goes to the
server as a raw request and to the client as a call, and the client's items (location, name,
message) equal those of the server's 400."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from school_search_client import SchoolSearchClient, SchoolSearchValidationError

if TYPE_CHECKING:
    from conftest import Recorder, Server

Call = Callable[[SchoolSearchClient], object]
KEY = "3c9a1f2e-7b4d-4e6a-9f8b-1a2b3c4d5e6f"
LONG = "a" * 201


@pytest.fixture(scope="module")
def raw(server: Server) -> Iterator[httpx.Client]:
    session = server.login()
    with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Bearer {session.token}"}) as client:
        yield client
    server.revoke(session.token)


def search(query: str) -> tuple[str, str, None]:
    return ("GET", f"/v1/fetchSchoolSearch?{query}", None)


def key_body(server: Server, **fields: Any) -> dict[str, Any]:
    return {"name": "form", "origins": ["https://www.example.org"], "current_password": server.password, **fields}


CASES: list[tuple[str, Call, Callable[[Server], tuple[str, str, Any]]]] = [
    ("unknown state code", lambda c: c.search("a", "XX"), lambda s: search("query=a&stateCode=XX")),
    ("unknown lower-case state code", lambda c: c.search("a", "zz"), lambda s: search("query=a&stateCode=zz")),
    ("three-letter state code", lambda c: c.search("a", "MAS"), lambda s: search("query=a&stateCode=MAS")),
    ("limit above 25", lambda c: c.search("a", limit=26), lambda s: search("query=a&limit=26")),
    ("limit of 0", lambda c: c.search("a", limit=0), lambda s: search("query=a&limit=0")),
    ("fractional limit", lambda c: c.search("a", limit=1.5), lambda s: search("query=a&limit=1.5")),  # type: ignore[arg-type]
    ("negative offset", lambda c: c.search("a", offset=-1), lambda s: search("query=a&offset=-1")),
    ("offset past the guard", lambda c: c.search("a", offset=10001), lambda s: search("query=a&offset=10001")),
    ("empty query", lambda c: c.search(""), lambda s: search("query=")),
    ("blank query", lambda c: c.search("   "), lambda s: search("query=%20%20%20")),
    ("query of 201 characters", lambda c: c.search(LONG), lambda s: search(f"query={LONG}")),
    ("unknown level", lambda c: c.search("a", level="college"), lambda s: search("query=a&level=college")),  # type: ignore[arg-type]
    ("unknown type", lambda c: c.search("a", type="magnet"), lambda s: search("query=a&type=magnet")),  # type: ignore[arg-type]
    ("near that is not a point", lambda c: c.search("a", near="cambridge"), lambda s: search("query=a&near=cambridge")),
    (
        "radius of 0",
        lambda c: c.search("a", near=(1, 2), radius_km=0),
        lambda s: search("query=a&near=1,2&radius_km=0"),
    ),
    ("school id that is not a UUID", lambda c: c.get_school("harvard"), lambda s: ("GET", "/v1/schools/harvard", None)),
    ("usage over 0 days", lambda c: c.my_usage(0), lambda s: ("GET", "/v1/fetchMyUsage?days=0", None)),
    (
        "key filter that is not a UUID",
        lambda c: c.my_requests(key_id="abc"),
        lambda s: ("GET", "/v1/fetchMyRequests?key_id=abc", None),
    ),
    (
        "origin with a path",
        lambda c: c.create_publishable_key("form", ["https://www.example.org/"]),
        lambda s: ("POST", "/v1/publishable-keys", key_body(s, origins=["https://www.example.org/"])),
    ),
    (
        "origin of another scheme",
        lambda c: c.create_publishable_key("form", ["ftp://files.example.org"]),
        lambda s: ("POST", "/v1/publishable-keys", key_body(s, origins=["ftp://files.example.org"])),
    ),
    (
        "bare * for an origin, an empty name and a lifetime too long",
        lambda c: c.create_publishable_key("", ["*"], expires_in_days=4000),
        lambda s: ("POST", "/v1/publishable-keys", key_body(s, name="", origins=["*"], expires_in_days=4000)),
    ),
    (
        "no origins and a budget of 0",
        lambda c: c.create_publishable_key("form", [], searches_per_minute=0),
        lambda s: ("POST", "/v1/publishable-keys", key_body(s, origins=[], searches_per_minute=0)),
    ),
    (
        "secret key living 366 days",
        lambda c: c.create_api_key("nightly", 366),
        lambda s: ("POST", "/v1/keys", {"name": "nightly", "expires_in_days": 366, "current_password": s.password}),
    ),
    (
        "blank new name",
        lambda c: c.update_api_key(KEY, name=" "),
        lambda s: ("PATCH", f"/v1/keys/{KEY}", {"name": " "}),
    ),
    ("update without a change", lambda c: c.update_api_key(KEY), lambda s: ("PATCH", f"/v1/keys/{KEY}", {})),
]


def items(errors: list[Any]) -> list[tuple[str, str, str]]:
    return sorted((str(item["location"]), item["name"], item["message"]) for item in errors)


@pytest.mark.parametrize(("label", "call", "request_"), CASES, ids=[case[0] for case in CASES])
def test_when_the_client_refuses_an_input_then_it_lists_what_the_server_would(
    label: str,
    call: Call,
    request_: Callable[[Server], tuple[str, str, Any]],
    server: Server,
    raw: httpx.Client,
    make_client: Callable[..., SchoolSearchClient],
    recorder: Recorder,
) -> None:
    method, path, body = request_(server)
    answer = raw.request(method, path, **({} if body is None else {"json": body}))
    assert answer.status_code == 400, answer.text
    assert answer.json()["type"] == "/problems/validation-error"

    with pytest.raises(SchoolSearchValidationError) as caught:
        call(make_client())

    assert recorder.calls == [], "nothing is sent, not even a login"
    assert caught.value.type == "/problems/validation-error"
    assert "pattern" not in str(caught.value)
    refused = [{"location": i.location, "name": i.name, "message": i.message} for i in caught.value.errors]
    assert items(refused) == items(answer.json()["errors"])
    assert isinstance(caught.value, ValueError)
