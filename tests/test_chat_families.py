"""Families of computed questions read from players' chat (issue 10, third blind round): French written without its
apostrophes, reported statements without a question mark, follow-ups that state a value, odds written as fractions,
percents or words, players named in the third person, negative outcomes claimed about a painting, and an open
question asked after a reported claim. The questions are our own wordings; the oracles are the engine's data and
functions, or the rulebook's numbers."""

from fractions import Fraction
from functools import cache

import pytest
from rulesbot.engine import canvas as engine

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs


@cache
def _pack():
    return load_packs()["canvas"]


def ask(question, lang="en", context=()):
    return answer_computed(None, question, lang, _pack(), context=list(context))


def _odds(tokens, position):
    return dict(engine.vincent_take_odds(vincent_tokens=tokens))[position]


def _left_in_box(component, players):
    counts = engine.component_counts()
    return counts[component].count - players * counts[f"{component}_per_player"].count


# ------------------------------------------------------------------------------ 1. claims however they are written


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    # French chat without its apostrophes reads as the standard forms.
    ("cest vrai que 2 rubans Emphase ca fait 4 points", "fr", engine.points_for("emphasis", 2) == 4),
    ("jai entendu dire quavec 3 rubans Variete on marque 13 points", "fr", engine.points_for("variety", 3) == 13),
    # A reported statement is a claim without a question mark, whoever says it and however long their name.
    ("The guy next to me says three blue ribbons score 11.", "en", engine.points_for("emphasis", 3) == 11),
    ("Mon cousin affirme qu'à 3 joueurs il reste 8 jetons dans la boîte.", "fr", _left_in_box("inspiration_tokens", 3) == 8),
    ("La copine de mon frère dit que Style ça va jusqu'à 4 rubans comme Variété.", "fr",
     engine.scoring_card("style").max_ribbons == 4),
])
def test_a_claim_is_read_however_it_is_written(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


@pytest.mark.parametrize(("previous", "question", "lang", "card", "ribbons", "claimed"), [
    ("combien rapportent 2 rubans Variété ?", "et 3 rubans ça fait 13 ?", "fr", "variety", 3, 13),
    ("what are 2 Emphasis ribbons worth?", "and Repetition with 3 is 9?", "en", "repetition", 3, 9),
    ("how many points for 1 Composition ribbon?", "and 2 gives 4 points?", "en", "composition", 2, 4),
])
def test_a_follow_up_stating_a_value_is_checked(previous, question, lang, card, ribbons, claimed):
    answer = ask(question, lang, context=[previous])
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (engine.points_for(card, ribbons) == claimed), answer.answer


def test_french_elisions_are_restored_for_slots():
    # "jai 2 jetons": the tokens the player holds, as with "j'ai 2 jetons".
    plain, chat = ask("j'ai 2 jetons, combien coûte la 4e carte ?", "fr"), ask("jai 2 jetons, combien coute la 4e carte ?", "fr")
    assert chat is not None and plain is not None and chat.engine == plain.engine


# ------------------------------------------------------------------------------ 3. odds claimed in any notation


@pytest.mark.parametrize(("question", "lang", "tokens", "position", "claimed"), [
    ("vincent 3 tokens: 3/8 he ends up on the third card?", "en", 3, 3, Fraction(3, 8)),
    ("With 1 token Vincent takes the free card fifty-fifty, right?", "en", 1, 1, Fraction(1, 2)),
    ("Vincent 2 jetons, 50/50 qu'il prenne la deuxième carte ?", "fr", 2, 2, Fraction(1, 2)),
    ("Vincent : 3 jetons. 12,5 % qu'il prenne la carte gratuite ?", "fr", 3, 1, Fraction(1, 8)),
    ("my daughter says with 4 tokens it's 40% that Vincent grabs the 3rd card", "en", 4, 3, Fraction(2, 5)),
])
def test_odds_claimed_as_a_fraction_a_percent_or_words(question, lang, tokens, position, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.engine["tokens"] == tokens and answer.engine["position"] == position, answer.engine
    assert answer.verdict is (_odds(tokens, position) == claimed), answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("Vincent has no tokens left, which card does he take?", "en"),
    ("Vincent n'a aucun jeton : il prend quelle carte ?", "fr"),
])
def test_a_certain_outcome_is_shown_as_a_percent(question, lang):
    answer = ask(question, lang)
    assert answer is not None and _odds(0, 1) == 1
    assert "100" in answer.answer and "%" in answer.answer, answer.answer
