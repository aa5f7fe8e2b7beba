"""Wave 2 of the take / Vincent / legality families: questions about why a rule is so or how / where a mechanism works
stay with retrieval (the runner's rule-question gate); positions said relative to the free card; tokens stated in
prose ("j'en avais 3", "je passe de 4 a 6"); Vincent's tokens and the chance of a face-up token. Oracles are the
engine's own functions (take_cost, apply_action, vincent_take_odds, the ruleset data), never the intents' code."""

from functools import cache

import pytest
from rulesbot.engine import canvas as engine

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs

BASE = engine.ruleset("base")
SOLO = engine.ruleset("solo-puzzle")
VINCENT = engine.ruleset("vincent")


@cache
def _pack():
    return load_packs()["canvas"]


def ask(question, lang="en", context=()):
    return answer_computed(None, question, lang, _pack(), context=list(context))


# ------------------------------------------------------------------------------------ rule questions stay rules


@pytest.mark.parametrize(("question", "lang"), [
    ("how come skipping to the 4th card costs me 3 tokens?", "en"),
    ("pourquoi prendre la 2e carte me coûte un jeton ?", "fr"),
    ("when I grab the 4th card that has 2 tokens on it, do those tokens return to the box?", "en"),
    ("puzzle solo : une fois la 2e carte prise, comment la rangée se complète ?", "fr"),
    ("si je prends la 3e, les jetons que je paie je les mets où ?", "fr"),
    ("the 5 silver ribbons achievement, is that in one painting or across the whole game?", "en"),
    ("le succès des 7 rubans argent ça se compte par peinture ou sur toute la partie ?", "fr"),
])
def test_why_how_where_questions_about_a_mechanism_are_rule_questions(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "cost"), [
    # A value asked beside the mechanism keeps the computation.
    ("solo puzzle: I take the 4th card, what does it cost and what happens to the cards I skip?", "en", 3),
    ("combien coûte la 4e carte et comment ça marche pour les jetons ?", "fr", 3),
])
def test_a_value_asked_beside_a_mechanism_is_still_computed(question, lang, cost):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["cost"] == cost, answer and answer.answer
