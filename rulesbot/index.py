"""Vector indexes behind one small protocol, and the saved index on disk with its manifest.

Two backends: `faiss` (IndexFlatIP, exact inner product; imported lazily) and `numpy` (brute force, for tests
and tiny corpora). Vectors are L2-normalised, so inner product is cosine similarity.

Each game has its own saved index (packs load lazily, one game at a time), a folder
`<data_dir>/index/<backend>-<model-slug>/<game>/`:

    manifest.json   what it was built with (IndexManifest): backend, model, dimension, knowledge hash, ...
    vectors.faiss   or vectors.npy
    rows.json       what each vector points at: [game, record id, kind] (kind: text, question or paraphrase)

The manifest records the sha256 of the two other files and of itself, and every one is checked at load: a
damaged byte anywhere, JSON of the wrong shape, or a folder where a file should be makes the index "corrupt",
and the caller rebuilds it. Once checked, the vectors file is memory-mapped (FAISS `IO_FLAG_MMAP_IFC`, NumPy
`mmap_mode="r"`), not read into memory. The index is written to a hidden temporary sibling folder (each file fsynced), then
renamed into place, so a kill mid-save never leaves a half-written index that loads; the temporaries of a save
that was killed are deleted by the next one (rulesbot.storage.clean_abandoned).
"""

import hashlib
import io
import os
import re
from pathlib import Path
from typing import Literal, Protocol

import numpy as np
from pydantic import BaseModel, TypeAdapter, ValidationError

from rulesbot.storage import clean_abandoned, fsync_folder, remove, sha256_hex, temporary_name, write_synced

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

    filename: str

    def save(self, folder: Path) -> None:
        """Write the vectors into `folder`."""

    def load(self, folder: Path) -> None:
        """Read the vectors from `folder` (raises on a missing or corrupt file)."""

    def to_bytes(self) -> bytes:
        """The vectors file's content."""

    def from_bytes(self, data: bytes) -> None:
        """Replace the contents with what `to_bytes` wrote (raises on unreadable data)."""

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
        (Path(folder) / self.filename).write_bytes(self.to_bytes())

    def load(self, folder: Path) -> None:
        """Read vectors.npy from `folder`."""
        self.from_bytes((Path(folder) / self.filename).read_bytes())

    def map_file(self, path: Path) -> None:
        """Memory-map vectors.npy read-only (pages are read as searches touch them, shared with the page cache)."""
        vectors = np.load(path, mmap_mode="r", allow_pickle=False)
        if vectors.ndim != 2 or vectors.dtype != np.float32:
            raise ValueError(f"expected a 2-D float32 array, got {vectors.ndim}-D {vectors.dtype}")
        self._vectors = _checked(vectors, self.dim)

    def to_bytes(self) -> bytes:
        """vectors.npy's content."""
        buffer = io.BytesIO()
        np.save(buffer, self._vectors, allow_pickle=False)
        return buffer.getvalue()

    def from_bytes(self, data: bytes) -> None:
        """Read what `to_bytes` wrote (a 2-D float32 array of this dimension)."""
        vectors = np.load(io.BytesIO(data), allow_pickle=False)
        if vectors.ndim != 2 or vectors.dtype != np.float32:
            raise ValueError(f"expected a 2-D float32 array, got {vectors.ndim}-D {vectors.dtype}")
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
            # A view of the flat index's own codes, not a copy (for a mapped file: the mapped pages).
            count = self._index.ntotal
            if count:
                matrix = self._faiss.rev_swig_ptr(self._index.get_xb(), count * self.dim).reshape(count, self.dim)
                matrix.flags.writeable = False
            else:
                matrix = np.zeros((0, self.dim), dtype=np.float32)
            self._matrix = matrix
        return _dot(self._matrix, _checked(query, self.dim)[0])

    def map_file(self, path: Path) -> None:
        """Read vectors.faiss memory-mapped (IO_FLAG_MMAP_IFC: the flat codes stay in the file's pages)."""
        flags = self._faiss.IO_FLAG_MMAP_IFC | self._faiss.IO_FLAG_READ_ONLY
        index = self._faiss.read_index(str(path), flags)
        if index.d != self.dim:
            raise ValueError(f"expected dimension {self.dim}, got {index.d}")
        self._index = index
        self._matrix = None

    def save(self, folder: Path) -> None:
        """Write vectors.faiss into `folder`."""
        (Path(folder) / self.filename).write_bytes(self.to_bytes())

    def load(self, folder: Path) -> None:
        """Read vectors.faiss from `folder` (FAISS raises RuntimeError on a truncated file)."""
        self.from_bytes((Path(folder) / self.filename).read_bytes())

    def to_bytes(self) -> bytes:
        """vectors.faiss's content (FAISS's own serialisation)."""
        return self._faiss.serialize_index(self._index).tobytes()

    def from_bytes(self, data: bytes) -> None:
        """Read what `to_bytes` wrote (raises RuntimeError on a truncated file, ValueError on another dimension)."""
        # A reader over the bytes already checked (not the path: the file could be replaced in between);
        # measured 2.6 ms for Canvas's 3.3 MB, where deserialize_index's extra copies took 8.5 ms.
        index = self._faiss.read_index(self._faiss.PyCallbackIOReader(io.BytesIO(data).read))
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
    # The decision values (rulesbot.retrieval.calibration) calibrated for this backend and model, recorded so an
    # index says what it answers with; a changed calibration rebuilds the index (from cached vectors: cheap).
    calibration: dict[str, float] | None = None
    # Written by save_index: the sha256 of each other file of the folder, and of this manifest without `checksum`.
    # (Defaults: an index saved by an older rulesbot has neither, and is rebuilt as stale.)
    files: dict[str, str] = {}
    checksum: str = ""

    def mismatch(self, expected: "IndexManifest") -> str | None:
        """Why this saved index cannot serve `expected` (None if it can)."""
        if not self.checksum:
            return "saved without checksums by an older rulesbot"
        for field, what in (
            ("knowledge_hash", "knowledge changed"),
            ("recipe", "indexing recipe changed"),
            ("calibration", "calibration changed"),
            ("backend", "backend changed"),
            ("model_id", "model changed"),
            ("dimension", "dimension changed"),
            ("index", "index kind changed"),
        ):
            if getattr(self, field) != getattr(expected, field):
                return what
        return None

    def own_checksum(self) -> str:
        """The sha256 of this manifest's canonical JSON without the `checksum` field."""
        return sha256_hex(self.model_dump_json(exclude={"checksum"}).encode())


