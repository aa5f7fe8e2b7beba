"""Vincent's toss as a chance node, his odds, and the component counts (rulebook p. 2, 5; FACTS.md 5, 8.6).

The oracles here do not reuse the engine's formulas: coin tosses are enumerated (2^n cases) or simulated
token by token, and the expected numbers are written out from the rulebook / FACTS.md.
"""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulesbot.engine import canvas
from rulesbot.engine.canvas import TakeCard

# Rulebook p. 5: "At most, Vincent can spend 4 tokens"; "Vincent begins with 4 Inspiration Tokens".
RULEBOOK_MAX_SPENT = 4
RULEBOOK_VINCENT_START = 4

ROW = ["Precious", "Peaceful", "Heavy", "Fragile", "Chosen"]


def _chance_node(tokens, row_tokens=(), row=ROW):
    state = canvas.custom_game(row, hands=[()], ruleset_name="vincent", vincent_tokens=tokens, row_tokens=row_tokens)
    # A solo player's action wraps the turn order, so Vincent (chance) plays next.
    after = canvas.apply_action(state, TakeCard(0, len(row)))
    assert canvas.is_chance_node(after)
    return after


def _enumerated_toss(tokens):
    """Probability of each spent count by listing all 2^n equally likely tosses."""
    counts = {}
    for toss in itertools.product((0, 1), repeat=tokens):
        spent = min(sum(toss), RULEBOOK_MAX_SPENT)
        counts[spent] = counts.get(spent, 0) + 1
    return {spent: Fraction(count, 2**tokens) for spent, count in counts.items()}


@pytest.mark.parametrize("tokens", range(0, 11))
def test_chance_outcomes_match_an_enumeration_of_every_toss(tokens):
    outcomes = canvas.chance_outcomes(_chance_node(tokens))
    assert sum(probability for _, probability in outcomes) == 1
    assert all(isinstance(probability, Fraction) for _, probability in outcomes)
    assert dict(outcomes) == _enumerated_toss(tokens)
    assert [outcome for outcome, _ in outcomes] == sorted(dict(outcomes))


def test_player_turn_is_not_a_chance_node_and_refuses_chance():
    state = canvas.custom_game(ROW, hands=[()], ruleset_name="vincent")
    assert not canvas.is_chance_node(state)
    with pytest.raises(ValueError, match="expected a chance node"):
        canvas.chance_outcomes(state)
    with pytest.raises(ValueError, match="expected a chance node"):
        canvas.apply_chance(state, 0)
    assert canvas.resolve_chance(state) == state


def test_chance_node_refuses_player_actions_and_bad_outcomes():
    node = _chance_node(4)
    assert canvas.legal_actions(node) == ()
    assert canvas.check_action(node, TakeCard(0, 1)) == "action/vincent_to_play"
    with pytest.raises(canvas.IllegalAction) as caught:
        canvas.apply_action(node, TakeCard(0, 1))
    assert caught.value.page == 5
    for bad in (5, -1, True, "2"):
        with pytest.raises(ValueError, match="expected an outcome from"):
            canvas.apply_chance(node, bad)


def test_apply_chance_follows_the_rulebook_example():  # p. 5: 1 face-up, first card skipped, second discarded
    state = canvas.custom_game(ROW, hands=[()], ruleset_name="vincent", row_tokens=[0, 1])
    node = canvas.GameState.from_dict({**state.to_dict(), "vincent_to_play": True})
    after = canvas.apply_chance(node, 1)
    assert not canvas.is_chance_node(after)
    assert after.discards == (canvas.card("Peaceful").id,)
    assert after.row_tokens[0] == 1 and after.vincent_tokens == RULEBOOK_VINCENT_START


