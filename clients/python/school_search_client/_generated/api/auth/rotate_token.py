from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.token import Token
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/rotate",
    }

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

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[Problem | Token]:
    """Replace the token used for this request with a new one

     Issues a new token for the caller and revokes the one that authenticated this request, in
    one step. Use it when a token may have leaked, or to renew a token before it expires.
    Only a session token (from `POST /v1/auth`) is rotated here: an API key is a 403
    `not-a-session` and stays as it was (rotate a key with `POST /v1/keys/{tokenId}/rotate`).

    The new token belongs to the same session: it expires at the session's
    `session_expires_at` at the latest (the absolute session lifetime, by default 12 hours
    after the password was last given), so a stolen session cannot be kept alive by
    rotating it. After that, log in again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | Token | None:
    """Replace the token used for this request with a new one

     Issues a new token for the caller and revokes the one that authenticated this request, in
    one step. Use it when a token may have leaked, or to renew a token before it expires.
    Only a session token (from `POST /v1/auth`) is rotated here: an API key is a 403
    `not-a-session` and stays as it was (rotate a key with `POST /v1/keys/{tokenId}/rotate`).

    The new token belongs to the same session: it expires at the session's
    `session_expires_at` at the latest (the absolute session lifetime, by default 12 hours
    after the password was last given), so a stolen session cannot be kept alive by
    rotating it. After that, log in again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | Token]:
    """Replace the token used for this request with a new one

     Issues a new token for the caller and revokes the one that authenticated this request, in
    one step. Use it when a token may have leaked, or to renew a token before it expires.
    Only a session token (from `POST /v1/auth`) is rotated here: an API key is a 403
    `not-a-session` and stays as it was (rotate a key with `POST /v1/keys/{tokenId}/rotate`).

    The new token belongs to the same session: it expires at the session's
    `session_expires_at` at the latest (the absolute session lifetime, by default 12 hours
    after the password was last given), so a stolen session cannot be kept alive by
    rotating it. After that, log in again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Token]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | Token | None:
    """Replace the token used for this request with a new one

     Issues a new token for the caller and revokes the one that authenticated this request, in
    one step. Use it when a token may have leaked, or to renew a token before it expires.
    Only a session token (from `POST /v1/auth`) is rotated here: an API key is a 403
    `not-a-session` and stays as it was (rotate a key with `POST /v1/keys/{tokenId}/rotate`).

    The new token belongs to the same session: it expires at the session's
    `session_expires_at` at the latest (the absolute session lifetime, by default 12 hours
    after the password was last given), so a stolen session cannot be kept alive by
    rotating it. After that, log in again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Token
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
