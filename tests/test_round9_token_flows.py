"""Ninth-round token flows computed instead of left to the rulebook text: a table label ("la table 2 demande ...")
that counts nothing, Vincent's starting tokens said in passing ("he had his starting 4"), a French "deux" heard as "de"
by voice dictation ("quatre jetons de tombent face visible"), and the numbered turns of a described sequence ("turn 1 I
took ..., turn 3 leftmost again").

Oracles come from the engine's rulesets, never from the answer's code path; every question is worded here.
"""

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

from rulesbot.compute.parse import parse
from rulesbot.shorthand import normalise

_SOLO = engine.ruleset("solo-puzzle")
_VINCENT = engine.ruleset("vincent")


@pytest.mark.parametrize("table", [2, 5])
def test_a_table_label_counts_nothing(table):
    answer = ask(f"la table {table} demande combien ça coûte de prendre la troisième carte en partant du bout gratuit",
                 "fr")
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["cost"] == 2 * engine.ruleset("base").skip_cost_per_card
    assert all(slot.name != "number" or slot.value != table
               for slot in parse(f"la table {table} demande le prix de la 3e carte", "fr", "canvas").slots)


def test_a_card_points_table_is_no_label():
    parsed = parse("the variety table 4 8 13, right?", "en", "canvas")
    assert [slot.value for slot in parsed.all("number")] == [4, 8, 13]


@pytest.mark.parametrize(("face_up", "on_card"), [(2, 1), (1, 2)])
def test_vincents_starting_tokens_said_in_passing(face_up, on_card):
    start = _VINCENT.vincent_tokens
    ordinal = {1: "second", 2: "third"}[face_up]
    answer = ask(f"vincent flips, {face_up} land face up. the {ordinal} card in the row has {on_card} token on it. "
                 f"how many tokens has vincent got after his turn (he had his starting {start})")
    assert answer is not None and answer.kind == "computed"
    assert str(start - face_up * _VINCENT.skip_cost_per_card + on_card) in answer.answer


def test_deux_heard_as_de_before_the_tokens_landing():
    assert "jetons deux tombent" in normalise("Vincent lance ses quatre jetons de tombent face visible", "fr", "canvas").text
    # "de" is read as "deux" only where a count of tokens landing is expected.
    assert normalise("il a beaucoup de jetons qui tombent", "fr", "canvas").text == "il a beaucoup de jetons qui tombent"


def test_vincents_discard_with_a_dictated_count():
    text = normalise("Vincent lance ses quatre jetons de tombent face visible il défausse laquelle", "fr", "canvas").text
    answer = ask(text, "fr")
    assert answer is not None and answer.kind == "computed"
    assert "3e" in answer.answer  # two tokens face up: two cards skipped, the third discarded


@pytest.mark.parametrize("start", [3, 4])
def test_numbered_turns_of_a_solo_sequence(start):
    held, supply = start, _SOLO.token_supply
    for position in (1, 3, 1):
        held, supply = held - (position - 1) * _SOLO.skip_cost_per_card, supply + (position - 1) * _SOLO.skip_cost_per_card
        if position == 1:
            gain = min(_SOLO.supply_gain_free_card, supply)
            held, supply = held + gain, supply - gain
    held += min(_SOLO.supply_gain_painting, supply)
    answer = ask(f"solo puzzle: started with my {start} tokens. turn 1 i took the leftmost card, turn 2 i paid to take "
                 "the 3rd card, turn 3 leftmost again, then i completed a painting. how many tokens do i have now?")
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["tokens_after"] == held


def test_a_turn_number_beyond_the_actions_is_still_unexplained():
    answer = ask("solo puzzle: turn 7 i took the leftmost card, then the 3rd card. how many tokens do i have now?")
    assert answer is None or answer.engine.get("intent") != "action_sequence"
