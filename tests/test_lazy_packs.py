"""Many games per site: manifests at start-up, a game's records and index on its first question, once.

A knowledge dir of 30 tiny packs (EN+FR, no engine); which packs are read is observed with a spy on the pack
loader (rulesbot.core.load_pack) and on the index opener, never with timing.
"""

import json
import threading
import time

import pytest
from fastapi.testclient import TestClient

GAMES = [f"game-{number:03d}" for number in range(30)]


def _write_pack(root, game: str, number: int) -> None:
    folder = root / game
    folder.mkdir(parents=True)
    manifest = {"game": game, "title": f"Game {number}", "languages": ["en", "fr"], "pages": 4, "rules_version": "1"}
    (folder / "pack.json").write_text(json.dumps(manifest))
    texts = {
        "en": (f"Each player draws {number + 2} {game} tokens at the start.", "Setup"),
        "fr": (f"Chaque joueur pioche {number + 2} jetons {game} au début.", "Mise en place"),
    }
    for lang, (text, section) in texts.items():
        record = {"id": f"draw.{lang}", "concept_id": "draw", "lang": lang, "source": "rulebook", "pages": [2],
                  "section": section, "text": text}
        (folder / f"rulebook.{lang}.jsonl").write_text(json.dumps(record) + "\n")


@pytest.fixture
def many(tmp_path, monkeypatch):
    """30 tiny packs in RULESBOT_KNOWLEDGE_DIR (default game game-000), hash backend, a tmp data dir."""
    root = tmp_path / "knowledge"
    for number, game in enumerate(GAMES):
        _write_pack(root, game, number)
    monkeypatch.setenv("RULESBOT_KNOWLEDGE_DIR", str(root))
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RULESBOT_BACKEND", "hash")
    monkeypatch.setenv("RULESBOT_DEFAULT_GAME", "game-000")
    from rulesbot.settings import get_settings

    get_settings.cache_clear()
    yield root
    get_settings.cache_clear()


@pytest.fixture
def spied(monkeypatch):
    """Which pack folders were read, and which games' indexes were opened, in call order."""
    import rulesbot.core
    import rulesbot.retrieval

    calls = {"packs": [], "indexes": []}
    real_load_pack, real_open = rulesbot.core.load_pack, rulesbot.retrieval.open_dense_index

    def load_pack(folder):
        calls["packs"].append(folder.name)
        time.sleep(0.02)  # widens the window two concurrent first questions would race in
        return real_load_pack(folder)

    def open_dense_index(packs, *args, **kwargs):
        calls["indexes"].append(kwargs.get("game"))
        return real_open(packs, *args, **kwargs)

    monkeypatch.setattr(rulesbot.core, "load_pack", load_pack)
    monkeypatch.setattr(rulesbot.retrieval, "open_dense_index", open_dense_index)
    return calls


def _load(warnings=None):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    return Rulesbot.load(Settings(), notify=lambda _m: None, warn=(warnings.append if warnings is not None else None))


def test_load_reads_only_the_default_game_and_lists_every_game(many, spied):
    bot = _load()
    assert spied["packs"] == ["game-000"] and spied["indexes"] == ["game-000"]
    assert [manifest.game for manifest in bot.games()] == GAMES
    assert len(bot.packs) == 30 and "game-029" in bot.packs  # manifests only
    assert spied["packs"] == ["game-000"]


def test_a_question_for_one_game_loads_that_game_only(many, spied):
    bot = _load()
    hits = bot.search("How many tokens does each player draw?", lang="en", game="game-017")
    assert hits and {hit.game for hit in hits} == {"game-017"}
    assert "19 game-017 tokens" in hits[0].text
    bot.ask("How many tokens does each player draw?", game="game-017")
    assert spied["packs"] == ["game-000", "game-017"]
    assert spied["indexes"] == ["game-000", "game-017"]
    assert bot.packs.loaded() == ["game-000", "game-017"]


def test_concurrent_first_questions_load_a_game_once(many, spied):
    bot = _load()
    start = threading.Barrier(6)
    errors = []

    def ask():
        start.wait(timeout=10)
        try:
            bot.search("tokens at the start", game="game-021")
        except Exception as error:  # reported below: a failure in a thread must fail the test
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == [] and not any(thread.is_alive() for thread in threads)
    assert spied["packs"].count("game-021") == 1
    assert spied["indexes"].count("game-021") == 1


def test_v1_games_lists_every_pack_without_loading_records(many, spied):
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    bot = _load()
    with TestClient(create_app(Settings(), bot=bot)) as client:
        response = client.get("/v1/games")
    assert response.status_code == 200
    assert [game["game"] for game in response.json()["games"]] == GAMES
    assert spied["packs"] == ["game-000"]


def test_healthz_is_ready_once_the_manifests_and_the_default_game_are_loaded(many, spied):
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    app = create_app(Settings())
    with TestClient(app) as client:
        deadline = time.monotonic() + 60
        while (response := client.get("/healthz")).status_code == 503 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert response.status_code == 200, response.text
        assert response.json()["games"] == GAMES
        assert spied["packs"] == ["game-000"]


