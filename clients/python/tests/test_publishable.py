"""Publishable keys: made and re-scoped by a password client, used by a page's client that holds only
the key. A browser sends ``Origin``; these clients send it as a header of their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from school_search_client import ApiKey, AsyncSchoolSearchClient, SchoolSearchApiError, SchoolSearchClient
from school_search_client._core import KeyPlacement

if TYPE_CHECKING:
    from conftest import Recorder, Server

PAGE = "https://www.example.org"


@pytest.fixture
def owner(server: Server) -> Iterator[SchoolSearchClient]:
    with SchoolSearchClient(server.base_url, email=server.email, password=server.password) as client:
        yield client


@pytest.fixture
def key(owner: SchoolSearchClient) -> Iterator[ApiKey]:
    made = owner.create_publishable_key("python page", [PAGE], visitor_searches_per_minute=30, expires_in_days=1)
    yield made
    owner.revoke_token(made.token_id)


def page_client(
    server: Server, key: str, recorder: Recorder, origin: str = PAGE, placement: KeyPlacement = "query"
) -> SchoolSearchClient:
    return SchoolSearchClient(
        server.base_url,
        publishable_key=key,
        publishable_key_in=placement,
        httpx_args={"headers": {"Origin": origin}, **recorder.hooks()},
    )


def test_when_created_then_it_is_a_publishable_key_with_its_origins_and_the_list_shows_its_type(
    owner: SchoolSearchClient, key: ApiKey
) -> None:
    assert key.token.startswith("spk_")
    assert key.key_type == "publishable"
    assert key.publishable and key.publishable.origins == [PAGE]
    assert key.publishable.visitor_searches_per_minute == 30
    listed = next(t for t in owner.list_tokens().tokens if t.token_id == key.token_id)
    assert (listed.kind, listed.key_type, listed.name) == ("key", "publishable", "python page")


def test_when_a_page_searches_with_it_then_the_key_goes_as_the_key_parameter_without_authorization(
    server: Server, key: ApiKey, recorder: Recorder
) -> None:
    with page_client(server, key.token, recorder) as api:
        page = api.search("harvard")
        record = api.get_school(page.requestresult.schools[0].schoolid)

    assert record.schoolname == "Harvard University"
    assert [(call.path, call.bearer, dict(call.params).get("key")) for call in recorder.calls] == [
        ("/v1/fetchSchoolSearch", None, key.token),
        (f"/v1/schools/{record.schoolid}", None, key.token),
    ]


def test_when_placed_in_the_header_then_it_goes_as_a_bearer_token_and_not_in_the_url(
    server: Server, key: ApiKey, recorder: Recorder
) -> None:
    with page_client(server, key.token, recorder, placement="header") as api:
        api.search("harvard")

    assert [(call.bearer, dict(call.params).get("key")) for call in recorder.calls] == [(key.token, None)]


@pytest.mark.parametrize("call", ["my_data", "list_tokens", "my_usage"])
def test_when_a_publishable_key_client_calls_another_operation_then_it_is_the_servers_403(
    server: Server, key: ApiKey, recorder: Recorder, call: str
) -> None:
    with page_client(server, key.token, recorder) as api, pytest.raises(SchoolSearchApiError) as caught:
        getattr(api, call)()

    assert caught.value.status == 403
    assert caught.value.type == "/problems/publishable-key-not-allowed"


def test_when_the_page_is_not_one_of_its_origins_then_a_403_origin_not_allowed(
    server: Server, key: ApiKey, recorder: Recorder
) -> None:
    with (
        page_client(server, key.token, recorder, origin="https://elsewhere.example.com") as api,
        pytest.raises(SchoolSearchApiError) as caught,
    ):
        api.search("harvard")

    assert (caught.value.status, caught.value.type) == (403, "/problems/origin-not-allowed")


def test_when_re_scoped_then_the_new_origin_works_and_history_and_usage_name_the_key(
    server: Server, owner: SchoolSearchClient, key: ApiKey, recorder: Recorder
) -> None:
    updated = owner.update_api_key(key.token_id, name="apply page", origins=["https://apply.example.org"])
    with page_client(server, key.token, recorder, origin="https://apply.example.org") as api:
        api.search("harvard")
    with page_client(server, key.token, recorder) as api, pytest.raises(SchoolSearchApiError) as caught:
        api.search("harvard")

    assert updated.name == "apply page"
    assert updated.publishable and updated.publishable.origins == ["https://apply.example.org"]
    assert caught.value.type == "/problems/origin-not-allowed"
    history = owner.my_requests(key_id=key.token_id)
    assert history.total_count == 1
    assert [(str(r.key_id), r.origin) for r in history.requests] == [(str(key.token_id), "https://apply.example.org")]
    usage = owner.my_usage(1, key_id=key.token_id)
    assert sum(day.request_count for day in usage.days) == 1
    assert any(str(item.key_id) == str(key.token_id) and item.request_count == 1 for item in usage.by_key)
    assert any(item.origin == "https://apply.example.org" for item in owner.my_usage(1).by_origin)


@pytest.mark.anyio
async def test_when_the_async_client_holds_a_publishable_key_then_it_searches_from_the_page(
    server: Server, key: ApiKey
) -> None:
    async with AsyncSchoolSearchClient(
        server.base_url, publishable_key=key.token, httpx_args={"headers": {"Origin": PAGE}}
    ) as api:
        page = await api.search("harvard")
        with pytest.raises(SchoolSearchApiError) as caught:
            await api.my_data()

    assert page.requestresult.schools[0].schoolname == "Harvard University"
    assert caught.value.type == "/problems/publishable-key-not-allowed"


@pytest.mark.parametrize(
    "options",
    [{"publishable_key": "ssk_secret"}, {"publishable_key": "spk_a", "api_key": "ssk_b"}],
)
def test_when_the_publishable_key_is_not_one_or_not_alone_then_the_constructor_refuses(
    options: dict[str, str],
) -> None:
    with pytest.raises(TypeError):
        SchoolSearchClient("http://127.0.0.1:9", **options)  # type: ignore[arg-type]
