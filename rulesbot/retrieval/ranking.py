"""Second-stage ranking: the first stage's best records, re-ordered by a learned score.

The first stage (dense + BM25, rulesbot.retrieval) ranks by overall likeness, so a neighbouring rule that shares
most words wins ("the tokens on the card I take" against "on the cards I skip"; "the Art Cards in the box"
against "the Art Cards in the row"). This stage scores each of the best POOL candidates with a logistic
regression over features of the (question, record) pair (FEATURES):

- first-stage evidence: the dense score and its gap to the best, the best stored-question similarity, the BM25
  score (relative to the best) and the share of the question it matches, the fused rank and its gap, passage or
  FAQ, same language as the question;
- entity agreement: the share of the things the question names (Vincent, the Solo Puzzle, a Scoring Card, the
  backgrounds, the deck, the skipped cards…; ranking.json and the game's engine) that the record is about too,
  and the scoped ones (a variant, an example) the record is about and the question is not;
- the question-understanding layer's reading (rulesbot.compute.parse: `Parsed`): the share of the question's cue
  lists (take, token, hand limit, what happens…) the record's own text and question also carry, and its form
  (how many / can I / what happens if…) against the record's (a record stating a number, an FAQ question of the
  same form, a record answering yes or no).

The weights (ranking_model.json, plain JSON: names, standardisation, coefficients) are fitted by
eval/train_ranker.py on the knowledge's own stored phrasings and the tuning set (eval/canvas), with
cross-validation grouped by concept; they are for the (backend, model) they were fitted on, and the stage is off
for any other. Off by default (RULESBOT_RERANK): see README, "Quality and speed", for the figures.
"""

import importlib
import json
import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import numpy as np

from rulesbot.knowledge import Entry, Pack
from rulesbot.scope import fold

# How many first-stage records are re-ordered (the rest keep their order below them).
POOL = 20

# The features of one (question, record) pair, in the order of the model's coefficients.
FEATURES = (
    "dense",  # the record's dense score (passage and stored questions mixed)
    "dense_gap",  # the best dense score in the pool minus this one
    "asked_gap",  # the best stored-question similarity in the pool minus this record's (its passage's if none)
    "lexical",  # BM25 relative to the best BM25 score of the question
    "matched",  # the share of the question's IDF weight the record matches
    "rank_gap",  # the best fused rank score minus this one
    "log_rank",  # log(1 + first-stage position)
    "faq",  # an FAQ record (it answers a question directly)
    "same_lang",  # the record is in the question's language
    "entity_share",  # the share of the question's entities the record is about (0 when it names none)
    "entity_missing",  # the question names entities and the record is about none of them
    "stray",  # scoped entities (variant, example) the record is about and the question is not
    "cue_share",  # the share of the question's Parsed cue lists the record also carries
    "cue_jaccard",  # Jaccard of the question's and the record's cue lists
    "count_match",  # a how-many question and a record stating a number
    "form_match",  # an FAQ record whose own question has the question's form (how many, can, what if…)
    "yes_no_match",  # a yes/no question and an FAQ record whose lead answers yes or no
)


@dataclass(frozen=True)
class RankingModel:
    """A fitted logistic regression over FEATURES, for one (backend, model id); `alternative_margin` is the "did
    you mean" margin on its score (the logit), calibrated on the tuning set."""

    backend: str
    model_id: str
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    alternative_margin: float = -1.0

    def scores(self, matrix: np.ndarray) -> np.ndarray:
        """The logit of each row of `matrix` (one row per candidate, columns in FEATURES order)."""
        return ((matrix - self.mean) / self.scale) @ self.coef + self.intercept

    def fits(self, backend: str, model_id: str) -> bool:
        """Whether this model was fitted on this backend's and model's scores (the build suffix aside)."""
        return backend == self.backend and model_id.split("@", 1)[0] == self.model_id


MODEL_FILE = "ranking_model.json"


