"""Two readings from the seventh round's app players: a digital version named as where a game was played ("BGA gave
me 2 Movement ribbons, legit?") is the same game, so a message naming the game's own things asks its rules; and a
claimed count of a named Scoring Card's ribbons is checked on that card even when it is not a first-game card.

Oracles: the engine's scoring of the painting (rulesbot.engine.canvas.score_painting, called here directly, not
through the question-reading code checked), and what the message asks.
"""

import pytest
from rulesbot.engine import canvas as engine

from tests.compute_helpers import ask
from tests.test_scope_round6 import _reason


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("on BGA my painting Precious, Extreme, Bait got 2 Movement ribbons, is that the real rule?", "en"),
        ("sur BGA la carte de score Symétrie m'a donné 3 rubans, c'est normal ?", "fr"),
    ],
)
def test_an_app_named_beside_the_games_own_things_asks_its_rules(question, lang):
    assert _reason(question, lang) is None


@pytest.mark.parametrize(
    ("question", "lang"),
    [("can I play canvas on board game arena?", "en"), ("canvas est dispo sur BGA ?", "fr"), ("is BGA free?", "en")],
)
def test_the_app_itself_is_still_near_domain(question, lang):
    assert _reason(question, lang) == "digital"


@pytest.mark.parametrize("claimed", [1, 2, 3])
@pytest.mark.parametrize(("cards", "card"), [(("Precious", "Extreme", "Bait"), "movement"),
                                             (("Delicate", "Revolution", "Masked"), "space")])
def test_a_claimed_count_of_a_named_cards_ribbons_is_checked_on_that_card(cards, card, claimed):
    ribbons = dict(engine.score_painting(engine.Painting.from_cards(list(cards)), [card]).ribbons)[card]
    name = card.capitalize()
    answer = ask(f"{', '.join(cards)} (bottom to top): {claimed} {name} ribbons, right?")
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (claimed == ribbons), answer.answer