def test_chance_node_round_trips_and_is_validated():
    node = _chance_node(3)
    assert canvas.GameState.from_dict(node.to_dict()) == node
    base = canvas.new_game(2).to_dict()
    with pytest.raises(ValueError, match="vincent_to_play"):
        canvas.GameState.from_dict({**base, "vincent_to_play": True})
    with pytest.raises(ValueError, match="expected bool"):
        canvas.GameState.from_dict({**base, "vincent_to_play": 1})


def test_seeded_play_is_deterministic_and_replays():
    state = canvas.new_game(2, "vincent", scoring="spatial", seed=5)
    first, actions = canvas.play_game(state, [canvas.random_bot] * 2, seed=9)
    second, again = canvas.play_game(state, [canvas.random_bot] * 2, seed=9)
    assert first == second and actions == again
    assert canvas.replay(state, [action.to_dict() for action in actions]) == first
    node = _chance_node(4)
    assert len({canvas.sample_chance_outcome(node) for _ in range(5)}) == 1


def test_seeded_draws_follow_the_chance_outcomes():
    # Monte Carlo over seeds (bounded: 3000 draws): each outcome's frequency is near its exact probability.
    node = _chance_node(4)
    draws = [canvas.sample_chance_outcome(canvas.GameState.from_dict({**node.to_dict(), "seed": seed}))
             for seed in range(3000)]
    for outcome, probability in canvas.chance_outcomes(node):
        assert abs(draws.count(outcome) / len(draws) - float(probability)) < 0.03, outcome


# ------------------------------------------------------------------------------------------- odds


def _simulated_take_odds(row_tokens, tokens, trials, seed):
    """Monte Carlo of Vincent's turn, token by token: toss, then skip cards one at a time while he may."""
    rng = random.Random(seed)
    taken = [0] * len(row_tokens)
    for _ in range(trials):
        face_up = sum(rng.random() < 0.5 for _ in range(tokens))
        position, spent = 0, 0
        # Each face-up token (at most 4) goes on the next card, as long as a card remains to take after it.
        while spent < min(face_up, RULEBOOK_MAX_SPENT) and position + 1 < len(row_tokens):
            position, spent = position + 1, spent + 1
        taken[position] += 1
    return [count / trials for count in taken]


@pytest.mark.parametrize(
    ("row_tokens", "tokens"), [((0,) * 5, 4), ((0,) * 5, 6), ((0, 2, 0), 4), ((1,) * 4, 2), ((0,) * 5, 0)]
)
def test_take_odds_agree_with_a_monte_carlo(row_tokens, tokens):
    odds = canvas.vincent_take_odds(row_tokens=row_tokens, vincent_tokens=tokens)
    assert [position for position, _ in odds] == list(range(1, len(row_tokens) + 1))
    assert sum(probability for _, probability in odds) == 1
    simulated = _simulated_take_odds(row_tokens, tokens, trials=20000, seed=2021)
    for (_, exact), estimate in zip(odds, simulated, strict=True):
        assert abs(float(exact) - estimate) < 0.015


def test_take_odds_by_hand():  # p. 5 and ruling 8.6, worked out by hand
    # 4 tokens, full row: the binomial 1, 4, 6, 4, 1 over 16.
    assert canvas.vincent_take_odds() == tuple(
        (position, Fraction(ways, 16)) for position, ways in enumerate((1, 4, 6, 4, 1), start=1)
    )
    # No tokens: he always discards the free card.
    assert dict(canvas.vincent_take_odds(vincent_tokens=0))[1] == 1
    # 1 token: free card or second card, half each (the rulebook example is the second case).
    assert dict(canvas.vincent_take_odds(vincent_tokens=1)) == {
        1: Fraction(1, 2), 2: Fraction(1, 2), 3: 0, 4: 0, 5: 0
    }
    # 5 tokens: 4 or 5 face-up both spend 4, so card 5 gets (5 + 1) / 32.
    assert dict(canvas.vincent_take_odds(vincent_tokens=5))[5] == Fraction(6, 32)
    # Only 2 cards left: everything but 0 face-up lands on the second card.
    assert canvas.vincent_take_odds(row_tokens=(0, 0)) == ((1, Fraction(1, 16)), (2, Fraction(15, 16)))


