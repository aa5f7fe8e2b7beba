"""The `hash` backend: a deterministic keyword-hashing embedder with no model, for fast tests.

Each word (lower-cased, accents removed, a plural -s/-x dropped) adds +1 to one of `dim` buckets chosen by a
stable hash, so two texts are close exactly when they share words. No semantics, no cross-lingual matching:
it exists so the index, retrieval and eval code can be tested in milliseconds with hand-derived numbers.
"""

import hashlib
import re
import unicodedata

import numpy as np

from rulesbot.embeddings.base import Embedder

# Words that carry no topic; without this every question would match every passage on "the"/"le".
STOPWORDS = frozenset(
    "a an the of to in on at for and or is are be do does can i you my your it how what when many much "
    "le la les un une des de du d l a au aux et ou est sont je tu on il elle que qui quoi combien comment "
    "quand mon ma mes ton ta tes son sa ses en dans par pour sur avec ce cette ces y ne pas".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def keywords(text: str) -> list[str]:
    """The words the hash embedder sees in `text`."""
    folded = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(char for char in folded if not unicodedata.combining(char))
    words = []
    for word in _WORD.findall(folded):
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word[-1] in "sx":
            word = word[:-1]
        words.append(word)
    return words


class HashEmbedder(Embedder):
    """Keyword one-hot-ish vectors (signed feature hashing)."""

    name = "hash"

    def __init__(self, dim: int = 1024) -> None:
        super().__init__()
        self.dim = dim
        self.model_id = f"keyword-hash-v1-{dim}"

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:  # noqa: ARG002 - symmetric
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in keywords(text):
                digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
        return out
