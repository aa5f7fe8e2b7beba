"""`rulesbot ingest`: text with page markers and a generated PDF become a searchable, page-cited user pack."""

import json

import pytest
from typer.testing import CliRunner

from rulesbot.cli import app
from rulesbot.errors import BadInput
from rulesbot.ingest import chunk_pages, text_pages

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
    passages = chunk_pages([(2, body)], default_section="Game")
    assert all(passage.page == 2 for passage in passages)
    assert passages[0].section == "Turn" and passages[-1].section == "End"
    assert all(len(passage.text.split()) <= 120 for passage in passages)


def test_ingest_pdf_then_ask_cites_the_pdf_page(hash_env, tmp_path):
    pdf = _pdf(tmp_path / "lanterns.pdf")
    result = runner.invoke(app, ["ingest", str(pdf), "--game", "lanterns", "--lang", "en", "--title", "Lanterns"])
    assert result.exit_code == 0, result.output
    pack = hash_env / "packs" / "lanterns"
    assert json.loads((pack / "pack.json").read_text())["languages"] == ["en"]
    records = [json.loads(line) for line in (pack / "user.en.jsonl").read_text().splitlines()]
    assert {record["pages"][0] for record in records} == {1, 2, 3}
    assert all(record["source"] == "user" for record in records)
    asked = runner.invoke(app, ["ask", "dedication token lantern cards", "--game", "lanterns", "--json"])
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.stdout)
    assert answer["kind"] == "rule" and answer["citations"][0]["page"] == 3


def test_ingest_markdown_and_reingest_replaces(hash_env, tmp_path):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    first = tmp_path / "rules.md"
    first.write_text("<!-- page 1 -->\n# Setup\n\nPut the harbour board in the middle.\n")
    assert runner.invoke(app, ["ingest", str(first), "--game", "harbour", "--lang", "en"]).exit_code == 0
    second = tmp_path / "rules2.md"
    second.write_text("[page 2]\n# Goods\n\nShips carry goods between harbours.\n")
    assert runner.invoke(app, ["ingest", str(second), "--game", "harbour", "--lang", "en"]).exit_code == 0
    bot = Rulesbot.load(Settings(), notify=lambda _m: None)
    texts = [entry.text for entry in bot.packs["harbour"].entries]
    assert texts == ["Ships carry goods between harbours."]
    assert bot.search("ships goods", game="harbour")[0].page == 2


@pytest.mark.parametrize(
    "content", [b"", b"   \n\n", b"\x00\x01\x02binary", b"%PDF-1.4 garbage not a pdf"], ids=["empty", "blank", "binary", "bad-pdf"]
)
def test_bad_files_fail_cleanly_and_touch_nothing(hash_env, tmp_path, content):
    good = tmp_path / "good.md"
    good.write_text("[page 1]\nThe good rules.\n")
    assert runner.invoke(app, ["ingest", str(good), "--game", "demo", "--lang", "en"]).exit_code == 0
    before = (hash_env / "packs" / "demo" / "user.en.jsonl").read_text()
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    result = runner.invoke(app, ["ingest", str(bad), "--game", "demo", "--lang", "en"])
    assert result.exit_code != 0
    assert "error:" in result.output and "Traceback" not in result.output
    assert (hash_env / "packs" / "demo" / "user.en.jsonl").read_text() == before


def test_missing_file_and_bad_lang(hash_env, tmp_path):
    from rulesbot.ingest import ingest_file

    with pytest.raises(BadInput):
        ingest_file(tmp_path / "nope.md", game="demo", lang="en", title=None, packs_dir=tmp_path)
    (tmp_path / "x.md").write_text("text")
    with pytest.raises(BadInput):
        ingest_file(tmp_path / "x.md", game="demo", lang="de", title=None, packs_dir=tmp_path)


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
