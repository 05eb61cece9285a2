from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.school_record import SchoolRecord
from ...types import UNSET, Response, Unset


def _get_kwargs(
    school_id: UUID,
    *,
    key: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["key"] = key

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/schools/{school_id}".format(
            school_id=quote(str(school_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SchoolRecord | None:
    if response.status_code == 200:
        response_200 = SchoolRecord.from_dict(response.json())

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
) -> Response[Problem | SchoolRecord]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    school_id: UUID,
    *,
    client: AuthenticatedClient,
    key: str | Unset = UNSET,
) -> Response[Problem | SchoolRecord]:
    """One school's record, by its id

     Everything the catalog knows about one school: its name and alternative names, where it
    is, what it is, the official directory ids it was imported from and when its record last
    changed. `schoolId` is a search result's `schoolid`.

    Not metered: reading a school found by a (metered) search costs no credit and adds no
    record to the history. Rate limited with the caller's searches (the same per-user
    quota; with a publishable key, the key's budgets and origins, as for a search). An
    unknown id is a 404.

    Args:
        school_id (UUID):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SchoolRecord]
    """

    kwargs = _get_kwargs(
        school_id=school_id,
        key=key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    school_id: UUID,
    *,
    client: AuthenticatedClient,
    key: str | Unset = UNSET,
) -> Problem | SchoolRecord | None:
    """One school's record, by its id

     Everything the catalog knows about one school: its name and alternative names, where it
    is, what it is, the official directory ids it was imported from and when its record last
    changed. `schoolId` is a search result's `schoolid`.

    Not metered: reading a school found by a (metered) search costs no credit and adds no
    record to the history. Rate limited with the caller's searches (the same per-user
    quota; with a publishable key, the key's budgets and origins, as for a search). An
    unknown id is a 404.

    Args:
        school_id (UUID):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SchoolRecord
    """

    return sync_detailed(
        school_id=school_id,
        client=client,
        key=key,
    ).parsed


async def asyncio_detailed(
    school_id: UUID,
    *,
    client: AuthenticatedClient,
    key: str | Unset = UNSET,
) -> Response[Problem | SchoolRecord]:
    """One school's record, by its id

     Everything the catalog knows about one school: its name and alternative names, where it
    is, what it is, the official directory ids it was imported from and when its record last
    changed. `schoolId` is a search result's `schoolid`.

    Not metered: reading a school found by a (metered) search costs no credit and adds no
    record to the history. Rate limited with the caller's searches (the same per-user
    quota; with a publishable key, the key's budgets and origins, as for a search). An
    unknown id is a 404.

    Args:
        school_id (UUID):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SchoolRecord]
    """

    kwargs = _get_kwargs(
        school_id=school_id,
        key=key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    school_id: UUID,
    *,
    client: AuthenticatedClient,
    key: str | Unset = UNSET,
) -> Problem | SchoolRecord | None:
    """One school's record, by its id

     Everything the catalog knows about one school: its name and alternative names, where it
    is, what it is, the official directory ids it was imported from and when its record last
    changed. `schoolId` is a search result's `schoolid`.

    Not metered: reading a school found by a (metered) search costs no credit and adds no
    record to the history. Rate limited with the caller's searches (the same per-user
    quota; with a publishable key, the key's budgets and origins, as for a search). An
    unknown id is a 404.

    Args:
        school_id (UUID):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SchoolRecord
    """

    return (
        await asyncio_detailed(
            school_id=school_id,
            client=client,
            key=key,
        )
    ).parsed