def test_token_odds_by_hand():
    odds = canvas.vincent_token_odds()  # 4 tokens, a full row without tokens on it
    assert odds.spent == 2 and odds.gained == 0 and odds.tokens_after == 2
    assert dict(odds.after_distribution) == {4: Fraction(1, 16), 3: Fraction(4, 16), 2: Fraction(6, 16),
                                             1: Fraction(4, 16), 0: Fraction(1, 16)}
    # 1 token, 3 tokens on the second card: half the time he skips 1 and gains 3.
    loaded = canvas.vincent_token_odds(row_tokens=(0, 3, 0, 0, 0), vincent_tokens=1)
    assert loaded.spent == Fraction(1, 2) and loaded.gained == Fraction(3, 2)
    assert dict(loaded.after_distribution) == {1: Fraction(1, 2), 3: Fraction(1, 2)}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ruleset": "base"}, "has no Vincent"),
        ({"row_tokens": ()}, "expected 1-5 cards"),
        ({"row_tokens": (0,) * 6}, "expected 1-5 cards"),
        ({"row_tokens": (0, -1)}, "token counts >= 0"),
        ({"vincent_tokens": -2}, "token count >= 0"),
        ({"vincent_tokens": True}, "token count >= 0"),
        ({"ruleset": "chess"}, "unknown ruleset"),
    ],
)
def test_odds_reject_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        canvas.vincent_take_odds(**kwargs)


# ------------------------------------------------------------------------------------------- components

# FACTS.md section 4 (setup A-F, components list p. 2), section 5 (Vincent), 1.3 (scenarios), rulebook p. 5-6.
FACTS_COUNTS = {
    "canvas_mat": (1, 2),
    "scoring_cards": (12, 2),
    "scoring_cards_in_play": (4, 2),
    "ribbon_colours": (5, 2),
    "ribbons_per_colour": (20, 2),
    "art_cards": (60, 2),
    "deck_box": (1, 2),
    "background_cards": (20, 2),
    "inspiration_tokens": (20, 2),
    "background_cards_per_player": (3, 2),
    "inspiration_tokens_per_player": (4, 2),
    "mat_art_card_spaces": (5, 2),
    "mat_scoring_spaces": (4, 2),
    "swatches": (5, 1),
    "cards_per_painting": (3, 1),
    "hand_limit": (5, 3),
    "paintings_per_player": (3, 5),
    "min_players": (1, 1),
    "max_players": (5, 1),
    "solo_levels": (4, 5),
    "scenarios": (9, 6),
    "achievements": (10, 6),
}


def test_component_counts_match_the_rulebook():
    counts = canvas.component_counts("base")
    assert {slug: (entry.count, entry.page) for slug, entry in counts.items()} == FACTS_COUNTS
    assert all(entry.name_en and entry.name_fr for entry in counts.values())
    assert counts["inspiration_tokens_per_player"].per == "player"


def test_component_counts_follow_the_variant():
    vincent = canvas.component_counts("vincent")
    assert (vincent["min_players"].count, vincent["max_players"].count) == (1, 2)  # p. 5 "for 1-2 players"
    assert (vincent["vincent_tokens"].count, vincent["vincent_tokens"].page) == (RULEBOOK_VINCENT_START, 5)
    puzzle = canvas.component_counts("solo-puzzle")
    assert puzzle["token_supply"].count == 4 and puzzle["max_players"].count == 1  # p. 5
    assert "vincent_tokens" not in canvas.component_counts("base")
    with pytest.raises(ValueError, match="unknown ruleset"):
        canvas.component_counts("chess")


# ------------------------------------------------------------------------------------------- take cost


