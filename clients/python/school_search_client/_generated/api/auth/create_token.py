from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credentials import Credentials
from ...models.problem import Problem
from ...models.token import Token
from ...types import Response


def _get_kwargs(
    *,
    body: Credentials,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Token | None:
    if response.status_code == 200:
        response_200 = Token.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[Problem | Token]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Credentials,
) -> Response[Problem | Token]:
    """Exchange e-mail and password for a bearer token

     Verifies the credentials and issues a new bearer token that expires after `expires_in`
    seconds. An unknown e-mail and a wrong password give the same answer. Each successful call
    creates a new session token; earlier tokens stay valid until they expire or are revoked (a
    user holds at most 100 live session tokens: beyond that, the oldest session is revoked;
    API keys are not affected).

    Rate limited, against password guessing: by default at most 30 attempts per minute from
    one client (IP address), 10 failed attempts per minute at one e-mail address from one
    client, and 100 failed attempts per minute at one e-mail address from all clients
    together (successful logins do not count). Over a quota the answer is 429 with
    `Retry-After`; the `RateLimit` and `RateLimit-Policy` headers show the per-client quotas
    (never the per-address ceiling, whose count would tell a stranger how often an address
    failed). Operators configure the numbers (README).

    A device that logged in to the account recently is not held back by the all-clients
    ceiling: a browser proves it with the `ss_device` cookie, any other client by sending
    `device_proof` with every login (an empty string the first time) and the one its last
    login's answer gave with the next (both official clients do). The answer carries a
    `device_proof` only when the request had one, so that a page's scripts never see the
    browser's.

    The session lasts `expires_in` seconds; rotation renews it, but never past
    `session_expires_at` (by default 12 hours after the password was given): then the client
    logs in again.

    Args:
        body (Credentials):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
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
    body: Credentials,
) -> Problem | Token | None:
    """Exchange e-mail and password for a bearer token

     Verifies the credentials and issues a new bearer token that expires after `expires_in`
    seconds. An unknown e-mail and a wrong password give the same answer. Each successful call
    creates a new session token; earlier tokens stay valid until they expire or are revoked (a
    user holds at most 100 live session tokens: beyond that, the oldest session is revoked;
    API keys are not affected).

    Rate limited, against password guessing: by default at most 30 attempts per minute from
    one client (IP address), 10 failed attempts per minute at one e-mail address from one
    client, and 100 failed attempts per minute at one e-mail address from all clients
    together (successful logins do not count). Over a quota the answer is 429 with
    `Retry-After`; the `RateLimit` and `RateLimit-Policy` headers show the per-client quotas
    (never the per-address ceiling, whose count would tell a stranger how often an address
    failed). Operators configure the numbers (README).

    A device that logged in to the account recently is not held back by the all-clients
    ceiling: a browser proves it with the `ss_device` cookie, any other client by sending
    `device_proof` with every login (an empty string the first time) and the one its last
    login's answer gave with the next (both official clients do). The answer carries a
    `device_proof` only when the request had one, so that a page's scripts never see the
    browser's.

    The session lasts `expires_in` seconds; rotation renews it, but never past
    `session_expires_at` (by default 12 hours after the password was given): then the client
    logs in again.

    Args:
        body (Credentials):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Credentials,
) -> Response[Problem | Token]:
    """Exchange e-mail and password for a bearer token

     Verifies the credentials and issues a new bearer token that expires after `expires_in`
    seconds. An unknown e-mail and a wrong password give the same answer. Each successful call
    creates a new session token; earlier tokens stay valid until they expire or are revoked (a
    user holds at most 100 live session tokens: beyond that, the oldest session is revoked;
    API keys are not affected).

    Rate limited, against password guessing: by default at most 30 attempts per minute from
    one client (IP address), 10 failed attempts per minute at one e-mail address from one
    client, and 100 failed attempts per minute at one e-mail address from all clients
    together (successful logins do not count). Over a quota the answer is 429 with
    `Retry-After`; the `RateLimit` and `RateLimit-Policy` headers show the per-client quotas
    (never the per-address ceiling, whose count would tell a stranger how often an address
    failed). Operators configure the numbers (README).

    A device that logged in to the account recently is not held back by the all-clients
    ceiling: a browser proves it with the `ss_device` cookie, any other client by sending
    `device_proof` with every login (an empty string the first time) and the one its last
    login's answer gave with the next (both official clients do). The answer carries a
    `device_proof` only when the request had one, so that a page's scripts never see the
    browser's.

    The session lasts `expires_in` seconds; rotation renews it, but never past
    `session_expires_at` (by default 12 hours after the password was given): then the client
    logs in again.

    Args:
        body (Credentials):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: Credentials,
) -> Problem | Token | None:
    """Exchange e-mail and password for a bearer token

     Verifies the credentials and issues a new bearer token that expires after `expires_in`
    seconds. An unknown e-mail and a wrong password give the same answer. Each successful call
    creates a new session token; earlier tokens stay valid until they expire or are revoked (a
    user holds at most 100 live session tokens: beyond that, the oldest session is revoked;
    API keys are not affected).

    Rate limited, against password guessing: by default at most 30 attempts per minute from
    one client (IP address), 10 failed attempts per minute at one e-mail address from one
    client, and 100 failed attempts per minute at one e-mail address from all clients
    together (successful logins do not count). Over a quota the answer is 429 with
    `Retry-After`; the `RateLimit` and `RateLimit-Policy` headers show the per-client quotas
    (never the per-address ceiling, whose count would tell a stranger how often an address
    failed). Operators configure the numbers (README).

    A device that logged in to the account recently is not held back by the all-clients
    ceiling: a browser proves it with the `ss_device` cookie, any other client by sending
    `device_proof` with every login (an empty string the first time) and the one its last
    login's answer gave with the next (both official clients do). The answer carries a
    `device_proof` only when the request had one, so that a page's scripts never see the
    browser's.

    The session lasts `expires_in` seconds; rotation renews it, but never past
    `session_expires_at` (by default 12 hours after the password was given): then the client
    logs in again.

    Args:
        body (Credentials):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
