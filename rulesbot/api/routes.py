"""The /v1 routes and /healthz: each only parses, calls the core (through rulesbot.api.answering) and formats.

The endpoint contracts are those of issue 5; `POST /v1/ask` returns exactly the object of `rulesbot ask --json`
(`Answer.contract()`). The cheap routes (/v1/games, /healthz) are `async def` and answered on the event loop, never
behind the answer worker or in a thread pool that busy answers could fill.
"""

import asyncio
import functools
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query
from fastapi.responses import JSONResponse

from rulesbot import __version__ as package_version
from rulesbot.api.answering import cached_answer, core_call
from rulesbot.api.deps import AnalyticsDep, BotDep, ClientDep, SettingsDep
from rulesbot.api.errors import error_dict
from rulesbot.api.insights import check_report_token, require_store
from rulesbot.api.schemas import ERROR_RESPONSES, Accepted, ErrorEnvelope, FeedbackRequest, SearchResults
from rulesbot.errors import BadInput
from rulesbot.models import Answer
from rulesbot.requests import AskRequest, GameId, QuestionText, ScoreRequest


def add_routes(app: FastAPI) -> None:
    """Register the API routes on `app`."""

    @app.post("/v1/ask", response_model=None, responses={200: {"model": Answer}, **ERROR_RESPONSES})
    async def ask(body: AskRequest, bot: BotDep, settings: SettingsDep, client: ClientDep) -> JSONResponse:
        """Answer one rules question: exactly the JSON object of `rulesbot ask --json`."""
        if len(body.question) > settings.max_question_chars:
            raise BadInput(f"question: at most {settings.max_question_chars} characters")
        # A follow-up's context goes to the core only when there is one (test bots without the parameter still work).
        follow_up = {"context": body.context} if body.context else {}
        call = functools.partial(bot.ask, body.question, body.lang, body.game, **follow_up)
        return JSONResponse(await cached_answer(app.state, client, body, call))

    @app.post("/v1/score", responses=ERROR_RESPONSES)
    async def score(body: ScoreRequest, bot: BotDep, client: ClientDep) -> dict:
        """The `rulesbot score` object for one painting."""
        payload = body.model_dump(exclude_none=True, exclude={"game"})
        try:
            return await core_call(app.state, client, bot.score, payload, game=body.game)
        except ValueError as error:
            # The engine validates states with "expected X, got Y" ValueErrors (house habit 7).
            raise BadInput(str(error)) from error

    @app.get("/v1/search", response_model=SearchResults, responses=ERROR_RESPONSES)
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
        return {"results": await core_call(app.state, client, bot.search, q, lang=lang, k=k, game=game)}

    @app.post("/v1/feedback", status_code=202, response_model=Accepted, responses=ERROR_RESPONSES)
    async def feedback(store: AnalyticsDep, body: FeedbackRequest) -> Accepted:
        """A vote on one answer (its `id`), with an optional comment: queued for the site owner's report."""
        store.record_feedback(body.id, body.vote, body.comment)
        return Accepted()

    @app.get("/v1/report", responses={401: {"model": ErrorEnvelope}, **ERROR_RESPONSES})
    async def report(
        settings: SettingsDep,
        authorization: Annotated[str | None, Header()] = None,
        since: Annotated[str | None, Query(max_length=32, description="24h, 7d, 2w or a date")] = None,
        lang: Annotated[Literal["fr", "en"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 10,
    ) -> dict:
        """The site owner's report (the object of `rulesbot report --json`), behind the report bearer token."""
        import time

        from rulesbot.commands.report import parse_since

        check_report_token(settings, authorization)
        store = require_store(app.state)
        try:
            cutoff = parse_since(since, now=time.time())
        except ValueError as error:
            raise BadInput(f"since: {error}") from None
        # A database read: in a thread, never on the event loop nor behind the answer worker.
        return await asyncio.to_thread(store.report, since=cutoff, lang=lang, limit=limit)

    @app.get("/v1/games", responses=ERROR_RESPONSES)
    async def games(bot: BotDep) -> dict:
        """The knowledge packs this service answers for."""
        return {"games": [manifest.model_dump() for manifest in bot.games()]}

    @app.get("/healthz", responses={503: {"description": "Still loading, or loading failed."}})
    async def healthz() -> JSONResponse:
        """Ready (200) once the model and index are loaded; "loading" or "error" (503) before."""
        state = app.state
        if state.bot is not None:
            body = {"status": "ready", "version": package_version, "games": _game_ids(state.bot)}
            return JSONResponse(body)
        if state.load_error is not None:
            body = {"status": "error", "version": package_version, "error": error_dict(state.load_error)}
            return JSONResponse(body, status_code=503)
        return JSONResponse({"status": "loading", "version": package_version}, status_code=503)


def _game_ids(bot: Any) -> list[str]:
    try:
        return [manifest.game for manifest in bot.games()]
    except Exception:  # health must answer even if the bot misbehaves
        return []
