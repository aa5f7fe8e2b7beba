"""The MCP server (`rulesbot mcp`): rulesbot as a tool that chat assistants call, over the one core.

Built on the official Model Context Protocol SDK (`mcp` >= 2, its `MCPServer`). Chat assistants that would
otherwise guess a rule call these tools instead, so their answer is computed by the engine or quoted from the
knowledge pack, with the rulebook page:

- tools: `ask_rules`, `score_painting`, `check_claim`, `best_painting`, `list_games`, `search_rulebook`;
- resources: every pack's rulebook passages by page, `rulesbot://<game>/page/<n>` (listed, and a template);
- a prompt, `answer_from_rules`: answer from the rules, cite pages.

    server = build_server(settings)            # manifests read now; the bot loads in a thread at start-up
    server = build_server(settings, bot=fake)  # tests: no loading at all

Every tool is a thin call into `rulesbot.core.Rulesbot` (or the Canvas engine's public functions for the best
arrangement of a hand). Bad arguments and domain errors come back as the protocol's tool error result
(`isError: true`), with the same message as the HTTP API and `{"error": {"code", "message"}}` as structured
content; the server keeps serving after any of them. Logs go to stderr: in stdio mode stdout is the protocol's.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from rulesbot import __version__
from rulesbot.engine import canvas
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING, SWATCH_COUNT
from rulesbot.errors import BadInput, RulesbotError, UnknownCard
from rulesbot.requests import CardRef, GameId, Icon, QuestionText, ScoreRequest, ShortName, validation_message
from rulesbot.settings import Settings

logger = logging.getLogger("rulesbot.mcp")

SERVER_NAME = "rulesbot"
URI_SCHEME = "rulesbot"
# The player's previous questions that `ask_rules` takes for a follow-up ("and with 4 ribbons?").
MAX_CONTEXT_QUESTIONS = 5
# The most passages `search_rulebook` returns (the bound of GET /v1/search).
MAX_SEARCH_RESULTS = 20
# Rulebook records (not FAQ answers) are what a page resource shows; "user" is an ingested rulebook.
PAGE_SOURCES = ("rulebook", "user")
# Headings of a page resource's language sections.
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
# How check_claim marks a plain statement as a claim to check (phrases of the compute layer's claim vocabulary).
CLAIM_MARKERS = {"en": "true or false:", "fr": "vrai ou faux :"}
# The rules the best arrangement of a hand rests on (keys of the engine's PAGES table: rule -> rulebook page).
BEST_PAINTING_RULES = ("paint", "ribbons", "points_tables", "silver_points")

INSTRUCTIONS = (
    "rulesbot answers board-game rules questions (first game: Canvas) in French or English from the rulebook, "
    "and computes points, painting scores, token costs and legality with an executable rules engine. Call its "
    "tools instead of answering a rules question from memory, relay the answer in the player's language, cite "
    "the rulebook pages it gives (\"p. 3\"), and when it says it does not know, say so rather than guess."
)

PROMPT_TEXT = (
    "Answer this board-game rules question for a player, from the rules only.\n\n"
    "Question: {question}\n\n"
    "1. Call the rulesbot tool `ask_rules` with the question as the player wrote it{game_hint}{lang_hint}. For a "
    "statement to check (\"X is worth 9 points, right?\") use `check_claim`; for a painting's ribbons use "
    "`score_painting`; for the best painting of a hand use `best_painting`.\n"
    "2. Answer with what the tool returned, in the player's language: do not add rules of your own, and do not "
    "change a number the engine computed.\n"
    "3. Cite the rulebook page(s) from the tool's citations or pages, as \"p. 3\".\n"
    "4. If the tool's kind is \"unknown\" (or a claim is not checkable), tell the player the rules you have do "
    "not cover it and name the closest pages it gives; never guess."
)


class RulesbotMCP(MCPServer):
    """MCPServer whose tool errors keep the API's messages: arguments are checked like API request bodies.

    The SDK turns a failed tool into an error result with pydantic's raw text (which echoes the caller's
    values) or a generic line; here every failure becomes one clear message and a stable code instead.
    """

    def __init__(self, *args, tool_arguments: dict[str, frozenset[str]], bot_loader: BotLoader, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._tool_arguments = tool_arguments
        self.bot_loader = bot_loader

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        """Run a tool; any failure comes back as an `isError` result with the API's message, never a crash."""
        allowed = self._tool_arguments.get(name)
        if allowed is None:
            return error_result("unknown_tool", f"unknown tool {name!r}; tools: {', '.join(sorted(self._tool_arguments))}")
        unknown = sorted(set(arguments or {}) - allowed)
        if unknown:
            # The SDK ignores unknown arguments; a misspelt one ("language") would silently be dropped.
            return error_result("bad_input", f"{unknown[0]}: unknown argument (expected {', '.join(sorted(allowed))})")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, RulesbotError):
                return error_result(cause.code, cause.message)
            if isinstance(cause, ValidationError) and not isinstance(error, UnexpectedToolError):
                return error_result("bad_input", validation_message(cause.errors()))
            if isinstance(error, UnexpectedToolError):
                logger.error("tool %s failed", name, exc_info=cause or error)
                return error_result("internal", f"{name} failed on the server (the error is in its log)")
            return error_result("bad_input", str(error))


