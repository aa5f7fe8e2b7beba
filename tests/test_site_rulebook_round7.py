"""Round 7 of the passage-only path (site rulebooks): Markdown tables, tie-breaks inside a wider section, solo play.

Three mechanisms, each checked on rulebook text of our own (a made-up game, Hedgerow Hollow, not a dev set's):
1. a Markdown table's rows are answer units: each body row is a sentence of its own, read with its header's labels
   ("| Litter: 3 hoglets | Points: 5 points |"), a long table is cut between its rows with its header repeated,
   and a question naming a number gets the one row whose first (key) cell holds it;
2. a question type whose rule often sits inside a wider section ("ties": "In case of a tie, ..." closing a
   "Winning" paragraph; rulesbot/glossary.json "in_text") points at the passage whose text holds its title words
   when no section of the rulebook is titled for it and few passages use them;
3. a solo question ("can I play by myself", "en solo") is a question type naming a solo section;
4. the rulebook's opening section (its title, "Overview", "About the game") ranks down for a question that is not
   about the game as a whole (extractive.OPENING_PENALTY): its summary shares words with many rules and holds none.
The slow test holds the two dev rulebooks written for this round (eval/site-rulebook-dev4, -dev5) at their floors.
"""

import importlib.util
from pathlib import Path

import pytest

from rulesbot.extractive import (
    ScoredSentence,
    best_sentences,
    heading_cues,
    heading_match,
    in_text_kinds,
    is_list_item,
    keyed_row,
    numbers_in,
    opening_uncued,
    split_sentences,
    table_rows,
    text_cue_match,
)
from rulesbot.ingest import chunk_pages
from rulesbot.knowledge import Entry

EVAL = Path(__file__).resolve().parent.parent / "eval"
TITLE = "Hedgerow Hollow"

HEADER = ("Litter", "Points")
ROWS = [("1 hoglet", "nothing"), ("2 hoglets", "2 points"), ("3 hoglets", "5 points"), ("4 or more hoglets", "9 points")]
TABLE = "\n".join(
    [f"| {HEADER[0]} | {HEADER[1]} |", "|---|:---:|", *(f"| {litter} | {points} |" for litter, points in ROWS)]
)
SCORING = f"At the end of autumn, each litter in your nest scores by its size:\n\n{TABLE}\n\nA hoglet can be in one litter only."


def _scoring_text() -> str:
    (passage,) = [item for item in chunk_pages([(4, "## Nests\n\n" + SCORING)], TITLE, max_chars=2000) if "|" in item.text]
    return passage.text


def test_each_table_row_is_a_sentence_with_its_header_labels():
    sentences = split_sentences(_scoring_text())
    assert sentences[0] == "At the end of autumn, each litter in your nest scores by its size:"
    rows = [sentence for sentence in sentences if sentence.startswith("|")]
    # The oracle: the table's own body lines, each cell labelled by its column's header.
    assert rows == [f"| {HEADER[0]}: {litter} | {HEADER[1]}: {points} |" for litter, points in ROWS]
    assert all(is_list_item(row) for row in rows)
    # Text after a table is text again.
    assert split_sentences(" ".join(SCORING.split()))[-1] == "A hoglet can be in one litter only."
    # No separator row, no header row on its own.
    assert not any("---" in sentence for sentence in sentences)


def test_text_without_a_separator_row_is_no_table():
    text = "Score 2 | 3 points. Move on."
    assert table_rows(text) == [(text, False)]
    assert split_sentences(text) == ["Score 2 | 3 points.", "Move on."]


def test_an_empty_cell_is_left_out_of_its_row():
    text = "Prices: | Good | Cost | Note | |---|---|---| | Acorn | 2 | | | Beetle | 3 | rare |"
    assert split_sentences(text)[1:] == ["| Good: Acorn | Cost: 2 |", "| Good: Beetle | Cost: 3 | Note: rare |"]


def test_a_long_table_is_cut_between_its_rows_and_each_part_keeps_its_header():
    rows = [(f"Hedge number {number} of the long hedgerow", f"{number} points each") for number in range(40)]
    table = "\n".join(["| Hedge | Points |", "|---|---|", *(f"| {hedge} | {points} |" for hedge, points in rows)])
    passages = chunk_pages([(2, f"## Hedges\n\nHedges score so:\n\n{table}")], TITLE, max_chars=5000)
    assert len(passages) > 1
    found = [sentence for passage in passages for sentence in split_sentences(passage.text) if sentence.startswith("|")]
    # Every row, once, labelled: no part of the table lost its header, none was cut inside a row.
    assert found == [f"| Hedge: {hedge} | Points: {points} |" for hedge, points in rows]


@pytest.mark.parametrize(("question", "row"), [
    ("how many points for a litter of 3", 2), ("what does a litter of two score", 1),
    ("combien rapporte une portée de quatre hérissons ?", 3),
])
def test_a_question_naming_a_number_gets_the_row_keyed_by_it(question, row):
    sentences = split_sentences(_scoring_text())
    scored = [ScoredSentence(number, sentence, 0.0) for number, sentence in enumerate(sentences)]
    chosen = keyed_row(question, scored)
    assert chosen is not None and chosen.text == f"| {HEADER[0]}: {ROWS[row][0]} | {HEADER[1]}: {ROWS[row][1]} |"


