"""Comparisons of two or three named options (issue 10): "the 2nd or the 4th: which leaves me more tokens?", "A-B-C or
C-B-A: which scores more?". Each option must be evaluated on the situation described, and the answer must say which
gives more and by how much.

Oracles are independent of the code under test: a take's cost is the rulebook's (p. 3: one token on each card
skipped, so the nth card of the row costs n - 1; the tokens on the card taken are gained), so what a take leaves is
held - (position - 1) + tokens on that card; a painting's points come from the engine's own scorer.
"""

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine


def _left(held: int, position: int, on_card: int) -> int:
    """What a take leaves, by the rulebook's rule (p. 3)."""
    return held - (position - 1) + on_card


TAKES = [
    # (question, lang, held, [(position, tokens on it)], the option expected to leave more or "same")
    ("i have 3 tokens. option 1: take the 2nd card (empty). option 2: take the 4th card, it has 2 tokens on it. "
     "which one leaves me more?", "en", 3, [(2, 0), (4, 2)]),
    ("Should I grab the third card or the fifth one? The fifth has 3 tokens on it and I hold 4 tokens.", "en", 4,
     [(3, 0), (5, 3)]),
    ("option A : je prends la 3e carte (vide). option B : la 4e, avec 2 jetons dessus. j'ai 3 jetons, c'est quoi le mieux ?",
     "fr", 3, [(3, 0), (4, 2)]),
    ("j'ai 4 jetons, je prends la 2e ou la 5e qui a 3 jetons dessus ? laquelle me laisse le plus de jetons ?", "fr", 4,
     [(2, 0), (5, 3)]),
    ("with five tokens, is it better to take the fourth card or the second card?", "en", 5, [(4, 0), (2, 0)]),
]


@pytest.mark.parametrize(("question", "lang", "held", "options"), TAKES)
def test_take_comparison_names_the_option_leaving_more(question, lang, held, options):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", question
    assert answer.engine["intent"] == "compare_takes"
    left = {position: _left(held, position, on_card) for position, on_card in options}
    for value in left.values():
        noun = "token" if lang == "en" else "jeton"
        assert f"{value} {noun}" in answer.answer  # each option's tokens left, said
    best = max(left.values())
    winners = [position for position, value in left.items() if value == best]
    if len(winners) > 1:
        assert ("same" if lang == "en" else "même") in answer.answer
    else:
        margin = best - max(value for position, value in left.items() if position != winners[0])
        noun = ("token" if margin == 1 else "tokens") if lang == "en" else ("jeton" if margin <= 1 else "jetons")
        verdict = (f"card {winners[0]} leaves you more tokens: {margin} {noun} more" if lang == "en"
                   else f"la carte {winners[0]} qui vous laisse le plus de jetons : {margin} {noun} de plus")
        assert verdict in answer.answer


def test_an_option_the_tokens_held_cannot_pay_is_said_refused():
    # The 5th card costs 4 (rulebook p. 3): with 2 tokens only the 2nd can be taken.
    answer = ask("i've got 2 tokens: the second card or the fifth card, which is better?", "en")
    assert answer is not None and answer.engine["intent"] == "compare_takes"
    assert "cannot take" in answer.answer and "Only card 2" in answer.answer


PAINTINGS = [
    ("with Repetition and Variety in play, which scores more: Chosen Game Truth or Truth Game Chosen?", "en",
     ["repetition", "variety"], [["Chosen", "Game", "Truth"], ["Truth", "Game", "Chosen"]]),
    ("avec Composition en jeu, quelle peinture rapporte le plus : Chosen, Game, Truth ou Mess, Dreams, Truth ?", "fr",
     ["composition"], [["Chosen", "Game", "Truth"], ["Mess", "Dreams", "Truth"]]),
]


@pytest.mark.parametrize(("question", "lang", "slugs", "paintings"), PAINTINGS)
def test_painting_comparison_scores_each_painting(question, lang, slugs, paintings):
    by_title = {card.title: card for card in engine.ART_CARDS}
    points = [engine.score_painting(engine.Painting.from_cards([by_title[title] for title in titles]), slugs).points()
              for titles in paintings]
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "compare_paintings", question
    assert [option["points"] for option in answer.engine["options"]] == points
    if points[0] != points[1]:
        winner = ", ".join(paintings[points.index(max(points))])
        margin = abs(points[0] - points[1])
        noun = "point" if margin == 1 else "points"
        verdict = (f"So {winner} scores more: {margin} {noun} more" if lang == "en"
                   else f"C'est donc {winner} qui rapporte le plus : {margin} {noun} de plus")
        assert verdict in answer.answer


def test_single_take_stays_a_take():
    answer = ask("how many tokens does it cost to take the third card", "en")
    assert answer.engine["intent"] == "take_cost"


FOLLOW_UPS = [
    # (comparison, follow-up, lang, tokens held after the follow-up, [(position, tokens on it)] after it)
    ("i have 3 tokens. option 1: take the 2nd card (empty). option 2: take the 4th card, it has 2 tokens on it. "
     "which leaves me with more tokens?", "and if I only had 4 tokens?", "en", 4, [(2, 0), (4, 2)]),
    ("j'ai 4 jetons, je prends la 2e ou la 5e qui a 3 jetons dessus ? laquelle me laisse le plus de jetons ?",
     "et si la 5e en avait 4 ?", "fr", 4, [(2, 0), (5, 4)]),
    ("with 5 tokens, should I take the third card or the fourth card? the fourth has 1 token on it",
     "what if there were 3 tokens on the 4th card?", "en", 5, [(3, 0), (4, 3)]),
]


