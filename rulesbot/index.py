"""Vector indexes behind one small protocol, and the saved index on disk with its manifest.

Two backends: `faiss` (IndexFlatIP, exact inner product; imported lazily) and `numpy` (brute force, for tests
and tiny corpora). Vectors are L2-normalised, so inner product is cosine similarity.

A saved index is a folder `<data_dir>/index/<backend>-<model-slug>/`:

    manifest.json   what it was built with (IndexManifest): backend, model, dimension, knowledge hash, ...
    vectors.faiss   or vectors.npy
    rows.json       what each vector points at (the payload the caller saved with it)

It is written to a temporary sibling folder and renamed into place, so a crash mid-build never leaves a
half-written index where a good one was.
"""

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Protocol

import numpy as np
from pydantic import BaseModel, ValidationError

INDEX_KINDS = ("faiss", "numpy")
MANIFEST = "manifest.json"
ROWS = "rows.json"


class Index(Protocol):
    """A vector index over L2-normalised float32 vectors (ids are row numbers, in insertion order)."""

    kind: str

    def build(self, vectors: np.ndarray) -> None:
        """Replace the contents with `vectors`."""

    def add(self, vectors: np.ndarray) -> None:
        """Append `vectors`."""

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, ids) per query, best first; ids of -1 pad when fewer than k exist."""

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """One query's inner product with every vector, in id order (no sorting: retrieval pools by record)."""

    def save(self, folder: Path) -> None:
        """Write the vectors into `folder`."""

    def load(self, folder: Path) -> None:
        """Read the vectors from `folder` (raises on a missing or corrupt file)."""

    def count(self) -> int:
        """How many vectors are indexed."""


class NumpyIndex:
    """Brute-force inner product with NumPy: no dependency, exact, fine up to ~100k vectors."""

    kind = "numpy"
    filename = "vectors.npy"

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._vectors = np.zeros((0, dim), dtype=np.float32)

    def build(self, vectors: np.ndarray) -> None:
        """Replace the contents with `vectors`."""
        self._vectors = _checked(vectors, self.dim).copy()

    def add(self, vectors: np.ndarray) -> None:
        """Append `vectors`."""
        self._vectors = np.vstack([self._vectors, _checked(vectors, self.dim)])

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, ids) per query; ties keep the lower id first."""
        queries = _checked(queries, self.dim)
        scores = np.einsum("qj,ij->qi", queries, self._vectors)  # no BLAS thread pool (see _dot)
        k = max(k, 0)
        top = min(k, self._vectors.shape[0])
        # A stable sort on the negated scores keeps equal scores in id order, like FAISS.
        order = np.argsort(-scores, axis=1, kind="stable")[:, :top]
        out_scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        out_ids = np.full((len(queries), k), -1, dtype=np.int64)
        out_scores[:, :top] = np.take_along_axis(scores, order, axis=1)
        out_ids[:, :top] = order
        return out_scores, out_ids

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """One query's inner product with every vector, in id order."""
        return _dot(self._vectors, _checked(query, self.dim)[0])

    def save(self, folder: Path) -> None:
        """Write vectors.npy into `folder`."""
        with open(folder / self.filename, "wb") as handle:
            np.save(handle, self._vectors, allow_pickle=False)

    def load(self, folder: Path) -> None:
        """Read vectors.npy from `folder`."""
        vectors = np.load(folder / self.filename, allow_pickle=False)
        self._vectors = _checked(vectors, self.dim)

    def count(self) -> int:
        """How many vectors are indexed."""
        return int(self._vectors.shape[0])


class FaissIndex:
    """FAISS IndexFlatIP: exact inner-product search (our corpora are small, so no approximation)."""

    kind = "faiss"
    filename = "vectors.faiss"

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._faiss = _import_faiss()
        self._index = self._faiss.IndexFlatIP(dim)
        self._matrix: np.ndarray | None = None  # the vectors as one array, for `similarities`

    def build(self, vectors: np.ndarray) -> None:
        """Replace the contents with `vectors`."""
        self._index.reset()
        self.add(vectors)

    def add(self, vectors: np.ndarray) -> None:
        """Append `vectors`."""
        vectors = _checked(vectors, self.dim)
        if len(vectors):
            self._index.add(vectors)
            self._matrix = None

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, ids) per query."""
        return self._index.search(_checked(queries, self.dim), k)

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """One query's inner product with every vector, in id order (a flat index: the same exact scores)."""
        if self._matrix is None:
            self._matrix = self._index.reconstruct_n(0, self._index.ntotal)
        return _dot(self._matrix, _checked(query, self.dim)[0])

    def save(self, folder: Path) -> None:
        """Write vectors.faiss into `folder`."""
        self._faiss.write_index(self._index, str(folder / self.filename))

    def load(self, folder: Path) -> None:
        """Read vectors.faiss from `folder` (FAISS raises RuntimeError on a truncated file)."""
        path = folder / self.filename
        if not path.exists():
            raise FileNotFoundError(path)
        index = self._faiss.read_index(str(path))
        if index.d != self.dim:
            raise ValueError(f"expected dimension {self.dim}, got {index.d}")
        self._index = index
        self._matrix = None

    def count(self) -> int:
        """How many vectors are indexed."""
        return int(self._index.ntotal)