def error_result(code: str, message: str) -> CallToolResult:
    """The tool error result: the message as text, `{"error": {"code", "message"}}` as structured content."""
    return CallToolResult(
        content=[TextContent(type="text", text=f"error: {message}")],
        structured_content={"error": {"code": code, "message": message}},
        is_error=True,
    )


class BotLoader:
    """Loads the `Rulesbot` once, in a thread, so the server answers the handshake while the index loads."""

    def __init__(self, settings: Settings, loader: Callable[[Settings], Any] | None = None, bot: Any = None) -> None:
        self.settings = settings
        self._loader = loader or _load_bot
        self._bot = bot
        self._error: RulesbotError | None = None
        self._done = threading.Event()
        self._started = threading.Lock()
        self._thread: threading.Thread | None = None
        # One core call at a time: the core keeps per-process state (stemmers, the embedder's OpenMP pool)
        # that is not thread-safe, as in the HTTP API.
        self.lock = threading.Lock()
        if bot is not None:
            self._done.set()

    def start(self) -> None:
        """Start loading (once; later calls do nothing)."""
        with self._started:
            if self._done.is_set() or self._thread is not None:
                return
            self._thread = threading.Thread(target=self._load, name="rulesbot-load", daemon=True)
            self._thread.start()

    def get(self) -> Any:
        """The loaded bot (waits for the load); the load's error, as a RulesbotError, if it failed."""
        self.start()
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._bot

    def _load(self) -> None:
        started = time.perf_counter()
        logger.info("rulesbot mcp: loading the rules index (backend %s)…", self.settings.backend)
        try:
            self._bot = self._loader(self.settings)
            logger.info("rulesbot mcp: ready in %.1f s", time.perf_counter() - started)
        except RulesbotError as error:
            self._error = error
            logger.error("rulesbot mcp: loading failed: %s", error.message)
        except Exception as error:  # a tool call must get a message, not hang or crash the server
            logger.exception("rulesbot mcp: loading failed")
            self._error = RulesbotError(f"the rules index failed to load: {error}", code="loading", status=503)
        finally:
            self._done.set()


def _load_bot(settings: Settings):
    from rulesbot.core import Rulesbot

    return Rulesbot.load(settings, notify=lambda message: logger.info("rulesbot mcp: %s", message))


