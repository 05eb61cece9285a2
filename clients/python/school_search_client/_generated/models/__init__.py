"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .api_key import ApiKey
from .api_key_request import ApiKeyRequest
from .api_key_update import ApiKeyUpdate
from .api_request import ApiRequest
from .credentials import Credentials
from .daily_usage import DailyUsage
from .daily_usage_by_key_item import DailyUsageByKeyItem
from .daily_usage_by_origin_item import DailyUsageByOriginItem
from .day_usage import DayUsage
from .grade import Grade
from .health import Health
from .health_status import HealthStatus
from .key_type import KeyType
from .link_password import LinkPassword
from .mail_accepted import MailAccepted
from .password_change import PasswordChange
from .password_confirmation import PasswordConfirmation
from .password_reset import PasswordReset
from .password_reset_request import PasswordResetRequest
from .problem import Problem
from .problem_item import ProblemItem
from .problem_item_location import ProblemItemLocation
from .publishable_key_request import PublishableKeyRequest
from .publishable_settings import PublishableSettings
from .request_history import RequestHistory
from .school import School
from .school_level import SchoolLevel
from .school_record import SchoolRecord
from .school_search_response import SchoolSearchResponse
from .school_tag import SchoolTag
from .school_type import SchoolType
from .school_type_filter import SchoolTypeFilter
from .search_result import SearchResult
from .sign_up import SignUp
from .sign_up_options import SignUpOptions
from .sign_up_options_signup import SignUpOptionsSignup
from .state_code import StateCode
from .token import Token
from .token_info import TokenInfo
from .token_info_kind import TokenInfoKind
from .token_list import TokenList
from .usage import Usage

__all__ = (
    "Account",
    "ApiKey",
    "ApiKeyRequest",
    "ApiKeyUpdate",
    "ApiRequest",
    "Credentials",
    "DailyUsage",
    "DailyUsageByKeyItem",
    "DailyUsageByOriginItem",
    "DayUsage",
    "Grade",
    "Health",
    "HealthStatus",
    "KeyType",
    "LinkPassword",
    "MailAccepted",
    "PasswordChange",
    "PasswordConfirmation",
    "PasswordReset",
    "PasswordResetRequest",
    "Problem",
    "ProblemItem",
    "ProblemItemLocation",
    "PublishableKeyRequest",
    "PublishableSettings",
    "RequestHistory",
    "School",
    "SchoolLevel",
    "SchoolRecord",
    "SchoolSearchResponse",
    "SchoolTag",
    "SchoolType",
    "SchoolTypeFilter",
    "SearchResult",
    "SignUp",
    "SignUpOptions",
    "SignUpOptionsSignup",
    "StateCode",
    "Token",
    "TokenInfo",
    "TokenInfoKind",
    "TokenList",
    "Usage",
)
