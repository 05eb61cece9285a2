from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key import ApiKey
from ...models.password_confirmation import PasswordConfirmation
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    token_id: UUID,
    *,
    body: PasswordConfirmation,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/keys/{token_id}/rotate".format(
            token_id=quote(str(token_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ApiKey | Problem | None:
    if response.status_code == 200:
        response_200 = ApiKey.from_dict(response.json())

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
) -> Response[ApiKey | Problem]:
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
    body: PasswordConfirmation,
) -> Response[ApiKey | Problem]:
    """Replace an API key's value

     Issues a new value for one of the caller's live API keys (secret or publishable) and
    revokes the old value, in one step: a program or page still using the old value gets 401
    from now on. The new key keeps the kind, the name, a publishable key's origins and
    budgets, and the lifetime the key was created with (from now), and gets a new
    `token_id`. A key that does not exist, is dead, is a session token or belongs to someone
    else gives the same 404.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`, checked first): a rotation cuts the key's programs off, which a
    stolen session alone must not be able to do.

    Args:
        token_id (UUID):
        body (PasswordConfirmation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
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
    body: PasswordConfirmation,
) -> ApiKey | Problem | None:
    """Replace an API key's value

     Issues a new value for one of the caller's live API keys (secret or publishable) and
    revokes the old value, in one step: a program or page still using the old value gets 401
    from now on. The new key keeps the kind, the name, a publishable key's origins and
    budgets, and the lifetime the key was created with (from now), and gets a new
    `token_id`. A key that does not exist, is dead, is a session token or belongs to someone
    else gives the same 404.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`, checked first): a rotation cuts the key's programs off, which a
    stolen session alone must not be able to do.

    Args:
        token_id (UUID):
        body (PasswordConfirmation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
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
    body: PasswordConfirmation,
) -> Response[ApiKey | Problem]:
    """Replace an API key's value

     Issues a new value for one of the caller's live API keys (secret or publishable) and
    revokes the old value, in one step: a program or page still using the old value gets 401
    from now on. The new key keeps the kind, the name, a publishable key's origins and
    budgets, and the lifetime the key was created with (from now), and gets a new
    `token_id`. A key that does not exist, is dead, is a session token or belongs to someone
    else gives the same 404.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`, checked first): a rotation cuts the key's programs off, which a
    stolen session alone must not be able to do.

    Args:
        token_id (UUID):
        body (PasswordConfirmation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
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
    body: PasswordConfirmation,
) -> ApiKey | Problem | None:
    """Replace an API key's value

     Issues a new value for one of the caller's live API keys (secret or publishable) and
    revokes the old value, in one step: a program or page still using the old value gets 401
    from now on. The new key keeps the kind, the name, a publishable key's origins and
    budgets, and the lifetime the key was created with (from now), and gets a new
    `token_id`. A key that does not exist, is dead, is a session token or belongs to someone
    else gives the same 404.

    Needs the account's current password (`current_password`; a wrong one is a 403
    `wrong-password`, checked first): a rotation cuts the key's programs off, which a
    stolen session alone must not be able to do.

    Args:
        token_id (UUID):
        body (PasswordConfirmation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
    """

    return (
        await asyncio_detailed(
            token_id=token_id,
            client=client,
            body=body,
        )
    ).parsed
