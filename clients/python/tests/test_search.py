"""Searching, paging and the caller's own data, through one logged-in client (one login for the module)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from school_search_client import (
    Account,
    RequestHistory,
    SchoolSearchClient,
    SchoolSearchResponse,
    SchoolSearchValidationError,
)

if TYPE_CHECKING:
    from conftest import Server


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[SchoolSearchClient]:
    with SchoolSearchClient(server.base_url, email=server.email, password=server.password) as client:
        yield client


def test_when_searching_then_hits_are_scored_schools_best_first(api: SchoolSearchClient) -> None:
    page = api.search("harvard")

    assert isinstance(page, SchoolSearchResponse)
    schools = page.requestresult.schools
    assert schools, "the seeded catalog has Harvard"
    assert schools[0].schoolname == "Harvard University"
    scores = [school.similarity_score for school in schools]
    assert all(0 < score <= 1 for score in scores)
    assert scores == sorted(scores, reverse=True)
    assert page.requestresult.total_count == schools[0].total_count >= len(schools)


def test_when_searching_then_each_search_adds_a_request_record(api: SchoolSearchClient) -> None:
    before = api.my_requests(limit=1).total_count

    first = api.search("yale")
    second = api.search("stanford", limit=3)

    history = api.my_requests(limit=2)
    assert isinstance(history, RequestHistory)
    assert history.total_count == before + 2
    assert [record.tid for record in history.requests] == [second.apirequest.tid, first.apirequest.tid]
    assert history.requests[0].trequestmade == "search_schools:stanford"
    assert history.requests[0].trequestcost == 1


def test_when_a_search_is_retried_with_its_idempotency_key_then_it_is_metered_once(api: SchoolSearchClient) -> None:
    before = api.my_requests(limit=1).total_count

    first = api.search("yale", idempotency_key="retry-of-yale-1")
    again = api.search("yale", idempotency_key="retry-of-yale-1")

    assert again.apirequest == first.apirequest
    assert api.my_requests(limit=1).total_count == before + 1


def test_when_paged_by_cursor_then_the_next_page_follows_the_last_record(api: SchoolSearchClient) -> None:
    made = [api.search(f"cursor {i}").apirequest.tid for i in range(3)]

    first = api.my_requests(limit=2)
    assert isinstance(first.next_cursor, str)
    second = api.my_requests(limit=2, cursor=first.next_cursor)

    assert [record.tid for record in first.requests] == made[::-1][:2]
    assert second.requests[0].tid == made[0]


def test_when_a_state_is_given_then_only_its_schools_are_found(api: SchoolSearchClient) -> None:
    everywhere = api.search("univ").requestresult
    texas = api.search("univ", state_code="TX").requestresult

    assert texas.schools
    assert {school.stateprovince for school in texas.schools} == {"TX"}
    assert texas.total_count < everywhere.total_count


def test_when_paging_then_pages_follow_on_without_repeats(api: SchoolSearchClient) -> None:
    first = api.search("university", limit=5).requestresult
    second = api.search("university", offset=5, limit=5).requestresult

    assert (first.offset, first.limit, second.offset) == (0, 5, 5)
    assert len(first.schools) == len(second.schools) == 5
    assert not {s.schoolid for s in first.schools} & {s.schoolid for s in second.schools}
    assert first.total_count == second.total_count
    assert first.schools[-1].similarity_score >= second.schools[0].similarity_score


def test_when_paging_past_the_end_then_the_page_is_empty_and_tells_the_total(api: SchoolSearchClient) -> None:
    total = api.search("harvard").requestresult.total_count

    past = api.search("harvard", offset=total + 10).requestresult

    assert past.schools == []
    assert past.total_count == total


def test_when_iterating_search_all_then_every_match_comes_once(api: SchoolSearchClient) -> None:
    total = api.search("lincoln", limit=1).requestresult.total_count

    schools = list(api.search_all("lincoln"))

    assert len(schools) == total
    assert len({school.schoolid for school in schools}) == total
    assert total > 25, "lincoln should need more than one page of 25"


def test_when_asking_for_my_data_then_the_account_and_its_usage_come_back(
    api: SchoolSearchClient, server: Server
) -> None:
    before = api.my_data()
    api.search("duke")
    after = api.my_data()

    assert isinstance(after, Account)
    assert after.email.lower() == server.email.lower()
    assert after.usage.request_count == before.usage.request_count + 1
    assert after.usage.total_cost == before.usage.total_cost + 1
    assert after.usage.last_request_at is not None
    assert after.active_tokens >= 1


def test_when_limit_breaks_the_contract_then_the_client_refuses_it_as_the_server_would(api: SchoolSearchClient) -> None:
    with pytest.raises(SchoolSearchValidationError) as caught:
        api.search("harvard", limit=1000)

    error = caught.value
    assert error.type == "/problems/validation-error"
    assert [(item.location, item.name, item.message) for item in error.errors] == [("query", "limit", "must be <= 25")]
    assert str(error) == "invalid request: limit must be <= 25"