class CorruptIndex(Exception):
    """A saved index is missing a file or has an unreadable, damaged or inconsistent one."""


# Which file holds the vectors, per index kind.
_VECTOR_FILES = {kind.kind: kind.filename for kind in (FaissIndex, NumpyIndex)}
# rows.json: [game, record id, kind] per vector, in index order (retrieval.index_units).
_ROWS = TypeAdapter(list[tuple[str, str, Literal["text", "question", "paraphrase"]]])


def index_folder(data_dir: Path, backend: str, model_id: str, game: str | None = None) -> Path:
    """Where the index for (backend, model) lives: <data_dir>/index/<backend>-<model-slug>/, one game's in <game>/."""
    slug = re.sub(r"[^a-z0-9.]+", "-", model_id.lower()).strip("-") or "default"
    folder = Path(data_dir) / "index" / f"{backend}-{slug}"
    return folder if game is None else folder / game


def save_index(folder: Path, index: Index, rows: list, manifest: IndexManifest) -> None:
    """Write index + rows + manifest atomically: a fsynced temporary sibling folder, then a rename.

    The temporaries a killed save left next to `folder` are deleted first. Raises OSError when the data dir
    cannot be written; the index already in place (if any) is then left as it was.
    """
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    clean_abandoned(folder.parent, legacy=_legacy_temporaries(folder.name))
    staging = folder.parent / temporary_name(folder.name)
    retired = None
    try:
        staging.mkdir()
        vectors = index.to_bytes()
        rows_json = _ROWS.dump_json([tuple(row) for row in rows])
        files = {index.filename: vectors, ROWS: rows_json}
        for name, data in files.items():
            write_synced(staging / name, data)
        saved = manifest.model_copy(update={"files": {name: sha256_hex(data) for name, data in files.items()}})
        saved = saved.model_copy(update={"checksum": saved.own_checksum()})
        # The manifest goes last: a folder with a manifest is a complete folder.
        write_synced(staging / MANIFEST, saved.model_dump_json(indent=2).encode())
        fsync_folder(staging)
        if folder.exists() or folder.is_symlink():
            retired = folder.parent / temporary_name(folder.name, "old")
            os.rename(folder, retired)
        os.rename(staging, folder)
        fsync_folder(folder.parent)
    except BaseException:
        if retired is not None and not (folder.exists() or folder.is_symlink()):
            try:
                os.rename(retired, folder)  # the new index is not in place: put the previous one back
                retired = None
            except OSError:
                pass  # the next save deletes it (an abandoned temporary)
        remove(staging)
        if retired is not None:
            remove(retired)
        raise
    if retired is not None:
        remove(retired)


