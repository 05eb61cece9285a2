"""Sessions, device proofs and password changes against the second app (conftest.py, ``accounts``):
each of its sessions lasts one token, it trusts X-Forwarded-For from loopback, and three failed
logins at an account from all clients together hold every client without a device proof back."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

import pytest

from school_search_client import (
    AsyncSchoolSearchAccounts,
    AsyncSchoolSearchClient,
    SchoolSearchApiError,
    SchoolSearchClient,
)

if TYPE_CHECKING:
    from conftest import Account, AccountsApp, Recorder

CEILING = 3  # RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS of the accounts app


class FakeClock:
    """The client's clock, moved by the test; the server keeps its own."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def from_address(ip: str, recorder: Recorder | None = None) -> dict[str, Any]:
    """httpx_args for a client whose requests come from ``ip`` (the app trusts X-Forwarded-For)."""
    return {"headers": {"X-Forwarded-For": ip}, **(recorder.hooks() if recorder else {})}


def client_of(accounts: AccountsApp, account: Account, **options: Any) -> SchoolSearchClient:
    return SchoolSearchClient(accounts.base_url, email=account.email, password=account.password, **options)


def test_when_the_token_expires_with_its_session_then_the_client_logs_in_again_instead_of_rotating(
    accounts: AccountsApp, recorder: Recorder
) -> None:
    account = accounts.new_account("session")
    clock = FakeClock()
    with client_of(accounts, account, clock=clock, renew_before_seconds=60, httpx_args=recorder.hooks()) as api:
        api.my_data()
        first = recorder.last_bearer
        [issued] = recorder.issued
        assert issued["expires_at"] == issued["session_expires_at"], "the accounts app: one token per session"

        clock.now += issued["expires_in"] - 30  # inside the renewal margin, before expiry
        api.my_data()

        assert recorder.count("POST", "/v1/auth/rotate") == 0, "a rotation would come back no later"
        assert recorder.logins == 2
        assert recorder.last_bearer not in (first, recorder.issued[0]["token"])
        assert recorder.last_bearer == recorder.issued[1]["token"]
        assert recorder.issued[1]["session_expires_at"] > issued["session_expires_at"]
        assert [call.status for call in recorder.calls if call.status == 401] == []


def test_when_strangers_hold_the_account_at_the_ceiling_then_a_new_client_is_locked_out_but_the_one_with_the_proof_is_not(
    accounts: AccountsApp, recorder: Recorder
) -> None:
    account = accounts.new_account("proof")
    proofs: list[str] = []
    with client_of(
        accounts, account, httpx_args=from_address("198.51.100.9", recorder), on_device_proof=proofs.append
    ) as holder:
        holder.my_data()
        first_proof = holder.device_proof

        assert [accounts.failed_login(account.email, f"203.0.113.{i}") for i in range(CEILING)] == [401] * CEILING
        with client_of(accounts, account, httpx_args=from_address("198.51.100.10")) as newcomer:
            with pytest.raises(SchoolSearchApiError) as caught:
                newcomer.my_data()
            assert (caught.value.status, caught.value.type) == (429, "/problems/rate-limited")

        holder.logout()
        assert holder.my_data().email == account.email, "its next login carries the proof"

        # What went over the wire: an empty proof with the first login, its answer's with the next.
        assert [body.get("device_proof") for body in recorder.login_bodies] == ["", first_proof]
        assert first_proof is not None and first_proof.startswith("v1.")
        assert proofs == [first_proof, holder.device_proof]

        # A proof the caller kept and gave a new client (a program restarted) works the same.
        with client_of(
            accounts, account, httpx_args=from_address("192.0.2.44"), device_proof=holder.device_proof
        ) as restarted:
            assert restarted.my_data().email == account.email


def test_when_the_device_proof_given_is_not_one_a_server_issues_then_the_client_refuses_it(
    accounts: AccountsApp,
) -> None:
    with pytest.raises(TypeError, match="at most 100 characters"):
        SchoolSearchClient(accounts.base_url, email="a@example.org", password="password-1", device_proof="x" * 101)


def test_when_the_password_is_changed_then_keys_keep_working_and_the_client_goes_on_with_the_new_password(
    accounts: AccountsApp, recorder: Recorder
) -> None:
    account = accounts.new_account("change")
    with client_of(accounts, account, httpx_args=recorder.hooks()) as api:
        key = api.create_api_key("program")
        other = accounts.login(account)

        api.change_password(account.password, "a-new-password-2")

        assert api.my_data().email == account.email
        assert recorder.logins == 1, "the client's own token was carried over"
        assert accounts.status_with(other.token) == 401, "every other session ends"
        assert accounts.status_with(key.token) == 200, "API keys keep working"
        # What the client confirms a key with, and logs in with, is the new password now.
        second = api.create_api_key("second program")
        accounts.revoke(recorder.last_bearer)
        assert api.my_data().email == account.email
        assert [call.status for call in recorder.to("/v1/auth") if call.method == "POST"] == [200, 200]
        assert recorder.login_bodies[-1]["password"] == "a-new-password-2"

        api.change_password("a-new-password-2", "a-third-password-3", revoke_api_keys=True)

        assert (accounts.status_with(key.token), accounts.status_with(second.token)) == (401, 401)
        assert [token.kind for token in api.list_tokens().tokens] == ["session"]

        with pytest.raises(SchoolSearchApiError) as caught:
            api.change_password("not-the-password", "a-fourth-password-4")
        assert (caught.value.status, caught.value.type) == (403, "/problems/wrong-password")


def test_the_async_client_changes_the_password_as_the_blocking_one(accounts: AccountsApp) -> None:
    email = f"py-async-{uuid.uuid4().hex[:8]}@example.org"

    async def run() -> list[int]:
        async with AsyncSchoolSearchAccounts(accounts.base_url) as anonymous:
            await anonymous.sign_up(email)
            await anonymous.confirm_sign_up(accounts.next_link(email, "confirm"), "async-password-1")
        async with AsyncSchoolSearchClient(accounts.base_url, email=email, password="async-password-1") as api:
            key = await api.create_api_key("program")
            await api.change_password("async-password-1", "async-password-2", revoke_api_keys=True)
            await api.my_data()
            return [accounts.status_with(key.token), (await api.my_data()).active_tokens]

    assert asyncio.run(run()) == [401, 1]