@pytest.mark.parametrize(("previous", "question", "lang", "held", "options"), FOLLOW_UPS)
def test_a_follow_up_changes_one_value_and_keeps_the_rest(previous, question, lang, held, options):
    answer = ask(question, lang, context=[previous])
    assert answer is not None and answer.engine["intent"] == "compare_takes", question
    assert answer.engine["player_tokens"] == held
    assert [(option["position"], option["net"]) for option in answer.engine["options"]] == [
        (position, _left(held, position, on_card) - held) for position, on_card in options]


def test_a_follow_up_naming_other_scoring_cards_rescores_both_paintings():
    by_title = {card.title: card for card in engine.ART_CARDS}
    paintings = [["Chosen", "Game", "Truth"], ["Truth", "Game", "Chosen"]]
    points = [engine.score_painting(engine.Painting.from_cards([by_title[title] for title in titles]), ["composition"]).points()
              for titles in paintings]
    answer = ask("and with Composition instead?", "en", context=[PAINTINGS[0][0]])
    assert answer is not None and answer.engine["intent"] == "compare_paintings"
    assert [option["points"] for option in answer.engine["options"]] == points


SITUATIONS = [
    # A row described card by card with the cards' numbers (rulebook p. 3: cost n - 1, the card's tokens gained).
    ("row from the free end: card 1 has 2 tokens on it, card 2 none, card 3 has 1. i hold exactly 1 token. "
     "can i take card 3?", "en", [2, 0, 1], 1, 3),
    ("carte 1 : rien, carte 2 a 1 jeton, carte 3 a 2 jetons. j'ai 2 jetons, je peux prendre la carte 3 ?", "fr",
     [0, 1, 2], 2, 3),
    ("card 1 has no tokens, card 2 has 3 tokens on it, card 4 has 1. I've got 4 tokens: what do I end up with if I "
     "take card 4?", "en", [0, 3, 0, 1], 4, 4),
]


@pytest.mark.parametrize(("question", "lang", "row", "held", "position"), SITUATIONS)
def test_a_row_listed_card_by_card_reaches_the_engine(question, lang, row, held, position):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "take_cost", question
    assert answer.engine["tokens_on_cards"][: len(row)] == row
    assert answer.engine["player_tokens"] == held
    assert answer.engine["allowed"] == (held >= position - 1)


@pytest.mark.parametrize(("question", "lang"), [
    ("solo puzzle, first turn, I have my 4 starting tokens and the supply has 4. I take the leftmost card. how many "
     "tokens do I have now?", "en"),
    ("puzzle solo, premier tour : j'ai mes 4 jetons de départ, la réserve en a 4. je prends la carte la plus à "
     "gauche, j'ai combien de jetons ?", "fr"),
])
def test_the_turn_named_by_an_ordinal_is_not_a_row_position(question, lang):
    # Solo Puzzle (rulebook p. 5): the free card gains 1 token from the supply, so 4 held become 5.
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "take_cost"
    assert answer.engine["position"] == 1 and answer.engine["tokens_after"] == 5


@pytest.mark.parametrize(("question", "lang"), [
    ("I have five cards in hand and 4 tokens: can I take the third card, the one with 2 tokens on it?", "en"),
    ("avec 5 cartes en main, je peux prendre la 4e carte qui a 2 jetons dessus si je paie 3 jetons ?", "fr"),
    ("five cards in my hand right now, the second card has 3 tokens on it: can i take it if i put one of my tokens on the first?", "en"),
])
def test_a_full_hand_refuses_any_take_whatever_the_card_described(question, lang):
    # Rulebook p. 3: 5 Art Cards in hand is the limit, the next action must be completing a painting; which card,
    # and the tokens on it, cannot change that.
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "legality", question
    assert answer.engine["allowed"] is False and "action/hand_full" in answer.answer


def test_a_refusal_that_depends_on_the_card_still_reads_it():
    # 3 cards in hand, 1 token: the 3rd card costs 2 (rulebook p. 3), so the take is refused for the tokens.
    answer = ask("I have 3 cards in hand and 1 token: can I take the third card?", "en")
    assert answer is not None and answer.engine["allowed"] is False and "action/not_enough_tokens" in answer.answer


@pytest.mark.parametrize(("question", "lang", "held", "position"), [
    ("avec 2 jetons je peux prendre la 3e carte, pas de souci ?", "fr", 2, 3),
    ("with 1 token I can take the third card, no problem?", "en", 1, 3),
    ("avec 3 jetons je prends la 4e, pas de problème ?", "fr", 3, 4),
])
def test_a_no_problem_tag_makes_the_take_a_claim(question, lang, held, position):
    # The take is allowed exactly when the tokens held pay one per card skipped (rulebook p. 3).
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (held >= position - 1)


@pytest.mark.parametrize(("question", "lang"), [
    ("solo puzzle : combien de jetons dans la réserve posée à côté de la première carte ?", "fr"),
    ("in solo puzzle, how many tokens sit in the supply next to the leftmost card at the start?", "en"),
    ("solo puzzle: how many tokens are there in the pile beside the free card?", "en"),
])
def test_a_card_naming_where_the_supply_lies_is_not_a_take(question, lang):
    # Nothing is taken: a take's cost and gain would answer another question than the supply asked.
    answer = ask(question, lang)
    assert answer is None or answer.engine.get("intent") not in ("take_cost", "take")
