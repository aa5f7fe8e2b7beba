"""The eighth blind round's typing: a table judge's shorthand ("SC", "rib", "tok"), phone autocorrect damage to the
game's nouns ("robbins", "rubens", "je tons"; rulesbot/game_words.json), and claim cues players use that the
language table lacked ("am I right in thinking that ...", "y paraît que ...", "j'ai noté que ...", "..., c'est bien
cela ?"). Each is read as the plain word, so the computation runs.

Oracle: the Scoring Cards' points read from engine/canvas/data/scoring_cards.json as a file.
"""

import json
import re
from pathlib import Path

import pytest

from rulesbot.shorthand import normalise
from tests.compute_helpers import ask

CARDS = {card["slug"]: card for card in json.loads(
    (Path(__file__).parents[1] / "engine" / "canvas" / "data" / "scoring_cards.json").read_text(encoding="utf-8"))["cards"]}


def points(slug: str, ribbons: int) -> int:
    return CARDS[slug]["points"][ribbons - 1]


@pytest.mark.parametrize(
    ("typed", "lang", "read"),
    [
        ("SC Repetition, 2 rib?", "en", "Scoring Card Repetition, 2 ribbons?"),
        ("p2 has 3 tok left", "en", "p2 has 3 tokens left"),
        ("how many robbins for that", "en", "how many ribbons for that"),
        ("combien pour 2 rubens", "fr", "combien pour 2 rubans"),
        ("il a 3 je tons", "fr", "il a 3 jetons"),
    ],
)
def test_typed_words_are_read_as_the_game_words(typed, lang, read):
    assert normalise(typed, lang, "canvas").text == read



@pytest.mark.parametrize(("slug", "ribbons"), [("variety", 3), ("emphasis", 2), ("hierarchy", 1)])
def test_judge_shorthand_computes(slug, ribbons):
    answer = ask(normalise(f"SC {CARDS[slug]['name_en']}, {ribbons} rib -> pts?", "en", "canvas").text, "en")
    assert answer is not None and answer.kind == "computed"
    assert str(points(slug, ribbons)) in re.findall(r"\d+", answer.answer)


@pytest.mark.parametrize(
    ("template", "lang"),
    [
        ("Am I right in thinking that {n} ribbons of {card} are worth {claimed} points?", "en"),
        ("Y paraît que {card} avec {n} rubans ça fait {claimed} points.", "fr"),
        ("J'ai noté que {n} rubans de {card} font {claimed} points, c'est bien cela ?", "fr"),
    ],
)
@pytest.mark.parametrize(("slug", "ribbons", "offset"), [("composition", 2, 0), ("style", 3, 1), ("movement", 2, -1)])
def test_claim_cues_make_a_claim_with_the_engine_verdict(template, lang, slug, ribbons, offset):
    card = CARDS[slug]["name_fr" if lang == "fr" else "name_en"]
    claimed = points(slug, ribbons) + offset
    answer = ask(template.format(n=ribbons, card=card, claimed=claimed), lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (offset == 0)
    assert str(points(slug, ribbons)) in re.findall(r"\d+", answer.answer)


def test_a_real_word_beside_the_damaged_one_stays():
    assert normalise("je tonds la pelouse", "fr", "canvas").text == "je tonds la pelouse"


RULES = json.loads((Path(__file__).parents[1] / "engine" / "canvas" / "data" / "rules.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("first", "follow_up", "lang"),
    [
        ("Vast at the bottom, Sanctuary in the middle, Curiosity on top: how many silver ribbons?", "so how many points is that", "en"),
        ("Forbidden, Attraction, Truth bottom to top, how many silver ribbons?", "and in points?", "en"),
        ("Vast, Sanctuary, Curiosity de bas en haut : combien de rubans argent ?", "et ça fait combien de points ?", "fr"),
    ],
)
def test_points_of_the_silver_ribbons_just_counted(first, follow_up, lang):
    # The eighth round's follow-up "ok and how many pts is that" after a painting's silver ribbons fell to the rule.
    counted = ask(first, lang)
    assert counted is not None and counted.kind == "computed"
    answer = ask(follow_up, lang, context=[first])
    assert answer is not None and answer.kind == "computed"
    assert str(counted.engine["bonus"] * RULES["silver_points"]) in re.findall(r"\d+", answer.answer.split(".")[0])
    assert RULES["pages"]["silver_points"] in [citation.page for citation in answer.citations]
    # Asked in ribbons, the same painting still answers in ribbons, not points.
    assert "point" not in counted.answer.split(".")[0]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("how many ribbons max can Emphasis give per painting?", "en"),
        ("how many ribbons does Variety give at most in one painting?", "en"),
        ("Emphase, combien de rubans max avec une seule peinture ?", "fr"),
        ("Composition peut donner combien de rubans par tableau ?", "fr"),
    ],
)
def test_a_limit_per_painting_is_not_the_points_table(question, lang):
    # The points table's length is the most over the game; what one painting earns is the card's rule (text).
    assert ask(question, lang) is None


@pytest.mark.parametrize(("slug", "question", "lang"), [("emphasis", "how many ribbons can Emphasis give at most?", "en"),
                                                        ("style", "Style au max, combien de rubans ?", "fr")])
def test_the_limit_over_the_game_is_still_computed(slug, question, lang):
    answer = ask(question, lang)
    assert answer is not None and str(CARDS[slug]["max_ribbons"]) in re.findall(r"\d+", answer.answer)


def test_a_quebec_pis_opens_a_follow_up():
    first = "Combien de points pour Emphase avec deux rubans bleus ?"
    answer = ask("Pis avec trois?", "fr", context=[first])
    assert answer is not None and str(points("emphasis", 3)) in re.findall(r"\d+", answer.answer)


@pytest.mark.parametrize(("typed", "lang", "read"), [("is it clock wise?", "en", "is it clockwise?"),
                                                      ("qui joue en 1er ?", "fr", "qui joue en premier ?")])
def test_spoken_and_numbered_forms_are_written_out(typed, lang, read):
    assert normalise(typed, lang, "canvas").text == read
