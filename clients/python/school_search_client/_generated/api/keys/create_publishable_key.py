from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key import ApiKey
from ...models.problem import Problem
from ...models.publishable_key_request import PublishableKeyRequest
from ...types import Response


def _get_kwargs(
    *,
    body: PublishableKeyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/publishable-keys",
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
    body: PublishableKeyRequest,
) -> Response[ApiKey | Problem]:
    """Create a publishable key for web pages

     Issues a publishable key (`spk_…`): a key meant to be seen, in a web page's source. It can
    search (`GET /v1/fetchSchoolSearch`), read a school (`GET /v1/schools/{schoolId}`) and
    its image, and nothing else: every other operation answers it with a 403
    `publishable-key-not-allowed`. It works only from the pages of the `origins` listed
    (checked against `Origin`, or `Referer` when a browser sends no `Origin`), and spends
    budgets of its own, not the user's search quota: `searches_per_minute` and
    `searches_per_day` for the key, and `visitor_searches_per_minute` for each visitor
    (client address) under it. Each budget is at most what the account may spend (the
    server's per-user search quota a minute, its publishable-key ceiling a day); a larger
    one is a 400.

    Like a secret key it has a name and a lifetime (`expires_in_days`, up to ten years, 365
    by default), is listed by `GET /v1/tokens` (`kind` publishable), renamed and re-scoped
    with `PATCH /v1/keys/{tokenId}`, rotated and revoked; a secret key never becomes a
    publishable one, nor the other way round. A user holds at most 20 live publishable keys
    besides the 20 secret ones. Needs the account's current password, as every operation
    that makes a key's value does.

    Its searches are metered as any other: each answer carries its request record, which
    names the key (`key_id`) and the origin, and lands in the owner's history.

    Args:
        body (PublishableKeyRequest):

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
    body: PublishableKeyRequest,
) -> ApiKey | Problem | None:
    """Create a publishable key for web pages

     Issues a publishable key (`spk_…`): a key meant to be seen, in a web page's source. It can
    search (`GET /v1/fetchSchoolSearch`), read a school (`GET /v1/schools/{schoolId}`) and
    its image, and nothing else: every other operation answers it with a 403
    `publishable-key-not-allowed`. It works only from the pages of the `origins` listed
    (checked against `Origin`, or `Referer` when a browser sends no `Origin`), and spends
    budgets of its own, not the user's search quota: `searches_per_minute` and
    `searches_per_day` for the key, and `visitor_searches_per_minute` for each visitor
    (client address) under it. Each budget is at most what the account may spend (the
    server's per-user search quota a minute, its publishable-key ceiling a day); a larger
    one is a 400.

    Like a secret key it has a name and a lifetime (`expires_in_days`, up to ten years, 365
    by default), is listed by `GET /v1/tokens` (`kind` publishable), renamed and re-scoped
    with `PATCH /v1/keys/{tokenId}`, rotated and revoked; a secret key never becomes a
    publishable one, nor the other way round. A user holds at most 20 live publishable keys
    besides the 20 secret ones. Needs the account's current password, as every operation
    that makes a key's value does.

    Its searches are metered as any other: each answer carries its request record, which
    names the key (`key_id`) and the origin, and lands in the owner's history.

    Args:
        body (PublishableKeyRequest):

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
    body: PublishableKeyRequest,
) -> Response[ApiKey | Problem]:
    """Create a publishable key for web pages

     Issues a publishable key (`spk_…`): a key meant to be seen, in a web page's source. It can
    search (`GET /v1/fetchSchoolSearch`), read a school (`GET /v1/schools/{schoolId}`) and
    its image, and nothing else: every other operation answers it with a 403
    `publishable-key-not-allowed`. It works only from the pages of the `origins` listed
    (checked against `Origin`, or `Referer` when a browser sends no `Origin`), and spends
    budgets of its own, not the user's search quota: `searches_per_minute` and
    `searches_per_day` for the key, and `visitor_searches_per_minute` for each visitor
    (client address) under it. Each budget is at most what the account may spend (the
    server's per-user search quota a minute, its publishable-key ceiling a day); a larger
    one is a 400.

    Like a secret key it has a name and a lifetime (`expires_in_days`, up to ten years, 365
    by default), is listed by `GET /v1/tokens` (`kind` publishable), renamed and re-scoped
    with `PATCH /v1/keys/{tokenId}`, rotated and revoked; a secret key never becomes a
    publishable one, nor the other way round. A user holds at most 20 live publishable keys
    besides the 20 secret ones. Needs the account's current password, as every operation
    that makes a key's value does.

    Its searches are metered as any other: each answer carries its request record, which
    names the key (`key_id`) and the origin, and lands in the owner's history.

    Args:
        body (PublishableKeyRequest):

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
    body: PublishableKeyRequest,
) -> ApiKey | Problem | None:
    """Create a publishable key for web pages

     Issues a publishable key (`spk_…`): a key meant to be seen, in a web page's source. It can
    search (`GET /v1/fetchSchoolSearch`), read a school (`GET /v1/schools/{schoolId}`) and
    its image, and nothing else: every other operation answers it with a 403
    `publishable-key-not-allowed`. It works only from the pages of the `origins` listed
    (checked against `Origin`, or `Referer` when a browser sends no `Origin`), and spends
    budgets of its own, not the user's search quota: `searches_per_minute` and
    `searches_per_day` for the key, and `visitor_searches_per_minute` for each visitor
    (client address) under it. Each budget is at most what the account may spend (the
    server's per-user search quota a minute, its publishable-key ceiling a day); a larger
    one is a 400.

    Like a secret key it has a name and a lifetime (`expires_in_days`, up to ten years, 365
    by default), is listed by `GET /v1/tokens` (`kind` publishable), renamed and re-scoped
    with `PATCH /v1/keys/{tokenId}`, rotated and revoked; a secret key never becomes a
    publishable one, nor the other way round. A user holds at most 20 live publishable keys
    besides the 20 secret ones. Needs the account's current password, as every operation
    that makes a key's value does.

    Its searches are metered as any other: each answer carries its request record, which
    names the key (`key_id`) and the origin, and lands in the owner's history.

    Args:
        body (PublishableKeyRequest):

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
