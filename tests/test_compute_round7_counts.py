"""The seventh blind round's counting family: a count asked about what is placed, laid out or spent is not the box's
count. "How many Scoring Cards do we put on the mat?" is the count in play (the mat's coloured slots); "how many cards
do we lay out in the middle?" and "how many tokens can he spend at most?" are rules (the row, Vincent's turn), left
to the rulebook text; "how many Scoring Cards for this scenario?" is the scenario's own cards. The box's count stays
for "how many are there / in the box".

Oracle: the engine's rules data read here as a file (engine/canvas/data/rules.json), not through the code checked.
"""

import json
import re
from pathlib import Path

import pytest

from tests.compute_helpers import ask

RULES = json.loads((Path(__file__).parents[1] / "engine" / "canvas" / "data" / "rules.json").read_text(encoding="utf-8"))
COUNTS = {item["slug"]: item.get("count") for item in RULES["components"]}
SCENARIOS = {item["slug"]: item for item in RULES["scenarios"]}


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\b\d+\b", text)]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("on met combien de cartes objectif sur le tapis au début ?", "fr"),
        ("cb de cartes score on pose au début ?", "fr"),
    ],
)
def test_scoring_cards_placed_are_the_mat_slots(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert len(RULES["mat_slots"]) in _numbers(answer.answer)
    assert COUNTS["scoring_cards"] not in _numbers(answer.answer)


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("how many scoring cards do we place on the mat?", "en"),
        ("combien de cartes de score on pose sur le tapis ?", "fr"),
    ],
)
def test_scoring_cards_placed_on_the_named_mat_are_never_the_box_count(question, lang):
    # The mat named may be read as the component asked: left to the rulebook text, or the count in play.
    answer = ask(question, lang)
    assert answer is None or COUNTS["scoring_cards"] not in _numbers(answer.answer)


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("combien de cartes Art on pose au milieu au début ?", "fr"),
        ("how many art cards do we lay out at the start?", "en"),
        ("vincent il peut en dépenser combien au max, des jetons ?", "fr"),
        ("how many inspiration tokens can I spend in one turn?", "en"),
    ],
)
def test_a_count_laid_out_or_spent_is_not_the_box_count(question, lang):
    answer = ask(question, lang)
    # Either a rules question (None: the rulebook text answers) or another computation, never the box's count.
    if answer is not None:
        assert not {COUNTS["art_cards"], COUNTS["inspiration_tokens"]} & set(_numbers(answer.answer)), answer.answer


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("How many Art Cards are there?", "en"),
        ("combien de cartes Art dans la boîte ?", "fr"),
        ("combien de jetons inspiration au total dans le jeu ?", "fr"),
    ],
)
def test_the_box_count_stays_for_how_many_there_are(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert {COUNTS["art_cards"], COUNTS["inspiration_tokens"]} & set(_numbers(answer.answer))


@pytest.mark.parametrize(
    ("question", "lang", "slug"),
    [
        ("Avec la boîte, on met combien de cartes de score pour le mode Chill ?", "fr", "chill-mode"),
        ("for Synergy, how many scoring cards do we put out?", "en", "synergy"),
    ],
)
def test_scoring_cards_for_a_scenario_are_its_own(question, lang, slug):
    scenario = SCENARIOS[slug]
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert len(scenario["cards"]) + scenario["random_cards"] in _numbers(answer.answer)
