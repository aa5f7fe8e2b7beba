"""The HTTP API and the widget host: thin FastAPI routes over the one core (`rulesbot.core.Rulesbot`).

    app = create_app()                 # loads the bot in the lifespan, in a thread (/healthz says "loading")
    app = create_app(bot=fake_bot)     # tests: no loading at all

Routes only parse, call the core and format. Every error leaves as one JSON shape,
`{"error": {"code", "message"}}`: domain errors (RulesbotError) are mapped in one handler, FastAPI's
validation and HTTP errors are re-shaped, and the guard middleware (body size, rate limit) answers in the
same shape. The endpoint contracts are those of issue 5; `POST /v1/ask` returns exactly the object of
`rulesbot ask --json` (`Answer.contract()`).
"""

import asyncio
import hashlib
import logging
import math
import re
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from rulesbot import __version__ as _package_version
from rulesbot.errors import BadInput, RulesbotError
from rulesbot.models import MAX_CONTEXT, Answer, SearchHit
from rulesbot.settings import MAX_QUESTION_CHARS_CEILING, Settings, get_settings

logger = logging.getLogger("rulesbot.api")

# Request bodies are tiny (a question is at most 2000 characters); anything bigger is refused before parsing.
MAX_BODY_BYTES = 16 * 1024
# A client that announces a body and then stalls must not hold a worker forever.
BODY_READ_TIMEOUT_SECONDS = 10.0
# Repeated questions are the common case on a rules site (the same few doubts come up at every table).
ANSWER_CACHE_SIZE = 4096
# The rate limiter forgets the least recently seen clients beyond this, so memory stays bounded.
RATE_LIMIT_MAX_CLIENTS = 10_000
RATE_LIMITED_PREFIX = "/v1/"

# The demo page runs under the strictest policy the widget supports, which proves a site can use it too.
DEMO_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
# JSON and scripts never need to load anything.
API_CSP = "default-src 'none'; frame-ancestors 'none'"
# /docs is Swagger UI served from the swagger-ui-bundle package (no CDN: it works offline); its one inline
# script is allowed by hash, its inline styles by 'unsafe-inline' (Swagger UI sets style attributes).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' '{script_hash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
}

# C0/C1 control characters (tab and newlines are fine in a question) and lone surrogates, which JSON
# can smuggle in as "\ud800" and which cannot be encoded back to UTF-8.
_FORBIDDEN_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean_text(value: str) -> str:
    if _FORBIDDEN_CHARS.search(value):
        raise ValueError("control characters are not allowed")
    value = value.strip()
    if not value:
        raise ValueError("must not be empty")
    return value


# Length limits first (cheap, and they reject a huge value before scanning it), then the text checks.
QuestionText = Annotated[
    str, Field(min_length=1, max_length=MAX_QUESTION_CHARS_CEILING), AfterValidator(_clean_text)
]
GameId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9-]*$")]
ShortName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_clean_text)]
# An art card by title (FR or EN) or by id; StrictInt so that `true` is not taken for card 1.
CardRef = ShortName | Annotated[StrictInt, Field(ge=0, le=100_000)]
Icon = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z][a-z-]*$")]


# The longest list a request may carry (cards, swatches, icons in a swatch, scoring cards): a bound on work.
MAX_LIST_ITEMS = 32


class AskRequest(BaseModel):
    """The body of POST /v1/ask."""

    model_config = ConfigDict(extra="forbid")

    question: QuestionText
    lang: Literal["fr", "en"] | None = None
    game: GameId | None = None
    context: list[QuestionText] | None = Field(
        default=None, max_length=MAX_CONTEXT,
        description="The player's previous questions, newest last (a follow-up such as \"and with 4 ribbons?\" uses them).",
    )


