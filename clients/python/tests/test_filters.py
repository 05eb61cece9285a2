"""The search's filters and point (level, type, near, radius_km) and a school's record (get_school),
against the real API.

What the API does with the filters is the server's to test (test/api); here: that each goes on the
wire as the contract says, on every page of search_all, that the API's answers parse, and that the
refusals the contract states in words (radius_km without near, a point off the globe) arrive as
SchoolSearchApiError naming the parameter.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING
from uuid import UUID

import pytest

from school_search_client import SchoolRecord, SchoolSearchApiError, SchoolSearchClient
from school_search_client._generated.types import Unset

if TYPE_CHECKING:
    from conftest import Recorder, Server

LINCOLN_NE = (40.8136, -96.7026)


@pytest.fixture(scope="module")
def shared(server: Server, module_recorder: Recorder) -> Iterator[SchoolSearchClient]:
    """One logged-in client for the module (the tests log in once), its exchanges recorded."""
    hooks = module_recorder.hooks()
    with SchoolSearchClient(server.base_url, email=server.email, password=server.password, httpx_args=hooks) as client:
        yield client


@pytest.fixture
def api(shared: SchoolSearchClient, module_recorder: Recorder) -> SchoolSearchClient:
    module_recorder.calls.clear()
    return shared


@pytest.fixture
def recorder(module_recorder: Recorder) -> Recorder:
    """The shared client's exchanges in this test only (``api`` clears them)."""
    return module_recorder


def test_when_filters_and_a_point_are_given_then_each_goes_as_the_contract_says(
    api: SchoolSearchClient, recorder: Recorder
) -> None:

    page = api.search(
        "lincoln", state_code="NE", level=["middle", "high"], type="public", near=LINCOLN_NE, radius_km=50, limit=5
    )

    [sent] = recorder.to("/v1/fetchSchoolSearch")
    assert [(name, value) for name, value in sent.params if name not in ("offset", "limit")] == [
        ("query", "lincoln"),
        ("stateCode", "NE"),
        ("level", "middle"),
        ("level", "high"),
        ("type", "public"),
        ("near", "40.8136,-96.7026"),
        ("radius_km", "50"),
    ]
    # Present (a float) only where the engine measured it; UNSET otherwise.
    assert all(isinstance(school.distance_km, float | Unset) for school in page.requestresult.schools)


def test_when_near_is_text_or_has_tiny_degrees_then_it_is_sent_as_plain_decimals(
    api: SchoolSearchClient, recorder: Recorder
) -> None:

    api.search("harvard", near=" 42.3736 , -71.1097 ", limit=1)
    api.search("harvard", near=(1e-7, -0.0), limit=1)

    sent = [dict(call.params)["near"] for call in recorder.to("/v1/fetchSchoolSearch")]
    assert sent == [" 42.3736 , -71.1097 ", "0.0000001,0"]


def test_when_radius_km_comes_without_near_then_the_api_refuses_it_naming_radius_km(
    api: SchoolSearchClient,
) -> None:
    with pytest.raises(SchoolSearchApiError) as caught:
        api.search("harvard", radius_km=10)

    error = caught.value
    assert (error.status, error.type) == (400, "/problems/validation-error")
    assert [(item.location, item.name) for item in error.errors] == [("query", "radius_km")]


def test_when_near_is_off_the_globe_then_the_api_refuses_it_naming_near(
    api: SchoolSearchClient,
) -> None:
    with pytest.raises(SchoolSearchApiError) as caught:
        api.search("harvard", near=(91, 0))

    assert caught.value.status == 400
    assert [(item.location, item.name) for item in caught.value.errors] == [("query", "near")]


def test_when_a_filter_is_an_empty_list_then_the_client_refuses_it_before_sending(
    api: SchoolSearchClient, recorder: Recorder
) -> None:

    with pytest.raises(ValueError, match="level"):
        api.search("harvard", level=[])

    assert recorder.to("/v1/fetchSchoolSearch") == []


def test_when_search_all_has_filters_then_every_page_carries_them(api: SchoolSearchClient, recorder: Recorder) -> None:

    schools = list(islice(api.search_all("lincoln", level="high", type=["public", "charter"], near=LINCOLN_NE), 30))

    assert len(schools) == 30
    pages = recorder.to("/v1/fetchSchoolSearch")
    assert [dict(page.params)["offset"] for page in pages] == ["0", "25"]
    for page in pages:
        assert [(name, value) for name, value in page.params if name in ("level", "type", "near")] == [
            ("level", "high"),
            ("type", "public"),
            ("type", "charter"),
            ("near", "40.8136,-96.7026"),
        ]


def test_when_getting_a_found_school_then_its_whole_record_comes_back_unmetered(
    api: SchoolSearchClient,
) -> None:
    [found] = api.search("harvard university", state_code="MA", limit=1).requestresult.schools
    metered = api.my_data().usage.request_count

    record = api.get_school(found.schoolid)

    assert isinstance(record, SchoolRecord)
    assert (record.schoolid, record.schoolname, record.city, record.stateprovince) == (
        found.schoolid,
        found.schoolname,
        found.city,
        found.stateprovince,
    )
    assert isinstance(record.aliases, list)
    assert record.source_ids and all(":" in source for source in record.source_ids)
    assert isinstance(record.updated_at, datetime)
    assert api.my_data().usage.request_count == metered, "reading a school costs nothing"
    assert api.get_school(str(found.schoolid).upper()).schoolid == found.schoolid


def test_when_the_school_is_unknown_then_a_not_found_problem_is_raised(
    api: SchoolSearchClient,
) -> None:
    with pytest.raises(SchoolSearchApiError) as caught:
        api.get_school(UUID("00000000-0000-4000-8000-000000000000"))

    assert (caught.value.status, caught.value.type) == (404, "/problems/not-found")
