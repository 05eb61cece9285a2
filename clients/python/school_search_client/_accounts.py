"""SchoolSearchAccounts: the calls for someone without a token yet (blocking and asyncio)."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType, TracebackType
from typing import Any, Self, TypeVar

import httpx

from ._core import USER_AGENT, Send, expect_no_content, http_request, parse
from ._generated.api.signup import (
    accept_invitation,
    confirm_sign_up,
    get_sign_up_options,
    request_password_reset,
    reset_password,
    sign_up,
)
from ._generated.models import (
    LinkPassword,
    MailAccepted,
    PasswordReset,
    PasswordResetRequest,
    SignUp,
    SignUpOptions,
    Token,
)

T = TypeVar("T")


class SchoolSearchAccounts:
    """Sign up and confirm, accept an invitation, reset a forgotten password.

    ``sign_up`` and ``request_password_reset`` answer the same for every address (an e-mail is on
    its way to it); the token of a link is what follows ``#confirm/``, ``#invitation/`` or
    ``#reset/`` in it. The password of a new account is chosen when its link is used
    (``confirm_sign_up``). ``confirm_sign_up`` and ``accept_invitation`` return a session
    :class:`Token`: pass ``token.token`` to :class:`SchoolSearchClient`. An error answer raises
    :class:`SchoolSearchApiError` (a used or expired link: status 410, ``/problems/invalid-link``).
    """

    def __init__(self, base_url: str, *, timeout: float | httpx.Timeout | None = 30.0) -> None:
        self._http = httpx.Client(base_url=base_url, timeout=timeout, headers={"User-Agent": USER_AGENT})

    def sign_up_options(self) -> SignUpOptions:
        return self._call(get_sign_up_options, SignUpOptions)

    def sign_up(self, email: str, password: str | None = None) -> MailAccepted:
        """Mails ``email`` a confirmation link (or a note, when it has an account). ``password``
        is deprecated and ignored by the server (checked for its length only): the password is
        chosen with the link, in :meth:`confirm_sign_up`."""
        return self._call(sign_up, MailAccepted, body=_sign_up(email, password))

    def confirm_sign_up(self, token: str, password: str) -> Token:
        """Makes the account of a sign-up link with ``password`` (8 to 1024 characters) as its
        password, and signs in. (A link mailed before sign-up stopped asking for a password
        needs the password chosen then.)"""
        return self._call(confirm_sign_up, Token, body=LinkPassword(token=token, password=password))

    def accept_invitation(self, token: str, password: str) -> Token:
        return self._call(accept_invitation, Token, body=LinkPassword(token=token, password=password))

    def request_password_reset(self, email: str) -> MailAccepted:
        return self._call(request_password_reset, MailAccepted, body=PasswordResetRequest(email=email))

    def reset_password(self, token: str, new_password: str, *, revoke_api_keys: bool = False) -> None:
        """Sets the new password; every session of the account ends. API keys keep working unless
        ``revoke_api_keys`` (choose it when someone else may know the old password)."""
        body = _password_reset(token, new_password, revoke_api_keys)
        expect_no_content(self._send(reset_password, {"body": body}))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _send(self, operation: ModuleType, kwargs: Mapping[str, Any]) -> httpx.Response:
        return self._http.request(**http_request(Send(operation, kwargs)))

    def _call(self, operation: ModuleType, expect: type[T], **kwargs: Any) -> T:
        return parse(operation, self._send(operation, kwargs), expect)


class AsyncSchoolSearchAccounts:
    """:class:`SchoolSearchAccounts` for asyncio: the same methods, each a coroutine."""

    def __init__(self, base_url: str, *, timeout: float | httpx.Timeout | None = 30.0) -> None:
        self._http = httpx.AsyncClient(base_url=base_url, timeout=timeout, headers={"User-Agent": USER_AGENT})

    async def sign_up_options(self) -> SignUpOptions:
        return await self._call(get_sign_up_options, SignUpOptions)

    async def sign_up(self, email: str, password: str | None = None) -> MailAccepted:
        return await self._call(sign_up, MailAccepted, body=_sign_up(email, password))

    async def confirm_sign_up(self, token: str, password: str) -> Token:
        return await self._call(confirm_sign_up, Token, body=LinkPassword(token=token, password=password))

    async def accept_invitation(self, token: str, password: str) -> Token:
        return await self._call(accept_invitation, Token, body=LinkPassword(token=token, password=password))

    async def request_password_reset(self, email: str) -> MailAccepted:
        return await self._call(request_password_reset, MailAccepted, body=PasswordResetRequest(email=email))

    async def reset_password(self, token: str, new_password: str, *, revoke_api_keys: bool = False) -> None:
        body = _password_reset(token, new_password, revoke_api_keys)
        expect_no_content(await self._http.request(**http_request(Send(reset_password, {"body": body}))))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()

    async def _call(self, operation: ModuleType, expect: type[T], **kwargs: Any) -> T:
        response = await self._http.request(**http_request(Send(operation, kwargs)))
        return parse(operation, response, expect)


def _sign_up(email: str, password: str | None) -> SignUp:
    # The deprecated password only when given: the server ignores it.
    return SignUp(email=email) if password is None else SignUp(email=email, password=password)


def _password_reset(token: str, new_password: str, revoke_api_keys: bool) -> PasswordReset:
    # revoke_api_keys only when asked for: false is the API's default anyway.
    if revoke_api_keys:
        return PasswordReset(token=token, new_password=new_password, revoke_api_keys=True)
    return PasswordReset(token=token, new_password=new_password)
