"""The HTTP API and the widget host: thin FastAPI routes over the one core (`rulesbot.core.Rulesbot`).

    from rulesbot.api import create_app
    app = create_app()                 # loads the bot in the lifespan, in a thread (/healthz says "loading")
    app = create_app(bot=fake_bot)     # tests: no loading at all

The package, one concern a module:

- app: `create_app`, the app's state and lifespan;
- routes: the /v1 routes and /healthz (parse, call the core, format; nothing else);
- answering: admission glue (the answer cache, the answer worker: rulesbot.admission);
- cache: the answer cache;
- schemas: the API's own response shapes (request bodies: rulesbot.requests);
- errors: the one error envelope `{"error": {"code", "message"}}` for every 4xx and 5xx;
- limits: the guard middleware (HEAD, rate limit, body bound, security headers), token buckets, client address, CORS;
- static: the widget, the demo page and Swagger UI at /docs, each under a Content-Security-Policy;
- deps: the routes' dependencies (settings, bot, client), which tests override.

Under load (issue 9): core calls run in one answer worker behind a bounded queue, each within a time budget,
charged to the client's work bucket; everything else (/healthz, /v1/games, the widget, the demo page, cached
answers) is answered on the event loop and never waits for it. HEAD works on every GET.
"""

from rulesbot.api.app import create_app
from rulesbot.api.cache import AnswerCache
from rulesbot.api.deps import get_api_settings, get_bot, get_client
from rulesbot.api.limits import MAX_BODY_BYTES, TokenBucketLimiter, client_address
from rulesbot.api.static import DEMO_CSP

__all__ = [
    "DEMO_CSP",
    "MAX_BODY_BYTES",
    "AnswerCache",
    "TokenBucketLimiter",
    "client_address",
    "create_app",
    "get_api_settings",
    "get_bot",
    "get_client",
]
