from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sign_up_options import SignUpOptions
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/signup",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SignUpOptions | None:
    if response.status_code == 200:
        response_200 = SignUpOptions.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Problem | SignUpOptions]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | SignUpOptions]:
    """Which ways to make or recover an account this server offers

     Whether anyone can sign up (`open`), only invited addresses (`invite`) or neither (`off`:
    accounts are made by the operator), and whether a forgotten password can be reset by
    e-mail. The dashboard shows its "Create an account" and "Forgot your password?" links by
    this. Limited per client (by default 600 a minute).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignUpOptions]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | SignUpOptions | None:
    """Which ways to make or recover an account this server offers

     Whether anyone can sign up (`open`), only invited addresses (`invite`) or neither (`off`:
    accounts are made by the operator), and whether a forgotten password can be reset by
    e-mail. The dashboard shows its "Create an account" and "Forgot your password?" links by
    this. Limited per client (by default 600 a minute).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignUpOptions
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | SignUpOptions]:
    """Which ways to make or recover an account this server offers

     Whether anyone can sign up (`open`), only invited addresses (`invite`) or neither (`off`:
    accounts are made by the operator), and whether a forgotten password can be reset by
    e-mail. The dashboard shows its "Create an account" and "Forgot your password?" links by
    this. Limited per client (by default 600 a minute).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignUpOptions]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | SignUpOptions | None:
    """Which ways to make or recover an account this server offers

     Whether anyone can sign up (`open`), only invited addresses (`invite`) or neither (`off`:
    accounts are made by the operator), and whether a forgotten password can be reset by
    e-mail. The dashboard shows its "Create an account" and "Forgot your password?" links by
    this. Limited per client (by default 600 a minute).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignUpOptions
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
