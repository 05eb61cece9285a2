"""The official Python client of the School Search API.

    from school_search_client import SchoolSearchClient

    with SchoolSearchClient("http://localhost:3000", email="demo@example.com", password="…") as api:
        page = api.search("harvard", state_code="MA", limit=10)  # logs in on first use
        nearby = api.search("lincoln", level="high", near=(40.81, -96.70), radius_km=50)
        record = api.get_school(nearby.requestresult.schools[0].schoolid)  # not metered

``SchoolSearchAccounts`` (and ``AsyncSchoolSearchAccounts``) sign up, confirm, accept an
invitation and reset a forgotten password, without a token. ``SchoolSearchClient`` (blocking, thread-safe) and ``AsyncSchoolSearchClient`` (asyncio) wrap the
low-level client generated from the API's contract (``school_search_client._generated``, by
openapi-python-client) and return its model classes, re-exported here.
"""

from ._accounts import AsyncSchoolSearchAccounts, SchoolSearchAccounts
from ._async import AsyncSchoolSearchClient
from ._errors import SchoolSearchApiError, SchoolSearchError, SchoolSearchValidationError
from ._generated.models import (
    Account,
    ApiKey,
    ApiRequest,
    DailyUsage,
    DailyUsageByKeyItem,
    DailyUsageByOriginItem,
    DayUsage,
    Grade,
    KeyType,
    MailAccepted,
    Problem,
    ProblemItem,
    PublishableSettings,
    RequestHistory,
    School,
    SchoolLevel,
    SchoolRecord,
    SchoolSearchResponse,
    SchoolTag,
    SchoolType,
    SchoolTypeFilter,
    SearchResult,
    SignUpOptions,
    StateCode,
    Token,
    TokenInfo,
    TokenList,
    Usage,
)
from ._sync import SchoolSearchClient
from ._version import __version__

__all__ = [
    "Account",
    "ApiKey",
    "ApiRequest",
    "AsyncSchoolSearchAccounts",
    "AsyncSchoolSearchClient",
    "DailyUsage",
    "DailyUsageByKeyItem",
    "DailyUsageByOriginItem",
    "DayUsage",
    "Grade",
    "KeyType",
    "MailAccepted",
    "Problem",
    "ProblemItem",
    "PublishableSettings",
    "RequestHistory",
    "School",
    "SchoolLevel",
    "SchoolRecord",
    "SchoolSearchAccounts",
    "SchoolSearchApiError",
    "SchoolSearchClient",
    "SchoolSearchError",
    "SchoolSearchResponse",
    "SchoolSearchValidationError",
    "SchoolTag",
    "SchoolType",
    "SchoolTypeFilter",
    "SearchResult",
    "SignUpOptions",
    "StateCode",
    "Token",
    "TokenInfo",
    "TokenList",
    "Usage",
    "__version__",
]
