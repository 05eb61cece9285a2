from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key import ApiKey
from ...models.api_key_request import ApiKeyRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: ApiKeyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/keys",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ApiKey | Problem | None:
    if response.status_code == 201:
        response_201 = ApiKey.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[ApiKey | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyRequest,
) -> Response[ApiKey | Problem]:
    """Create a named API key

     Issues a new API key: a token of the caller's, like a session token, with a name and a
    lifetime of `expires_in_days` (1 to 365, default 90). The value is in this response only;
    store it like a password. A key works everywhere a session token does, until it expires
    or is revoked (`DELETE /v1/tokens/{tokenId}`), rotated (`POST /v1/keys/{tokenId}/rotate`)
    or the user changes the password. It is not affected by logins or log-outs.

    A user holds at most 20 live API keys: creating one more is a 409 `too-many-keys`;
    revoke one first.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`): a key outlives the session that asks for it by up to a year, so a
    stolen session alone cannot mint keys.

    Args:
        body (ApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
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
    body: ApiKeyRequest,
) -> ApiKey | Problem | None:
    """Create a named API key

     Issues a new API key: a token of the caller's, like a session token, with a name and a
    lifetime of `expires_in_days` (1 to 365, default 90). The value is in this response only;
    store it like a password. A key works everywhere a session token does, until it expires
    or is revoked (`DELETE /v1/tokens/{tokenId}`), rotated (`POST /v1/keys/{tokenId}/rotate`)
    or the user changes the password. It is not affected by logins or log-outs.

    A user holds at most 20 live API keys: creating one more is a 409 `too-many-keys`;
    revoke one first.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`): a key outlives the session that asks for it by up to a year, so a
    stolen session alone cannot mint keys.

    Args:
        body (ApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyRequest,
) -> Response[ApiKey | Problem]:
    """Create a named API key

     Issues a new API key: a token of the caller's, like a session token, with a name and a
    lifetime of `expires_in_days` (1 to 365, default 90). The value is in this response only;
    store it like a password. A key works everywhere a session token does, until it expires
    or is revoked (`DELETE /v1/tokens/{tokenId}`), rotated (`POST /v1/keys/{tokenId}/rotate`)
    or the user changes the password. It is not affected by logins or log-outs.

    A user holds at most 20 live API keys: creating one more is a 409 `too-many-keys`;
    revoke one first.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`): a key outlives the session that asks for it by up to a year, so a
    stolen session alone cannot mint keys.

    Args:
        body (ApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ApiKeyRequest,
) -> ApiKey | Problem | None:
    """Create a named API key

     Issues a new API key: a token of the caller's, like a session token, with a name and a
    lifetime of `expires_in_days` (1 to 365, default 90). The value is in this response only;
    store it like a password. A key works everywhere a session token does, until it expires
    or is revoked (`DELETE /v1/tokens/{tokenId}`), rotated (`POST /v1/keys/{tokenId}/rotate`)
    or the user changes the password. It is not affected by logins or log-outs.

    A user holds at most 20 live API keys: creating one more is a 409 `too-many-keys`;
    revoke one first.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`): a key outlives the session that asks for it by up to a year, so a
    stolen session alone cannot mint keys.

    Args:
        body (ApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
