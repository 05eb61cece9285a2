from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.mail_accepted import MailAccepted
from ...models.password_reset_request import PasswordResetRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: PasswordResetRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/password/forgot",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MailAccepted | Problem | None:
    if response.status_code == 202:
        response_202 = MailAccepted.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[MailAccepted | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordResetRequest,
) -> Response[MailAccepted | Problem]:
    """Ask for a password reset link by e-mail

     Sends one e-mail to the address: a reset link (valid 1 hour, single use) when it has an
    account, or a note that it has none. The answer is the same 202, with the same body, either
    way. A server that sends no mail answers 403 `password-reset-off`, for every address.

    Asking again while a link is pending (with at least a quarter of its hour left) sends the
    same link again rather than a new one. An address gets at most 5 e-mails of one link (by
    default); further requests are answered the same 202 and send nothing, because the
    address has the link already: a stranger can neither flood an address nor keep its owner
    from resetting. When the mail server does not take the e-mail, the answer is 503 with
    `Retry-After`: the e-mail is kept and sent again automatically. Limited per client (by
    default 20 an hour).

    Args:
        body (PasswordResetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MailAccepted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordResetRequest,
) -> MailAccepted | Problem | None:
    """Ask for a password reset link by e-mail

     Sends one e-mail to the address: a reset link (valid 1 hour, single use) when it has an
    account, or a note that it has none. The answer is the same 202, with the same body, either
    way. A server that sends no mail answers 403 `password-reset-off`, for every address.

    Asking again while a link is pending (with at least a quarter of its hour left) sends the
    same link again rather than a new one. An address gets at most 5 e-mails of one link (by
    default); further requests are answered the same 202 and send nothing, because the
    address has the link already: a stranger can neither flood an address nor keep its owner
    from resetting. When the mail server does not take the e-mail, the answer is 503 with
    `Retry-After`: the e-mail is kept and sent again automatically. Limited per client (by
    default 20 an hour).

    Args:
        body (PasswordResetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MailAccepted | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordResetRequest,
) -> Response[MailAccepted | Problem]:
    """Ask for a password reset link by e-mail

     Sends one e-mail to the address: a reset link (valid 1 hour, single use) when it has an
    account, or a note that it has none. The answer is the same 202, with the same body, either
    way. A server that sends no mail answers 403 `password-reset-off`, for every address.

    Asking again while a link is pending (with at least a quarter of its hour left) sends the
    same link again rather than a new one. An address gets at most 5 e-mails of one link (by
    default); further requests are answered the same 202 and send nothing, because the
    address has the link already: a stranger can neither flood an address nor keep its owner
    from resetting. When the mail server does not take the e-mail, the answer is 503 with
    `Retry-After`: the e-mail is kept and sent again automatically. Limited per client (by
    default 20 an hour).

    Args:
        body (PasswordResetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MailAccepted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordResetRequest,
) -> MailAccepted | Problem | None:
    """Ask for a password reset link by e-mail

     Sends one e-mail to the address: a reset link (valid 1 hour, single use) when it has an
    account, or a note that it has none. The answer is the same 202, with the same body, either
    way. A server that sends no mail answers 403 `password-reset-off`, for every address.

    Asking again while a link is pending (with at least a quarter of its hour left) sends the
    same link again rather than a new one. An address gets at most 5 e-mails of one link (by
    default); further requests are answered the same 202 and send nothing, because the
    address has the link already: a stranger can neither flood an address nor keep its owner
    from resetting. When the mail server does not take the e-mail, the answer is 503 with
    `Retry-After`: the e-mail is kept and sent again automatically. Limited per client (by
    default 20 an hour).

    Args:
        body (PasswordResetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MailAccepted | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
