"""A question about a state the rules make impossible (more Art Cards in hand than the hand limit) is never a crash:
the engine validates every state it is given and raises; the computed path declines it (rulesbot.compute.registry.
attempt), so the rulebook text answers. Found by the eighth blind round: "6 cards in hand, can I take ...?" raised
ValueError out of `ask` (a traceback in the CLI, an error for the API).

Oracle: the hand limit read from the engine's rules data as a file, not through the code checked.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.compute_helpers import ask

RULES = json.loads((Path(__file__).parents[1] / "engine" / "canvas" / "data" / "rules.json").read_text(encoding="utf-8"))
LIMIT = RULES["rulesets"]["base"]["hand_limit"]

TEMPLATES = [
    ("I have {n} cards in hand, can I take another card?", "en"),
    ("with {n} art cards in my hand can I take the free card?", "en"),
    ("my hand has {n} cards, can I paint?", "en"),
    ("I hold {n} Art Cards, may I take the third one?", "en"),
    ("j'ai {n} cartes en main, je peux prendre une carte ?", "fr"),
    ("avec {n} cartes en main je peux peindre ?", "fr"),
]


@settings(max_examples=40, deadline=None)
@given(template=st.sampled_from(TEMPLATES), n=st.integers(min_value=0, max_value=12))
def test_any_hand_size_is_answered_or_declined_never_raised(template, n):
    text, lang = template
    answer = ask(text.format(n=n), lang)  # raised ValueError for n > the hand limit before the fix
    if answer is not None and n > LIMIT:
        # Never "yes" to a hand the rules forbid.
        assert answer.verdict is not True and not (answer.engine or {}).get("allowed", False)


@pytest.mark.parametrize(("question", "lang"), [(t.format(n=LIMIT + 1), lang) for t, lang in TEMPLATES])
def test_past_the_hand_limit_the_full_bot_cites_the_hand_limit(question, lang, real_bot):
    answer = real_bot.ask(question, lang=lang, game="canvas")
    assert answer.kind != "unknown"
    assert str(LIMIT) in answer.answer
    assert answer.citations
