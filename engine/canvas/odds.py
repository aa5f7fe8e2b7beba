"""Odds of Vincent's turn (rulebook p. 5, ruling 8.6), read off the game's own chance node.

"What are the odds Vincent takes card N?" is answered by building the chance node for that row and token
count and applying each outcome of `chance_outcomes` with `apply_chance`: which card he discards and the tokens
he spends and gains come from the game itself, so there is no second formula to keep in step with the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .data import ART_CARDS, Ruleset, ruleset
from .game import GameState, apply_chance, chance_outcomes, custom_game


@dataclass(frozen=True)
class VincentTokenOdds:
    """Expected tokens of one Vincent turn (exact): spent on skipped cards, gained from his card, held after."""

    spent: Fraction
    gained: Fraction
    tokens_after: Fraction
    after_distribution: tuple[tuple[int, Fraction], ...]


def vincent_take_odds(
    row_tokens: Sequence[int] | None = None,
    vincent_tokens: int | None = None,
    ruleset: str | Ruleset = "vincent",
) -> tuple[tuple[int, Fraction], ...]:
    """(row position, exact probability Vincent takes that card) for every card in the row; sums to 1.

    Position 1 is the free card, farthest from the deck (p. 3). `row_tokens` lists the tokens on each card of
    the row, position 1 first; its length is the number of cards in the row (default: a full row, no tokens).
    `vincent_tokens` defaults to his starting tokens in the ruleset. Raises ValueError on bad input.
    """
    node, outcomes = _node(row_tokens, vincent_tokens, ruleset)
    odds = dict.fromkeys(range(1, _cards(node) + 1), Fraction(0))
    for outcome, probability in outcomes:
        odds[_taken_position(node, apply_chance(node, outcome))] += probability
    return tuple(sorted(odds.items()))


def vincent_token_odds(
    row_tokens: Sequence[int] | None = None,
    vincent_tokens: int | None = None,
    ruleset: str | Ruleset = "vincent",
) -> VincentTokenOdds:
    """Exact expected tokens Vincent spends, gains and holds after one turn, and the law of his tokens after.

    Same arguments as `vincent_take_odds`.
    """
    node, outcomes = _node(row_tokens, vincent_tokens, ruleset)
    spent = gained = Fraction(0)
    after_law: dict[int, Fraction] = {}
    for outcome, probability in outcomes:
        after = apply_chance(node, outcome)
        position = _taken_position(node, after)
        card_gain = node.row_tokens[position - 1]
        gained += probability * card_gain
        spent += probability * (node.vincent_tokens + card_gain - after.vincent_tokens)
        after_law[after.vincent_tokens] = after_law.get(after.vincent_tokens, Fraction(0)) + probability
    expected_after = sum((count * probability for count, probability in after_law.items()), Fraction(0))
    return VincentTokenOdds(
        spent=spent, gained=gained, tokens_after=expected_after, after_distribution=tuple(sorted(after_law.items()))
    )


def _node(
    row_tokens: Sequence[int] | None, vincent_tokens: int | None, ruleset_name: str | Ruleset
) -> tuple[GameState, tuple[tuple[int, Fraction], ...]]:
    rules = ruleset(ruleset_name)
    if not rules.vincent:
        raise ValueError(f"ruleset {rules.name!r} has no Vincent: expected a ruleset where Vincent plays")
    tokens_on_cards = (0,) * rules.row_size if row_tokens is None else tuple(row_tokens)
    if not 1 <= len(tokens_on_cards) <= rules.row_size:
        raise ValueError(
            f"row_tokens: expected 1-{rules.row_size} cards in the row, got {len(tokens_on_cards)}"
        )
    for count in tokens_on_cards:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"row_tokens: expected token counts >= 0, got {count!r}")
    held = rules.vincent_tokens if vincent_tokens is None else vincent_tokens
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise ValueError(f"vincent_tokens: expected a token count >= 0, got {held!r}")
    # Which cards fill the row does not matter to Vincent: any distinct cards will do.
    row = [art_card.id for art_card in ART_CARDS[: len(tokens_on_cards)]]
    state = custom_game(
        row, hands=[()], row_tokens=tokens_on_cards, ruleset_name=rules.name, vincent_tokens=held
    )
    node = replace(state, vincent_to_play=True)
    return node, chance_outcomes(node)


def _cards(state: GameState) -> int:
    return sum(1 for card_id in state.row if card_id is not None)


def _taken_position(before: GameState, after: GameState) -> int:
    # The card Vincent took is the one discard his turn added.
    return before.row.index(after.discards[-1]) + 1


__all__ = ["VincentTokenOdds", "vincent_take_odds", "vincent_token_odds"]
