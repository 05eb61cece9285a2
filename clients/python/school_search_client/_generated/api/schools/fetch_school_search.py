from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.school_level import SchoolLevel
from ...models.school_search_response import SchoolSearchResponse
from ...models.school_type_filter import SchoolTypeFilter
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    query: str,
    state_code: str | Unset = UNSET,
    level: list[SchoolLevel] | Unset = UNSET,
    type_: list[SchoolTypeFilter] | Unset = UNSET,
    near: str | Unset = UNSET,
    radius_km: float | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    token_id: str | Unset = UNSET,
    key: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    params["query"] = query

    params["stateCode"] = state_code

    json_level: list[str] | Unset = UNSET
    if not isinstance(level, Unset):
        json_level = []
        for level_item_data in level:
            level_item: str = level_item_data
            json_level.append(level_item)

    params["level"] = json_level

    json_type_: list[str] | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = []
        for type_item_data in type_:
            type_item: str = type_item_data
            json_type_.append(type_item)

    params["type"] = json_type_

    params["near"] = near

    params["radius_km"] = radius_km

    params["offset"] = offset

    params["limit"] = limit

    params["tokenID"] = token_id

    params["key"] = key

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fetchSchoolSearch",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SchoolSearchResponse | None:
    if response.status_code == 200:
        response_200 = SchoolSearchResponse.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | SchoolSearchResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    query: str,
    state_code: str | Unset = UNSET,
    level: list[SchoolLevel] | Unset = UNSET,
    type_: list[SchoolTypeFilter] | Unset = UNSET,
    near: str | Unset = UNSET,
    radius_km: float | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    token_id: str | Unset = UNSET,
    key: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | SchoolSearchResponse]:
    """Search schools by name, one page at a time

     Finds schools as a search box needs, keystroke by keystroke:

    - **Words** in any order; case, accents and punctuation ignored (`ecole montreal` finds
      *École … Montréal*). Each word may be the start of a word, the last one too, even one
      letter long: `linc` and `lincoln u` find *Lincoln University*.
    - **Typos**: one edit forgiven in a word of 5 to 8 letters, two from 9 letters (a letter
      wrong, missing or extra, or two letters swapped; the first letter too), the longer of
      the typed and the matched word counting: `ruhgers` finds *Rutgers*, `unon` *Union*.
      The word being typed may have a typo in its start (`univeri` → *University*).
    - **Spellings and synonyms** (one reviewed table): `&` = `and`; `A&M` = `A & M` =
      `A and M` = `AM`; `st` = `saint`, `ste` = `sainte`, `mt` = `mount`, `ft` = `fort`,
      `univ` = `university`, `penn` = `pennsylvania`; `cc` = `community college`, `hs` =
      `high school`; hyphens and apostrophes either way (`pierre de coubertin` finds
      *Pierre-De-Coubertin*, `queens` and `queen's` both find *Queen's* and *Queens*); and
      translations, ranked just below the word as typed (`university` = `université` =
      `universidad`). Small words (`the`, `of`, `at`, `and`, `de`, `la`, …) are not
      required, except the last one typed, which may be the start of a word (`university
      of` → the Universities of something).
    - **Name, alternative names and city**: a word may match the school's name, one of its
      known alternative names (`mit`), or its city (`toronto` lists Toronto's schools, after
      those with Toronto in their name).
    - **Soft matching**: words no school has are left out, as if not typed; when no school
      has all the others, the most common word is left out, one at a time, until some
      schools have all that remain: `the harvard university`, `harvard university zyxw` and
      `harvard zebra` all find *Harvard University*. A query of unknown words finds nothing.

    **Order** (and `similarity_score`, which never increases along it): first the schools
    whose name is the query (a last word "School" may be left out: `lincoln elementary` is
    *Lincoln Elementary School*), then those with an alternative name that is; then those that
    have more of the query's words; then better matches (a whole word before the start of a
    word before a typo; the name before an alternative name before the city); then those
    whose whole name the query spells out; then a ranked school (one the directory gives a
    prominence: a college) whose name holds the query's words in order, one after another,
    before a namesake that is not ranked or does not (`naval academy` → *United States Naval
    Academy* before *Naval Academy Primary School*); then those whose name starts with the
    query's words in order (`linc` → *Lincoln …* before *Abraham Lincoln …*); then the more prominent
    school, a static rank from the directory (size, research activity, selectivity, main
    campus over branch), so the flagship comes before its namesakes (`purdue university` →
    the West Lafayette campus); then the name (case and accents ignored), then `schoolid`: a
    total order, so paging with `offset` never repeats or skips a school. `total_count` is
    the exact number of all matching schools. A page past the end is an empty `schools`
    array (200). At most 10 different words of a query are used.

    **Filters**: `stateCode`, `level` and `type` keep only the schools that are in that
    state and of one of those levels and one of those types; with `near`, `radius_km` keeps
    only those within that distance. They combine with the query and each other by AND, and
    `total_count` counts exactly the schools that pass them all.

    **Near me**: with `near=<lat>,<lon>`, schools equal on everything up to the name-start
    rule above are ordered by their great-circle distance from that point, nearest first
    (schools without coordinates after those with), before prominence, name and
    `schoolid`; each school with coordinates carries `distance_km`. So a better text match
    always comes first, and among the many *Lincoln Elementary School*s the nearest one
    does. A query is still required: this is a search by name, not a listing of every
    school around a point.

    Each call is metered: the request record in `apirequest` is stored in the caller's
    history before the response is sent.

    Rate limited per user (all of a user's session tokens and secret keys share the quota):
    by default 300 searches per minute (five a second, enough for a search box that asks on
    every keystroke). Over the quota the answer is 429 with `Retry-After`, and the search is
    neither run nor metered. The `RateLimit` and `RateLimit-Policy` headers show the quota
    on every answer that passed authentication and validation.

    **From a web page**, with a publishable key (`key=spk_…`, or `Authorization: Bearer
    spk_…`): the page's origin (its `Origin` header, or the origin of its `Referer` when a
    browser sends no `Origin`) must be one the key lists, or the answer is a 403
    `origin-not-allowed` naming it. The key's own budgets apply instead of the user's quota:
    its searches per minute and per day, and each visitor's (client address's) share per
    minute, so one visitor cannot spend a site's budget. The record names the key
    (`key_id`) and the origin.

    Args:
        query (str):
        state_code (str | Unset): A `StateCode` in any case: the same codes, upper, lower or mixed
            case. (The pattern is
            those codes with each letter in either case.)
        level (list[SchoolLevel] | Unset):
        type_ (list[SchoolTypeFilter] | Unset):
        near (str | Unset):
        radius_km (float | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        token_id (str | Unset):
        key (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SchoolSearchResponse]
    """

    kwargs = _get_kwargs(
        query=query,
        state_code=state_code,
        level=level,
        type_=type_,
        near=near,
        radius_km=radius_km,
        offset=offset,
        limit=limit,
        token_id=token_id,
        key=key,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    query: str,
    state_code: str | Unset = UNSET,
    level: list[SchoolLevel] | Unset = UNSET,
    type_: list[SchoolTypeFilter] | Unset = UNSET,
    near: str | Unset = UNSET,
    radius_km: float | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    token_id: str | Unset = UNSET,
    key: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | SchoolSearchResponse | None:
    """Search schools by name, one page at a time

     Finds schools as a search box needs, keystroke by keystroke:

    - **Words** in any order; case, accents and punctuation ignored (`ecole montreal` finds
      *École … Montréal*). Each word may be the start of a word, the last one too, even one
      letter long: `linc` and `lincoln u` find *Lincoln University*.
    - **Typos**: one edit forgiven in a word of 5 to 8 letters, two from 9 letters (a letter
      wrong, missing or extra, or two letters swapped; the first letter too), the longer of
      the typed and the matched word counting: `ruhgers` finds *Rutgers*, `unon` *Union*.
      The word being typed may have a typo in its start (`univeri` → *University*).
    - **Spellings and synonyms** (one reviewed table): `&` = `and`; `A&M` = `A & M` =
      `A and M` = `AM`; `st` = `saint`, `ste` = `sainte`, `mt` = `mount`, `ft` = `fort`,
      `univ` = `university`, `penn` = `pennsylvania`; `cc` = `community college`, `hs` =
      `high school`; hyphens and apostrophes either way (`pierre de coubertin` finds
      *Pierre-De-Coubertin*, `queens` and `queen's` both find *Queen's* and *Queens*); and
      translations, ranked just below the word as typed (`university` = `université` =
      `universidad`). Small words (`the`, `of`, `at`, `and`, `de`, `la`, …) are not
      required, except the last one typed, which may be the start of a word (`university
      of` → the Universities of something).
    - **Name, alternative names and city**: a word may match the school's name, one of its
      known alternative names (`mit`), or its city (`toronto` lists Toronto's schools, after
      those with Toronto in their name).
    - **Soft matching**: words no school has are left out, as if not typed; when no school
      has all the others, the most common word is left out, one at a time, until some
      schools have all that remain: `the harvard university`, `harvard university zyxw` and
      `harvard zebra` all find *Harvard University*. A query of unknown words finds nothing.

    **Order** (and `similarity_score`, which never increases along it): first the schools
    whose name is the query (a last word "School" may be left out: `lincoln elementary` is
    *Lincoln Elementary School*), then those with an alternative name that is; then those that
    have more of the query's words; then better matches (a whole word before the start of a
    word before a typo; the name before an alternative name before the city); then those
    whose whole name the query spells out; then a ranked school (one the directory gives a
    prominence: a college) whose name holds the query's words in order, one after another,
    before a namesake that is not ranked or does not (`naval academy` → *United States Naval
    Academy* before *Naval Academy Primary School*); then those whose name starts with the
    query's words in order (`linc` → *Lincoln …* before *Abraham Lincoln …*); then the more prominent
    school, a static rank from the directory (size, research activity, selectivity, main
    campus over branch), so the flagship comes before its namesakes (`purdue university` →
    the West Lafayette campus); then the name (case and accents ignored), then `schoolid`: a
    total order, so paging with `offset` never repeats or skips a school. `total_count` is
    the exact number of all matching schools. A page past the end is an empty `schools`
    array (200). At most 10 different words of a query are used.

    **Filters**: `stateCode`, `level` and `type` keep only the schools that are in that
    state and of one of those levels and one of those types; with `near`, `radius_km` keeps
    only those within that distance. They combine with the query and each other by AND, and
    `total_count` counts exactly the schools that pass them all.

    **Near me**: with `near=<lat>,<lon>`, schools equal on everything up to the name-start
    rule above are ordered by their great-circle distance from that point, nearest first
    (schools without coordinates after those with), before prominence, name and
    `schoolid`; each school with coordinates carries `distance_km`. So a better text match
    always comes first, and among the many *Lincoln Elementary School*s the nearest one
    does. A query is still required: this is a search by name, not a listing of every
    school around a point.

    Each call is metered: the request record in `apirequest` is stored in the caller's
    history before the response is sent.

    Rate limited per user (all of a user's session tokens and secret keys share the quota):
    by default 300 searches per minute (five a second, enough for a search box that asks on
    every keystroke). Over the quota the answer is 429 with `Retry-After`, and the search is
    neither run nor metered. The `RateLimit` and `RateLimit-Policy` headers show the quota
    on every answer that passed authentication and validation.

    **From a web page**, with a publishable key (`key=spk_…`, or `Authorization: Bearer
    spk_…`): the page's origin (its `Origin` header, or the origin of its `Referer` when a
    browser sends no `Origin`) must be one the key lists, or the answer is a 403
    `origin-not-allowed` naming it. The key's own budgets apply instead of the user's quota:
    its searches per minute and per day, and each visitor's (client address's) share per
    minute, so one visitor cannot spend a site's budget. The record names the key
    (`key_id`) and the origin.

    Args:
        query (str):
        state_code (str | Unset): A `StateCode` in any case: the same codes, upper, lower or mixed
            case. (The pattern is
            those codes with each letter in either case.)
        level (list[SchoolLevel] | Unset):
        type_ (list[SchoolTypeFilter] | Unset):
        near (str | Unset):
        radius_km (float | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        token_id (str | Unset):
        key (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SchoolSearchResponse
    """

    return sync_detailed(
        client=client,
        query=query,
        state_code=state_code,
        level=level,
        type_=type_,
        near=near,
        radius_km=radius_km,
        offset=offset,
        limit=limit,
        token_id=token_id,
        key=key,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    query: str,
    state_code: str | Unset = UNSET,
    level: list[SchoolLevel] | Unset = UNSET,
    type_: list[SchoolTypeFilter] | Unset = UNSET,
    near: str | Unset = UNSET,
    radius_km: float | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    token_id: str | Unset = UNSET,
    key: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | SchoolSearchResponse]:
    """Search schools by name, one page at a time

     Finds schools as a search box needs, keystroke by keystroke:

    - **Words** in any order; case, accents and punctuation ignored (`ecole montreal` finds
      *École … Montréal*). Each word may be the start of a word, the last one too, even one
      letter long: `linc` and `lincoln u` find *Lincoln University*.
    - **Typos**: one edit forgiven in a word of 5 to 8 letters, two from 9 letters (a letter
      wrong, missing or extra, or two letters swapped; the first letter too), the longer of
      the typed and the matched word counting: `ruhgers` finds *Rutgers*, `unon` *Union*.
      The word being typed may have a typo in its start (`univeri` → *University*).
    - **Spellings and synonyms** (one reviewed table): `&` = `and`; `A&M` = `A & M` =
      `A and M` = `AM`; `st` = `saint`, `ste` = `sainte`, `mt` = `mount`, `ft` = `fort`,
      `univ` = `university`, `penn` = `pennsylvania`; `cc` = `community college`, `hs` =
      `high school`; hyphens and apostrophes either way (`pierre de coubertin` finds
      *Pierre-De-Coubertin*, `queens` and `queen's` both find *Queen's* and *Queens*); and
      translations, ranked just below the word as typed (`university` = `université` =
      `universidad`). Small words (`the`, `of`, `at`, `and`, `de`, `la`, …) are not
      required, except the last one typed, which may be the start of a word (`university
      of` → the Universities of something).
    - **Name, alternative names and city**: a word may match the school's name, one of its
      known alternative names (`mit`), or its city (`toronto` lists Toronto's schools, after
      those with Toronto in their name).
    - **Soft matching**: words no school has are left out, as if not typed; when no school
      has all the others, the most common word is left out, one at a time, until some
      schools have all that remain: `the harvard university`, `harvard university zyxw` and
      `harvard zebra` all find *Harvard University*. A query of unknown words finds nothing.

    **Order** (and `similarity_score`, which never increases along it): first the schools
    whose name is the query (a last word "School" may be left out: `lincoln elementary` is
    *Lincoln Elementary School*), then those with an alternative name that is; then those that
    have more of the query's words; then better matches (a whole word before the start of a
    word before a typo; the name before an alternative name before the city); then those
    whose whole name the query spells out; then a ranked school (one the directory gives a
    prominence: a college) whose name holds the query's words in order, one after another,
    before a namesake that is not ranked or does not (`naval academy` → *United States Naval
    Academy* before *Naval Academy Primary School*); then those whose name starts with the
    query's words in order (`linc` → *Lincoln …* before *Abraham Lincoln …*); then the more prominent
    school, a static rank from the directory (size, research activity, selectivity, main
    campus over branch), so the flagship comes before its namesakes (`purdue university` →
    the West Lafayette campus); then the name (case and accents ignored), then `schoolid`: a
    total order, so paging with `offset` never repeats or skips a school. `total_count` is
    the exact number of all matching schools. A page past the end is an empty `schools`
    array (200). At most 10 different words of a query are used.

    **Filters**: `stateCode`, `level` and `type` keep only the schools that are in that
    state and of one of those levels and one of those types; with `near`, `radius_km` keeps
    only those within that distance. They combine with the query and each other by AND, and
    `total_count` counts exactly the schools that pass them all.

    **Near me**: with `near=<lat>,<lon>`, schools equal on everything up to the name-start
    rule above are ordered by their great-circle distance from that point, nearest first
    (schools without coordinates after those with), before prominence, name and
    `schoolid`; each school with coordinates carries `distance_km`. So a better text match
    always comes first, and among the many *Lincoln Elementary School*s the nearest one
    does. A query is still required: this is a search by name, not a listing of every
    school around a point.

    Each call is metered: the request record in `apirequest` is stored in the caller's
    history before the response is sent.

    Rate limited per user (all of a user's session tokens and secret keys share the quota):
    by default 300 searches per minute (five a second, enough for a search box that asks on
    every keystroke). Over the quota the answer is 429 with `Retry-After`, and the search is
    neither run nor metered. The `RateLimit` and `RateLimit-Policy` headers show the quota
    on every answer that passed authentication and validation.

    **From a web page**, with a publishable key (`key=spk_…`, or `Authorization: Bearer
    spk_…`): the page's origin (its `Origin` header, or the origin of its `Referer` when a
    browser sends no `Origin`) must be one the key lists, or the answer is a 403
    `origin-not-allowed` naming it. The key's own budgets apply instead of the user's quota:
    its searches per minute and per day, and each visitor's (client address's) share per
    minute, so one visitor cannot spend a site's budget. The record names the key
    (`key_id`) and the origin.

    Args:
        query (str):
        state_code (str | Unset): A `StateCode` in any case: the same codes, upper, lower or mixed
            case. (The pattern is
            those codes with each letter in either case.)
        level (list[SchoolLevel] | Unset):
        type_ (list[SchoolTypeFilter] | Unset):
        near (str | Unset):
        radius_km (float | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        token_id (str | Unset):
        key (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SchoolSearchResponse]
    """

    kwargs = _get_kwargs(
        query=query,
        state_code=state_code,
        level=level,
        type_=type_,
        near=near,
        radius_km=radius_km,
        offset=offset,
        limit=limit,
        token_id=token_id,
        key=key,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    query: str,
    state_code: str | Unset = UNSET,
    level: list[SchoolLevel] | Unset = UNSET,
    type_: list[SchoolTypeFilter] | Unset = UNSET,
    near: str | Unset = UNSET,
    radius_km: float | Unset = UNSET,
    offset: int | Unset = 0,
    limit: int | Unset = 25,
    token_id: str | Unset = UNSET,
    key: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | SchoolSearchResponse | None:
    """Search schools by name, one page at a time

     Finds schools as a search box needs, keystroke by keystroke:

    - **Words** in any order; case, accents and punctuation ignored (`ecole montreal` finds
      *École … Montréal*). Each word may be the start of a word, the last one too, even one
      letter long: `linc` and `lincoln u` find *Lincoln University*.
    - **Typos**: one edit forgiven in a word of 5 to 8 letters, two from 9 letters (a letter
      wrong, missing or extra, or two letters swapped; the first letter too), the longer of
      the typed and the matched word counting: `ruhgers` finds *Rutgers*, `unon` *Union*.
      The word being typed may have a typo in its start (`univeri` → *University*).
    - **Spellings and synonyms** (one reviewed table): `&` = `and`; `A&M` = `A & M` =
      `A and M` = `AM`; `st` = `saint`, `ste` = `sainte`, `mt` = `mount`, `ft` = `fort`,
      `univ` = `university`, `penn` = `pennsylvania`; `cc` = `community college`, `hs` =
      `high school`; hyphens and apostrophes either way (`pierre de coubertin` finds
      *Pierre-De-Coubertin*, `queens` and `queen's` both find *Queen's* and *Queens*); and
      translations, ranked just below the word as typed (`university` = `université` =
      `universidad`). Small words (`the`, `of`, `at`, `and`, `de`, `la`, …) are not
      required, except the last one typed, which may be the start of a word (`university
      of` → the Universities of something).
    - **Name, alternative names and city**: a word may match the school's name, one of its
      known alternative names (`mit`), or its city (`toronto` lists Toronto's schools, after
      those with Toronto in their name).
    - **Soft matching**: words no school has are left out, as if not typed; when no school
      has all the others, the most common word is left out, one at a time, until some
      schools have all that remain: `the harvard university`, `harvard university zyxw` and
      `harvard zebra` all find *Harvard University*. A query of unknown words finds nothing.

    **Order** (and `similarity_score`, which never increases along it): first the schools
    whose name is the query (a last word "School" may be left out: `lincoln elementary` is
    *Lincoln Elementary School*), then those with an alternative name that is; then those that
    have more of the query's words; then better matches (a whole word before the start of a
    word before a typo; the name before an alternative name before the city); then those
    whose whole name the query spells out; then a ranked school (one the directory gives a
    prominence: a college) whose name holds the query's words in order, one after another,
    before a namesake that is not ranked or does not (`naval academy` → *United States Naval
    Academy* before *Naval Academy Primary School*); then those whose name starts with the
    query's words in order (`linc` → *Lincoln …* before *Abraham Lincoln …*); then the more prominent
    school, a static rank from the directory (size, research activity, selectivity, main
    campus over branch), so the flagship comes before its namesakes (`purdue university` →
    the West Lafayette campus); then the name (case and accents ignored), then `schoolid`: a
    total order, so paging with `offset` never repeats or skips a school. `total_count` is
    the exact number of all matching schools. A page past the end is an empty `schools`
    array (200). At most 10 different words of a query are used.

    **Filters**: `stateCode`, `level` and `type` keep only the schools that are in that
    state and of one of those levels and one of those types; with `near`, `radius_km` keeps
    only those within that distance. They combine with the query and each other by AND, and
    `total_count` counts exactly the schools that pass them all.

    **Near me**: with `near=<lat>,<lon>`, schools equal on everything up to the name-start
    rule above are ordered by their great-circle distance from that point, nearest first
    (schools without coordinates after those with), before prominence, name and
    `schoolid`; each school with coordinates carries `distance_km`. So a better text match
    always comes first, and among the many *Lincoln Elementary School*s the nearest one
    does. A query is still required: this is a search by name, not a listing of every
    school around a point.

    Each call is metered: the request record in `apirequest` is stored in the caller's
    history before the response is sent.

    Rate limited per user (all of a user's session tokens and secret keys share the quota):
    by default 300 searches per minute (five a second, enough for a search box that asks on
    every keystroke). Over the quota the answer is 429 with `Retry-After`, and the search is
    neither run nor metered. The `RateLimit` and `RateLimit-Policy` headers show the quota
    on every answer that passed authentication and validation.

    **From a web page**, with a publishable key (`key=spk_…`, or `Authorization: Bearer
    spk_…`): the page's origin (its `Origin` header, or the origin of its `Referer` when a
    browser sends no `Origin`) must be one the key lists, or the answer is a 403
    `origin-not-allowed` naming it. The key's own budgets apply instead of the user's quota:
    its searches per minute and per day, and each visitor's (client address's) share per
    minute, so one visitor cannot spend a site's budget. The record names the key
    (`key_id`) and the origin.

    Args:
        query (str):
        state_code (str | Unset): A `StateCode` in any case: the same codes, upper, lower or mixed
            case. (The pattern is
            those codes with each letter in either case.)
        level (list[SchoolLevel] | Unset):
        type_ (list[SchoolTypeFilter] | Unset):
        near (str | Unset):
        radius_km (float | Unset):
        offset (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 25.
        token_id (str | Unset):
        key (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SchoolSearchResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            query=query,
            state_code=state_code,
            level=level,
            type_=type_,
            near=near,
            radius_km=radius_km,
            offset=offset,
            limit=limit,
            token_id=token_id,
            key=key,
            idempotency_key=idempotency_key,
        )
    ).parsed