def model_from_dict(data: dict) -> RankingModel:
    """A RankingModel from its JSON form; ValueError when its features are not this code's FEATURES."""
    features = tuple(data["features"])
    if features != FEATURES:
        raise ValueError(f"{MODEL_FILE}: features {features} are not this code's {FEATURES}; run eval/train_ranker.py")
    arrays = [np.asarray(data[name], dtype=np.float64) for name in ("mean", "scale", "coef")]
    if any(array.shape != (len(FEATURES),) for array in arrays):
        raise ValueError(f"{MODEL_FILE}: mean, scale and coef need {len(FEATURES)} values each")
    mean, scale, coef = arrays
    return RankingModel(
        backend=data["backend"], model_id=data["model_id"], features=features, mean=mean,
        scale=np.where(scale > 0, scale, 1.0), coef=coef, intercept=float(data["intercept"]),
        alternative_margin=float(data.get("alternative_margin", -1.0)),
    )


@lru_cache(maxsize=1)
def shipped_model() -> RankingModel:
    """The fitted model shipped with rulesbot (ranking_model.json)."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return model_from_dict(json.loads(text))


@dataclass(frozen=True)
class QuestionFeatures:
    """What the second stage reads from a question (entities, and the Parsed cues and form)."""

    entities: frozenset[str]
    how_many: bool
    yes_no: bool
    cues: frozenset[str] = frozenset()
    form: str = "other"


@dataclass(frozen=True)
class RecordFeatures:
    """What the second stage reads from a record (computed once per record)."""

    entities: frozenset[str]
    has_number: bool
    answers_yes_no: bool
    cues: frozenset[str] = frozenset()
    form: str | None = None  # the form of an FAQ record's own question


@lru_cache(maxsize=1)
def ranking_data() -> dict:
    """The vocabulary (ranking.json)."""
    return json.loads(resources.files(__package__).joinpath("ranking.json").read_text(encoding="utf-8"))


def _pattern(phrases, idioms=()) -> re.Pattern | None:
    """Whole-word phrases, none of them matched inside one of `idioms` (set phrases that hold the word without naming
    the thing: "sous la main", at hand, names no hand of cards)."""
    words = sorted({fold(phrase) for phrase in phrases if phrase.strip()}, key=len, reverse=True)
    if not words:
        return None
    # Whole words, except at an apostrophe: "n'" opens a word ("n'ai") and "n't" closes one ("don't").
    options = [
        ("" if word.startswith("n't") else r"(?<!\w)") + _outside(word, idioms) + re.escape(word)
        + ("" if word.endswith("'") else r"(?!\w)")
        for word in words
    ]
    return re.compile("|".join(options))


def _outside(word: str, idioms) -> str:
    """A lookahead refusing `word` where it starts inside one of `idioms`: the idiom's text before the word is
    behind it and the rest of the idiom (the word included) ahead."""
    guards = []
    for idiom in sorted({fold(idiom) for idiom in idioms}):
        for match in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", idiom):
            before, ahead = idiom[:match.start()], idiom[match.start():]
            guards.append(r"(?!" + (rf"(?<={re.escape(before)})" if before else "") + re.escape(ahead) + r"(?!\w))")
    return "".join(guards)


@lru_cache(maxsize=1)
def _cue_patterns() -> dict[str, re.Pattern]:
    data = ranking_data()
    return {
        "negation": _pattern(data["negation"]),
        "yes_no": _pattern(data["forms"]["yes_no"]),
        "wh": _pattern(data["forms"]["wh"]),
        "wh_exceptions": _pattern(data["forms"]["wh_exceptions"]),
        "openings": re.compile(r"^(?:" + _pattern(data["forms"]["yes_no_openings"]).pattern + ")"),
    }


def negated(text: str) -> bool:
    """Whether `text` reads as negative ("can't I…", "on ne peut pas…", "without tokens")."""
    return bool(_cue_patterns()["negation"].search(fold(text)))


def asks_yes_no(text: str) -> bool:
    """Whether `text` is a yes/no question ("can I…", "does…", "…, right?", "puis-je…", "je peux … ?"), not a
    how/what/which… question."""
    folded = fold(text).strip()
    patterns = _cue_patterns()
    if patterns["wh"].search(patterns["wh_exceptions"].sub(" ", folded)):
        return False
    return bool(
        folded.endswith("?") or patterns["openings"].match(folded) or patterns["yes_no"].search(folded)
    )


# "What are the coloured stripes for?": an English question opened by "what" whose clause ends on a stranded "for".
_STRANDED_FOR = re.compile(r"(?:^|[.!?,;:]\s*)what\b[^?.!]*\bfor\s*\?")


def asks_purpose(text: str) -> bool:
    """Whether `text` asks what a thing is for ("what are the swatches for?", "a quoi sert ...", "ca sert a quoi ?"):
    a `forms.purpose` phrase, or a "what ... for?" clause."""
    folded = fold(text).strip()
    return bool(_purpose_pattern().search(folded) or _STRANDED_FOR.search(folded))


@lru_cache(maxsize=1)
def _purpose_pattern() -> re.Pattern:
    return _pattern(ranking_data()["forms"]["purpose"])


class Reranker:
    """Re-orders a question's first-stage candidates by the learned score (one per loaded bot)."""

    def __init__(self, packs: dict[str, Pack], model: RankingModel | None = None) -> None:
        self.packs = packs
        self.model = model if model is not None else shipped_model()
        data = ranking_data()
        self._how_many = _pattern(data["forms"]["how_many"])
        self._yes_no_answer = _pattern(data["yes_no_answers"])
        self._number = re.compile(r"\d|" + _pattern(data["number_words"]).pattern)

        self.entities = EntityVocabulary(packs)
        self._records: dict[tuple[str, str], RecordFeatures] = {}

    def warm(self, game: str) -> None:
        """Read every record of `game` now (1-3 ms a record: a first question would pay it for its 20)."""
        pack = self.packs.get(game)
        for entry in pack.entries if pack is not None else ():
            self.record_features(entry)

    def question_features(self, question: str, game: str, lang: str = "en") -> QuestionFeatures:
        """The entities a question names, its Parsed cue lists and form, and the form of answer it wants."""
        folded = fold(question)
        cues, form = frozenset(), "other"
        engine = self._engine_id(game)
        if engine:
            from rulesbot.compute.parse import parse

            # The computed-answer layer parsed the same question already: a cache hit.
            parsed = parse(question, "fr" if lang == "fr" else "en", engine)
            cues, form = parsed.cues, parsed.form
        return QuestionFeatures(
            entities=self._entities_in(folded, game),
            how_many=bool(self._how_many.search(folded)),
            yes_no=asks_yes_no(question),
            cues=cues,
            form=form,
        )

    def record_features(self, entry: Entry) -> RecordFeatures:
        """The entities and cue lists a record is about, whether it states a number, answers yes or no, and the
        form of its own question."""
        key = (entry.game, entry.id)
        if key not in self._records:
            about = fold(" ".join([entry.section, entry.question or "", entry.text]))
            opening = fold(entry.lead or entry.text)[:12]
            cues: frozenset[str] = frozenset()
            form = None
            engine = self._engine_id(entry.game)
            if engine:
                # The cue lists only (a full parse of every record would cost ms each).
                from rulesbot.compute.parse import cues_in, question_form
                from rulesbot.games import game_spec

                cues = cues_in(about, engine)
                if entry.question:
                    form = question_form(fold(entry.question), game_spec(engine).vocabulary)
            self._records[key] = RecordFeatures(
                entities=self._entities_in(about, entry.game),
                has_number=bool(self._number.search(fold(entry.text))),
                answers_yes_no=bool(self._yes_no_answer.match(opening)),
                cues=cues,
                form=form,
            )
        return self._records[key]

    def features(self, question: str, game: str, records: list, lang: str = "en") -> np.ndarray:
        """One row of FEATURES per record (Ranked, best first; scores as the first stage left them)."""
        asked_question = self.question_features(question, game, lang)
        scoped = self._scoped_for(game)
        best_dense = max(item.score for item in records)
        best_rank = max(item.rank_score for item in records)
        asked = [item.asked if item.asked is not None else item.score for item in records]
        best_asked = max(asked)
        rows = []
        for position, (item, asked_score) in enumerate(zip(records, asked, strict=True)):
            record = self.record_features(item.entry)
            named = asked_question.entities
            shared_cues = asked_question.cues & record.cues
            union_cues = asked_question.cues | record.cues
            rows.append([
                item.score,
                best_dense - item.score,
                best_asked - asked_score,
                item.lexical,
                item.matched,
                best_rank - item.rank_score,
                math.log1p(position),
                float(item.entry.source == "faq"),
                float(item.entry.lang == lang),
                len(named & record.entities) / len(named) if named else 0.0,
                float(bool(named) and not named & record.entities),
                float(len((record.entities - named) & scoped)),
                len(shared_cues) / len(asked_question.cues) if asked_question.cues else 0.0,
                len(shared_cues) / len(union_cues) if union_cues else 0.0,
                float(asked_question.how_many and record.has_number),
                float(record.form is not None and record.form == asked_question.form),
                float(asked_question.yes_no and record.answers_yes_no),
            ])
        return np.asarray(rows, dtype=np.float64)

    def rerank(self, question: str, game: str, records: list, lang: str = "en") -> list:
        """`records` (Ranked, best first) with the first POOL re-ordered by the learned score, which becomes their
        `rank_score` (a logit); `score`, which abstention reads, is untouched."""
        if not records:
            return records
        pool, rest = records[:POOL], records[POOL:]
        logits = self.model.scores(self.features(question, game, pool, lang))
        # Below the pool, records keep their order under the lowest learned score.
        floor = float(logits.min()) - 1.0
        adjusted = [replace(item, rank_score=float(logit)) for item, logit in zip(pool, logits, strict=True)]
        adjusted.sort(key=lambda item: (-item.rank_score, item.entry.id))
        return adjusted + [replace(item, rank_score=floor) for item in rest]

    def _engine_id(self, game: str) -> str | None:
        pack = self.packs.get(game)
        return pack.manifest.engine if pack is not None else None

    def _scoped_for(self, game: str) -> frozenset[str]:
        return self.entities.scoped(game)

    def _entities_in(self, folded: str, game: str) -> frozenset[str]:
        return self.entities.named(folded, game)


