"""The HTTP API and the widget host: thin FastAPI routes over the one core (`rulesbot.core.Rulesbot`).

    app = create_app()                 # loads the bot in the lifespan, in a thread (/healthz says "loading")
    app = create_app(bot=fake_bot)     # tests: no loading at all

Routes only parse, call the core and format. Every error leaves as one JSON shape,
`{"error": {"code", "message"}}`: domain errors (RulesbotError) are mapped in one handler, FastAPI's
validation and HTTP errors are re-shaped, and the guard middleware (body size, rate limit) answers in the
same shape. The endpoint contracts are those of issue 5; `POST /v1/ask` returns exactly the object of
`rulesbot ask --json` (`Answer.contract()`).

Under load (issue 9): core calls run in one answer worker behind a bounded queue, each within a time budget
(rulesbot.admission), charged to the client's work bucket; everything else (/healthz, /v1/games, the widget,
the demo page, cached answers) is answered on the event loop and never waits for it. The client is the peer
address, or the X-Forwarded-For address when the peer is a configured trusted proxy. HEAD works on every GET.
"""

import asyncio
import functools
import hashlib
import ipaddress
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
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from rulesbot import __version__ as _package_version
from rulesbot.admission import AnswerWorker
from rulesbot.errors import BadInput, RulesbotError
from rulesbot.models import Answer, SearchHit
from rulesbot.requests import AskRequest, GameId, QuestionText, ScoreRequest, validation_message
from rulesbot.settings import Settings, get_settings

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
    retry_after = 5


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


async def get_client(request: Request) -> str:
    """The client's address for rate limiting: the peer, or what a trusted proxy says it forwards for."""
    return client_address(request.scope, request.app.state.trusted_proxies)


BotDep = Annotated[Any, Depends(get_bot)]
SettingsDep = Annotated[Settings, Depends(get_api_settings)]
ClientDep = Annotated[str, Depends(get_client)]


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
        app.state.answers.close()

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
    app.state.limiter = TokenBucketLimiter(settings.rate_limit_per_minute)
    app.state.trusted_proxies = tuple(ipaddress.ip_network(item, strict=False) for item in settings.trusted_proxies)
    # One core call at a time per process, in one worker thread (why: rulesbot.admission); cached answers
    # don't wait for it; more parallelism comes from `rulesbot serve --workers`.
    app.state.work_limiter = TokenBucketLimiter(settings.rate_limit_work_seconds_per_minute)
    app.state.answers = AnswerWorker(
        max_queue=settings.max_queue,
        budget_seconds=settings.request_budget_seconds,
        work_limiter=app.state.work_limiter,
    )

    _add_error_handlers(app)
    _add_routes(app)
    _add_static_routes(app)
    _add_docs_routes(app)
    # Outermost last: CORS wraps the guard, so 413/429 answers carry CORS headers and browsers can read them.
    app.add_middleware(
        GuardMiddleware, limiter=app.state.limiter, max_body=MAX_BODY_BYTES, trusted=app.state.trusted_proxies
    )
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
    async def ask(body: AskRequest, bot: BotDep, settings: SettingsDep, client: ClientDep) -> JSONResponse:
        """Answer one rules question: exactly the JSON object of `rulesbot ask --json`."""
        if len(body.question) > settings.max_question_chars:
            raise BadInput(f"question: at most {settings.max_question_chars} characters")
        cache: AnswerCache = app.state.answer_cache
        context = tuple(_normalise_question(previous) for previous in body.context or ())
        key = (_normalise_question(body.question), body.lang or "", body.game or settings.default_game, context)
        contract = cache.get(key)
        if contract is None:
            # The core is CPU-bound (embedding, engine): keep it off the event loop, admitted and budgeted.
            follow_up = {"context": body.context} if body.context else {}
            answer = await app.state.answers.call(client, bot.ask, body.question, body.lang, body.game, **follow_up)
            contract = answer.contract()
            cache.put(key, contract)
        elif contract["question"] != body.question:
            # Same question spelt differently: echo the caller's own spelling, as `ask` would.
            contract = {**contract, "question": body.question}
        return JSONResponse(contract)

    @app.post("/v1/score", responses=_ERROR_RESPONSES)
    async def score(body: ScoreRequest, bot: BotDep, client: ClientDep) -> dict:
        """The `rulesbot score` object for one painting."""
        payload = body.model_dump(exclude_none=True, exclude={"game"})
        try:
            return await app.state.answers.call(client, bot.score, payload, game=body.game)
        except ValueError as error:
            # The engine validates states with "expected X, got Y" ValueErrors (house habit 7).
            raise BadInput(str(error)) from error

    @app.get("/v1/search", response_model=SearchResults, responses=_ERROR_RESPONSES)
    async def search(
        bot: BotDep,
        settings: SettingsDep,
        client: ClientDep,
        q: Annotated[QuestionText, Query()],
        lang: Annotated[Literal["fr", "en"] | None, Query()] = None,
        k: Annotated[int, Query(ge=1, le=20)] = 5,
        game: Annotated[GameId | None, Query()] = None,
    ) -> dict:
        """The k best rulebook and FAQ passages for a query."""
        if len(q) > settings.max_question_chars:
            raise BadInput(f"q: at most {settings.max_question_chars} characters")
        return {"results": await app.state.answers.call(client, bot.search, q, lang=lang, k=k, game=game)}

    # `async def` from here on: these are cheap and answered on the event loop, never behind the answer
    # worker or in a thread pool that busy answers could fill.
    @app.get("/v1/games", responses=_ERROR_RESPONSES)
    async def games(bot: BotDep) -> dict:
        """The knowledge packs this service answers for."""
        return {"games": [manifest.model_dump() for manifest in bot.games()]}

    @app.get("/healthz", responses={503: {"description": "Still loading, or loading failed."}})
    async def healthz() -> JSONResponse:
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
    async def demo_page() -> Response:
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
    async def docs() -> Response:
        """The interactive API documentation (Swagger UI)."""
        return Response(page, media_type="text/html; charset=utf-8", headers=headers)


