"""`rulesbot ingest`: text with page markers and a generated PDF become a searchable, page-cited user pack.

Each ingested file is its own source (listed, replaced, removed on its own), passages respect the length
limits, and a user pack that does not load is skipped with a warning (stderr for the CLI, the log for the
server). The fault tests with real processes are in test_ingest_faults.py.
"""

import json

import pytest
from typer.testing import CliRunner

from rulesbot.cli import app
from rulesbot.errors import BadInput
from rulesbot.ingest import MAX_WORD_CHARS, chunk_pages, text_pages

runner = CliRunner()

PAGES = {
    1: "Overview. Lanterns is a tile game about floating lanterns on a lake.",
    2: "Setup. Shuffle the lake tiles and give every player three tiles and a lantern card of each colour.",
    3: "Dedication. Trade four lantern cards of one colour for a dedication token worth points at the end.",
}


def _pdf(path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for number in sorted(PAGES):
        pdf.add_page()
        pdf.multi_cell(0, 8, PAGES[number])
    pdf.output(str(path))
    return path


@pytest.mark.parametrize(
    "marker", ["<!-- page {n} -->", "[page {n}]", "--- page {n} ---"], ids=["html", "bracket", "dashes"]
)
def test_page_markers(marker):
    text = "\n".join(f"{marker.format(n=n)}\n{body}\n" for n, body in PAGES.items())
    assert [number for number, _ in text_pages(text)] == [1, 2, 3]


def test_form_feeds_split_pages():
    assert [number for number, _ in text_pages("one\fsecond page\fthird")] == [1, 2, 3]


def test_chunks_keep_headings_and_size():
    body = "# Turn\n\n" + "\n\n".join("word " * 50 for _ in range(4)) + "\n\n## End\n\nThe game ends."
    passages = chunk_pages([(2, body)], default_section="Game", max_chars=1500)
    assert all(passage.page == 2 for passage in passages)
    assert passages[0].section == "Turn" and passages[-1].section == "End"
    assert all(len(passage.text.split()) <= 120 for passage in passages)


def test_ingest_pdf_then_ask_cites_the_pdf_page(hash_env, tmp_path):
    pdf = _pdf(tmp_path / "lanterns.pdf")
    result = runner.invoke(app, ["ingest", str(pdf), "--game", "lanterns", "--lang", "en", "--title", "Lanterns"])
    assert result.exit_code == 0, result.output
    pack = hash_env / "packs" / "lanterns"
    assert json.loads((pack / "pack.json").read_text())["languages"] == ["en"]
    records = [json.loads(line) for line in (pack / "lanterns.jsonl").read_text().splitlines()]
    assert {record["pages"][0] for record in records} == {1, 2, 3}
    assert all(record["source"] == "user" for record in records)
    asked = runner.invoke(app, ["ask", "dedication token lantern cards", "--game", "lanterns", "--json"])
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.stdout)
    assert answer["kind"] == "rule" and answer["citations"][0]["page"] == 3


def _texts(game: str) -> list[str]:
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    bot = Rulesbot.load(Settings(), notify=lambda _m: None)
    return sorted(entry.text for entry in bot.packs[game].entries) if game in bot.packs else []


def _listed() -> list[list[str]]:
    result = runner.invoke(app, ["ingest", "--list"])
    assert result.exit_code == 0, result.output
    return [line.split() for line in result.stdout.splitlines()[1:]]


def test_each_file_is_its_own_source_replaced_and_removed_alone(hash_env, tmp_path):
    setup = tmp_path / "setup.md"
    setup.write_text("<!-- page 1 -->\n# Setup\n\nPut the harbour board in the middle.\n")
    goods = tmp_path / "Goods Rules.md"
    goods.write_text("[page 2]\n# Goods\n\nShips carry goods between harbours.\n")
    for path in (setup, goods):
        result = runner.invoke(app, ["ingest", str(path), "--game", "harbour", "--lang", "en"])
        assert result.exit_code == 0, result.output
    # A second rulebook for the same game and language adds to it.
    assert _texts("harbour") == ["Put the harbour board in the middle.", "Ships carry goods between harbours."]
    assert [row[:4] for row in _listed()] == [["harbour", "goods-rules", "en", "1"], ["harbour", "setup", "en", "1"]]
    assert _listed()[0][-1] == "Rules.md"  # the file column ends with the original name "Goods Rules.md"
    # Re-ingesting the same file replaces only its own source.
    goods.write_text("[page 3]\n# Goods\n\nA ship carries at most three goods.\n")
    result = runner.invoke(app, ["ingest", str(goods), "--game", "harbour", "--lang", "en"])
    assert "replacing its 1 earlier ones" in result.stdout
    assert _texts("harbour") == ["A ship carries at most three goods.", "Put the harbour board in the middle."]
    # --remove takes one source away; removing the last one removes the game.
    result = runner.invoke(app, ["ingest", "--remove", "setup", "--game", "harbour"])
    assert result.exit_code == 0, result.output
    assert _texts("harbour") == ["A ship carries at most three goods."]
    assert runner.invoke(app, ["ingest", "--remove", "goods-rules", "--game", "harbour"]).exit_code == 0
    assert _texts("harbour") == []
    assert runner.invoke(app, ["ingest", "--list"]).stdout.startswith("no ingested rulebooks")
    assert [path.name for path in (hash_env / "packs").iterdir()] == []


