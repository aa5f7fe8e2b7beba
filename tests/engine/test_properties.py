"""Property tests over random paintings and random games (hypothesis): invariants the rules guarantee."""

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rulesbot.engine import canvas
from rulesbot.engine.canvas import CompletePainting, Painting, TakeCard
from rulesbot.engine.canvas.data import ELEMENTS, ICON_BIT, SWATCH_COUNT
from rulesbot.engine.canvas.scoring import ribbon_counts

GAME_SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

triples = st.lists(st.integers(1, 60), min_size=3, max_size=3, unique=True)
swatch_masks = st.lists(st.integers(0, 255), min_size=5, max_size=5).map(tuple)


@given(triples)
@settings(max_examples=200, deadline=None)
def test_layering_shows_the_top_stripe(ids):
    painting = Painting.from_cards(ids)
    for index in range(SWATCH_COUNT):
        owners = [card_id for card_id in ids if canvas.card(card_id).stripes[index]]
        if owners:
            assert painting.shown_by[index] == owners[-1]
            assert painting.visible[index] == canvas.card(owners[-1]).stripes[index]
        else:
            assert painting.visible[index] == () and painting.shown_by[index] is None


@given(triples)
@settings(max_examples=200, deadline=None)
def test_cards_and_swatches_score_the_same(ids):
    from_cards = Painting.from_cards(ids)
    from_swatches = Painting.from_swatches(from_cards.visible)
    assert canvas.score_painting(from_cards) == canvas.score_painting(from_swatches)


@given(triples)
@settings(max_examples=200, deadline=None)
def test_painting_scores_in_bounds(ids):
    score = canvas.score_painting(Painting.from_cards(ids))
    for slug, count in score.ribbons.items():
        assert 0 <= count <= 5, slug
    assert 0 <= score.bonus <= 6
    assert score.points() <= canvas.score_bound(canvas.SCORING_SLUGS, paintings=1)


def _brute_force_pairs(first_positions, second_positions, compatible):
    """Largest set of disjoint compatible pairs, by trying every subset of pairs."""
    pairs = [(a, b) for a in first_positions for b in second_positions if compatible(a, b)]
    for size in range(len(pairs), 0, -1):
        for chosen in itertools.combinations(pairs, size):
            if len({a for a, _ in chosen}) == size and len({b for _, b in chosen}) == size:
                return size
    return 0


@given(swatch_masks)
@settings(max_examples=300, deadline=None)
def test_pair_cards_are_maximum_matchings(masks):  # ruling 8.1
    counts = dict(zip(canvas.SCORING_SLUGS, ribbon_counts(masks), strict=False))

    def where(element):
        return [index for index, mask in enumerate(masks) if mask & ICON_BIT[element]]

    assert counts["space"] == _brute_force_pairs(where("hue"), where("shape"), lambda a, b: abs(a - b) >= 2)
    assert counts["proximity"] == _brute_force_pairs(
        where("texture"), where("tone"), lambda a, b: abs(a - b) == 1
    )


@given(swatch_masks)
@settings(max_examples=300, deadline=None)
def test_set_cards_follow_counts(masks):
    counts = dict(zip(canvas.SCORING_SLUGS, ribbon_counts(masks), strict=False))
    element = {name: sum(1 for mask in masks if mask & ICON_BIT[name]) for name in ELEMENTS}
    assert counts["repetition"] == element["shape"] // 2
    assert counts["style"] == element["texture"] // 3
    assert counts["variety"] == min(element.values())
    assert counts["consistency"] == int(sum(element.values()) == 6)
    # Proportion: each set uses 5 icons, so never more than total // 5.
    assert counts["proportion"] <= sum(element.values()) // 5


rulesets = st.sampled_from(
    [("base", 2), ("base", 3), ("base", 4), ("base", 5), ("vincent", 1), ("vincent", 2), ("solo-puzzle", 1)]
)
scorings = st.sampled_from([None, "first-time-playing", "spatial", "bonus", "chill-mode", "family-game"])


@given(rulesets, scorings, st.integers(0, 10**6))
@GAME_SETTINGS
def test_random_games_keep_every_invariant(game, scoring, seed):
    ruleset_name, players = game
    state = canvas.new_game(players, ruleset_name, scoring=scoring, seed=seed)
    rng = random.Random(seed)
    tokens = canvas.token_total(state)
    bound = canvas.score_bound(state.scoring)
    limit = canvas.max_actions(players, ruleset_name)
    actions = []
    while not state.game_over:
        if canvas.is_chance_node(state):
            assert canvas.legal_actions(state) == ()
            assert canvas.check_action(state, TakeCard(state.current, 1)) == "action/vincent_to_play"
            assert sum(probability for _, probability in canvas.chance_outcomes(state)) == 1
            state = canvas.apply_chance(state, canvas.sample_chance_outcome(state))  # seeded: replay below
            assert canvas.GameState.from_dict(state.to_dict()) == state
            assert canvas.token_total(state) == tokens
            continue
        legal = canvas.legal_actions(state)
        assert legal, "an unfinished game always offers a player action or a chance outcome"
        assert list(legal) == sorted(legal, key=canvas.game.action_sort_key)
        assert all(canvas.check_action(state, action) is None for action in legal)
        illegal = _some_illegal_action(state, rng)
        if illegal is not None:
            assert canvas.check_action(state, illegal) in canvas.ILLEGAL_ACTIONS
        action = rng.choice(legal)
        state = canvas.apply_action(state, action)
        actions.append(action)
        assert canvas.GameState.from_dict(state.to_dict()) == state
        assert canvas.action_from_dict(action.to_dict()) == action
        assert sorted(canvas.card_locations(state)) == list(range(1, 61))
        assert canvas.token_total(state) == tokens
        assert all(0 <= canvas.results(state).players[index].total <= bound for index in range(players))
        assert len(actions) <= limit
    assert all(len(player.paintings) == 3 for player in state.players)
    assert canvas.legal_actions(state) == ()
    replayed = canvas.replay(
        canvas.new_game(players, ruleset_name, scoring=scoring, seed=seed), [a.to_dict() for a in actions]
    )
    assert replayed == state


def _some_illegal_action(state, rng):
    player = state.players[state.current]
    candidates = [
        TakeCard(state.current, 7),
        TakeCard((state.current + 1) % len(state.players), 1) if len(state.players) > 1 else None,
        CompletePainting(state.current, (1, 1, 2)),
        CompletePainting(state.current, tuple(player.hand[:2])),
        TakeCard(state.current, 1) if len(player.hand) >= 5 else None,
    ]
    candidates = [candidate for candidate in candidates if candidate is not None]
    for candidate in rng.sample(candidates, len(candidates)):
        if canvas.check_action(state, candidate) is not None:
            return candidate
    return None


@given(st.integers(0, 10**6), st.sampled_from([2, 4]))
@settings(max_examples=10, deadline=None)
def test_greedy_bots_finish_games(seed, players):
    state = canvas.new_game(players, scoring="first-time-playing", seed=seed)
    final, actions = canvas.play_game(state, [canvas.greedy_bot] * players, seed=seed)
    assert final.game_over and len(actions) <= canvas.max_actions(players)
    result = canvas.results(final)
    assert result.winners and all(0 <= player.total for player in result.players)
