"""Simple bots that play whole games: `random_bot` (any legal action) and `greedy_bot` (best immediate points).

A bot is a function (state, rng) -> action. `play_game` runs bots until the game ends and returns the final
state and the actions taken, so a seed plus that list replays the game exactly.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from .data import CARDS_PER_PAINTING, SILVER_POINTS, card, scoring_card
from .game import (
    Action,
    CompletePainting,
    GameState,
    TakeCard,
    apply_action,
    legal_actions,
    max_actions,
    resolve_chance,
    skip_cost,
)
from .scoring import _SLUG_INDEX as SLUG_INDEX
from .scoring import ribbon_counts

Bot = Callable[[GameState, random.Random], Action]

# Paint before the hand is full once a painting is worth this many points to the player.
GREEDY_PAINT_THRESHOLD = 10


def random_bot(state: GameState, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(legal_actions(state))


def greedy_bot(state: GameState, rng: random.Random) -> Action:
    """Paint the best arrangement when the hand is full or it is worth enough; otherwise take the best card."""
    actions = legal_actions(state)
    player = state.players[state.current]
    paints = [action for action in actions if isinstance(action, CompletePainting)]
    takes = [action for action in actions if isinstance(action, TakeCard)]
    best_paint, best_value = None, -1
    for action in paints:
        value = marginal_points(state, action.cards)
        if value > best_value:
            best_paint, best_value = action, value
    if best_paint is not None and (not takes or best_value >= GREEDY_PAINT_THRESHOLD):
        return best_paint
    scored = []
    for action in takes:
        candidate = state.row[action.position - 1]
        hand = (*player.hand, candidate)
        value = _best_value(state, hand) if len(hand) >= CARDS_PER_PAINTING else _icon_count(candidate)
        cost = skip_cost(state.rules, state.row, action.position) - state.row_tokens[action.position - 1]
        scored.append((value - cost, -action.position, rng.random(), action))
    return max(scored)[3]


def marginal_points(state: GameState, cards: Sequence[int]) -> int:
    """Points this painting adds to the current player's score, given the ribbons already held."""
    player = state.players[state.current]
    masks = tuple(
        top or middle or bottom
        for bottom, middle, top in zip(*(card(card_id).masks for card_id in cards), strict=True)
    )
    counts = ribbon_counts(masks)
    gained = SILVER_POINTS * counts[-1]
    for slug, held in zip(state.scoring, player.ribbons, strict=True):
        entry = scoring_card(slug)
        after = min(entry.max_ribbons, held + counts[SLUG_INDEX[slug]])
        gained += (entry.points[after - 1] if after else 0) - (entry.points[held - 1] if held else 0)
    return gained


def play_game(state: GameState, bots: Sequence[Bot], seed: int = 0) -> tuple[GameState, tuple[Action, ...]]:
    """Play to the end with one bot per player; returns the final state and the player actions taken.

    Chance nodes (Vincent's toss) are resolved with the state's seed, so `replay(state, actions)` reproduces it.
    """
    rng = random.Random(f"canvas-bots:{seed}")
    actions: list[Action] = []
    state = resolve_chance(state)
    limit = max_actions(len(state.players), state.ruleset)
    while not state.game_over:
        if len(actions) > limit:
            raise RuntimeError(f"game did not end within {limit} actions")
        action = bots[state.current % len(bots)](state, rng)
        state = resolve_chance(apply_action(state, action))
        actions.append(action)
    return state, tuple(actions)


def _best_value(state: GameState, hand: Sequence[int]) -> int:
    return max(marginal_points(state, triple) for triple in itertools.permutations(hand, CARDS_PER_PAINTING))


def _icon_count(card_id: int) -> int:
    return sum(mask.bit_count() for mask in card(card_id).masks)