def test_a_short_scoring_table_answers_a_numbered_question_by_its_row(hash_bot):
    text = " ".join(f"Litters score: {TABLE}".split())
    entry = Entry(id="user.h.en.p4.1", concept_id="user.h.en.p4.1", lang="en", source="user", pages=[4],
                  section="Scoring", text=text)
    embedder = hash_bot.retriever.embedder
    assert best_sentences("how many points for a litter of 3?", "en", entry, embedder) == "| Litter: 3 hoglets | Points: 5 points |"
    # No number: the short section the question's type names is the answer whole, its rows read by their labels.
    whole = best_sentences("how does scoring work, how many points?", "en", entry, embedder)
    assert all(f"| Litter: {litter} | Points: {points} |" in whole for litter, points in ROWS)


def test_no_number_or_no_single_keyed_row_keys_nothing():
    sentences = split_sentences(_scoring_text())
    scored = [ScoredSentence(number, sentence, 0.0) for number, sentence in enumerate(sentences)]
    assert keyed_row("how do litters score", scored) is None
    assert keyed_row("a litter of 7?", scored) is None
    assert numbers_in("a litter of three or 4") == {3, 4}


WINNING = (
    "After autumn every player adds up their points. The player with the highest total wins. In case of a tie, "
    "the tied player with more hoglets in their nest wins."
)


def _entries(sections_texts):
    return [
        Entry(id=f"user.h.en.p{number}.1", concept_id=f"user.h.en.p{number}.1", lang="en", source="user",
              pages=[number], section=section, text=text)
        for number, (section, text) in enumerate(sections_texts, start=1)
    ]


class _Pack:
    def __init__(self, entries):
        from types import SimpleNamespace

        self.entries = entries
        self.manifest = SimpleNamespace(game="hedgerow", title=TITLE)


@pytest.mark.parametrize("question", ["what if two of us end up level on points", "en cas d'égalité ?", "tiebreak?"])
def test_a_tie_sentence_inside_a_wider_section_is_pointed_at(question):
    entries = _entries([("Nests", SCORING), ("The Autumn Fair and Winning", WINNING), ("Foraging", "Take two beetles.")])
    pack = _Pack(entries)
    assert in_text_kinds(question)
    assert [text_cue_match(pack, entry, question) for entry in entries] == [0.0, 1.0, 0.0]


def test_a_rulebook_with_a_ties_section_keeps_its_title_as_the_pointer():
    entries = _entries([("The Autumn Fair", WINNING), ("Ties", "Tied players share the win.")])
    pack = _Pack(entries)
    assert all(text_cue_match(pack, entry, "tiebreak?") == 0.0 for entry in entries)
    # A question of another type ("points" is everywhere) is never pointed at by text.
    assert text_cue_match(pack, entries[0], "how many points is a beetle worth") == 0.0


@pytest.mark.parametrize("question", ["can i play by myself", "is there a solo mode", "comment jouer en solo ?"])
def test_a_solo_question_points_at_the_solo_section(question):
    cues = heading_cues(question)
    sections = ["Nests", "Playing Alone", "Ties", TITLE, "Solo game"]
    scores = {section: heading_match(section, TITLE, cues) for section in sections}
    assert {section for section, score in scores.items() if score == max(scores.values()) and score > 0} == {
        "Playing Alone", "Solo game",
    }


@pytest.mark.parametrize("section", [TITLE, "Overview", "About the Game"])
def test_the_opening_section_is_no_answer_to_a_rules_question(section):
    # A rules question: the overview's loose summary ranks down; a question about the game as a whole: it does not.
    assert opening_uncued(section, TITLE, heading_cues("can I keep my beetles for next autumn?"))
    assert not opening_uncued(section, TITLE, heading_cues("how long does a game take?"))
    assert not opening_uncued("Nests", TITLE, heading_cues("can I keep my beetles for next autumn?"))


@pytest.mark.parametrize("question", ["what if my beetle is alone on a hedge", "can one player take two beetles", "un joueur peut-il passer ?"])
def test_a_lone_piece_or_one_player_is_no_solo_question(question):
    assert not any("solo" in stems for stems, _opening in heading_cues(question))


@pytest.mark.parametrize("question", ["which cards are level 2?", "move up one level on the track", "can I draw a card"])
def test_a_level_or_a_card_draw_is_no_tie_question(question):
    assert not in_text_kinds(question)


def _runner():
    spec = importlib.util.spec_from_file_location("run_site_rulebook", EVAL / "run_site_rulebook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["site-rulebook-dev4", "site-rulebook-dev5"])
def test_the_round7_dev_questions_are_well_formed(name):
    import re

    runner = _runner()
    folder = EVAL / name
    questions = runner.load_questions(folder)
    text = (folder / "rulebook.md").read_text(encoding="utf-8")
    pages = dict(zip(re.findall(r"<!-- page (\d+) -->", text), re.split(r"<!-- page \d+ -->", text)[1:], strict=True))
    assert len(questions) == 30 and sum(1 for record in questions if record["page"] is None) >= 5
    for record in questions:
        assert (record["page"] is None) == (not record["phrases"]), record
        if record["page"] is not None:
            page = " ".join(pages[str(record["page"])].split()).lower()
            assert all(phrase.lower() in page for phrase in record["phrases"]), record
