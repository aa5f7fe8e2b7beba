"""Retrieval: what is indexed, how a question finds knowledge records, and when to abstain.

- `dense`: the dense index lifecycle (units to embed, build, load or rebuild, shipped pack vectors);
- `lexical`: BM25 with French/English Snowball stemming;
- `search`: the Retriever (dense, BM25 or fusion, then the second stage) and its results;
- `ranking`: the second stage (entity and form agreement over the best candidates);
- `calibration`: thresholds and margins keyed by (backend, model id), recorded in the index manifest.

The names below are the package's API; import them from `rulesbot.retrieval`.
"""

from rulesbot.retrieval.calibration import CALIBRATION, Calibration, UnknownCalibration, calibration_for
from rulesbot.retrieval.dense import (
    RECIPE,
    Unit,
    build_dense_index,
    expected_manifest,
    index_units,
    knowledge_hash,
    open_dense_index,
    seed_path,
    without_title,
    write_pack_vectors,
)
from rulesbot.retrieval.lexical import BM25, LEXICAL_RECIPE, tokens
from rulesbot.retrieval.search import Ranked, Retriever, SearchResult

__all__ = [
    "BM25",
    "CALIBRATION",
    "LEXICAL_RECIPE",
    "RECIPE",
    "Calibration",
    "Ranked",
    "Retriever",
    "SearchResult",
    "Unit",
    "UnknownCalibration",
    "build_dense_index",
    "calibration_for",
    "expected_manifest",
    "index_units",
    "knowledge_hash",
    "open_dense_index",
    "seed_path",
    "tokens",
    "without_title",
    "write_pack_vectors",
]