def _simulated_take(position, tokens_on_cards, hand_tokens=10):
    """Take card N by hand, as Abby does on p. 3: put one token on each card before it, then pick it up."""
    row = list(tokens_on_cards) + [0] * (position - len(tokens_on_cards))
    hand = hand_tokens
    for index in range(position - 1):
        row[index] += 1
        hand -= 1
    return hand_tokens - hand, row[position - 1]


@pytest.mark.parametrize("position", range(1, 6))
@pytest.mark.parametrize("tokens_on_cards", [(), (1, 1, 2, 0, 0), (0, 3, 0, 1, 5)])
def test_take_cost_matches_placing_tokens_one_by_one(position, tokens_on_cards):
    assert canvas.take_cost(position, tokens_on_cards) == _simulated_take(position, tokens_on_cards)
    # The game charges the same when the card is actually taken.
    state = canvas.custom_game(ROW, hands=[(), ()], row_tokens=tokens_on_cards)
    after = canvas.apply_action(state, TakeCard(0, position))
    cost, gain = canvas.take_cost(position, tokens_on_cards)
    assert after.players[0].tokens == state.players[0].tokens - cost + gain


def test_score_bound_silver_matches_an_exhaustive_search():
    # Every swatch holds nothing, one bonus icon alone, or a pair of Elements (a pair shows every Element a
    # single icon would, so singles never give more): try every painting of 5 such swatches.
    elements = ("hue", "shape", "texture", "tone")
    options = [()] + [("bonus", name) for name in elements] + list(itertools.combinations(elements, 2))
    best = 0
    for swatches in itertools.product(options, repeat=5):
        bonuses = [swatch[1] for swatch in swatches if swatch and swatch[0] == "bonus"]
        silver = sum(sum(1 for swatch in swatches if name in swatch and swatch[0] != "bonus") for name in bonuses)
        best = max(best, silver)
    assert canvas.max_silver_per_painting() == best == 6


@given(
    position=st.integers(1, 5),
    tokens_on_cards=st.lists(st.integers(0, 6), max_size=5),
    hand_tokens=st.integers(0, 8),
)
@settings(max_examples=150, deadline=None)
def test_property_take_cost_and_game_match_the_token_by_token_simulation(position, tokens_on_cards, hand_tokens):
    cost, gain = _simulated_take(position, tokens_on_cards, hand_tokens=10)
    assert canvas.take_cost(position, tokens_on_cards) == (cost, gain)
    state = canvas.custom_game(ROW, hands=[(), ()], tokens=[hand_tokens, 4], row_tokens=tokens_on_cards)
    action = TakeCard(0, position)
    if hand_tokens < cost:
        assert canvas.check_action(state, action) == "action/not_enough_tokens"
        return
    after = canvas.apply_action(state, action)
    assert after.players[0].tokens == hand_tokens - cost + gain
    # Each skipped card carries one more token, as the simulation placed them (then the row slides by one).
    expected = [count + 1 for count in (list(tokens_on_cards) + [0] * 5)[: position - 1]]
    assert list(after.row_tokens[: position - 1]) == expected


@pytest.mark.parametrize(
    "entry",
    [
        {"slug": "x", "en": "X", "fr": "X", "page": 2},  # no source of the count
        {"slug": "x", "en": "X", "fr": "X", "page": 2, "count": 1, "setting": "row_size"},  # two sources
        {"slug": "x", "en": "X", "fr": "X", "page": 2, "setting": "no_such_setting"},
        {"slug": "x", "en": "X", "fr": "X", "page": 2, "list": "no_such_list"},
        {"slug": "x", "en": "X", "fr": "X", "page": 2, "count": 1, "pages_by_ruleset": {"chess": 1}},
    ],
)
def test_bad_component_data_is_refused(monkeypatch, entry):
    from rulesbot.engine.canvas import data

    monkeypatch.setattr(data, "_COMPONENTS_RAW", {**data._COMPONENTS_RAW, "x": entry})
    with pytest.raises(data.DataError, match="component 'x'"):
        data._check_components()
