"""The site owner's analytics in the API (issue 11): the store opened in the lifespan when RULESBOT_ANALYTICS is on,
every answered /v1/ask recorded (cached ones too) with its latency, votes from POST /v1/feedback, and the
GET /v1/report guard (a bearer token, compared in constant time).

Nothing here can fail an answer: the store queues its writes (rulesbot.analytics), a database that can't be opened at
start-up is one warning in the log and the service answers without analytics. No client address ever reaches it.
"""

import hmac
import logging
from typing import Any

from rulesbot.errors import RulesbotError

logger = logging.getLogger("rulesbot.api")


class AnalyticsDisabled(RulesbotError):
    """Analytics are off (RULESBOT_ANALYTICS), so there is nothing to vote on or report."""

    code = "analytics_disabled"
    status = 404


class ReportDisabled(RulesbotError):
    """No RULESBOT_REPORT_TOKEN is configured: the report endpoint does not exist."""

    code = "report_disabled"
    status = 404


class Unauthorized(RulesbotError):
    """A missing or wrong bearer token."""

    code = "unauthorized"
    status = 401
    headers = {"WWW-Authenticate": 'Bearer realm="rulesbot report"'}


def open_store(settings: Any) -> Any:
    """The analytics store when RULESBOT_ANALYTICS is on; None when it is off or can't be opened (logged once)."""
    if not settings.analytics:
        return None
    from rulesbot.analytics import Analytics
    from rulesbot.settings import analytics_url

    try:
        return Analytics.open(analytics_url(settings), retention_days=settings.analytics_retention_days)
    except Exception as error:  # noqa: BLE001 - a broken database must never stop the service from answering
        message = error.message if isinstance(error, RulesbotError) else f"{type(error).__name__}: {error}"
        logger.warning("analytics are off for this run: %s (answers are not affected)", message)
        return None


def record_answer(state: Any, contract: dict, *, game: str, latency_ms: float) -> None:
    """Queue one answered question, if analytics are on (never raises: an answer is never failed by analytics)."""
    store = getattr(state, "analytics", None)
    if store is None:
        return
    try:
        store.record_answer(contract, game=game, latency_ms=latency_ms)
    except Exception:  # noqa: BLE001 - see above; the store logs its own database problems
        logger.debug("analytics: an answer was not recorded", exc_info=True)


def require_store(state: Any) -> Any:
    """The open store, or a clear error: 404 when analytics are off, 503 when they are on but unavailable."""
    store = getattr(state, "analytics", None)
    if store is not None:
        return store
    if not state.settings.analytics:
        raise AnalyticsDisabled("analytics are off on this service (RULESBOT_ANALYTICS)")
    from rulesbot.analytics import AnalyticsError

    raise AnalyticsError("the analytics database could not be opened at start-up (see the service's log)")


def check_report_token(settings: Any, authorization: str | None) -> None:
    """Let the request through only with `Authorization: Bearer <RULESBOT_REPORT_TOKEN>` (constant-time compare)."""
    expected = settings.report_token
    if not expected:
        raise ReportDisabled("the report is not enabled on this service (RULESBOT_REPORT_TOKEN)")
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise Unauthorized("a valid bearer token is required")
