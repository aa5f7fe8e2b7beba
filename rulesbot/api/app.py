"""`create_app`: the FastAPI application, its state (settings, bot, cache, limiters, answer worker) and lifespan.

    app = create_app()                 # loads the bot in the lifespan, in a thread (/healthz says "loading")
    app = create_app(bot=fake_bot)     # tests: no loading at all
"""

import asyncio
import functools
import ipaddress
import logging
import threading
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from rulesbot import __version__ as package_version
from rulesbot.admission import AnswerWorker
from rulesbot.api.cache import ANSWER_CACHE_SIZE, AnswerCache
from rulesbot.api.errors import add_error_handlers
from rulesbot.api.insights import open_store
from rulesbot.api.limits import MAX_BODY_BYTES, GuardMiddleware, JsonCORSMiddleware, TokenBucketLimiter
from rulesbot.api.routes import add_routes
from rulesbot.api.static import add_docs_routes, add_static_routes
from rulesbot.settings import Settings, get_settings

logger = logging.getLogger("rulesbot.api")


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
        app.state.analytics = await asyncio.to_thread(open_store, settings)
        try:
            yield
        finally:
            app.state.answers.close()
            app.state.answer_cache.close()
            if app.state.analytics is not None:
                # Writes what is still queued (bounded: the store's flush has a timeout).
                await asyncio.to_thread(app.state.analytics.close)
                app.state.analytics = None

    app = FastAPI(
        title="rulesbot",
        version=package_version,
        description="Board-game rules answers in French or English, citing the rulebook page.",
        lifespan=lifespan,
        docs_url=None,  # served by add_docs_routes, without a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.bot = bot
    app.state.load_error = None
    app.state.analytics = None  # opened in the lifespan when RULESBOT_ANALYTICS is on
    app.state.answer_cache = AnswerCache(ANSWER_CACHE_SIZE)
    app.state.limiter = TokenBucketLimiter(settings.rate_limit_per_minute)
    app.state.trusted_proxies = tuple(ipaddress.ip_network(item, strict=False) for item in settings.trusted_proxies)
    # One core call at a time per process, in one worker thread (why: rulesbot.admission); cached answers
    # don't wait for it; more parallelism comes from `rulesbot serve --workers`.
    app.state.work_limiter = TokenBucketLimiter(settings.rate_limit_work_seconds_per_minute)
    if settings.redis_url:
        _share_state(app, settings)
    app.state.answers = AnswerWorker(
        max_queue=settings.max_queue,
        budget_seconds=settings.request_budget_seconds,
        work_limiter=app.state.work_limiter,
    )

    add_error_handlers(app)
    add_routes(app)
    add_static_routes(app)
    add_docs_routes(app)
    # Outermost last: CORS wraps the guard, so 413/429 answers carry CORS headers and browsers can read them.
    app.add_middleware(
        GuardMiddleware, limiter=app.state.limiter, max_body=MAX_BODY_BYTES, trusted=app.state.trusted_proxies
    )
    app.add_middleware(
        JsonCORSMiddleware,
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type"],
        expose_headers=["Retry-After"],
        max_age=600,
    )
    return app


def _share_state(app: FastAPI, settings: Settings) -> None:
    """Move the rate limits and the answer cache to Redis (rulesbot.shared_state), the in-process ones kept as the
    fallback for when Redis is unreachable."""
    from rulesbot.shared_state import (
        RedisLink,
        SharedAnswerCache,
        SharedTokenBucketLimiter,
        knowledge_namespace,
    )

    link = RedisLink.from_url(settings.redis_url)
    app.state.redis = link
    app.state.limiter = SharedTokenBucketLimiter(
        link, "requests", settings.rate_limit_per_minute, local=app.state.limiter
    )
    app.state.work_limiter = SharedTokenBucketLimiter(
        link, "work", settings.rate_limit_work_seconds_per_minute, local=app.state.work_limiter
    )
    namespaces: dict[tuple[int, str], str] = {}

    def namespace(game: str) -> str | None:
        # The cache is used only once the bot is loaded (the ask route needs it); computed once per bot and game,
        # once that game's knowledge is loaded (packs load lazily: each game has its own index and hash).
        bot = app.state.bot
        key = (id(bot), game)
        if key not in namespaces:
            value = knowledge_namespace(bot, game)
            if value is None:
                return None
            namespaces[key] = value
        return namespaces[key]

    app.state.answer_cache = SharedAnswerCache(link, local=app.state.answer_cache, namespace=namespace)


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
