"""Search: how a question finds knowledge records (dense, BM25 or their fusion, then the second stage).

A record's dense score mixes its passage match and its best question/paraphrase match (text_weight): max
pooling alone lets one short paraphrase ("Canvas for kids?") win on a single shared word. The game's own name
is dropped from the question first: inside one game's pack it is no evidence of anything. Ranking modes:
"dense" (embeddings), "bm25" (lexical only) and "fusion" (dense score plus a weighted, max-normalised BM25
score); the second stage (ranking.Reranker) then re-orders the best records. Abstention reads the best dense
similarity plus the lexical coverage of the question (Calibration).
"""

import heapq
import math
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from rulesbot.index import (
    Index,
)
from rulesbot.knowledge import Entry, Pack
from rulesbot.retrieval.calibration import calibration_for
from rulesbot.retrieval.dense import without_title
from rulesbot.retrieval.lexical import (
    _LEXICAL_DOCS,
    _LEXICAL_KIND,
    BM25,
    LEXICAL_RECIPE,
    stems_by_term,
)
from rulesbot.storage import read_checked, write_checked


@dataclass
class Ranked:
    """A record and its score for one query (`score` is what abstention uses; `rank_score` orders)."""

    entry: Entry
    score: float
    rank_score: float = 0.0
    # The best similarity between the question and the record's own question or paraphrases (None: no dense
    # score, or a record without stored questions); decides whether an FAQ lead may be shown (rulesbot.answer).
    asked: float | None = None
    # The record's BM25 score relative to the question's best, and the share of the question's IDF weight it
    # matches (0 when BM25 had nothing to say): first-stage evidence for the second stage.
    lexical: float = 0.0
    matched: float = 0.0
    # The similarity between the question and the record's own FAQ question alone (None: no dense score, or no
    # question): its lead answers that question, while a paraphrase may ask a neighbouring one ("Hue in red and
    # Shape in green, far enough apart?" beside "neighbouring swatches?", lead "No."), so the lead reads this.
    own: float | None = None


@dataclass
class SearchResult:
    """Ranked records for one query, best first, plus the decision inputs."""

    records: list[Ranked] = field(default_factory=list)
    top_score: float = 0.0  # the score abstention reads: the best similarity, whatever ranked first

    def concepts(self) -> list[str]:
        """Concept ids in rank order (first occurrence wins)."""
        return list(dict.fromkeys(item.entry.concept_id for item in self.records))




