"""Admission glue: how a route gets an answer. A cached contract is answered on the event loop; anything else is a
core call in the one answer worker, behind its bounded queue and time budget (rulesbot.admission), charged to the
client's work bucket, and then cached.

    contract = await cached_answer(app.state, client, body, functools.partial(bot.ask, body.question, ...))
"""

import json
import time
from collections.abc import Callable
from typing import Any

from rulesbot.api.cache import normalise_question
from rulesbot.api.insights import record_answer
from rulesbot.models import Answer
from rulesbot.requests import AskRequest


def cache_key(body: AskRequest, default_game: str) -> tuple:
    """The cache key of an ask request: normalised question, lang, game, and any further request field (so a field
    added to AskRequest, e.g. a conversation context, keeps different requests apart without touching this)."""
    rest = body.model_dump(exclude={"question", "lang", "game"}, exclude_none=True)
    extra = json.dumps(rest, sort_keys=True, ensure_ascii=False, default=str) if rest else ""
    return (normalise_question(body.question), body.lang or "", body.game or default_game, extra)


async def cached_answer(state: Any, client: str, body: AskRequest, ask: Callable[[], Answer]) -> dict:
    """The answer contract for `body`: from the cache, else `ask()` in the answer worker (then cached); recorded in
    the analytics (when on) with its latency, cached or not."""
    started = time.perf_counter()
    cache = state.answer_cache
    key = cache_key(body, state.settings.default_game)
    contract = cache.get(key)
    if contract is None:
        # The core is CPU-bound (embedding, engine): keep it off the event loop, admitted and budgeted.
        answer = await state.answers.call(client, ask)
        contract = answer.contract()
        cache.put(key, contract)
    elif contract["question"] != body.question:
        # Same question spelt differently: echo the caller's own spelling, as `ask` would.
        contract = {**contract, "question": body.question}
    record_answer(state, contract, game=key[2], latency_ms=(time.perf_counter() - started) * 1000)
    return contract


async def core_call(state: Any, client: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Any other core call (score, search), admitted and budgeted like an answer."""
    return await state.answers.call(client, function, *args, **kwargs)
