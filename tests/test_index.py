"""The Index protocol's two backends, the saved index with its manifest, staleness and corruption recovery."""

import json

import numpy as np
import pytest

from rulesbot.index import FaissIndex, NumpyIndex, create_index, index_folder, read_manifest


@pytest.mark.parametrize("kind", ["faiss", "numpy"])
def test_backends_agree_on_search(kind, tmp_path):
    vectors = np.eye(4, dtype=np.float32)[[0, 1, 2, 3, 0]]
    index = create_index(kind, 4)
    index.build(vectors[:3])
    index.add(vectors[3:])
    assert index.count() == 5
    scores, ids = index.search(np.array([[1, 0, 0, 0]], dtype=np.float32), 3)
    # Rows 0 and 4 tie at 1.0 (FAISS does not promise an order among ties; retrieval breaks them by id).
    assert sorted(ids[0].tolist()[:2]) == [0, 4]
    assert scores[0][0] == pytest.approx(1.0)
    index.save(tmp_path)
    loaded = create_index(kind, 4)
    loaded.load(tmp_path)
    assert loaded.count() == 5


def test_numpy_pads_when_k_exceeds_count():
    index = NumpyIndex(2)
    index.build(np.array([[1, 0]], dtype=np.float32))
    scores, ids = index.search(np.array([[1, 0]], dtype=np.float32), 3)
    assert ids[0].tolist() == [0, -1, -1]


def test_faiss_rejects_wrong_dimension(tmp_path):
    index = FaissIndex(3)
    index.build(np.eye(3, dtype=np.float32))
    index.save(tmp_path)
    with pytest.raises(ValueError):
        FaissIndex(4).load(tmp_path)


def _folder(settings):
    from rulesbot.embeddings import create_embedder

    embedder = create_embedder("hash")
    return index_folder(settings.data_dir, embedder.name, embedder.model_id)


def test_saved_index_has_manifest_and_loads_without_rebuilding(hash_settings):
    from rulesbot.core import Rulesbot

    messages = []
    Rulesbot.load(hash_settings, notify=messages.append)
    assert any("building" in message for message in messages)
    manifest = read_manifest(_folder(hash_settings))
    assert manifest.backend == "hash" and manifest.dimension == 1024 and manifest.normalised
    assert manifest.rules_versions == {"canvas": "fixture-1"}
    assert manifest.languages == ["en", "fr"]
    assert manifest.count == 16  # 12 records + 2 FAQ questions + 2 paraphrases
    messages.clear()
    bot = Rulesbot.load(hash_settings, notify=messages.append)
    assert messages == []  # loaded, not rebuilt
    assert bot.retriever.index.count() == 16


def test_stale_manifest_rebuilds_with_message(hash_settings):
    from rulesbot.core import Rulesbot

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    path = _folder(hash_settings) / "manifest.json"
    data = json.loads(path.read_text())
    data["knowledge_hash"] = "0" * 16
    path.write_text(json.dumps(data))
    messages = []
    Rulesbot.load(hash_settings, notify=messages.append)
    assert any("index is stale (knowledge changed), rebuilding" in message for message in messages)
    assert read_manifest(_folder(hash_settings)).knowledge_hash != "0" * 16


@pytest.mark.parametrize(
    "damage",
    [
        lambda folder: (folder / "vectors.faiss").write_bytes((folder / "vectors.faiss").read_bytes()[:100]),
        lambda folder: (folder / "manifest.json").write_text("{not json"),
        lambda folder: (folder / "vectors.faiss").unlink(),
        lambda folder: (folder / "rows.json").write_text("[1, 2"),
    ],
    ids=["truncated-faiss", "garbled-manifest", "missing-faiss", "garbled-rows"],
)
def test_corrupt_index_is_rebuilt_with_a_message(hash_settings, damage):
    from rulesbot.core import Rulesbot

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    damage(_folder(hash_settings))
    messages = []
    bot = Rulesbot.load(hash_settings, notify=messages.append)
    assert any("rebuilding" in message for message in messages)
    assert bot.ask("tie break?").kind == "rule"
    # And the rebuilt index is good on disk again.
    messages.clear()
    Rulesbot.load(hash_settings, notify=messages.append)
    assert messages == []