class Retriever:
    """Ranks a game's records for a question (dense, bm25 or fusion) and calibrates the decision."""

    def __init__(
        self,
        packs: dict[str, Pack],
        *,
        backend: str,
        embedder=None,
        index: Index | None = None,
        rows: list | None = None,
        fusion: bool = False,
        cache_dir: Path | None = None,
        reranker=None,
        model_id: str = "",
        index_loader=None,
    ) -> None:
        self.packs = packs
        # The second stage (rulesbot.retrieval.ranking.Reranker): re-orders the best first-stage records; None = off.
        self.reranker = reranker
        self.cache_dir = cache_dir
        self.backend = backend
        self.embedder = embedder
        self.index = index  # the shared index, if any (None with per-game indexes)
        self.mode = "bm25" if embedder is None else ("fusion" if fusion else "dense")
        # Keyed by (backend, model): an uncalibrated pair is an error, not the test fixtures' thresholds.
        self.model_id = model_id
        self.calibration = calibration_for(backend, model_id)
        if reranker is not None:
            if reranker.model.fits(backend, model_id) and self.mode == "fusion":
                # Its scores are logits: "did you mean" reads the margin calibrated on them.
                self.calibration = replace(self.calibration, alternative_margin=reranker.model.alternative_margin)
            else:
                self.reranker = None  # fitted on another backend's scores: they would mean nothing to it
        # One index over every game (`index`, `rows`), or each game's own, opened on its first search by
        # `index_loader(pack) -> (index, rows, manifest, built)` under a per-game lock (Rulesbot's lazy packs).
        self.index_loader = index_loader
        self.manifests: dict = {}  # game -> IndexManifest of the per-game indexes opened so far
        self._games: dict[str, _GameIndex] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._shared = None if index is None else _GameIndex(index, rows or [])
        self._bm25: dict[str, BM25] = {}
        self._layouts: dict[str, _GameRows] = {}
        self._langs: dict[str, frozenset[str]] = {}  # game -> the languages of its records
        self._entity_vocabulary = None  # read on the first question just below the threshold (Retriever.answers)

    def _entry(self, key: tuple[str, str]) -> Entry:
        return self.packs[key[0]].by_id[key[1]]

    def warm(self, game: str) -> None:
        """Load `game`'s records and open its index now (what its first search would do)."""
        self.packs[game]
        self._index_for(game)
        if self.reranker is not None:
            self.reranker.warm(game)

    def index_for(self, game: str) -> Index | None:
        """The vector index `game` is searched in (opening it if needed); None without a dense index."""
        searched = self._index_for(game)
        return None if searched is None else searched.index

    def _index_for(self, game: str) -> "_GameIndex | None":
        """The index `game` is searched in (its own, opened once on first use, or the shared one)."""
        if self.index_loader is None:
            return self._shared
        found = self._games.get(game)
        if found is not None:
            return found
        with self._guard:
            lock = self._locks.setdefault(game, threading.Lock())
        with lock:  # two first questions for one game open (or build) its index once
            found = self._games.get(game)
            if found is None:
                index, rows, manifest, _built = self.index_loader(self.packs[game])
                found = _GameIndex(index, rows)
                self.manifests[game] = manifest
                self._games[game] = found
        return found

    def search(
        self, query: str, game: str, *, query_lang: str = "en", langs: set[str] | None = None, k: int | None = None
    ) -> SearchResult:
        """Records of `game` ranked for `query` (only records in `langs` if given), best first."""
        asked_as = query
        query = self._without_game_name(query, game)
        dense, asked, own = self._dense_scores(query, game) if self.mode != "bm25" else ({}, {}, {})
        # Words only match words: BM25 has nothing to say when the records searched are in another language.
        lexical_useful = self.mode != "dense" and (langs is None or query_lang in langs)
        lexical = self._lexical_scores(query, game, query_lang) if lexical_useful else {}
        keys = set(dense) | set(lexical)
        if langs is not None:
            keys = {key for key in keys if self._entry(key).lang in langs}
        # (score, rank_score) per record: abstention reads `score`, the order follows `rank_score`.
        if self.mode == "bm25" or not dense:
            scored = {key: (lexical[key][1], lexical[key][0]) for key in keys}
        else:
            weight = self.calibration.lexical_weight if lexical else 0.0
            best_lexical = max((raw for raw, _share in lexical.values()), default=0.0) or 1.0
            scored = {
                key: (dense[key], dense[key] + weight * lexical.get(key, (0.0, 0.0))[0] / best_lexical)
                for key in keys
                if key in dense
            }
        # Ties broken by record id, so runs are deterministic.
        order = [(-rank_score, key[1], key) for key, (_score, rank_score) in scored.items()]
        if self.reranker is not None and k:
            # The second stage needs its whole pool even when fewer records are asked for.
            from rulesbot.retrieval.ranking import POOL

            best = heapq.nsmallest(max(k, POOL), order)
        else:
            best = heapq.nsmallest(k, order) if k else sorted(order)
        best_lexical = max((raw for raw, _share in lexical.values()), default=0.0) or 1.0
        ranked = [
            Ranked(
                self._entry(key), scored[key][0], scored[key][1], asked.get(key),
                lexical.get(key, (0.0, 0.0))[0] / best_lexical, lexical.get(key, (0.0, 0.0))[1], own.get(key),
            )
            for _rank, _id, key in best
        ]
        if self.reranker is not None and ranked and not _passages_only(self.packs[game]):
            ranked = self.reranker.rerank(asked_as, game, ranked, query_lang)[: k or None]
        # Abstention reads the best dense similarity (plus lexical coverage), whatever fusion ranked first.
        top = max((score for score, _rank_score in scored.values()), default=0.0)
        if self.calibration.coverage_weight:
            top += self.calibration.coverage_weight * self.coverage(query, game, query_lang)
        return SearchResult(ranked, top)

    def answers(self, query: str, game: str, result: SearchResult) -> bool:
        """Whether `result` (for `query`) is answered rather than abstained on: its decision score reaches the
        threshold, or falls short by at most `entity_margin` while its best-ranked record agrees with the question on
        the game's entities (Calibration.entity_margin)."""
        if not result.records:
            return False
        threshold = self.calibration.threshold
        if result.top_score >= threshold:
            return True
        if self.calibration.entity_margin <= 0 or result.top_score < threshold - self.calibration.entity_margin:
            return False
        return self._entities().agree(self._without_game_name(query, game), result.records[0].entry)

    def follow_up_text(self, previous: str, follow_up: str, game: str) -> str:
        """The text an elliptical follow-up is searched with: the things the previous question names, without the
        Scoring Card or scenario names the follow-up replaces (EntityVocabulary.without_replaced), then the
        follow-up's own words; the whole previous question when it names nothing.

        Only its things, not its wording: "et s'il n'en a plus qu'un ?" after "Vincent starts with how many
        tokens?" asks about Vincent's tokens, not again how many he starts with, and the previous question's form
        ("how many", "who wins") would pull its own answer back.

        Except when the previous question asked under a condition, or about a situation it stated first, and the
        follow-up changes that condition only, asking nothing of its own ("if I skip 2 cards, how many tokens do I
        pay?" then "what if I skip all four?"; "we're both on 31, she has 2 tokens left, I have 3. who wins?" then
        "and with the same tokens?"): its asking part is asked again about the new condition
        (clauses.conditional_ask, clauses.situation_ask)."""
        from rulesbot.retrieval.clauses import asks_its_own, conditional_ask, situation_ask

        kept = self._entities().without_replaced(previous, follow_up, game)
        named = list(dict.fromkeys(self._entities().mentions(kept, game)))
        asked = conditional_ask(kept) or situation_ask(kept)
        if asked is not None and not asks_its_own(follow_up):
            return " ".join([*named, follow_up, asked])
        return f"{' '.join(named) if named else kept} {follow_up}"

    def names_things(self, text: str, game: str) -> bool:
        """Whether `text` names one of the game's things (a variant, a component, a Scoring Card, a scenario...)."""
        return bool(self._entities().mentions(text, game))

    def main_clause_text(self, question: str, game: str) -> str | None:
        """The text a chatty question's main clause is searched with (rulesbot.retrieval.clauses): the clause(s)
        that ask, then the things the other clauses name; None when the question has no separate main clause."""
        from rulesbot.retrieval.clauses import main_clause

        found = main_clause(question)
        if found is None:
            return None
        main, rest = found
        named = [mention for clause in rest for mention in self._entities().mentions(clause, game)]
        return " ".join([main, *dict.fromkeys(named)])

    def _entities(self):
        if self._entity_vocabulary is None:
            from rulesbot.retrieval.ranking import EntityVocabulary

            self._entity_vocabulary = self.reranker.entities if self.reranker is not None else EntityVocabulary(self.packs)
        return self._entity_vocabulary

    def _other_langs(self, game: str, query_lang: str) -> list[str]:
        """The languages of `game`'s records other than the question's (read once per game)."""
        if game not in self._langs:
            self._langs[game] = frozenset(entry.lang for entry in self.packs[game].entries)
        return sorted(self._langs[game] - {query_lang})

    def coverage(self, query: str, game: str, query_lang: str) -> float:
        """The share of the question's words (stemmed, chat shorthand written out) that the game's knowledge uses
        somewhere, in [0,1].

        A word counts when its stem in the question's language is known, or its stem in the pack's other language:
        a bilingual player's "apres que je take la card, elles slide où ?" uses the rules' English words, which
        the French stemmer cuts into stems no record has ("tak", "slid")."""
        pack = self.packs.get(game)
        if pack is None:
            return 0.0
        others = self._other_langs(game, query_lang)
        if query_lang not in self._langs[game]:
            # A question in a language the knowledge lacks (a one-language user rulebook): no lexical evidence.
            return 1.0
        from rulesbot.extractive import normalise_chat

        # Chat shorthand is read as what it stands for ("pts" -> points, "gratos" -> gratuit) and filler ("lol",
        # "mdr") is no word of the question: neither is evidence that the question is about something else.
        stems = stems_by_term(normalise_chat(query, query_lang), query_lang, others)
        if not stems:
            return 1.0
        known = self._bm25_for(game).idf
        covered = sum(1 for term, others in stems.items() if term in known or others & known.keys())
        return covered / len(stems)

    def vocabulary(self, game: str) -> set[str] | dict[str, float]:
        """Every stemmed word the game's knowledge uses (its lexical index's terms; empty for an unknown game)."""
        if game not in self.packs:
            return set()
        return self._bm25_for(game).idf

    def lexical_scores(self, query: str, game: str, query_lang: str) -> dict[str, float]:
        """Each record id of `game` that shares a word with `query` -> its BM25 score (stemmed as `query_lang`)."""
        return {key[1]: raw for key, (raw, _share) in self._lexical_scores(query, game, query_lang).items()}

    def _bm25_for(self, game: str) -> "BM25":
        if game not in self._bm25:
            self._bm25[game] = self._load_bm25(game)
        return self._bm25[game]

    def _load_bm25(self, game: str) -> "BM25":
        # Stemming a whole pack costs a few hundred ms: keep the per-record term counts in the data dir, keyed
        # by the pack's content hash (an edited pack gets a new file). The file checks itself (a sha256 header,
        # rulesbot.storage.write_checked) and its shape; a damaged or foreign one is rebuilt.
        pack = self.packs[game]
        if self.cache_dir is None:
            return BM25(pack.entries)
        path = Path(self.cache_dir) / f"bm25-{game}-{pack.content_hash()}-{LEXICAL_RECIPE}.json"
        payload = read_checked(path, _LEXICAL_KIND)
        if payload is not None:
            try:
                docs = _LEXICAL_DOCS.validate_json(payload)
            except ValueError:  # pydantic's ValidationError: valid JSON of the wrong shape
                docs = None
            if docs is not None and len(docs) == len(pack.entries):
                return BM25(pack.entries, docs=docs)
        bm25 = BM25(pack.entries)
        try:
            write_checked(path, _LEXICAL_DOCS.dump_json([dict(doc) for doc in bm25.docs]), _LEXICAL_KIND)
        except OSError:
            pass  # a read-only data dir only costs the rebuild next time
        return bm25

    def confidence(self, score: float) -> float:
        """A [0,1] confidence: 0.5 at the abstention threshold, logistic around it."""
        value = 1 / (1 + math.exp(-(score - self.calibration.threshold) / self.calibration.scale))
        return round(min(max(value, 0.0), 1.0), 3)

    def _dense_scores(
        self, query: str, game: str
    ) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float], dict[tuple[str, str], float]]:
        """(mixed score per record, best question/paraphrase similarity per record that has stored questions, the
        similarity to its own FAQ question per record that has one)."""
        if game not in self.packs:
            return {}, {}, {}
        searched = self._index_for(game)
        if searched is None or not searched.index.count():
            return {}, {}, {}
        layout = self._layout(game, searched)
        if not layout.keys:
            return {}, {}, {}
        by_row = searched.index.similarities(self.embedder.embed_queries([query]))
        # Max-pool each record's vectors: its passage, and its best question or paraphrase.
        passage = np.full(len(layout.keys), -np.inf, dtype=np.float32)
        asked = np.full(len(layout.keys), -np.inf, dtype=np.float32)
        text = layout.is_text
        np.maximum.at(passage, layout.slots[text], by_row[layout.rows[text]])
        np.maximum.at(asked, layout.slots[~text], by_row[layout.rows[~text]])
        own = np.full(len(layout.keys), -np.inf, dtype=np.float32)
        question = layout.is_question
        np.maximum.at(own, layout.slots[question], by_row[layout.rows[question]])
        weight = self.calibration.text_weight
        # A record without questions is its passage match alone; only records with a passage are ranked.
        has_questions = np.isfinite(asked)
        asked = np.where(has_questions, asked, passage)
        mixed = weight * passage + (1 - weight) * asked
        has_passage = np.isfinite(passage)
        mixed_by_key = {key: float(value) for key, value, ok in zip(layout.keys, mixed, has_passage, strict=True) if ok}
        asked_by_key = {
            key: float(value)
            for key, value, ok in zip(layout.keys, asked, has_questions & has_passage, strict=True)
            if ok
        }
        own_by_key = {
            key: float(value) for key, value, ok in zip(layout.keys, own, has_passage, strict=True) if ok and np.isfinite(value)
        }
        return mixed_by_key, asked_by_key, own_by_key

    def _layout(self, game: str, searched: "_GameIndex") -> "_GameRows":
        """Which index rows belong to `game`'s records (computed once per game)."""
        if game not in self._layouts:
            known = self.packs[game].by_id
            keys: dict[tuple[str, str], int] = {}
            rows, slots, is_text, is_question = [], [], [], []
            for row, key in enumerate(searched.rows):
                if key[0] != game or key[1] not in known:
                    continue
                rows.append(row)
                slots.append(keys.setdefault(key, len(keys)))
                is_text.append(searched.kinds[row] == "text")
                is_question.append(searched.kinds[row] == "question")
            self._layouts[game] = _GameRows(
                list(keys), np.array(rows, dtype=np.int64), np.array(slots, dtype=np.int64), np.array(is_text, dtype=bool),
                np.array(is_question, dtype=bool),
            )
        return self._layouts[game]

    def _without_game_name(self, query: str, game: str) -> str:
        pack = self.packs.get(game)
        return query if pack is None else without_title(query, pack.manifest.title)

    def _lexical_scores(self, query: str, game: str, query_lang: str) -> dict[tuple[str, str], tuple[float, float]]:
        if game not in self.packs:
            return {}
        bm25 = self._bm25_for(game)
        raw, matched = bm25.scores(query, query_lang, self._other_langs(game, query_lang))
        return {
            (game, entry.id): (float(raw[row]), float(matched[row]))
            for row, entry in enumerate(bm25.entries)
            if raw[row] > 0
        }


def _passages_only(pack: Pack) -> bool:
    # An ingested rulebook without stored questions: the model was fitted on FAQ-and-passage packs.
    return all(entry.source == "user" and not entry.question and not entry.paraphrases for entry in pack.entries)


class _GameIndex:
    """An opened index and what each of its rows points at: (game, record id) and its kind."""

    def __init__(self, index: Index, rows: list) -> None:
        self.index = index
        self.rows = [(row[0], row[1]) for row in rows]
        self.kinds = [row[2] if len(row) > 2 else "text" for row in rows]


@dataclass(frozen=True)
class _GameRows:
    """One game's index rows: each row's record slot (into `keys`), whether it is a passage, and whether it is an FAQ
    record's own question."""

    keys: list[tuple[str, str]]
    rows: np.ndarray
    slots: np.ndarray
    is_text: np.ndarray
    is_question: np.ndarray