def test_an_ingested_rulebook_of_a_lazy_game_is_merged_when_that_game_loads(many, spied, tmp_path):
    from rulesbot.ingest import Limits
    from rulesbot.settings import Settings
    from rulesbot.userpacks import ingest_file

    settings = Settings()
    rulebook = tmp_path / "harbour.md"
    rulebook.write_text("[page 3]\nShips carry exactly four crates of spice between the harbours.\n")
    ingest_file(rulebook, game="game-008", lang="en", data_dir=settings.data_dir,
                limits=Limits.from_settings(settings), lock_timeout=5)
    bot = _load()
    assert "game-008" not in bot.packs.loaded()
    hits = bot.search("how many crates of spice do ships carry", lang="en", game="game-008")
    assert "four crates of spice" in hits[0].text
    pack = bot.packs["game-008"]
    assert {entry.source for entry in pack.entries} == {"rulebook", "user"}  # merged with the shipped records
    assert spied["packs"].count("game-008") == 1


def test_a_broken_pack_is_skipped_with_a_warning_when_first_asked(many, spied):
    from rulesbot.errors import UnknownGame

    (many / "game-013" / "rulebook.en.jsonl").write_text("{not json\n")
    warnings: list[str] = []
    bot = _load(warnings)
    assert warnings == []  # its manifest reads: nothing is wrong until its records are read
    with pytest.raises(UnknownGame):
        bot.ask("How many tokens does each player draw?", game="game-013")
    assert len(warnings) == 1 and "game-013" in warnings[0] and "rulebook.en.jsonl:1" in warnings[0]
    assert "game-013" not in [manifest.game for manifest in bot.games()]
    hits = bot.search("How many tokens does each player draw?", lang="en", game="game-014")
    assert "16 game-014 tokens" in hits[0].text
    with pytest.raises(UnknownGame):
        bot.search("tokens", game="game-013")
    assert len(warnings) == 1  # said once


def test_a_broken_manifest_is_skipped_at_load_and_the_others_are_listed(many, spied):
    (many / "game-004" / "pack.json").write_text('{"game": "game-004"}')
    warnings: list[str] = []
    bot = _load(warnings)
    assert len(warnings) == 1 and "game-004" in warnings[0]
    assert [manifest.game for manifest in bot.games()] == [game for game in GAMES if game != "game-004"]


def test_each_game_has_its_own_saved_index(many, spied):
    from rulesbot.embeddings import create_embedder
    from rulesbot.index import index_folder, read_manifest
    from rulesbot.settings import Settings

    bot = _load()
    bot.search("tokens", game="game-002")
    embedder = create_embedder("hash")
    for game in ("game-000", "game-002"):
        manifest = read_manifest(index_folder(Settings().data_dir, embedder.name, embedder.model_id, game))
        assert manifest.games == [game] and manifest.count == 2
    assert not index_folder(Settings().data_dir, embedder.name, embedder.model_id, "game-003").exists()
    # A second process loads the saved per-game indexes: nothing is rebuilt.
    spied["indexes"].clear()
    messages: list[str] = []
    from rulesbot.core import Rulesbot

    again = Rulesbot.load(Settings(), notify=messages.append)
    again.search("tokens", game="game-002")
    assert messages == [] and spied["indexes"] == ["game-000", "game-002"]


@pytest.mark.parametrize("kind", ["faiss", "numpy"])
def test_a_saved_index_is_memory_mapped_not_read_into_memory(many, monkeypatch, kind):
    from rulesbot.embeddings import create_embedder
    from rulesbot.index import index_folder
    from rulesbot.settings import Settings

    monkeypatch.setenv("RULESBOT_INDEX_BACKEND", kind)
    _load()  # builds and saves game-000's index
    bot = _load()  # a second load reads the saved one
    embedder = create_embedder("hash")
    folder = index_folder(Settings().data_dir, embedder.name, embedder.model_id, "game-000")
    vectors = folder / ("vectors.faiss" if kind == "faiss" else "vectors.npy")
    maps = open("/proc/self/maps").read()
    assert str(vectors.resolve()) in maps
    assert bot.search("tokens", lang="en", game="game-000")[0].text.startswith("Each player draws 2")


def test_an_unknown_game_names_a_few_known_ones_not_all(many, spied):
    from rulesbot.errors import UnknownGame

    bot = _load()
    with pytest.raises(UnknownGame) as raised:
        bot.ask("How many tokens?", game="chess")
    assert raised.value.message == (
        "unknown game 'chess'; known games: " + ", ".join(GAMES[:10]) + " and 20 more (see /v1/games)"
    )


def test_the_mcp_server_reads_manifests_only_and_reaches_every_page_through_its_template(many, spied):
    from rulesbot.mcp_server import build_server
    from rulesbot.settings import Settings

    server = build_server(Settings())
    # Built (tools, listed pages of the default game, the page template) without reading any other pack.
    assert set(spied["packs"]) <= {"game-000"}
    templates = [template.uri_template for template in server._resource_manager.list_templates()]
    assert any("{game}" in uri and "{page}" in uri for uri in templates)