class EntityVocabulary:
    """The things a game's questions and records name (ranking.json's entities plus the engine's Scoring Card and
    scenario names), read as whole words on folded text; shared by the second stage and the answer decision."""

    def __init__(self, packs: dict[str, Pack]) -> None:
        self.packs = packs
        self._patterns: dict[str, dict[str, re.Pattern]] = {}
        self._scoped: dict[str, frozenset[str]] = {}
        self._records: dict[tuple[str, str], frozenset[str]] = {}

    def named(self, folded: str, game: str) -> frozenset[str]:
        """The entities `folded` (text passed through scope.fold) names."""
        return frozenset(name for name, pattern in self.patterns_for(game).items() if pattern.search(folded))

    def of_record(self, entry: Entry) -> frozenset[str]:
        """The entities a record is about: those its section, own question or text names (read once)."""
        key = (entry.game, entry.id)
        if key not in self._records:
            self._records[key] = self.named(fold(" ".join([entry.section, entry.question or "", entry.text])), entry.game)
        return self._records[key]

    def scoped(self, game: str) -> frozenset[str]:
        """The entities that belong to a variant or an example (ranking.json "scoped")."""
        if game not in self._scoped:
            self._scoped[game] = frozenset(ranking_data()["games"].get(game, {}).get("scoped", []))
        return self._scoped[game]

    def agree(self, question: str, entry: Entry) -> bool:
        """Whether `entry` is about something `question` names and about no variant or example it does not name."""
        named = self.named(fold(question), entry.game)
        about = self.of_record(entry)
        return bool(named & about) and not (about - named) & self.scoped(entry.game)

    def mentions(self, text: str, game: str) -> list[str]:
        """The words of `text` (as written) that name one of the game's entities, in order, without overlaps."""
        folded, positions = _fold_keeping_positions(text)
        spans = sorted(
            (positions[match.start()], positions[match.end() - 1] + 1)
            for pattern in self.patterns_for(game).values()
            for match in pattern.finditer(folded)
        )
        kept, end = [], 0
        for start, stop in spans:
            if start >= end:
                kept.append(text[start:stop])
                end = stop
        return kept

    def without_replaced(self, previous: str, follow_up: str, game: str) -> str:
        """`previous` without the names a follow-up replaces: when `follow_up` names a Scoring Card (or a scenario)
        that `previous` does not, the other cards (scenarios) `previous` names are cut, so "and for Consistency?"
        after an Emphasis question is searched about Consistency, with the rest of the previous question."""
        folded_previous, positions = _fold_keeping_positions(previous)
        before = self.named(folded_previous, game)
        after = self.named(fold(follow_up), game)
        kinds = {name.split(":", 1)[0] for name in after - before if ":" in name}
        replaced = [name for name in before - after if name.split(":", 1)[0] in kinds]
        if not replaced:
            return previous
        patterns = self.patterns_for(game)
        spans = sorted(
            (positions[match.start()], positions[match.end() - 1] + 1)
            for name in replaced
            for match in patterns[name].finditer(folded_previous)
        )
        kept, end = [], 0
        for start, stop in spans:
            if start >= end:
                kept.append(previous[end:start])
                end = stop
        kept.append(previous[end:])
        return " ".join("".join(kept).split())

    def patterns_for(self, game: str) -> dict[str, re.Pattern]:
        if game not in self._patterns:
            vocabulary = dict(ranking_data()["games"].get(game, {}).get("entities", {}))
            vocabulary.update(_engine_names(self.packs.get(game)))
            idioms = ranking_data()["games"].get(game, {}).get("entity_idioms", {})
            compiled = {name: _pattern(phrases, idioms.get(name, ())) for name, phrases in vocabulary.items()}
            self._patterns[game] = {name: pattern for name, pattern in compiled.items() if pattern is not None}
        return self._patterns[game]


def _fold_keeping_positions(text: str) -> tuple[str, list[int]]:
    """`text` folded character by character (as scope.fold, without merging spaces), and for each folded character
    the position of the original one it comes from."""
    folded, positions = [], []
    for position, char in enumerate(text):
        for piece in fold(char) if not char.isspace() else " ":
            folded.append(piece)
            positions.append(position)
    return "".join(folded), positions


def _engine_names(pack: Pack | None) -> dict[str, list[str]]:
    """The game's Scoring Card and scenario names (EN and FR) from its engine, as entities."""
    if pack is None or not pack.manifest.engine:
        return {}
    try:
        engine = importlib.import_module(f"rulesbot.engine.{pack.manifest.engine}")
    except ImportError:
        return {}
    names: dict[str, list[str]] = {}
    for card in getattr(engine, "SCORING_CARDS", ()):
        names[f"card:{card.slug}"] = [card.name_en, card.name_fr]
    for scenario in getattr(engine, "SCENARIOS", ()):
        labels = [getattr(scenario, attribute, None) for attribute in ("name", "name_en", "name_fr")]
        names[f"scenario:{getattr(scenario, 'slug', labels[0])}"] = [label for label in labels if label]
    return names