class ScoreRequest(BaseModel):
    """The body of POST /v1/score: one painting as art cards (bottom first) or as its five swatches."""

    model_config = ConfigDict(extra="forbid")

    # Size guards only (this schema serves every game): the game's engine checks the exact counts (Canvas: 3
    # cards, 5 swatches) from its own data and answers 422 with its message.
    cards: list[CardRef] | None = Field(default=None, min_length=1, max_length=MAX_LIST_ITEMS)
    swatches: list[Annotated[list[Icon], Field(max_length=MAX_LIST_ITEMS)]] | None = Field(
        default=None, min_length=1, max_length=MAX_LIST_ITEMS
    )
    scoring: list[ShortName] | None = Field(
        default=None, max_length=MAX_LIST_ITEMS, description="Scoring cards by name (default: all of the game's)."
    )
    game: GameId | None = None

    @model_validator(mode="after")
    def _one_painting(self) -> "ScoreRequest":
        if (self.cards is None) == (self.swatches is None):
            raise ValueError('give exactly one of "cards" or "swatches"')
        return self


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


class ServiceLoading(RulesbotError):
    """The model and index are still loading (or failed to load)."""

    code = "loading"
    status = 503


_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope} for status in (400, 404, 413, 422, 429, 503)
}


# The dependencies are `async def` only so FastAPI calls them inline: a sync one costs a threadpool hop on
# every request, which is most of the time of a cached answer.
async def get_api_settings(request: Request) -> Settings:
    """The app's settings (a dependency, so tests can override it)."""
    return request.app.state.settings


async def get_bot(request: Request) -> Any:
    """The loaded `Rulesbot`, or a 503 while it loads (a dependency, so tests can swap in a fake)."""
    bot = request.app.state.bot
    if bot is None:
        error = request.app.state.load_error
        message = "the rules index is still loading" if error is None else "the rules index failed to load"
        raise ServiceLoading(message)
    return bot


BotDep = Annotated[Any, Depends(get_bot)]
SettingsDep = Annotated[Settings, Depends(get_api_settings)]


