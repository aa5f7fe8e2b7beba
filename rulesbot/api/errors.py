"""Every error leaves as one JSON shape, `{"error": {"code", "message"}}`: domain errors (RulesbotError) are mapped
in one handler, FastAPI's validation and HTTP errors are re-shaped, anything unexpected is a JSON 500."""

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rulesbot.errors import RulesbotError
from rulesbot.requests import validation_message

logger = logging.getLogger("rulesbot.api")

HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class ServiceLoading(RulesbotError):
    """The model and index are still loading (or failed to load)."""

    code = "loading"
    status = 503
    retry_after = 5


def add_error_handlers(app: FastAPI) -> None:
    """Register the handlers that give every error the one envelope."""

    @app.exception_handler(RulesbotError)
    async def domain_error(_request: Request, error: RulesbotError) -> JSONResponse:
        retry_after = getattr(error, "retry_after", None)
        headers = dict(getattr(error, "headers", None) or {})
        if retry_after:
            headers["Retry-After"] = str(retry_after)
        return JSONResponse(error.to_dict(), status_code=error.status, headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        if first.get("type") == "json_invalid":
            return error_response(400, "invalid_json", "the request body is not valid JSON")
        return error_response(422, "bad_input", validation_message(problems))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "http_error")
        message = error.detail if isinstance(error.detail, str) else code.replace("_", " ")
        return error_response(error.status_code, code, message, headers=getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected_error(_request: Request, error: Exception) -> JSONResponse:
        logger.exception("unexpected error", exc_info=error)
        return error_response(500, "internal_error", "an unexpected error occurred")


def error_dict(error: Exception) -> dict:
    """The `error` object for a load failure (a domain error's own, else its type only: no internals)."""
    if isinstance(error, RulesbotError):
        return error.to_dict()["error"]
    return {"code": "load_failed", "message": type(error).__name__}


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    """A JSON response in the error envelope."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


async def send_error(send, status: int, code: str, message: str, headers: dict | None = None) -> None:
    """Answer an error straight from ASGI middleware, in the same envelope."""
    response = error_response(status, code, message, headers)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})
