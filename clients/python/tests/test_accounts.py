"""SchoolSearchAccounts against the real API: the options, a sign-up's answer (the same for every
address), links that cannot be used, and (on the accounts app, whose e-mails are in its log) a
sign-up with the e-mail alone confirmed with the password chosen then, and resets that keep or
revoke the API keys."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import TYPE_CHECKING

import pytest

from school_search_client import (
    AsyncSchoolSearchAccounts,
    SchoolSearchAccounts,
    SchoolSearchApiError,
    SchoolSearchClient,
)

if TYPE_CHECKING:
    from conftest import AccountsApp, Server

UNUSABLE = "ssl_" + "A" * 43


def test_options_and_the_same_answer_for_a_known_and_an_unknown_address(server: Server) -> None:
    with SchoolSearchAccounts(server.base_url) as accounts:
        options = accounts.sign_up_options()
        assert options.password_reset is True
        known = accounts.request_password_reset(server.email)
        unknown = accounts.request_password_reset(f"nobody-{os.getpid()}@example.org")
        assert known.to_dict() == unknown.to_dict()
        assert known.status == "accepted"


def test_a_link_that_cannot_be_used_is_an_api_error_410(server: Server) -> None:
    with SchoolSearchAccounts(server.base_url) as accounts, pytest.raises(SchoolSearchApiError) as caught:
        accounts.reset_password(UNUSABLE, "a-new-password-1")
    assert caught.value.status == 410
    assert caught.value.type == "/problems/invalid-link"


def test_the_async_accounts_answer_as_the_blocking_ones(server: Server) -> None:
    async def run() -> int:
        async with AsyncSchoolSearchAccounts(server.base_url) as accounts:
            await accounts.sign_up_options()
            try:
                await accounts.accept_invitation(UNUSABLE, "a-new-password-1")
            except SchoolSearchApiError as error:
                return error.status
            return 200

    assert asyncio.run(run()) in (403, 410)


def test_when_someone_signs_up_with_an_email_alone_then_the_password_is_chosen_with_the_link(
    accounts: AccountsApp,
) -> None:
    email = f"py-signup-{uuid.uuid4().hex[:8]}@example.org"
    with SchoolSearchAccounts(accounts.base_url) as anonymous:
        assert anonymous.sign_up(email).status == "accepted"
        issued = anonymous.confirm_sign_up(accounts.next_link(email, "confirm"), "chosen-with-the-link-1")

    assert issued.session_expires_at >= issued.expires_at
    assert accounts.status_with(issued.token) == 200
    with SchoolSearchClient(accounts.base_url, email=email, password="chosen-with-the-link-1") as api:
        assert api.my_data().email == email


def test_when_a_password_is_reset_then_api_keys_keep_working_unless_revoke_api_keys(accounts: AccountsApp) -> None:
    account = accounts.new_account("reset")
    session = accounts.login(account)
    with SchoolSearchClient(accounts.base_url, email=account.email, password=account.password) as owner:
        key = owner.create_api_key("program")

    with SchoolSearchAccounts(accounts.base_url) as anonymous:
        anonymous.request_password_reset(account.email)
        anonymous.reset_password(accounts.next_link(account.email, "reset"), "second-password-2")

        assert accounts.status_with(session.token) == 401, "every session ends"
        assert accounts.status_with(key.token) == 200, "API keys keep working"

        anonymous.request_password_reset(account.email)
        anonymous.reset_password(accounts.next_link(account.email, "reset"), "third-password-3", revoke_api_keys=True)

        assert accounts.status_with(key.token) == 401

    with SchoolSearchClient(accounts.base_url, email=account.email, password="third-password-3") as again:
        assert [token.kind for token in again.list_tokens().tokens] == ["session"]
