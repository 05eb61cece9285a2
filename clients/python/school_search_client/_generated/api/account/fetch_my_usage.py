from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.daily_usage import DailyUsage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    key_id: UUID | Unset = UNSET,
    days: int | Unset = 30,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_key_id: str | Unset = UNSET
    if not isinstance(key_id, Unset):
        json_key_id = str(key_id)
    params["key_id"] = json_key_id

    params["days"] = days

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fetchMyUsage",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DailyUsage | Problem | None:
    if response.status_code == 200:
        response_200 = DailyUsage.from_dict(response.json())

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
) -> Response[DailyUsage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    key_id: UUID | Unset = UNSET,
    days: int | Unset = 30,
) -> Response[DailyUsage | Problem]:
    """The caller's requests and cost per day

     The caller's metered requests counted per calendar day (UTC) over the last `days` days,
    today included: one element per day, oldest first, days without a request included with
    zeros, so a chart can draw the list as it is. Computed from the request records, like
    the totals of `fetchMyData`. With `key_id`, only the requests made with that API key.

    `by_key` and `by_origin` split the same period's requests by the API key they came
    through (`key_id` null: session tokens) and, for publishable keys, by the page's origin
    (`origin` null: requests made without a publishable key), most requests first.

    Args:
        key_id (UUID | Unset):
        days (int | Unset):  Default: 30.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DailyUsage | Problem]
    """

    kwargs = _get_kwargs(
        key_id=key_id,
        days=days,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    key_id: UUID | Unset = UNSET,
    days: int | Unset = 30,
) -> DailyUsage | Problem | None:
    """The caller's requests and cost per day

     The caller's metered requests counted per calendar day (UTC) over the last `days` days,
    today included: one element per day, oldest first, days without a request included with
    zeros, so a chart can draw the list as it is. Computed from the request records, like
    the totals of `fetchMyData`. With `key_id`, only the requests made with that API key.

    `by_key` and `by_origin` split the same period's requests by the API key they came
    through (`key_id` null: session tokens) and, for publishable keys, by the page's origin
    (`origin` null: requests made without a publishable key), most requests first.

    Args:
        key_id (UUID | Unset):
        days (int | Unset):  Default: 30.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DailyUsage | Problem
    """

    return sync_detailed(
        client=client,
        key_id=key_id,
        days=days,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    key_id: UUID | Unset = UNSET,
    days: int | Unset = 30,
) -> Response[DailyUsage | Problem]:
    """The caller's requests and cost per day

     The caller's metered requests counted per calendar day (UTC) over the last `days` days,
    today included: one element per day, oldest first, days without a request included with
    zeros, so a chart can draw the list as it is. Computed from the request records, like
    the totals of `fetchMyData`. With `key_id`, only the requests made with that API key.

    `by_key` and `by_origin` split the same period's requests by the API key they came
    through (`key_id` null: session tokens) and, for publishable keys, by the page's origin
    (`origin` null: requests made without a publishable key), most requests first.

    Args:
        key_id (UUID | Unset):
        days (int | Unset):  Default: 30.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DailyUsage | Problem]
    """

    kwargs = _get_kwargs(
        key_id=key_id,
        days=days,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    key_id: UUID | Unset = UNSET,
    days: int | Unset = 30,
) -> DailyUsage | Problem | None:
    """The caller's requests and cost per day

     The caller's metered requests counted per calendar day (UTC) over the last `days` days,
    today included: one element per day, oldest first, days without a request included with
    zeros, so a chart can draw the list as it is. Computed from the request records, like
    the totals of `fetchMyData`. With `key_id`, only the requests made with that API key.

    `by_key` and `by_origin` split the same period's requests by the API key they came
    through (`key_id` null: session tokens) and, for publishable keys, by the page's origin
    (`origin` null: requests made without a publishable key), most requests first.

    Args:
        key_id (UUID | Unset):
        days (int | Unset):  Default: 30.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DailyUsage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            key_id=key_id,
            days=days,
        )
    ).parsed