def read_manifest(folder: Path) -> IndexManifest:
    """The saved manifest (raises CorruptIndex if missing, unreadable, of the wrong shape or damaged)."""
    path = Path(folder) / MANIFEST
    try:
        manifest = IndexManifest.model_validate_json(path.read_bytes())
    except FileNotFoundError as error:
        raise CorruptIndex(f"no {MANIFEST} in {folder}") from error
    except OSError as error:
        raise CorruptIndex(f"cannot read {path}: {error.strerror or error}") from error
    except ValidationError as error:
        raise CorruptIndex(f"{path} is not a valid manifest") from error
    if manifest.checksum and manifest.checksum != manifest.own_checksum():
        raise CorruptIndex(f"{path} does not match its checksum")
    return manifest


def load_index(folder: Path, manifest: IndexManifest) -> tuple[Index, list]:
    """Load the vectors and rows saved in `folder` (raises CorruptIndex on any unreadable or inconsistent file).

    Each file is checked against the manifest's sha256 before it is parsed; the vectors are then memory-mapped (a
    site with many games pays memory only for the pages its searches touch), rows.json (small) is read once.
    """
    folder = Path(folder)
    index = create_index(manifest.index, manifest.dimension)
    try:
        if manifest.count:
            _map_checked(index, folder, manifest)
        else:  # NumPy cannot map an empty array: nothing to save anyway
            index.from_bytes(_checked_file(folder, manifest, index.filename, read=True)[0])
        rows_data = _checked_file(folder, manifest, ROWS, read=True)[0]
        rows = [list(row) for row in _ROWS.validate_json(rows_data)]
    except (RuntimeError, ValueError, EOFError) as error:  # ValidationError is a ValueError
        raise CorruptIndex(f"cannot read the index in {folder}: {error}") from error
    if len(rows) != index.count() or index.count() != manifest.count:
        raise CorruptIndex(f"the index in {folder} is inconsistent (vectors, rows and manifest disagree)")
    return index, rows


def read_index_files(folder: Path, manifest: IndexManifest) -> dict[str, bytes]:
    """The vectors file and rows.json of `folder`, each checked against the manifest's sha256 (else CorruptIndex)."""
    folder = Path(folder)
    return {name: _checked_file(folder, manifest, name, read=True)[0] for name in _index_files(manifest)}


def _index_files(manifest: IndexManifest) -> tuple[str, str]:
    return _VECTOR_FILES.get(manifest.index, ""), ROWS


def _checked_file(folder: Path, manifest: IndexManifest, name: str, *, read: bool) -> tuple[bytes, tuple[int, int]]:
    # (the content if `read`, else b"" (streamed through the hash only), and the (inode, device) hashed).
    expected = manifest.files.get(name)
    if expected is None:
        raise CorruptIndex(f"the manifest in {folder} has no checksum for {name or manifest.index + ' vectors'}")
    path = folder / name
    try:
        with open(path, "rb") as handle:
            status = os.fstat(handle.fileno())
            if read:
                data = handle.read()
                digest = sha256_hex(data)
            else:
                data, hasher = b"", hashlib.sha256()
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    hasher.update(chunk)
                digest = hasher.hexdigest()
    except OSError as error:
        raise CorruptIndex(f"cannot read {path}: {error.strerror or error}") from error
    if digest != expected:
        raise CorruptIndex(f"{path} does not match its checksum")
    return data, (status.st_ino, status.st_dev)


def _map_checked(index: Index, folder: Path, manifest: IndexManifest) -> None:
    # Checked, then mapped by path: an index file is never rewritten in place (save_index writes a new folder and
    # renames it), so the file mapped is the one checked when the path still names the inode that was hashed.
    _data, hashed = _checked_file(folder, manifest, index.filename, read=False)
    path = folder / index.filename
    try:
        index.map_file(path)
        status = os.stat(path)
    except OSError as error:
        raise CorruptIndex(f"cannot read {path}: {error.strerror or error}") from error
    if (status.st_ino, status.st_dev) != hashed:
        raise CorruptIndex(f"{path} was replaced while it was loaded")


def _legacy_temporaries(name: str) -> list[re.Pattern]:
    # What rulesbot before checksummed manifests left after a killed save: tempfile.mkdtemp's `.<name>.<8 chars>`
    # staging folder and the `.<name>.old-<8 chars>` folder set aside during the swap.
    escaped = re.escape(name)
    return [re.compile(rf"^\.{escaped}\.(old-)?[a-z0-9_]{{8}}$")]


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
