"""The HTTP API's own response shapes (the ask and score bodies are shared with the CLI: rulesbot.requests)."""

from typing import Any

from pydantic import BaseModel

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


# The documented error answers of the /v1 routes (OpenAPI).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope} for status in (400, 404, 413, 422, 429, 503)
}
