from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.link_password import LinkPassword
from ...models.problem import Problem
from ...models.token import Token
from ...types import Response


def _get_kwargs(
    *,
    body: LinkPassword,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/signup/confirm",
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

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
    body: LinkPassword,
) -> Response[Problem | Token]:
    """Confirm a sign-up with its link's token, choose the password, and sign in

     Makes the account of a sign-up link with the password given here, and issues a session
    token, as `POST /v1/auth` does. The link went only to the address's mailbox, so whoever
    uses it owns the address. (A link sent before sign-up stopped asking for a password
    holds the password chosen then: it must be given again, and a wrong one is a 401 that
    leaves the link usable.) A link used already, expired or never issued is a 410. A request
    that failed half-way (a 503) can be sent again with the same link and password. Limited
    per client (by default 30 a minute) and per link (10 a minute).

    Args:
        body (LinkPassword):

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
    body: LinkPassword,
) -> Problem | Token | None:
    """Confirm a sign-up with its link's token, choose the password, and sign in

     Makes the account of a sign-up link with the password given here, and issues a session
    token, as `POST /v1/auth` does. The link went only to the address's mailbox, so whoever
    uses it owns the address. (A link sent before sign-up stopped asking for a password
    holds the password chosen then: it must be given again, and a wrong one is a 401 that
    leaves the link usable.) A link used already, expired or never issued is a 410. A request
    that failed half-way (a 503) can be sent again with the same link and password. Limited
    per client (by default 30 a minute) and per link (10 a minute).

    Args:
        body (LinkPassword):

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
    body: LinkPassword,
) -> Response[Problem | Token]:
    """Confirm a sign-up with its link's token, choose the password, and sign in

     Makes the account of a sign-up link with the password given here, and issues a session
    token, as `POST /v1/auth` does. The link went only to the address's mailbox, so whoever
    uses it owns the address. (A link sent before sign-up stopped asking for a password
    holds the password chosen then: it must be given again, and a wrong one is a 401 that
    leaves the link usable.) A link used already, expired or never issued is a 410. A request
    that failed half-way (a 503) can be sent again with the same link and password. Limited
    per client (by default 30 a minute) and per link (10 a minute).

    Args:
        body (LinkPassword):

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
    body: LinkPassword,
) -> Problem | Token | None:
    """Confirm a sign-up with its link's token, choose the password, and sign in

     Makes the account of a sign-up link with the password given here, and issues a session
    token, as `POST /v1/auth` does. The link went only to the address's mailbox, so whoever
    uses it owns the address. (A link sent before sign-up stopped asking for a password
    holds the password chosen then: it must be given again, and a wrong one is a 401 that
    leaves the link usable.) A link used already, expired or never issued is a 410. A request
    that failed half-way (a 503) can be sent again with the same link and password. Limited
    per client (by default 30 a minute) and per link (10 a minute).

    Args:
        body (LinkPassword):

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