def build_server(
    settings: Settings,
    bot: Any = None,
    *,
    loader: Callable[[Settings], Any] | None = None,
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "WARNING",
) -> RulesbotMCP:
    """The MCP server over one core: tools, page resources and the prompt; the bot loads at start-up."""
    from rulesbot.core import load_catalog

    # The manifests only: a pack's records load on first use (a site may host hundreds of games).
    packs = load_catalog(settings)
    loaded = BotLoader(settings, loader, bot)
    tools = _Tools(loaded)
    functions = tools.functions()
    tool_arguments = {name: frozenset(inspect.signature(function).parameters) for name, (function, _) in functions.items()}

    @asynccontextmanager
    async def lifespan(_server):
        # Inside the transport: in stdio mode the SDK has moved fd 1 to stderr by now, so nothing the
        # load prints can reach the protocol stream.
        loaded.start()
        yield None

    server = RulesbotMCP(
        SERVER_NAME,
        title="rulesbot: board-game rules answers with the rulebook page",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level=log_level,
        lifespan=lifespan,
        tool_arguments=tool_arguments,
        bot_loader=loaded,
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
    for name, (function, description) in functions.items():
        server.add_tool(
            function, name=name, title=_TITLES[name], description=description, annotations=read_only,
            structured_output=True,
        )
    _add_page_resources(server, packs, settings.default_game)
    _add_prompt(server, packs)
    return server


_TITLES = {
    "ask_rules": "Ask a rules question",
    "score_painting": "Score a painting",
    "check_claim": "Check a rules claim",
    "best_painting": "Best painting of a hand",
    "list_games": "List the games",
    "search_rulebook": "Search the rulebook",
}

# Counts in the argument descriptions come from the engine's data, not from this file.
_CARD_REFS = f"titles (e.g. 'Chosen') or ids 1-{canvas.CARD_COUNT}"

Lang = Annotated[
    Literal["fr", "en"] | None,
    Field(description="Answer language, fr or en. Default: the language of the question."),
]
Game = Annotated[
    GameId | None,
    Field(description="Game id from list_games (e.g. canvas). Default: the server's default game."),
]


class _Tools:
    """The tool functions, over one loaded bot. Their signatures are the tools' JSON schemas."""

    def __init__(self, loaded: BotLoader) -> None:
        self.loaded = loaded

    def functions(self) -> dict[str, tuple[Callable[..., dict], str]]:
        """Tool name -> (function, description for the model)."""
        scoring_names = ", ".join(card.name_en for card in canvas.SCORING_CARDS)
        scenarios = ", ".join(item.slug for item in canvas.SCENARIOS if not item.random_cards)
        icons = ", ".join(canvas.ICONS)
        hand_limit = canvas.ruleset("base").hand_limit
        functions = {
            "ask_rules": self.ask_rules,
            "score_painting": self.score_painting,
            "check_claim": self.check_claim,
            "best_painting": self.best_painting,
            "list_games": self.list_games,
            "search_rulebook": self.search_rulebook,
        }
        # Descriptions are written for the model that calls the tools; lists of names come from the engine data.
        fill = {
            "scoring_names": scoring_names, "scenarios": scenarios, "icons": icons, "hand_limit": hand_limit,
            "cards_per_painting": CARDS_PER_PAINTING, "swatch_count": SWATCH_COUNT,
        }
        return {
            name: (function, inspect.cleandoc(_DESCRIPTIONS[name]).format(**fill)) for name, function in functions.items()
        }

    def _call(self, method: str, *args, **kwargs):
        bot = self.loaded.get()
        with self.loaded.lock:
            return getattr(bot, method)(*args, **kwargs)

    def ask_rules(
        self,
        question: Annotated[
            QuestionText,
            Field(description="The player's rules question, as they wrote it (French or English)."),
        ],
        lang: Lang = None,
        game: Game = None,
        context: Annotated[
            list[QuestionText] | None,
            Field(
                max_length=MAX_CONTEXT_QUESTIONS,
                description=f"The player's previous questions in this conversation, oldest first (at most "
                f"{MAX_CONTEXT_QUESTIONS}), so a follow-up such as 'and with 4 ribbons?' is understood.",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """ask_rules: the ask object (`rulesbot ask --json`)."""
        return self._ask(question, lang, game, context).contract()

    def check_claim(
        self,
        claim: Annotated[
            QuestionText,
            Field(description="The statement to check, e.g. '3 green ribbons are worth 9 points' (French or English)."),
        ],
        lang: Lang = None,
        game: Game = None,
    ) -> dict[str, Any]:
        """check_claim: the verdict of the engine, or checkable false when there is nothing to compute."""
        answer = self._ask(claim, lang, game, None)
        if answer.kind == "computed":
            # The engine computed it but read a plain statement ("3 green ribbons are worth 9 points") as a
            # question: ask again with the claim marker the compute layer reads ("true or false: ...").
            from rulesbot.lang import detect_lang

            # In the claim's own language (the answer language may differ), so the marker reads as part of it.
            marker = CLAIM_MARKERS[detect_lang(claim, self.loaded.settings.default_lang)]
            marked = self._ask(f"{marker} {claim}", lang, game, None)
            if marked.kind == "claim":
                answer = marked
        return claim_result(claim, answer.contract())

    def score_painting(
        self,
        cards: Annotated[
            list[CardRef] | None,
            Field(max_length=32, description=f"The painting's {CARDS_PER_PAINTING} Art Cards, bottom to top: {_CARD_REFS}."),
        ] = None,
        swatches: Annotated[
            list[Annotated[list[Icon], Field(max_length=32)]] | None,
            Field(
                max_length=32,
                description=f"Or the painting's {SWATCH_COUNT} visible swatches, left to right, each a list of icon names.",
            ),
        ] = None,
        scoring: Annotated[
            list[ShortName] | ShortName | None,
            Field(
                description="Scoring Cards to count ribbons for: a list of names, or a scenario name. "
                f"Default: all {canvas.SCORING_CARD_COUNT}."
            ),
        ] = None,
        game: Game = None,
    ) -> dict[str, Any]:
        """score_painting: the score object (`rulesbot score --jsonl`)."""
        payload = {"cards": cards, "swatches": swatches, "scoring": _scoring_names(scoring)}
        try:
            request = ScoreRequest.model_validate({key: value for key, value in payload.items() if value is not None})
        except ValidationError as error:
            # The API's message; a rule on the whole request is about the tool's arguments, not an HTTP body.
            message = validation_message(error.errors())
            raise BadInput("arguments: " + message.removeprefix("body: ") if message.startswith("body: ") else message) from None
        return self._call("score", request.model_dump(exclude_none=True, exclude={"game"}), game=game)

    def best_painting(
        self,
        hand: Annotated[
            list[CardRef],
            Field(min_length=1, max_length=32, description=f"The Art Cards in the player's hand: {_CARD_REFS}."),
        ],
        scoring: Annotated[
            list[ShortName] | ShortName,
            Field(description="The Scoring Cards on the mat: a list of names, or a scenario name."),
        ],
        game: Game = None,
    ) -> dict[str, Any]:
        """best_painting: the best ordered triple of the hand, from the engine."""
        from rulesbot.knowledge import get_pack

        manifests = {manifest.game: manifest for manifest in self._call("games")}
        manifest = get_pack(manifests, game or self.loaded.settings.default_game)
        if manifest.engine != "canvas":
            raise BadInput(f"{manifest.title} has no painting engine: no best painting to compute")
        with self.loaded.lock:
            return best_painting_result(hand, _scoring_names(scoring))

    def list_games(self) -> dict[str, Any]:
        """list_games: the knowledge packs (as GET /v1/games)."""
        return {"games": [manifest.model_dump() for manifest in self._call("games")]}

    def search_rulebook(
        self,
        query: Annotated[QuestionText, Field(description="What to look for, in French or English.")],
        lang: Annotated[
            Literal["fr", "en"] | None,
            Field(description="Only passages in this language. Default: both."),
        ] = None,
        k: Annotated[int, Field(ge=1, le=MAX_SEARCH_RESULTS, description=f"How many passages (1-{MAX_SEARCH_RESULTS}).")] = 5,
        game: Game = None,
    ) -> dict[str, Any]:
        """search_rulebook: the k best passages (as GET /v1/search)."""
        hits = self._call("search", query, lang=lang, k=k, game=game)
        return {"results": [hit.model_dump() for hit in hits]}

    def _ask(self, question: str, lang, game, context):
        bot = self.loaded.get()
        with self.loaded.lock:
            return bot.ask(question, lang=lang, game=game, context=list(context) if context else None)


_DESCRIPTIONS = {
    "ask_rules": """
        Answer a board-game rules question (Canvas) from its rulebook, in French or English. Call this for any
        rules question instead of answering from memory.

        Rule answers are the rulebook's and FAQ's own text; computable questions (points for ribbons, what a
        painting scores, token costs, whether a move is legal, "X is worth 9 points, right?") are computed by
        the rules engine. Returns: answer (relay it), lang, kind ("rule" | "computed" | "claim" | "unknown"),
        verdict (true/false for a claim, else null), citations (page, section, snippet: cite them as "p. 3"),
        confidence, and for computed answers an engine object with the computation and its assumptions.
        kind "unknown" means the rules do not cover the question: tell the player so, do not guess.
        For a follow-up ("and with 4 ribbons?"), pass the player's earlier questions in context.
    """,
    "check_claim": """
        Check a statement about the rules, e.g. "3 green ribbons are worth 9 points" or "taking the fourth card
        costs 3 tokens", with the rules engine.

        Returns checkable (false when the text is not a claim the engine can compute: then verdict is null and
        no verdict may be given), verdict (true/false), correct_value (the right value when the claim states a
        wrong one, e.g. "11 points"; null when the claim is right or is a yes/no claim), explanation (the full
        answer, in the claim's language), trace (the computation), pages and citations (cite them), and engine
        (the computation as data).
    """,
    "score_painting": """
        Score one Canvas painting with the rules engine: give either its {cards_per_painting} Art Cards (bottom to
        top) or its {swatch_count} visible swatches. Icons: {icons}.

        Returns the visible swatches, the painting's title (cards only), ribbons earned per Scoring Card
        (before any player cap) and bonus (silver ribbons). Scoring Cards: {scoring_names}; scenarios:
        {scenarios}. For points, use best_painting or ask_rules.
    """,
    "best_painting": """
        Find the best painting a player can make from their hand: every ordered choice of {cards_per_painting}
        different Art Cards (bottom to top) is scored for the given Scoring Cards. A hand holds
        {cards_per_painting} to {hand_limit} cards.

        scoring: Scoring Card names ({scoring_names}) or a scenario ({scenarios}). Returns the cards bottom to
        top, title, visible swatches, ribbons per Scoring Card, bonus (silver ribbons) and points: what the
        painting is worth as the player's only ribbons (each card's count capped at its maximum) plus the
        silver ribbons' points; pages to cite.
    """,
    "list_games": """
        List the games rulesbot has rules for: id (pass it as game to the other tools), title, languages,
        rulebook pages, rules version and whether a rules engine computes answers for it.
    """,
    "search_rulebook": """
        Search the rulebook and FAQ passages for a topic, in French or English (a query in one language also
        finds passages in the other). Returns the k best passages with id, page, section, lang, text and score.
        Prefer ask_rules to answer a question; use this to read around a topic or to find the page of a rule.
    """,
}


def claim_result(claim: str, contract: dict[str, Any]) -> dict[str, Any]:
    """check_claim's object from the ask object: a verdict only when the engine checked a claim."""
    citations = contract.get("citations", [])
    pages = sorted({citation["page"] for citation in citations})
    if contract.get("kind") != "claim":
        return {
            "claim": claim,
            "checkable": False,
            "verdict": None,
            "correct_value": None,
            "reason": _NOT_CHECKABLE[contract.get("lang", "en")],
            "explanation": contract.get("answer"),
            "kind": contract.get("kind"),
            "lang": contract.get("lang"),
            "trace": None,
            "pages": pages,
            "citations": citations,
        }
    parts = answer_parts(contract["answer"], contract["lang"], bool(contract.get("verdict")))
    return {
        "claim": claim,
        "checkable": True,
        "verdict": contract.get("verdict"),
        "correct_value": parts["correct_value"],
        "explanation": contract["answer"],
        "kind": "claim",
        "lang": contract["lang"],
        "trace": parts["trace"],
        "pages": pages,
        "citations": citations,
        "engine": contract.get("engine"),
    }


_NOT_CHECKABLE = {
    "en": "Not a claim the rules engine can check (no number of ribbons, points, cards, tokens or move to "
    "compute), so no verdict is given. The explanation is the rulebook's answer, if it has one.",
    "fr": "Ce n'est pas une affirmation que le moteur de règles peut vérifier (ni rubans, points, cartes, "
    "jetons ou coup à calculer) : aucun verdict n'est donné. L'explication est la réponse du livret, s'il en a une.",
}


def answer_parts(answer: str, lang: str, verdict: bool) -> dict[str, str | None]:
    """The correct value (of a wrong claim) and the computation trace, read off a claim's answer text.

    The ask object carries them only inside its answer sentence; the sentences are the compute layer's
    templates, so they are matched with those same templates (not with phrasing copied here).
    """
    templates = _claim_templates()
    correct_value = None
    if not verdict and "claim_false_value" in templates:
        match = _template_regex(templates["claim_false_value"].get(lang, "")).match(answer)
        correct_value = match.group("value") if match else None
    trace = None
    if "trace" in templates:
        match = _template_regex(templates["trace"].get(lang, ""), anchored=False).search(answer)
        trace = match.group("trace") if match else None
    return {"correct_value": correct_value, "trace": trace}


def _template_regex(template: str, anchored: bool = True):
    """A regex for one template: each {field} becomes a lazy named group; the rest is literal."""
    import re
    import string

    pattern = ""
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        pattern += re.escape(literal)
        if field:
            pattern += f"(?P<{field}>.+?)"
    if not template:
        return re.compile(r"(?!)")
    # The trace sentence ends the computation before "(rulebook p. …)" or at the end of the answer.
    return re.compile(pattern + ("" if anchored else r"(?=\s|$)"))


@functools.cache
def _claim_templates() -> dict[str, dict[str, str]]:
    """The compute layer's claim and trace templates (templates.json, at the package's top or under a game)."""
    from importlib import resources

    found: dict[str, dict[str, str]] = {}
    try:
        root = resources.files("rulesbot.compute")
    except ModuleNotFoundError:
        return found
    candidates = [root.joinpath("templates.json"), root.joinpath("canvas", "templates.json")]
    for candidate in candidates:
        if candidate.is_file():
            data = json.loads(candidate.read_text(encoding="utf-8"))
            for key in ("claim_false_value", "trace"):
                if isinstance(data.get(key), dict):
                    found.setdefault(key, data[key])
    return found


def _scoring_names(scoring):
    """Scoring Card names for a request: a list as given; a string is a scenario's cards (or one card's name)."""
    if scoring is None or isinstance(scoring, list):
        return scoring
    try:
        chosen = canvas.scenario(scoring)
    except canvas.UnknownScenario:
        return [scoring]
    if chosen.random_cards:
        raise BadInput(f"scenario {chosen.slug!r} draws random Scoring Cards: name the cards instead")
    return list(chosen.cards)


def best_painting_result(hand: list, scoring: list[str]) -> dict[str, Any]:
    """best_painting's object, computed by the Canvas engine (`canvas.best_painting`)."""
    base = canvas.ruleset("base")
    if len(hand) > base.hand_limit:
        raise BadInput(
            f"hand: a hand holds at most {base.hand_limit} Art Cards (rulebook p. {canvas.PAGES['hand_limit']}), "
            f"got {len(hand)}"
        )
    try:
        cards = [canvas.card(name) for name in hand]
        slugs = [canvas.scoring_card(name).slug for name in scoring]
    except canvas.UnknownCard as error:
        raise UnknownCard(str(error)) from None
    except ValueError as error:  # an unknown Scoring Card (the engine's errors are ValueErrors)
        raise BadInput(str(error)) from None
    if not slugs:
        raise BadInput("scoring: name at least one Scoring Card or a scenario")
    try:
        best = canvas.best_painting(cards, slugs)
    except ValueError as error:  # fewer than 3 cards, or a repeated one
        raise BadInput(f"hand: {error}") from None
    painting = best.painting
    return {
        "hand": [item.title for item in cards],
        "scoring": list(slugs),
        "cards": [canvas.card(card_id).title for card_id in painting.cards],
        "title": painting.title,
        "visible": [list(swatch) for swatch in painting.visible],
        "shown_by": [canvas.card(card_id).title if card_id else None for card_id in painting.shown_by],
        "ribbons": dict(best.score.ribbons),
        "bonus": best.score.bonus,
        "points": best.points,
        "pages": sorted({canvas.PAGES[rule] for rule in BEST_PAINTING_RULES}),
        "rules_version": canvas.RULES_VERSION,
    }


def _add_page_resources(server: MCPServer, packs, default_game: str) -> None:
    """One listed resource per rulebook page of the default game, and the template that names every game's pages.

    Listing every game's pages would read every pack at start-up; the template reaches them all, each pack loading
    when one of its pages is first read.
    """
    from rulesbot.knowledge import get_pack

    listed = [(default_game, packs[default_game])] if default_game in packs else []
    for game, pack in listed:
        for page in _rulebook_pages(pack):
            server.add_resource(
                FunctionResource.from_function(
                    fn=_page_reader(pack, page),
                    uri=f"{URI_SCHEME}://{game}/page/{page}",
                    name=f"{game}-page-{page}",
                    title=f"{pack.manifest.title}, rulebook page {page}",
                    description=f"The rulebook passages of {pack.manifest.title} on page {page} (every language).",
                    mime_type="text/markdown",
                )
            )

    @server.resource(
        f"{URI_SCHEME}://{{game}}/page/{{page}}",
        name="rulebook-page",
        title="A rulebook page",
        description="The rulebook passages of one game (id from list_games) on one page, in every language.",
        mime_type="text/markdown",
    )
    def rulebook_page(game: str, page: str) -> str:
        try:
            pack = get_pack(packs, game)
        except RulesbotError as error:
            raise ResourceNotFoundError(error.message) from None
        if not page.isdigit():
            raise ResourceNotFoundError(f"page: expected a page number, got {page!r}")
        return _page_reader(pack, int(page))()


def _rulebook_pages(pack) -> list[int]:
    """Every page that a rulebook passage of the pack is on."""
    return sorted({page for entry in pack.entries if entry.source in PAGE_SOURCES for page in entry.pages})


def _page_reader(pack, page: int) -> Callable[[], str]:
    """A function that renders one page's passages as Markdown (read when the resource is read)."""

    def read() -> str:
        entries = [entry for entry in pack.entries if entry.source in PAGE_SOURCES and page in entry.pages]
        if not entries:
            pages = ", ".join(map(str, _rulebook_pages(pack)))
            raise ResourceNotFoundError(f"{pack.manifest.title} has no rulebook passage on page {page} (pages: {pages})")
        lines = [f"# {pack.manifest.title}, rulebook page {page}"]
        for lang in pack.manifest.languages:
            on_page = [entry for entry in entries if entry.lang == lang]
            if not on_page:
                continue
            lines += ["", f"## {LANGUAGE_NAMES.get(lang, lang)}"]
            for entry in on_page:
                lines += ["", f"### {entry.section} ({entry.id})", "", entry.text]
        return "\n".join(lines) + "\n"

    return read


def _add_prompt(server: MCPServer, packs: dict) -> None:
    """The "answer from the rules, cite pages" prompt template."""
    from rulesbot.knowledge import get_pack

    @server.prompt(
        name="answer_from_rules",
        title="Answer from the rules, cite pages",
        description="Answer a player's rules question only from rulesbot's tools, in their language, citing the "
        "rulebook pages; say so when the rules do not cover it.",
    )
    def answer_from_rules(
        question: Annotated[str, Field(description="The player's rules question, as they wrote it.")],
        game: Annotated[str | None, Field(description="Game id from list_games (default: the server's).")] = None,
        lang: Annotated[str | None, Field(description="Answer language, fr or en (default: the question's).")] = None,
    ) -> str:
        """The instructions for answering one question from the rules."""
        # A protocol error with the API's wording (any other exception reaches the client as a generic line).
        if not question.strip():
            raise MCPError(code=INVALID_PARAMS, message="question: must not be empty")
        if game:
            try:
                get_pack(packs, game)
            except RulesbotError as error:
                raise MCPError(code=INVALID_PARAMS, message=error.message) from None
        if lang and lang not in ("fr", "en"):
            raise MCPError(code=INVALID_PARAMS, message=f"lang: expected fr or en, got {lang!r}")
        game_hint = f' and game "{game}"' if game else ""
        lang_hint = f' and lang "{lang}"' if lang else ""
        return PROMPT_TEXT.format(question=question.strip(), game_hint=game_hint, lang_hint=lang_hint)

