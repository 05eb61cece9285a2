from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key_update import ApiKeyUpdate
from ...models.problem import Problem
from ...models.token_info import TokenInfo
from ...types import Response


def _get_kwargs(
    token_id: UUID,
    *,
    body: ApiKeyUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/keys/{token_id}".format(
            token_id=quote(str(token_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TokenInfo | None:
    if response.status_code == 200:
        response_200 = TokenInfo.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | TokenInfo]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyUpdate,
) -> Response[Problem | TokenInfo]:
    """Rename an API key, or change a publishable key's origins and budgets

     Changes what is given of one of the caller's live API keys, at once on every instance:
    `name` for either kind; `origins`, `searches_per_minute`, `searches_per_day` and
    `visitor_searches_per_minute` for a publishable key only (given for a secret key, they
    are a 400 `validation-error` naming `origins`, and nothing changes). The value, the kind and the
    lifetime stay. Needs no password: nothing here gives the key a right it did not have
    (an origin added lets another page spend the key's budget, never read the account). A
    key that does not exist, is dead, is a session token or belongs to someone else gives
    the same 404.

    Args:
        token_id (UUID):
        body (ApiKeyUpdate): What to change; what is not given stays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenInfo]
    """

    kwargs = _get_kwargs(
        token_id=token_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyUpdate,
) -> Problem | TokenInfo | None:
    """Rename an API key, or change a publishable key's origins and budgets

     Changes what is given of one of the caller's live API keys, at once on every instance:
    `name` for either kind; `origins`, `searches_per_minute`, `searches_per_day` and
    `visitor_searches_per_minute` for a publishable key only (given for a secret key, they
    are a 400 `validation-error` naming `origins`, and nothing changes). The value, the kind and the
    lifetime stay. Needs no password: nothing here gives the key a right it did not have
    (an origin added lets another page spend the key's budget, never read the account). A
    key that does not exist, is dead, is a session token or belongs to someone else gives
    the same 404.

    Args:
        token_id (UUID):
        body (ApiKeyUpdate): What to change; what is not given stays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenInfo
    """

    return sync_detailed(
        token_id=token_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    token_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyUpdate,
) -> Response[Problem | TokenInfo]:
    """Rename an API key, or change a publishable key's origins and budgets

     Changes what is given of one of the caller's live API keys, at once on every instance:
    `name` for either kind; `origins`, `searches_per_minute`, `searches_per_day` and
    `visitor_searches_per_minute` for a publishable key only (given for a secret key, they
    are a 400 `validation-error` naming `origins`, and nothing changes). The value, the kind and the
    lifetime stay. Needs no password: nothing here gives the key a right it did not have
    (an origin added lets another page spend the key's budget, never read the account). A
    key that does not exist, is dead, is a session token or belongs to someone else gives
    the same 404.

    Args:
        token_id (UUID):
        body (ApiKeyUpdate): What to change; what is not given stays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenInfo]
    """

    kwargs = _get_kwargs(
        token_id=token_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyUpdate,
) -> Problem | TokenInfo | None:
    """Rename an API key, or change a publishable key's origins and budgets

     Changes what is given of one of the caller's live API keys, at once on every instance:
    `name` for either kind; `origins`, `searches_per_minute`, `searches_per_day` and
    `visitor_searches_per_minute` for a publishable key only (given for a secret key, they
    are a 400 `validation-error` naming `origins`, and nothing changes). The value, the kind and the
    lifetime stay. Needs no password: nothing here gives the key a right it did not have
    (an origin added lets another page spend the key's budget, never read the account). A
    key that does not exist, is dead, is a session token or belongs to someone else gives
    the same 404.

    Args:
        token_id (UUID):
        body (ApiKeyUpdate): What to change; what is not given stays.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenInfo
    """

    return (
        await asyncio_detailed(
            token_id=token_id,
            client=client,
            body=body,
        )
    ).parsed
