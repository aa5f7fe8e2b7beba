"""Second-stage ranking: the first stage's best records, re-ordered by what the question names and asks.

The first stage (dense + BM25, rulesbot.retrieval) ranks by overall likeness, so a neighbouring rule that shares
most words wins ("the tokens on the card I take" against "on the cards I skip"; "the Art Cards in the box"
against "the Art Cards in the row"). This stage adds to each candidate's rank score:

- entity agreement: the share of the things the question names (Vincent, the Solo Puzzle, a Scoring Card, the
  backgrounds, the deck, the box, the skipped cards…) that the record is about too;
- a stray-scope penalty: a record about a variant or an example (Vincent, Solo Puzzle, a scenario, Abby's turn)
  when the question names none of it;
- form agreement: a how-many question against a record stating a number, a yes/no question against a record
  that answers yes or no.

The words live in ranking.json (and the game's card and scenario names come from its engine); the weights are
hand-set, chosen on the tuning set and the blind dev halves (see README, "Quality and speed").
"""

import importlib
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from rulesbot.knowledge import Entry, Pack
from rulesbot.scope import fold

# How many first-stage records are re-ordered (the rest keep their order below them).
POOL = 20


@dataclass(frozen=True)
class Weights:
    """How much each feature adds to a candidate's rank score (first-stage scores are cosines near 0.8-1.0)."""

    entity: float = 0.03  # x the share of the question's entities the record is about
    stray: float = 0.01  # subtracted per scoped entity (variant, example) the record has and the question lacks
    count: float = 0.01  # a how-many question and a record stating a number
    yes_no: float = 0.0  # a yes/no question and a record answering yes or no


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True)
class QuestionFeatures:
    """What the second stage reads from a question (a subset of the question-understanding layer's Parsed)."""

    entities: frozenset[str]
    how_many: bool
    yes_no: bool


@dataclass(frozen=True)
class RecordFeatures:
    """What the second stage reads from a record (computed once per record)."""

    entities: frozenset[str]
    has_number: bool
    answers_yes_no: bool


@lru_cache(maxsize=1)
def ranking_data() -> dict:
    """The vocabulary (ranking.json)."""
    return json.loads(resources.files(__package__).joinpath("ranking.json").read_text(encoding="utf-8"))


def _pattern(phrases) -> re.Pattern | None:
    words = sorted({fold(phrase) for phrase in phrases if phrase.strip()}, key=len, reverse=True)
    if not words:
        return None
    # Whole words, except at an apostrophe: "n'" opens a word ("n'ai") and "n't" closes one ("don't").
    options = [
        ("" if word.startswith("n't") else r"(?<!\w)") + re.escape(word) + ("" if word.endswith("'") else r"(?!\w)")
        for word in words
    ]
    return re.compile("|".join(options))


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


class Reranker:
    """Re-orders a question's first-stage candidates with entity and form agreement (one per loaded bot)."""

    def __init__(self, packs: dict[str, Pack], weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.packs = packs
        self.weights = weights
        data = ranking_data()
        self._how_many = _pattern(data["forms"]["how_many"])
        self._yes_no_answer = _pattern(data["yes_no_answers"])
        self._number = re.compile(r"\d|" + _pattern(data["number_words"]).pattern)

        self._entities: dict[str, dict[str, re.Pattern]] = {}
        self._scoped: dict[str, frozenset[str]] = {}
        self._records: dict[tuple[str, str], RecordFeatures] = {}

    def question_features(self, question: str, game: str) -> QuestionFeatures:
        """The entities a question names and the form of answer it wants."""
        folded = fold(question)
        return QuestionFeatures(
            entities=self._entities_in(folded, game),
            how_many=bool(self._how_many.search(folded)),
            yes_no=asks_yes_no(question),
        )

    def record_features(self, entry: Entry) -> RecordFeatures:
        """The entities a record is about, whether it states a number and whether it answers yes or no."""
        key = (entry.game, entry.id)
        if key not in self._records:
            about = fold(" ".join([entry.section, entry.question or "", entry.text]))
            opening = fold(entry.lead or entry.text)[:12]
            self._records[key] = RecordFeatures(
                entities=self._entities_in(about, entry.game),
                has_number=bool(self._number.search(fold(entry.text))),
                answers_yes_no=bool(self._yes_no_answer.match(opening)),
            )
        return self._records[key]

    def adjustment(self, question: QuestionFeatures, record: RecordFeatures, game: str) -> float:
        """What the second stage adds to one candidate's rank score."""
        weights = self.weights
        value = 0.0
        if question.entities:
            value += weights.entity * len(question.entities & record.entities) / len(question.entities)
        stray = (record.entities - question.entities) & self._scoped_for(game)
        value -= weights.stray * len(stray)
        if question.how_many and record.has_number:
            value += weights.count
        if question.yes_no and record.answers_yes_no:
            value += weights.yes_no
        return value

    def rerank(self, question: str, game: str, records: list) -> list:
        """`records` (Ranked, best first) with the first POOL re-ordered by rank score plus adjustment."""
        if not records:
            return records
        features = self.question_features(question, game)
        pool, rest = records[:POOL], records[POOL:]
        adjusted = [
            replace(item, rank_score=item.rank_score + self.adjustment(features, self.record_features(item.entry), game))
            for item in pool
        ]
        adjusted.sort(key=lambda item: (-item.rank_score, item.entry.id))
        return adjusted + rest

    def _scoped_for(self, game: str) -> frozenset[str]:
        if game not in self._scoped:
            self._scoped[game] = frozenset(ranking_data()["games"].get(game, {}).get("scoped", []))
        return self._scoped[game]

    def _entities_in(self, folded: str, game: str) -> frozenset[str]:
        patterns = self._patterns_for(game)
        return frozenset(name for name, pattern in patterns.items() if pattern.search(folded))

    def _patterns_for(self, game: str) -> dict[str, re.Pattern]:
        if game not in self._entities:
            vocabulary = dict(ranking_data()["games"].get(game, {}).get("entities", {}))
            vocabulary.update(_engine_names(self.packs.get(game)))
            compiled = {name: _pattern(phrases) for name, phrases in vocabulary.items()}
            self._entities[game] = {name: pattern for name, pattern in compiled.items() if pattern is not None}
        return self._entities[game]


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