def _add_asset_route(app: FastAPI, path: str, content: bytes, media_type: str) -> None:
    etag = '"' + hashlib.sha256(content).hexdigest()[:20] + '"'

    async def asset(request: Request) -> Response:
        headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(content, media_type=media_type, headers=headers)

    app.add_api_route(path, asset, methods=["GET"], include_in_schema=False, name=path.strip("/"))


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RulesbotError)
    async def domain_error(_request: Request, error: RulesbotError) -> JSONResponse:
        retry_after = getattr(error, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return JSONResponse(error.to_dict(), status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        if first.get("type") == "json_invalid":
            return _error_response(400, "invalid_json", "the request body is not valid JSON")
        return _error_response(422, "bad_input", validation_message(problems))

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
    """Per-client token buckets: `per_minute` tokens a minute, bursts up to a minute's worth.

    A token is a request (`take()`), or a second of computation (`take(client, 0)` checks that the client is
    not in debt, `charge` spends what a call took, after the fact)."""

    def __init__(self, per_minute: float, *, clock: Callable[[], float] = time.monotonic):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, cost: float = 1.0) -> float:
        """Spend `cost` tokens: 0 if allowed, else the seconds until there are enough."""
        with self._lock:
            tokens = self._refilled(client)
            wait = 0.0
            if tokens >= cost:
                tokens -= cost
            else:
                wait = (cost - tokens) / self.rate
            self._store(client, tokens)
            return wait

    def charge(self, client: str, amount: float) -> None:
        """Spend `amount` tokens whatever is left: a debt (at most a bucket's worth) is paid back by waiting."""
        with self._lock:
            self._store(client, max(-self.capacity, self._refilled(client) - amount))

    def _refilled(self, client: str) -> float:
        now = self.clock()
        tokens, last = self._buckets.pop(client, (self.capacity, now))
        return min(self.capacity, tokens + (now - last) * self.rate)

    def _store(self, client: str, tokens: float) -> None:
        self._buckets[client] = (tokens, self.clock())
        while len(self._buckets) > RATE_LIMIT_MAX_CLIENTS:
            self._buckets.popitem(last=False)


class GuardMiddleware:
    """Pure ASGI: HEAD as GET without the body, rate limit, bounded body (announced and streamed size, read
    timeout), security headers."""

    def __init__(self, app, *, limiter: TokenBucketLimiter, max_body: int, trusted: tuple = ()):
        self.app = app
        self.limiter = limiter
        self.max_body = max_body
        self.trusted = trusted

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        send = _with_security_headers(send)
        if scope["method"] == "HEAD":
            # Every GET answers HEAD too (HTTP says it must): the same status and headers, no body.
            scope = {**scope, "method": "GET"}
            send = _without_body(send)
        if path.startswith(RATE_LIMITED_PREFIX):
            wait = self.limiter.take(client_address(scope, self.trusted))
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

            # A skipped user pack is logged (a server's stderr is not where anyone looks).
            loader = functools.partial(Rulesbot.load, warn=logger.warning)
        bot = loader(app.state.settings)
    except Exception as error:  # reported by /healthz and logged, the server keeps running
        logger.exception("loading the rules index failed")
        app.state.load_error = error
        return
    app.state.bot = bot
    logger.info("rulesbot is ready")


# The longest client key kept (a forwarded address from a trusted proxy is short; anything else is cut).
MAX_CLIENT_KEY_CHARS = 64


def client_address(scope: dict, trusted: tuple) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the right-most address of
    X-Forwarded-For that is not itself a trusted proxy (the one that connected to the outermost trusted proxy;
    anything left of it was written by the client and could be anything)."""
    peer = scope.get("client")
    address = peer[0] if peer else "unknown"
    if not trusted or not _is_trusted(address, trusted):
        return address
    values = [value for name, value in scope.get("headers") or [] if name == b"x-forwarded-for"]
    hops = [hop.strip() for hop in b",".join(values).decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop[:MAX_CLIENT_KEY_CHARS]
    return hops[0][:MAX_CLIENT_KEY_CHARS] if hops else address


def _is_trusted(address: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


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


def _without_body(send):
    async def wrapped(message):
        if message["type"] == "http.response.body" and message.get("body"):
            message = {**message, "body": b""}
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
