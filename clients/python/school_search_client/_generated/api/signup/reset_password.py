from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.password_reset import PasswordReset
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: PasswordReset,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/password/reset",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 410:
        response_410 = Problem.from_dict(response.json())

        return response_410

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
) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordReset,
) -> Response[Any | Problem]:
    """Set a new password with a reset link's token

     Sets the account's new password and ends every session of the account, including any
    login that checked the old password while this request ran, and voids every other reset
    link of it. Sign in again with the new password. API keys keep working, so that the
    programs using them do not stop, unless `revoke_api_keys` is true: choose that when
    someone else may know the old password (they may have made keys with it). An e-mail to
    the account confirms the reset and lists its API keys. A link used already, expired or
    never issued is a 410. Limited per client (by default 30 a minute) and per link (10 a
    minute).

    Args:
        body (PasswordReset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
    body: PasswordReset,
) -> Any | Problem | None:
    """Set a new password with a reset link's token

     Sets the account's new password and ends every session of the account, including any
    login that checked the old password while this request ran, and voids every other reset
    link of it. Sign in again with the new password. API keys keep working, so that the
    programs using them do not stop, unless `revoke_api_keys` is true: choose that when
    someone else may know the old password (they may have made keys with it). An e-mail to
    the account confirms the reset and lists its API keys. A link used already, expired or
    never issued is a 410. Limited per client (by default 30 a minute) and per link (10 a
    minute).

    Args:
        body (PasswordReset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordReset,
) -> Response[Any | Problem]:
    """Set a new password with a reset link's token

     Sets the account's new password and ends every session of the account, including any
    login that checked the old password while this request ran, and voids every other reset
    link of it. Sign in again with the new password. API keys keep working, so that the
    programs using them do not stop, unless `revoke_api_keys` is true: choose that when
    someone else may know the old password (they may have made keys with it). An e-mail to
    the account confirms the reset and lists its API keys. A link used already, expired or
    never issued is a 410. Limited per client (by default 30 a minute) and per link (10 a
    minute).

    Args:
        body (PasswordReset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PasswordReset,
) -> Any | Problem | None:
    """Set a new password with a reset link's token

     Sets the account's new password and ends every session of the account, including any
    login that checked the old password while this request ran, and voids every other reset
    link of it. Sign in again with the new password. API keys keep working, so that the
    programs using them do not stop, unless `revoke_api_keys` is true: choose that when
    someone else may know the old password (they may have made keys with it). An e-mail to
    the account confirms the reset and lists its API keys. A link used already, expired or
    never issued is a 410. Limited per client (by default 30 a minute) and per link (10 a
    minute).

    Args:
        body (PasswordReset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