def create_app(
    settings: Settings | None = None,
    bot: Any = None,
    *,
    loader: Callable[[Settings], Any] | None = None,
) -> FastAPI:
    """Build the app. With `bot`, use it as is; otherwise load one in the lifespan with `loader`."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if app.state.bot is None:
            # In a thread, so the server answers /healthz ("loading") while the model and index load.
            threading.Thread(target=_load_bot, args=(app, loader), name="rulesbot-load", daemon=True).start()
        yield

    app = FastAPI(
        title="rulesbot",
        version=_package_version,
        description="Board-game rules answers in French or English, citing the rulebook page.",
        lifespan=lifespan,
        docs_url=None,  # served by _add_docs_routes, without a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.bot = bot
    app.state.load_error = None
    app.state.answer_cache = AnswerCache(ANSWER_CACHE_SIZE)
    # One core call at a time per process: the core keeps shared per-process state (stemmers, the
    # embedder's OpenMP pool) that is not thread-safe, and parallel embeddings only fight over the cores.
    # Cached answers don't take the lock; more parallelism comes from `rulesbot serve --workers`.
    app.state.bot_lock = threading.Lock()
    app.state.limiter = TokenBucketLimiter(settings.rate_limit_per_minute)

    _add_error_handlers(app)
    _add_routes(app)
    _add_static_routes(app)
    _add_docs_routes(app)
    # Outermost last: CORS wraps the guard, so 413/429 answers carry CORS headers and browsers can read them.
    app.add_middleware(GuardMiddleware, limiter=app.state.limiter, max_body=MAX_BODY_BYTES)
    app.add_middleware(
        _JsonCORSMiddleware,
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type"],
        expose_headers=["Retry-After"],
        max_age=600,
    )
    return app


def _add_routes(app: FastAPI) -> None:
    @app.post("/v1/ask", response_model=None, responses={200: {"model": Answer}, **_ERROR_RESPONSES})
    async def ask(body: AskRequest, bot: BotDep, settings: SettingsDep) -> JSONResponse:
        """Answer one rules question: exactly the JSON object of `rulesbot ask --json`."""
        if len(body.question) > settings.max_question_chars:
            raise BadInput(f"question: at most {settings.max_question_chars} characters")
        cache: AnswerCache = app.state.answer_cache
        context = tuple(_normalise_question(previous) for previous in body.context or ())
        key = (_normalise_question(body.question), body.lang or "", body.game or settings.default_game, context)
        contract = cache.get(key)
        if contract is None:
            # The core is CPU-bound (embedding, engine): keep it off the event loop.
            follow_up = {"context": body.context} if body.context else {}
            answer = await run_in_threadpool(_locked, app, bot.ask, body.question, body.lang, body.game, **follow_up)
            contract = answer.contract()
            cache.put(key, contract)
        elif contract["question"] != body.question:
            # Same question spelt differently: echo the caller's own spelling, as `ask` would.
            contract = {**contract, "question": body.question}
        return JSONResponse(contract)

    @app.post("/v1/score", responses=_ERROR_RESPONSES)
    def score(body: ScoreRequest, bot: BotDep) -> dict:
        """The `rulesbot score` object for one painting."""
        payload = body.model_dump(exclude_none=True, exclude={"game"})
        try:
            return _locked(app, bot.score, payload, game=body.game)
        except ValueError as error:
            # The engine validates states with "expected X, got Y" ValueErrors (house habit 7).
            raise BadInput(str(error)) from error

    @app.get("/v1/search", response_model=SearchResults, responses=_ERROR_RESPONSES)
    def search(
        bot: BotDep,
        settings: SettingsDep,
        q: Annotated[QuestionText, Query()],
        lang: Annotated[Literal["fr", "en"] | None, Query()] = None,
        k: Annotated[int, Query(ge=1, le=20)] = 5,
        game: Annotated[GameId | None, Query()] = None,
    ) -> dict:
        """The k best rulebook and FAQ passages for a query."""
        if len(q) > settings.max_question_chars:
            raise BadInput(f"q: at most {settings.max_question_chars} characters")
        return {"results": _locked(app, bot.search, q, lang=lang, k=k, game=game)}

    @app.get("/v1/games", responses=_ERROR_RESPONSES)
    def games(bot: BotDep) -> dict:
        """The knowledge packs this service answers for."""
        return {"games": [manifest.model_dump() for manifest in bot.games()]}

    @app.get("/healthz", responses={503: {"description": "Still loading, or loading failed."}})
    def healthz() -> JSONResponse:
        """Ready (200) once the model and index are loaded; "loading" or "error" (503) before."""
        state = app.state
        if state.bot is not None:
            body = {"status": "ready", "version": _package_version, "games": _game_ids(state.bot)}
            return JSONResponse(body)
        if state.load_error is not None:
            body = {"status": "error", "version": _package_version, "error": _error_dict(state.load_error)}
            return JSONResponse(body, status_code=503)
        return JSONResponse({"status": "loading", "version": _package_version}, status_code=503)


def _add_static_routes(app: FastAPI) -> None:
    files = resources.files("rulesbot.widget")
    assets = {
        "/widget.js": ("widget.js", "text/javascript; charset=utf-8"),
        "/demo.js": ("demo.js", "text/javascript; charset=utf-8"),
        "/demo.css": ("demo.css", "text/css; charset=utf-8"),
    }
    for path, (name, media_type) in assets.items():
        _add_asset_route(app, path, files.joinpath(name).read_bytes(), media_type)
    demo = files.joinpath("demo.html").read_bytes()

    @app.get("/", include_in_schema=False)
    def demo_page() -> Response:
        """The demo rules page for Canvas, with the widget on it."""
        headers = {
            "Content-Security-Policy": DEMO_CSP,
            "X-Frame-Options": "DENY",
            "Cache-Control": "no-cache",
        }
        return Response(demo, media_type="text/html; charset=utf-8", headers=headers)


def _add_docs_routes(app: FastAPI) -> None:
    """Swagger UI at /docs, its files from the swagger-ui-bundle package, under a CSP."""
    import base64

    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    for name, media_type in DOCS_ASSETS.items():
        _add_asset_route(app, f"/docs/assets/{name}", (Path(swagger_ui_path) / name).read_bytes(), media_type)
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url,
        title=f"{app.title} API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="/docs/assets/favicon-32x32.png",
    ).body
    inline = re.findall(rb"<script>(.*?)</script>", page, flags=re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(inline[-1]).digest()).decode() if inline else ""
    headers = {"Content-Security-Policy": DOCS_CSP.format(script_hash=f"sha256-{digest}"), "Cache-Control": "no-cache"}

    @app.get("/docs", include_in_schema=False)
    def docs() -> Response:
        """The interactive API documentation (Swagger UI)."""
        return Response(page, media_type="text/html; charset=utf-8", headers=headers)


def _add_asset_route(app: FastAPI, path: str, content: bytes, media_type: str) -> None:
    etag = '"' + hashlib.sha256(content).hexdigest()[:20] + '"'

    def asset(request: Request) -> Response:
        headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(content, media_type=media_type, headers=headers)

    app.add_api_route(path, asset, methods=["GET"], include_in_schema=False, name=path.strip("/"))


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RulesbotError)
    async def domain_error(_request: Request, error: RulesbotError) -> JSONResponse:
        headers = {"Retry-After": "5"} if isinstance(error, ServiceLoading) else None
        return JSONResponse(error.to_dict(), status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        if first.get("type") == "json_invalid":
            return _error_response(400, "invalid_json", "the request body is not valid JSON")
        return _error_response(422, "bad_input", _validation_message(problems))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(error.status_code, "http_error")
        message = error.detail if isinstance(error.detail, str) else code.replace("_", " ")
        return _error_response(error.status_code, code, message, headers=getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected_error(_request: Request, error: Exception) -> JSONResponse:
        logger.exception("unexpected error", exc_info=error)
        return _error_response(500, "internal_error", "an unexpected error occurred")


_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class AnswerCache:
    """A thread-safe LRU of answer contracts keyed on (normalised question, lang, game)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[tuple, dict] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> dict | None:
        """The cached contract, or None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple, value: dict) -> None:
        """Remember a contract, forgetting the least recently used beyond `size`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class TokenBucketLimiter:
    """Per-client token buckets: `per_minute` requests a minute, bursts up to a minute's worth."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str) -> float:
        """Spend one token: 0 if allowed, else the seconds until the next token."""
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            wait = 0.0
            if tokens >= 1.0:
                tokens -= 1.0
            else:
                wait = (1.0 - tokens) / self.rate
            self._buckets[client] = (tokens, now)
            while len(self._buckets) > RATE_LIMIT_MAX_CLIENTS:
                self._buckets.popitem(last=False)
            return wait


class GuardMiddleware:
    """Pure ASGI: rate limit, bounded body (announced and streamed size, read timeout), security headers."""

    def __init__(self, app, *, limiter: TokenBucketLimiter, max_body: int):
        self.app = app
        self.limiter = limiter
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        send = _with_security_headers(send)
        if path.startswith(RATE_LIMITED_PREFIX):
            client = scope.get("client")
            wait = self.limiter.take(client[0] if client else "unknown")
            if wait > 0:
                retry = str(max(1, math.ceil(wait)))
                await _send_error(
                    send, 429, "rate_limited", "too many requests: slow down", {"Retry-After": retry}
                )
                return
        headers = dict(scope.get("headers") or [])
        if (
            scope["method"] in ("POST", "PUT", "PATCH")
            or b"content-length" in headers
            or b"transfer-encoding" in headers
        ):
            announced = headers.get(b"content-length")
            if announced is not None:
                if not announced.strip().isdigit():
                    await _send_error(send, 400, "bad_request", "invalid Content-Length")
                    return
                if int(announced) > self.max_body:
                    await _send_error(
                        send, 413, "payload_too_large", f"the body exceeds {self.max_body} bytes"
                    )
                    return
            # Read the whole (small) body here, counting what actually arrives: a chunked body or a lying
            # Content-Length cannot get past the limit.
            try:
                async with asyncio.timeout(BODY_READ_TIMEOUT_SECONDS):
                    body = await _read_body(receive, self.max_body)
            except TimeoutError:
                await _send_error(send, 408, "request_timeout", "the request body took too long")
                return
            if body is None:  # the client went away
                return
            if len(body) > self.max_body:
                await _send_error(send, 413, "payload_too_large", f"the body exceeds {self.max_body} bytes")
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)


class _JsonCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, with refused preflights answered in the one JSON error shape."""

    def preflight_response(self, request_headers):
        """Starlette's preflight answer, re-shaped into the error envelope when the origin is refused."""
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        headers = {
            k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")
        }
        message = bytes(response.body).decode("utf-8", "replace")
        return JSONResponse(
            {"error": {"code": "cors_denied", "message": message}},
            status_code=response.status_code,
            headers=headers,
        )


