"""API key mode: a key made through the generated low-level client, used by SchoolSearchClient as is."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from school_search_client import SchoolSearchApiError, SchoolSearchClient
from school_search_client._generated import AuthenticatedClient
from school_search_client._generated.api.auth import revoke_my_token
from school_search_client._generated.api.keys import create_api_key
from school_search_client._generated.models import ApiKey, ApiKeyRequest

if TYPE_CHECKING:
    from conftest import Recorder, Server

MakeClient = Callable[..., SchoolSearchClient]


def test_when_given_an_api_key_then_the_client_uses_it_without_logging_in(
    make_client: MakeClient, recorder: Recorder, server: Server
) -> None:
    session = server.login()
    with AuthenticatedClient(base_url=server.base_url, token=session.token) as owner:
        key = create_api_key.sync(
            client=owner,
            body=ApiKeyRequest(name="python client test", expires_in_days=1, current_password=server.password),
        )
        assert isinstance(key, ApiKey), key
        try:
            api = make_client(api_key=key.token)
            page = api.search("harvard")
            me = api.my_data()
            api.close()

            assert page.requestresult.schools[0].schoolname == "Harvard University"
            assert me.email.lower() == server.email.lower()
            assert recorder.logins == 0
            assert {call.bearer for call in recorder.calls} == {key.token}
            assert recorder.count("DELETE", "/v1/auth") == 0, "close() never revokes a key it was given"
            assert server.status_with(key.token) == 200

            revoked = revoke_my_token.sync_detailed(client=owner, token_id=key.token_id)
            assert revoked.status_code == 204
            recorder.calls.clear()

            with pytest.raises(SchoolSearchApiError) as caught:
                make_client(api_key=key.token).search("harvard")

            assert caught.value.status == 401
            assert caught.value.type == "/problems/unauthorized"
            assert [(call.method, call.status) for call in recorder.calls] == [("GET", 401)], "no login, no retry"
        finally:
            revoke_my_token.sync_detailed(client=owner, token_id=key.token_id)
            server.revoke(session.token)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"email": "a@example.com"},
        {"password": "only-a-password"},
        {"api_key": "ssk_a", "token": "ssk_b"},
    ],
)
def test_when_credentials_are_incomplete_or_contradictory_then_the_constructor_refuses(options: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        SchoolSearchClient("http://127.0.0.1:9", **options)
