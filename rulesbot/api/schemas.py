"""The HTTP API's own response shapes (the ask and score bodies are shared with the CLI: rulesbot.requests)."""

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from rulesbot.models import SearchHit


class ErrorDetail(BaseModel):
    """What went wrong, with a stable code."""

    code: str
    message: str


class ErrorEnvelope(BaseModel):
    """The one error shape of every 4xx and 5xx answer."""

    error: ErrorDetail


class SearchResults(BaseModel):
    """The body of GET /v1/search."""

    results: list[SearchHit]


# Control characters other than tab and newlines, and lone surrogates (as in rulesbot.requests).
_FORBIDDEN_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
MAX_COMMENT_CHARS = 500


def _clean_comment(value: str | None) -> str | None:
    if value is None:
        return None
    if _FORBIDDEN_CHARS.search(value):
        raise ValueError("control characters are not allowed")
    return value.strip() or None


class FeedbackRequest(BaseModel):
    """The body of POST /v1/feedback: a vote on one answer (by its `id`), nothing about the person voting."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[0-9a-f]+$")]
    vote: Literal["up", "down"]
    comment: Annotated[str | None, Field(max_length=MAX_COMMENT_CHARS), AfterValidator(_clean_comment)] = None


class Accepted(BaseModel):
    """A 202 body: the vote is queued."""

    status: Literal["accepted"] = "accepted"


# The documented error answers of the /v1 routes (OpenAPI).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope} for status in (400, 404, 413, 422, 429, 503)
}
