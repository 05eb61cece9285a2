from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.request_history import RequestHistory
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    key_id: UUID | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["offset"] = offset

    params["limit"] = limit

    json_key_id: str | Unset = UNSET
    if not isinstance(key_id, Unset):
        json_key_id = str(key_id)
    params["key_id"] = json_key_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fetchMyRequests",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RequestHistory | None:
    if response.status_code == 200:
        response_200 = RequestHistory.from_dict(response.json())

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
) -> Response[Problem | RequestHistory]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    key_id: UUID | Unset = UNSET,
) -> Response[Problem | RequestHistory]:
    """The caller's request history, newest first

     The caller's metered request records (one per search), newest first, paged with
    `offset` and `limit`, or beyond `offset`'s bound with `cursor`: each page's
    `next_cursor` names the page after it, and every page costs the same however deep in
    the history it is. `total_count` is the number of the caller's records kept: all of
    them, unless the operator set a retention period (then the records of the last N whole
    UTC days).

    With `key_id`, only the records of the searches made with that API key (secret or
    publishable), and `total_count` counts those.

    Args:
        cursor (str | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        key_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RequestHistory]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        offset=offset,
        limit=limit,
        key_id=key_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    key_id: UUID | Unset = UNSET,
) -> Problem | RequestHistory | None:
    """The caller's request history, newest first

     The caller's metered request records (one per search), newest first, paged with
    `offset` and `limit`, or beyond `offset`'s bound with `cursor`: each page's
    `next_cursor` names the page after it, and every page costs the same however deep in
    the history it is. `total_count` is the number of the caller's records kept: all of
    them, unless the operator set a retention period (then the records of the last N whole
    UTC days).

    With `key_id`, only the records of the searches made with that API key (secret or
    publishable), and `total_count` counts those.

    Args:
        cursor (str | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        key_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RequestHistory
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        offset=offset,
        limit=limit,
        key_id=key_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    key_id: UUID | Unset = UNSET,
) -> Response[Problem | RequestHistory]:
    """The caller's request history, newest first

     The caller's metered request records (one per search), newest first, paged with
    `offset` and `limit`, or beyond `offset`'s bound with `cursor`: each page's
    `next_cursor` names the page after it, and every page costs the same however deep in
    the history it is. `total_count` is the number of the caller's records kept: all of
    them, unless the operator set a retention period (then the records of the last N whole
    UTC days).

    With `key_id`, only the records of the searches made with that API key (secret or
    publishable), and `total_count` counts those.

    Args:
        cursor (str | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        key_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RequestHistory]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        offset=offset,
        limit=limit,
        key_id=key_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    key_id: UUID | Unset = UNSET,
) -> Problem | RequestHistory | None:
    """The caller's request history, newest first

     The caller's metered request records (one per search), newest first, paged with
    `offset` and `limit`, or beyond `offset`'s bound with `cursor`: each page's
    `next_cursor` names the page after it, and every page costs the same however deep in
    the history it is. `total_count` is the number of the caller's records kept: all of
    them, unless the operator set a retention period (then the records of the last N whole
    UTC days).

    With `key_id`, only the records of the searches made with that API key (secret or
    publishable), and `total_count` counts those.

    Args:
        cursor (str | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        key_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RequestHistory
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            offset=offset,
            limit=limit,
            key_id=key_id,
        )
    ).parsed