def test_numpy_index_backend(hash_env, monkeypatch):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    monkeypatch.setenv("RULESBOT_INDEX_BACKEND", "numpy")
    bot = Rulesbot.load(Settings(), notify=lambda _m: None)
    assert bot.index_manifest.index == "numpy"
    assert bot.ask("How many cards can I hold?").citations[0].page == 3


def test_failed_build_leaves_the_good_index(hash_settings, monkeypatch):
    from rulesbot import retrieval
    from rulesbot.core import Rulesbot

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    before = (_folder(hash_settings) / "manifest.json").read_text()

    def crash(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(retrieval, "save_index", lambda folder, index, rows, manifest: crash())
    with pytest.raises(KeyboardInterrupt):
        Rulesbot.load(hash_settings, force_rebuild=True, notify=lambda _m: None)
    assert (_folder(hash_settings) / "manifest.json").read_text() == before


def test_atomic_save_cleans_staging_on_crash(tmp_path, monkeypatch):
    from rulesbot import index as index_module
    from rulesbot.index import IndexManifest, save_index

    folder = tmp_path / "index" / "x"
    vectors = NumpyIndex(2)
    vectors.build(np.eye(2, dtype=np.float32))
    manifest = IndexManifest(
        backend="hash", model_id="m", dimension=2, index="numpy", knowledge_hash="h", recipe="r",
        rules_versions={}, languages=["en"], games=["g"], count=2, built_at="t", rulesbot_version="0",
    )
    save_index(folder, vectors, [[0], [1]], manifest)
    good = (folder / "manifest.json").read_text()

    def boom(_self, _folder):
        raise OSError("disk full")

    monkeypatch.setattr(index_module.NumpyIndex, "save", boom)
    with pytest.raises(OSError):
        save_index(folder, vectors, [[0], [1]], manifest)
    assert (folder / "manifest.json").read_text() == good
    assert [path.name for path in folder.parent.iterdir()] == ["x"]


def test_rebuild_reuses_cached_embeddings_and_embeds_only_what_changed(hash_settings, tmp_path):
    from conftest import FIXTURES

    from rulesbot.embeddings import create_embedder
    from rulesbot.embeddings.cache import EmbeddingCache
    from rulesbot.knowledge import load_pack
    from rulesbot.retrieval import build_dense_index

    embedder = create_embedder("hash")
    embedded: list[str] = []

    def counting(method):
        def wrapped(texts):
            embedded.extend(texts)
            return method(texts)

        return wrapped

    embedder.embed_passages = counting(embedder.embed_passages)
    embedder.embed_questions = counting(embedder.embed_questions)
    pack = load_pack(FIXTURES / "knowledge" / "canvas")
    path = tmp_path / "cache.npz"

    first, _rows, _manifest = build_dense_index({"canvas": pack}, embedder, "numpy", cache=EmbeddingCache(path, "h", 1024))
    assert len(embedded) == 16
    embedded.clear()
    edited = pack.model_copy(update={"entries": [pack.entries[0].model_copy(update={"text": "A new text."}), *pack.entries[1:]]})
    second, _rows, _manifest = build_dense_index({"canvas": edited}, embedder, "numpy", cache=EmbeddingCache(path, "h", 1024))
    assert embedded == [f"{pack.entries[0].section}: A new text."]
    assert first.count() == second.count() == 16


def test_a_corrupt_embedding_cache_is_ignored(tmp_path):
    from rulesbot.embeddings.cache import EmbeddingCache

    path = tmp_path / "cache.npz"
    path.write_bytes(b"not an npz file")
    cache = EmbeddingCache(path, "m", 2)
    vectors = cache.embed("query", ["a"], lambda texts: np.ones((len(texts), 2), dtype=np.float32))
    assert vectors.shape == (1, 2)
    cache.save()
    assert EmbeddingCache(path, "m", 2).embed("query", ["a"], lambda texts: pytest.fail("should be cached")).shape == (1, 2)
