"""The exceptions this package raises itself. Network failures are httpx's own (httpx.HTTPError)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from ._generated.models import Problem, ProblemItem


class SchoolSearchError(Exception):
    """Base class of this package's exceptions."""


class SchoolSearchValidationError(SchoolSearchError, ValueError):
    """A request this client refused before sending it, because it breaks the API's contract.

    ``errors`` are the items the server's 400 would list (``location``, ``name``, ``message``), in
    the server's words; ``type`` is the problem type it would answer with. Nothing was sent.
    """

    type: str = "/problems/validation-error"

    def __init__(self, errors: list[ProblemItem]) -> None:
        self.errors = list(errors)
        super().__init__("invalid request: " + "; ".join(f"{item.name} {item.message}" for item in self.errors))

    def __reduce__(self) -> tuple[Callable[..., SchoolSearchValidationError], tuple[object, ...]]:
        return (type(self), (self.errors,))


class SchoolSearchApiError(SchoolSearchError):
    """The API answered with an error status; ``problem`` is its ``application/problem+json`` body
    (RFC 9457), or None when something other than the API answered (a proxy's HTML page)."""

    def __init__(
        self,
        status: int,
        problem: Problem | None = None,
        request_id: str | None = None,
        reason: str = "HTTP error",
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.problem = problem
        self.request_id = problem.request_id if problem is not None else request_id
        #: Seconds to wait before trying again, from ``Retry-After`` (429 and 503), else None.
        self.retry_after = retry_after
        self._reason = reason
        message = f"{status} {problem.title}: {problem.detail}" if problem is not None else f"{status} {reason}"
        if self.request_id:
            message += f" (request id {self.request_id})"
        super().__init__(message)

    @property
    def type(self) -> str:
        """The problem type, e.g. ``/problems/invalid-credentials``; RFC 9457's default
        ``about:blank`` when the body is not a problem detail."""
        return self.problem.type_ if self.problem is not None else "about:blank"

    @property
    def title(self) -> str:
        return self.problem.title if self.problem is not None else self._reason

    @property
    def detail(self) -> str | None:
        return self.problem.detail if self.problem is not None else None

    @property
    def errors(self) -> list[ProblemItem]:
        """For a 400: each parameter or body field that was wrong, and why."""
        if self.problem is None or not isinstance(self.problem.errors, list):
            return []
        return self.problem.errors

    def __reduce__(self) -> tuple[Callable[..., SchoolSearchApiError], tuple[object, ...]]:
        # Keeps the fields when the error crosses a process boundary (multiprocessing, pickle).
        return (type(self), (self.status, self.problem, self.request_id, self._reason, self.retry_after))

    @classmethod
    def from_response(cls, response: httpx.Response) -> SchoolSearchApiError:
        return cls(
            response.status_code,
            _problem_of(response),
            response.headers.get("X-Request-Id"),
            response.reason_phrase or "HTTP error",
            _seconds(response.headers.get("Retry-After")),
        )


def _problem_of(response: httpx.Response) -> Problem | None:
    try:
        body = response.json()
        return Problem.from_dict(body) if isinstance(body, dict) else None
    except (ValueError, KeyError, TypeError):
        # Not JSON, or JSON that is not a problem detail: the status still says what happened.
        return None


def _seconds(value: str | None) -> float | None:
    # The API sends delay-seconds; an HTTP date (allowed by RFC 9110) is left to the caller.
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