def _dot(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    # einsum's own loop, not BLAS: a BLAS thread pool left spinning after the product competes with the
    # embedding model's OpenMP threads for the same cores and was measured to slow the next query 2x.
    return np.einsum("ij,j->i", matrix, vector)


def create_index(kind: str, dim: int) -> Index:
    """A new empty index of `kind` ("faiss" or "numpy")."""
    if kind == "faiss":
        return FaissIndex(dim)
    if kind == "numpy":
        return NumpyIndex(dim)
    raise ValueError(f"expected an index kind in {INDEX_KINDS}, got {kind!r}")


class IndexManifest(BaseModel):
    """manifest.json: everything a saved index was built with; a mismatch with the running config => rebuild."""

    backend: str
    model_id: str
    dimension: int
    normalised: bool = True
    index: str
    knowledge_hash: str
    recipe: str  # how records become vectors (bumped when that changes)
    rules_versions: dict[str, str]
    languages: list[str]
    games: list[str]
    count: int
    built_at: str
    rulesbot_version: str

    def mismatch(self, expected: "IndexManifest") -> str | None:
        """Why this saved index cannot serve `expected` (None if it can)."""
        for field, what in (
            ("knowledge_hash", "knowledge changed"),
            ("recipe", "indexing recipe changed"),
            ("backend", "backend changed"),
            ("model_id", "model changed"),
            ("dimension", "dimension changed"),
            ("index", "index kind changed"),
        ):
            if getattr(self, field) != getattr(expected, field):
                return what
        return None


class CorruptIndex(Exception):
    """A saved index is missing a file or has an unreadable one."""


def index_folder(data_dir: Path, backend: str, model_id: str) -> Path:
    """Where the index for (backend, model) lives: <data_dir>/index/<backend>-<model-slug>/."""
    slug = re.sub(r"[^a-z0-9.]+", "-", model_id.lower()).strip("-") or "default"
    return Path(data_dir) / "index" / f"{backend}-{slug}"


def save_index(folder: Path, index: Index, rows: list, manifest: IndexManifest) -> None:
    """Write index + rows + manifest atomically: a temporary sibling folder, then a rename."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        index.save(staging)
        (staging / ROWS).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        # The manifest goes last: a folder with a manifest is a complete folder.
        (staging / MANIFEST).write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
        retired = None
        if folder.exists():
            retired = folder.parent / f".{folder.name}.old-{staging.name[-8:]}"
            folder.rename(retired)
        staging.rename(folder)
        if retired is not None:
            shutil.rmtree(retired, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def read_manifest(folder: Path) -> IndexManifest:
    """The saved manifest (raises CorruptIndex if missing or unreadable)."""
    path = Path(folder) / MANIFEST
    try:
        return IndexManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise CorruptIndex(f"no {MANIFEST} in {folder}") from error
    except (ValidationError, ValueError, UnicodeDecodeError) as error:
        raise CorruptIndex(f"{path} is not a valid manifest") from error


def load_index(folder: Path, manifest: IndexManifest) -> tuple[Index, list]:
    """Load the vectors and rows saved in `folder` (raises CorruptIndex on any unreadable or inconsistent file)."""
    folder = Path(folder)
    index = create_index(manifest.index, manifest.dimension)
    try:
        index.load(folder)
        rows = json.loads((folder / ROWS).read_text(encoding="utf-8"))
    except (OSError, RuntimeError, ValueError, EOFError) as error:
        raise CorruptIndex(f"cannot read the index in {folder}: {error}") from error
    if not isinstance(rows, list) or len(rows) != index.count() or index.count() != manifest.count:
        raise CorruptIndex(f"the index in {folder} is inconsistent (vectors, rows and manifest disagree)")
    return index, rows


def _checked(vectors: np.ndarray, dim: int) -> np.ndarray:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    if vectors.shape[1] != dim and vectors.shape[0]:
        raise ValueError(f"expected vectors of dimension {dim}, got {vectors.shape[1]}")
    return vectors.reshape(-1, dim)


def _import_faiss():
    try:
        import faiss
    except ImportError as error:
        from rulesbot.errors import BackendUnavailable

        raise BackendUnavailable('the faiss index needs faiss-cpu: pip install faiss-cpu (or use --index numpy)') from error
    return faiss