def test_source_option_and_bad_cli_use(hash_env, tmp_path):
    rules = tmp_path / "rules.md"
    rules.write_text("[page 1]\nLes navires portent des marchandises.\n")
    result = runner.invoke(app, ["ingest", str(rules), "--game", "harbour", "--lang", "fr", "--source", "regles"])
    assert result.exit_code == 0, result.output
    assert [row[:3] for row in _listed()] == [["harbour", "regles", "fr"]]
    for args, message in [
        (["ingest", "--remove", "nope", "--game", "harbour"], "no ingested source 'nope'; its sources: regles"),
        (["ingest", "--remove", "regles"], "--remove SOURCE needs --game ID"),
        (["ingest", str(rules), "--game", "harbour"], "needs --game ID and --lang"),
        (["ingest", str(rules), "--game", "harbour", "--lang", "en", "--source", "Bad Name"], "source name"),
        (["ingest", "--list", str(rules)], "--list takes no FILE"),
        (["ingest"], "give a rulebook FILE"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr and "Traceback" not in result.output, (args, result.stderr)
    assert [row[:3] for row in _listed()] == [["harbour", "regles", "fr"]]


def test_help_shows_the_page_marker_syntax_with_an_example():
    result = runner.invoke(app, ["ingest", "--help"], terminal_width=120)
    assert result.exit_code == 0
    assert "<!-- page 3 -->" in result.stdout and "[page 3]" in result.stdout
    assert "rulesbot ingest rules.md --game lanterns --lang en" in result.stdout
    assert "--list" in result.stdout and "--remove" in result.stdout


def test_long_words_are_split_and_passages_stay_under_the_character_limit():
    word = "x" * 5000
    text = "# Rules\n\n" + " ".join(["short"] * 30 + [word] + ["tail"] * 200)
    passages = chunk_pages([(1, text)], default_section="Game", max_chars=300)
    assert all(len(passage.text) <= 300 for passage in passages)
    words = [piece for passage in passages for piece in passage.text.split()]
    assert max(len(piece) for piece in words) <= MAX_WORD_CHARS
    assert "".join(piece for piece in words if piece.startswith("x")) == word  # split, not lost
    assert words.count("tail") == 200 and words.count("short") == 30


def test_stored_passages_respect_the_passage_limit(hash_env, tmp_path, monkeypatch):
    monkeypatch.setenv("RULESBOT_INGEST_MAX_PASSAGE_CHARS", "200")
    rules = tmp_path / "rules.md"
    rules.write_text("[page 1]\n" + "tokens " * 300 + "y" * 3000 + "\n")
    result = runner.invoke(app, ["ingest", str(rules), "--game", "harbour", "--lang", "en"])
    assert result.exit_code == 0, result.output
    stored = [json.loads(line) for line in (hash_env / "packs" / "harbour" / "rules.jsonl").read_text().splitlines()]
    assert stored and all(len(record["text"]) <= 200 for record in stored)


def _old_pack(data_dir, game: str, records: list[dict]) -> None:
    """A user pack as an older rulesbot wrote it: a plain folder with user.en.jsonl and no limits."""
    folder = data_dir / "packs" / game
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text(json.dumps({"game": game, "title": game, "languages": ["en"], "pages": 9, "rules_version": "user-x"}))
    lines = [json.dumps({"id": f"user.en.p1.{n}", "concept_id": f"user.en.p1.{n}", "lang": "en", "source": "user", "pages": [1], "section": "S", "text": text}) for n, text in enumerate(records, start=1)]
    (folder / "user.en.jsonl").write_text("\n".join(lines) + "\n")


def test_an_old_pack_past_the_limits_is_skipped_and_canvas_still_answers(hash_env, monkeypatch):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    monkeypatch.setenv("RULESBOT_INGEST_MAX_PASSAGE_CHARS", "500")
    _old_pack(hash_env, "giant", ["w" * 20_000])
    _old_pack(hash_env, "fine", ["Ships carry goods between harbours."])
    warnings: list[str] = []
    bot = Rulesbot.load(Settings(), notify=lambda _m: None, warn=warnings.append)
    assert len(warnings) == 1 and "giant" in warnings[0] and "RULESBOT_INGEST_MAX_PASSAGE_CHARS" in warnings[0]
    assert "giant" not in bot.packs and "fine" in bot.packs
    assert bot.ask("How many cards can I hold?").answer == "Five: your hand limit is five art cards."


def test_an_old_pack_is_listed_and_becomes_a_generation_on_its_next_change(hash_env, tmp_path):
    _old_pack(hash_env, "harbour", ["Put the harbour board in the middle."])
    assert [row[:4] for row in _listed()] == [["harbour", "user.en", "en", "1"]]
    goods = tmp_path / "goods.md"
    goods.write_text("[page 2]\nShips carry goods between harbours.\n")
    assert runner.invoke(app, ["ingest", str(goods), "--game", "harbour", "--lang", "en"]).exit_code == 0
    assert (hash_env / "packs" / "harbour").is_symlink()
    assert _texts("harbour") == ["Put the harbour board in the middle.", "Ships carry goods between harbours."]
    assert runner.invoke(app, ["ingest", "--remove", "user.en", "--game", "harbour"]).exit_code == 0
    assert _texts("harbour") == ["Ships carry goods between harbours."]


def test_an_interrupted_first_change_of_an_old_pack_is_put_back(hash_env, tmp_path):
    from rulesbot.userpacks import clean_stale

    _old_pack(hash_env, "harbour", ["Put the harbour board in the middle."])
    packs = hash_env / "packs"
    # A kill between the two renames of _commit: the old folder is aside and nothing is at packs/harbour.
    (packs / "harbour").rename(packs / ".harbour.abc123.legacy")
    (packs / ".harbour.abc123").mkdir()
    clean_stale(packs)
    assert sorted(path.name for path in packs.iterdir()) == ["harbour"]
    assert _texts("harbour") == ["Put the harbour board in the middle."]


def test_the_server_logs_a_skipped_user_pack_and_still_answers(hash_env, caplog):
    import logging
    import time

    from fastapi.testclient import TestClient

    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    _old_pack(hash_env, "harbour", ["Put the harbour board in the middle."])
    (hash_env / "packs" / "harbour" / "user.en.jsonl").write_text("{broken\n")
    with caplog.at_level(logging.WARNING, logger="rulesbot.api"), TestClient(create_app(Settings())) as client:
        for _ in range(200):
            if client.get("/healthz").status_code == 200:
                break
            time.sleep(0.05)
        response = client.post("/v1/ask", json={"question": "How many cards can I hold?"})
    assert response.status_code == 200 and response.json()["kind"] == "rule"
    skipped = [record for record in caplog.records if "skipped the ingested rulebooks of harbour" in record.getMessage()]
    assert len(skipped) == 1 and skipped[0].levelno == logging.WARNING


@pytest.mark.parametrize(
    "content", [b"", b"   \n\n", b"\x00\x01\x02binary", b"%PDF-1.4 garbage not a pdf"], ids=["empty", "blank", "binary", "bad-pdf"]
)
def test_bad_files_fail_cleanly_and_touch_nothing(hash_env, tmp_path, content):
    good = tmp_path / "good.md"
    good.write_text("[page 1]\nThe good rules.\n")
    assert runner.invoke(app, ["ingest", str(good), "--game", "demo", "--lang", "en"]).exit_code == 0
    before = (hash_env / "packs" / "demo" / "good.jsonl").read_text()
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    result = runner.invoke(app, ["ingest", str(bad), "--game", "demo", "--lang", "en"])
    assert result.exit_code != 0
    assert "error:" in result.output and "Traceback" not in result.output
    assert (hash_env / "packs" / "demo" / "good.jsonl").read_text() == before


def test_missing_file_and_bad_lang(hash_settings, tmp_path):
    from rulesbot.ingest import Limits
    from rulesbot.userpacks import ingest_file

    options = {"data_dir": tmp_path / "data", "limits": Limits.from_settings(hash_settings), "lock_timeout": 5}
    with pytest.raises(BadInput):
        ingest_file(tmp_path / "nope.md", game="demo", lang="en", **options)
    (tmp_path / "x.md").write_text("text")
    with pytest.raises(BadInput):
        ingest_file(tmp_path / "x.md", game="demo", lang="de", **options)
    assert not (tmp_path / "data").exists()


def test_a_folder_is_named_as_such(hash_env, tmp_path):
    result = runner.invoke(app, ["ingest", str(tmp_path), "--game", "demo", "--lang", "en"])
    assert result.exit_code == 2
    assert "a folder, not a rulebook file" in result.output and "Traceback" not in result.output


def test_user_pack_for_a_shipped_game_adds_to_it(hash_env, tmp_path):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    notes = tmp_path / "notes.md"
    notes.write_text("[page 6]\nHouse note: the lighthouse variant uses a lighthouse board.\n")
    assert runner.invoke(app, ["ingest", str(notes), "--game", "canvas", "--lang", "en"]).exit_code == 0
    bot = Rulesbot.load(Settings(), notify=lambda _m: None)
    answer = bot.ask("lighthouse variant board?")
    assert answer.citations[0].page == 6
    french = bot.ask("lighthouse variant board?", lang="fr")
    assert french.answer.startswith("D'après le livret (en anglais seulement)")


README_RULEBOOKS = {
    "lanterns-rules.md": "<!-- page 2 -->\n# Setup\nShuffle the lake tiles and give every player three tiles and one "
    "lantern card of each colour.\n\n<!-- page 3 -->\n# Dedication\nTrade four lantern cards of one colour for a "
    "dedication token; each token is worth points at the end.\n",
    "lanterns-faq.md": "<!-- page 1 -->\n# Festival\nThe festival variant adds a second dedication track for pairs of "
    "lantern cards.\n",
}


def test_the_readme_ingest_example_is_real_output(hash_env, tmp_path, monkeypatch):
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"### Ingested rulebooks.*?```console\n(.*?)```", readme, flags=re.S).group(1)
    for name, text in README_RULEBOOKS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commands = re.split(r"^\$ ", block, flags=re.M)[1:]
    assert len(commands) >= 5
    for command in commands:
        line, *expected = command.rstrip("\n").split("\n")
        words = shlex.split(line)
        env = {}
        while re.fullmatch(r"[A-Z_]+=\S*", words[0]):  # leading VARIABLE=value assignments
            key, value = words.pop(0).split("=", 1)
            env[key] = value
        assert words[0] == "rulesbot", line
        with monkeypatch.context() as patched:
            for key, value in env.items():
                patched.setenv(key, value)
            result = runner.invoke(app, words[1:])
        shown = result.stdout if result.exit_code == 0 else result.stderr
        assert shown.splitlines() == expected, line


def test_ingesting_next_to_a_broken_source_changes_nothing_and_says_how_to_fix_it(hash_env, tmp_path):
    setup = tmp_path / "setup.md"
    setup.write_text("[page 1]\nPut the harbour board in the middle.\n")
    assert runner.invoke(app, ["ingest", str(setup), "--game", "harbour", "--lang", "en"]).exit_code == 0
    (hash_env / "packs" / "harbour" / "setup.jsonl").write_text("{broken\n")
    goods = tmp_path / "goods.md"
    goods.write_text("[page 2]\nShips carry goods between harbours.\n")
    result = runner.invoke(app, ["ingest", str(goods), "--game", "harbour", "--lang", "en"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "setup.jsonl:1" in result.stderr and "--remove SOURCE --game harbour" in result.stderr
    assert [row[:2] for row in _listed()] == [["harbour", "setup"]]
    assert runner.invoke(app, ["ingest", "--remove", "setup", "--game", "harbour"]).exit_code == 0
    assert runner.invoke(app, ["ingest", str(goods), "--game", "harbour", "--lang", "en"]).exit_code == 0
    assert _texts("harbour") == ["Ships carry goods between harbours."]


def test_the_data_dir_lock_is_re_entrant_across_spellings_of_one_folder(tmp_path):
    from rulesbot.locking import data_dir_lock

    (tmp_path / "data").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "data")
    # An ingest holds the lock while it rebuilds the index, which takes it again: that must not wait.
    with data_dir_lock(tmp_path / "data", timeout=0), data_dir_lock(tmp_path / "alias", timeout=0):
        assert (tmp_path / "data" / ".lock").exists()