def _load_bot(app: FastAPI, loader: Callable[[Settings], Any] | None) -> None:
    try:
        if loader is None:
            from rulesbot.core import Rulesbot

            loader = Rulesbot.load
        bot = loader(app.state.settings)
    except Exception as error:  # reported by /healthz and logged, the server keeps running
        logger.exception("loading the rules index failed")
        app.state.load_error = error
        return
    app.state.bot = bot
    logger.info("rulesbot is ready")


def _locked(app: FastAPI, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with app.state.bot_lock:
        return function(*args, **kwargs)


def _normalise_question(question: str) -> str:
    text = unicodedata.normalize("NFKC", question).casefold()
    text = " ".join(text.split())
    # "How many cards?" and "how many cards" are the same question.
    return text.rstrip(" ?!.")


def _game_ids(bot: Any) -> list[str]:
    try:
        return [manifest.game for manifest in bot.games()]
    except Exception:  # health must answer even if the bot misbehaves
        return []


def _error_dict(error: Exception) -> dict:
    if isinstance(error, RulesbotError):
        return error.to_dict()["error"]
    return {"code": "load_failed", "message": type(error).__name__}


def _validation_message(problems: list[dict]) -> str:
    """"where: what" for the first validation problem, in the caller's terms rather than pydantic's."""
    if not problems:
        return "body: invalid request"
    where = _problem_where(problems[0])
    # A union (a card by title or by id) reports one problem per member, tagged in the location with pydantic's
    # internal type names: a member whose type matched says most (-1: "greater than or equal to 0"), else all do.
    same = [problem for problem in problems if _problem_where(problem) == where]
    specific = [problem for problem in same if not str(problem.get("type", "")).endswith("_type")]
    chosen = specific[:1] or same
    # pydantic's message only (never its `input`, which would echo the caller's payload back).
    messages = [str(problem.get("msg", "invalid request")).removeprefix("Value error, ") for problem in chosen]
    message = messages[0] + "".join(" or " + text.removeprefix("Input should be ") for text in messages[1:])
    return f"{where}: {message}"


def _problem_where(problem: dict) -> str:
    # Field names are identifiers and list positions ints; anything else is a union member's tag.
    parts = [str(part) for part in problem.get("loc", ()) if isinstance(part, int) or str(part).isidentifier()]
    return ".".join(part for part in parts if part != "body") or "body"


def _error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


async def _send_error(send, status: int, code: str, message: str, headers: dict | None = None) -> None:
    response = _error_response(status, code, message, headers)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def _with_security_headers(send):
    extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]

    async def wrapped(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {name.lower() for name, _ in headers}
            headers += [item for item in extra if item[0] not in names]
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", API_CSP.encode()))
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


async def _read_body(receive, limit: int) -> bytes | None:
    """The request body, stopping as soon as it exceeds `limit`; None if the client disconnected."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > limit or not message.get("more_body", False):
            return bytes(body)


def _replay(body: bytes, receive):
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        # Afterwards, pass through so the app still sees the client's disconnect.
        return await receive()

    return replayed
