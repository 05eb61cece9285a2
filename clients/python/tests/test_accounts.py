"""SchoolSearchAccounts against the real API: the options, a sign-up's answer (the same for every
address), and links that cannot be used. The whole flow with the mailed link is tested in
TypeScript against an in-process SMTP server (test/client/accounts.test.ts)."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

import pytest

from school_search_client import AsyncSchoolSearchAccounts, SchoolSearchAccounts, SchoolSearchApiError

if TYPE_CHECKING:
    from conftest import Server

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
