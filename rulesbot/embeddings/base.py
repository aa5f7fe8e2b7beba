"""The `Embedder` interface every embedding backend implements, with a shared LRU cache for queries."""

from collections import OrderedDict

import numpy as np

# Questions repeat (a rules site sees the same ones over and over); 2,048 cached vectors cost ~3 MB at 384 dims.
QUERY_CACHE_SIZE = 2048


class Embedder:
    """Turns texts into L2-normalised float32 vectors; subclasses implement `_encode`."""

    name: str = ""
    model_id: str = ""
    dim: int = 0

    def __init__(self) -> None:
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Embed search queries (cached: a repeated question is never re-embedded)."""
        missing = [text for text in dict.fromkeys(texts) if text not in self._query_cache]
        if missing:
            for text, vector in zip(missing, _normalise(self._encode(missing, is_query=True)), strict=True):
                self._remember(text, vector)
        rows = []
        for text in texts:
            self._query_cache.move_to_end(text)
            rows.append(self._query_cache[text])
        return np.vstack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """Embed knowledge passages (not cached: they are embedded once, at index build)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._encode(list(texts), is_query=False))

    def embed_questions(self, texts: list[str]) -> np.ndarray:
        """Embed stored questions (FAQ questions, paraphrases) the way queries are embedded, without caching."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._encode(list(texts), is_query=True))

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        raise NotImplementedError

    def _remember(self, text: str, vector: np.ndarray) -> None:
        self._query_cache[text] = vector
        if len(self._query_cache) > QUERY_CACHE_SIZE:
            self._query_cache.popitem(last=False)


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # An all-zero vector (e.g. a hash embedding of punctuation only) stays zero rather than becoming NaN.
    return np.ascontiguousarray(vectors / np.maximum(norms, 1e-12), dtype=np.float32)
