"""The game of Canvas as pure functions over a frozen state (rulebook p. 2-5; FACTS.md sections 4, 5 and 8).

Shape of the module (the same for every game in engine/):
- the facts are data: `RULESETS` (base game, Painting with Vincent, Solo Puzzle as overrides of the base, from
  data/rules.json) and the limits derived from them (`max_actions`, `score_bound`);
- `new_game` / `custom_game` build a state; `legal_actions`, `check_action`, `apply_action` play it;
- chance is explicit, as chance nodes (OpenSpiel style): after the last player in turn order acts in the
  Vincent variant, the state is a chance node (`is_chance_node`); `chance_outcomes(state)` lists the outcomes
  of Vincent's toss (face-up counts) with exact probabilities and `apply_chance(state, outcome)` applies one.
  Seeded play (`sample_chance_outcome`, `resolve_chance`, `replay`, the bots) draws from those outcomes with
  an RNG derived from (seed, step, purpose), so a seed plus the list of player actions replays exactly;
- `results` and `winners` read a finished game;
- state and actions round-trip through `to_dict` / `from_dict`, which validate ("expected X, got Y").

Rulings (FACTS.md section 8): player 1 (index 0) starts; the free card is row position 1 (farthest from the
deck); the row is compacted toward position 1 and refilled from the deck, an empty deck leaves gaps (8.9);
Vincent plays after the last player in turn order, also after a painting (8.6); in Solo Puzzle "taking the
leftmost card" means taking position 1 without skipping.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .data import (
    CARD_COUNT,
    CARDS_PER_PAINTING,
    FIRST_GAME_CARDS,
    ILLEGAL_ACTIONS,
    MAT_SLOTS,
    RULESETS,
    SCORING_CARDS,
    SILVER_POINTS,
    SWATCH_COUNT,
    Ruleset,
    card,
    ruleset,
    scenario,
    scoring_card,
    solo_level,
)
from .painting import Painting
from .scoring import ribbons_taken, score_painting

# ------------------------------------------------------------------------------------------- errors


class IllegalAction(ValueError):
    """An action the rules refuse; `code` is a stable reason such as "action/hand_full", `page` the rulebook page."""

    def __init__(self, code: str, detail: str = "") -> None:
        entry = ILLEGAL_ACTIONS[code]
        self.code = code
        self.page: int = entry["page"]
        self.message_fr: str = entry["fr"]
        message = entry["en"] + (f" ({detail})" if detail else "")
        super().__init__(f"{code}: {message} [rulebook p. {self.page}]")


# ------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True, order=True)
class TakeCard:
    """Take the Art Card at row position 1-5 (position 1 is free, the farthest from the deck)."""

    player: int
    position: int

    def to_dict(self) -> dict:
        """JSON form."""
        return {"type": "take", "player": self.player, "position": self.position}


@dataclass(frozen=True, order=True)
class CompletePainting:
    """Complete a painting with 3 cards from hand, listed bottom to top."""

    player: int
    cards: tuple[int, ...]

    def to_dict(self) -> dict:
        """JSON form."""
        return {"type": "paint", "player": self.player, "cards": list(self.cards)}


Action = TakeCard | CompletePainting


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Build an action from its JSON form, validating it."""
    _expect_type(data, dict, "action")
    kind = data.get("type")
    if kind == "take":
        return TakeCard(
            player=_expect_int(data.get("player"), "action.player"),
            position=_expect_int(data.get("position"), "action.position"),
        )
    if kind == "paint":
        cards = _expect_type(data.get("cards"), list, "action.cards")
        return CompletePainting(
            player=_expect_int(data.get("player"), "action.player"),
            cards=tuple(_expect_int(value, "action.cards[]") for value in cards),
        )
    raise ValueError(f"action.type: expected 'take' or 'paint', got {kind!r}")


def action_sort_key(action: Action) -> tuple:
    """Takes first (by position), then paintings (by cards): the order of `legal_actions`."""
    if isinstance(action, TakeCard):
        return (0, action.player, action.position, ())
    return (1, action.player, 0, action.cards)


# ------------------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class PaintingRecord:
    """A completed painting: its cards (bottom to top), ribbons it met per mat slot, ribbons taken, silver."""

    cards: tuple[int, ...]
    ribbons: tuple[int, ...]
    taken: tuple[int, ...]
    silver: int

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "cards": list(self.cards),
            "ribbons": list(self.ribbons),
            "taken": list(self.taken),
            "silver": self.silver,
        }


@dataclass(frozen=True)
class PlayerState:
    """One painter: hand, Inspiration Tokens, paintings, ribbons held per mat slot and silver ribbons."""

    hand: tuple[int, ...]
    tokens: int
    paintings: tuple[PaintingRecord, ...] = ()
    ribbons: tuple[int, ...] = ()
    silver: int = 0

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "hand": list(self.hand),
            "tokens": self.tokens,
            "paintings": [record.to_dict() for record in self.paintings],
            "ribbons": list(self.ribbons),
            "silver": self.silver,
        }


@dataclass(frozen=True)
class GameState:
    """Everything about a game in progress. Row position 1 is index 0; None marks an empty slot."""

    ruleset: str
    seed: int
    scoring: tuple[str, ...]
    players: tuple[PlayerState, ...]
    current: int
    deck: tuple[int, ...]
    row: tuple[int | None, ...]
    row_tokens: tuple[int, ...]
    discards: tuple[int, ...] = ()
    supply: int = 0
    vincent_tokens: int = 0
    step: int = 0
    scenario: str | None = None
    solo_level: str | None = None
    events: tuple[str, ...] = ()
    vincent_to_play: bool = False

    @property
    def rules(self) -> Ruleset:
        """The ruleset (base game or variant) this game follows."""
        return RULESETS[self.ruleset]

    @property
    def game_over(self) -> bool:
        """True once every player has completed all paintings (p. 5)."""
        return all(len(player.paintings) >= self.rules.paintings for player in self.players)

    def backgrounds_left(self, player: int) -> int:
        """Background Cards this player still has (one is used per painting)."""
        return self.rules.backgrounds - len(self.players[player].paintings)

    def to_dict(self) -> dict:
        """JSON form (stamped with the rules version)."""
        from . import RULES_VERSION

        return {
            "rules_version": RULES_VERSION,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "scoring": list(self.scoring),
            "players": [player.to_dict() for player in self.players],
            "current": self.current,
            "deck": list(self.deck),
            "row": list(self.row),
            "row_tokens": list(self.row_tokens),
            "discards": list(self.discards),
            "supply": self.supply,
            "vincent_tokens": self.vincent_tokens,
            "step": self.step,
            "scenario": self.scenario,
            "solo_level": self.solo_level,
            "events": list(self.events),
            "vincent_to_play": self.vincent_to_play,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Build a state from its JSON form, validating types and invariants (card conservation)."""
        return state_from_dict(data)


# ------------------------------------------------------------------------------------------- setup


def new_game(
    players: int = 2,
    ruleset_name: str = "base",
    scoring: str | Sequence[str] | None = None,
    seed: int = 0,
    level: str | None = None,
) -> GameState:
    """A shuffled new game (p. 2): 4 tokens and 3 backgrounds each, a row of 5, the Scoring Cards on the mat.

    `scoring` is a scenario name (e.g. "first-time-playing", "chill-mode" draws 3 at random from the seed),
    a list of Scoring Card names (mat order red, green, blue, violet), or None for the first-game cards.
    """
    rules = ruleset(ruleset_name)
    _expect_int(seed, "seed")
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"{rules.name}: expected {rules.min_players}-{rules.max_players} players, got {players}"
        )
    slugs, scenario_slug = _choose_scoring(scoring, seed)
    level_slug = solo_level(level).slug if level is not None else None
    deck = list(range(1, CARD_COUNT + 1))
    _rng(seed, 0, "deck").shuffle(deck)
    row = tuple(deck[: rules.row_size])
    return GameState(
        ruleset=rules.name,
        seed=seed,
        scoring=slugs,
        players=tuple(
            PlayerState(hand=(), tokens=rules.starting_tokens, ribbons=(0,) * len(slugs))
            for _ in range(players)
        ),
        current=0,
        deck=tuple(deck[rules.row_size :]),
        row=row,
        row_tokens=(0,) * rules.row_size,
        supply=rules.token_supply,
        vincent_tokens=rules.vincent_tokens if rules.vincent else 0,
        scenario=scenario_slug,
        solo_level=level_slug,
    )


def custom_game(
    row: Sequence[str | int],
    hands: Sequence[Sequence[str | int]] = ((),),
    tokens: Sequence[int] | None = None,
    row_tokens: Sequence[int] = (),
    deck: Sequence[str | int] = (),
    ruleset_name: str = "base",
    scoring: str | Sequence[str] | None = None,
    current: int = 0,
    seed: int = 0,
    vincent_tokens: int | None = None,
    supply: int | None = None,
    ribbons: Sequence[Sequence[int]] | None = None,
) -> GameState:
    """A game set up by hand (rulebook examples, tests): cards by title or id; unlisted cards follow in the deck."""
    rules = ruleset(ruleset_name)
    slugs, scenario_slug = _choose_scoring(scoring, seed)
    row_ids = [card(name).id for name in row]
    row_ids += [None] * (rules.row_size - len(row_ids))
    hand_ids = [tuple(card(name).id for name in hand) for hand in hands]
    top = [card(name).id for name in deck]
    used = (
        set(top)
        | {card_id for card_id in row_ids if card_id}
        | {card_id for hand in hand_ids for card_id in hand}
    )
    rest = [card_id for card_id in range(1, CARD_COUNT + 1) if card_id not in used]
    tokens = tuple(tokens) if tokens is not None else (rules.starting_tokens,) * len(hand_ids)
    state = GameState(
        ruleset=rules.name,
        seed=seed,
        scoring=slugs,
        players=tuple(
            PlayerState(hand=hand, tokens=count, ribbons=tuple(held))
            for hand, count, held in zip(
                hand_ids,
                tokens,
                ribbons if ribbons is not None else [(0,) * len(slugs)] * len(hand_ids),
                strict=True,
            )
        ),
        current=current,
        deck=tuple(top + rest),
        row=tuple(row_ids),
        row_tokens=tuple(row_tokens) + (0,) * (rules.row_size - len(row_tokens)),
        supply=rules.token_supply if supply is None else supply,
        vincent_tokens=(rules.vincent_tokens if rules.vincent else 0)
        if vincent_tokens is None
        else vincent_tokens,
        scenario=scenario_slug,
    )
    return state_from_dict(state.to_dict())  # validates card conservation and the rest


# ------------------------------------------------------------------------------------------- rules


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to move, sorted (takes by position, then paintings by cards).

    Empty when the game is over and at a chance node (Vincent to play: see `chance_outcomes`).
    """
    if state.game_over or state.vincent_to_play:
        return ()
    rules = state.rules
    player = state.players[state.current]
    actions: list[Action] = []
    if len(player.hand) < rules.hand_limit:
        for index, card_id in enumerate(state.row):
            if card_id is not None and skip_cost(rules, state.row, index + 1) <= player.tokens:
                actions.append(TakeCard(state.current, index + 1))
    if len(player.hand) >= CARDS_PER_PAINTING:
        actions.extend(
            CompletePainting(state.current, cards)
            for cards in itertools.permutations(sorted(player.hand), CARDS_PER_PAINTING)
        )
    return tuple(sorted(actions, key=action_sort_key))


def check_action(state: GameState, action: Action) -> str | None:
    """The stable reason code the rules refuse this action for (e.g. "action/hand_full"), or None if legal."""
    try:
        _check(state, action)
    except IllegalAction as error:
        return error.code
    return None


def apply_action(state: GameState, action: Action) -> GameState:
    """The state after `action`; raises IllegalAction if refused.

    If Vincent plays next, the result is a chance node: resolve it with `apply_chance` (or `resolve_chance`).
    """
    _check(state, action)
    if isinstance(action, TakeCard):
        after, events = _apply_take(state, action)
    else:
        after, events = _apply_paint(state, action)
    after = replace(after, step=state.step + 1)
    return _advance_turn(after, events)


def replay(initial: GameState, actions: Iterable[Action | Mapping[str, Any]]) -> GameState:
    """Apply a list of player actions (objects or JSON dicts); chance nodes are resolved with the seed."""
    state = resolve_chance(initial)
    for action in actions:
        state = apply_action(state, action if not isinstance(action, Mapping) else action_from_dict(action))
        state = resolve_chance(state)
    return state


# ------------------------------------------------------------------------------------------- chance


def is_chance_node(state: GameState) -> bool:
    """True when chance acts next: Vincent is to play and his toss decides which card he takes (p. 5)."""
    return state.vincent_to_play


def chance_outcomes(state: GameState) -> tuple[tuple[int, Fraction], ...]:
    """Outcomes at a chance node: (face-up count, exact probability), sorted by count; probabilities sum to 1.

    Each of Vincent's tokens lands face-up with probability `vincent_face_up_probability` (1/2) and at most
    `vincent_max_face_up` (4) are spent (p. 5, ruling 8.6), so the counts above that cap are merged into it.
    Probabilities of 0 are left out. Raises ValueError elsewhere.
    """
    if not state.vincent_to_play:
        raise ValueError("chance_outcomes: expected a chance node (Vincent to play), got a player's turn")
    rules = state.rules
    return vincent_toss_outcomes(
        state.vincent_tokens, rules.vincent_max_face_up, rules.vincent_face_up_probability
    )


def apply_chance(state: GameState, outcome: int) -> GameState:
    """The state after chance picks `outcome` (Vincent's face-up count) at a chance node; ValueError if invalid."""
    outcomes = dict(chance_outcomes(state))
    if isinstance(outcome, bool) or outcome not in outcomes:
        raise ValueError(f"apply_chance: expected an outcome from {sorted(outcomes)}, got {outcome!r}")
    after = vincent_turn(replace(state, events=()), outcome)
    return replace(after, vincent_to_play=False)


def sample_chance_outcome(state: GameState) -> int:
    """The outcome seeded play draws at this chance node, exactly from `chance_outcomes` (seed, step)."""
    outcomes = chance_outcomes(state)
    denominator = math.lcm(*(probability.denominator for _, probability in outcomes))
    # One uniform integer below the common denominator picks an outcome with its exact probability.
    draw = _rng(state.seed, state.step, "vincent").randrange(denominator)
    for outcome, probability in outcomes:
        draw -= probability.numerator * (denominator // probability.denominator)
        if draw < 0:
            return outcome
    raise AssertionError("chance outcomes do not sum to 1")  # unreachable: validated by construction


def resolve_chance(state: GameState) -> GameState:
    """At a chance node, apply the seeded outcome (`sample_chance_outcome`); otherwise return the state as is."""
    while is_chance_node(state):
        state = apply_chance(state, sample_chance_outcome(state))
    return state


def vincent_toss_outcomes(
    tokens: int, max_face_up: int | None = None, face_up_probability: Fraction | None = None
) -> tuple[tuple[int, Fraction], ...]:
    """Vincent's toss of `tokens` tokens: (face-up count, capped at max_face_up; exact probability).

    `max_face_up` and `face_up_probability` (of one token) default to the Vincent variant's settings in
    rules.json (`vincent_max_face_up`, `vincent_face_up_probability`: 4 and 1/2, p. 5 and ruling 8.6).
    """
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0:
        raise ValueError(f"expected a token count >= 0, got {tokens!r}")
    rules = RULESETS["vincent"]
    cap = rules.vincent_max_face_up if max_face_up is None else max_face_up
    up = rules.vincent_face_up_probability if face_up_probability is None else Fraction(face_up_probability)
    outcomes: dict[int, Fraction] = {}
    for face_up in range(tokens + 1):
        # Independent tokens: the binomial law of the number face-up.
        probability = math.comb(tokens, face_up) * up**face_up * (1 - up) ** (tokens - face_up)
        key = min(face_up, cap)
        outcomes[key] = outcomes.get(key, Fraction(0)) + probability
    return tuple(sorted((outcome, probability) for outcome, probability in outcomes.items() if probability))


def vincent_turn(state: GameState, face_up: int) -> GameState:
    """Vincent's turn for a given toss outcome (p. 5, ruling 8.6): skip k cards paying for each, discard the next.

    Lower level than `apply_chance` (which also clears the chance node); works on any state, for examples.
    """
    rules = state.rules
    cards_in_row = [index for index, card_id in enumerate(state.row) if card_id is not None]
    if not cards_in_row:
        return replace(state, events=(*state.events, "Vincent: the row is empty"))
    # He can skip no more cards than the row has before its last one, nor pay more than he holds.
    affordable = state.vincent_tokens // rules.skip_cost_per_card if rules.skip_cost_per_card else len(cards_in_row)
    skipped = min(face_up, rules.vincent_max_face_up, affordable, len(cards_in_row) - 1)
    position = cards_in_row[skipped] + 1
    paid = skip_cost(rules, state.row, position)
    taken = _take_from_row(state, position, paid)
    row, row_tokens, deck = _compact_and_refill(state, taken.row, taken.row_tokens)
    name = card(taken.card).title
    event = (
        f"Vincent: {face_up} token(s) face-up, skips {skipped} card(s), discards {name} from the game"
        f" and gains {taken.gained} token(s)"
    )
    return replace(
        state,
        row=row,
        row_tokens=row_tokens,
        deck=deck,
        discards=(*state.discards, *taken.discarded, taken.card),
        supply=state.supply + taken.to_supply,
        vincent_tokens=state.vincent_tokens - paid + taken.gained,
        events=(*state.events, event),
    )


def token_total(state: GameState) -> int:
    """All Inspiration Tokens in play: players, row, supply and Vincent (constant over a game)."""
    return (
        sum(player.tokens for player in state.players)
        + sum(state.row_tokens)
        + state.supply
        + state.vincent_tokens
    )


def card_locations(state: GameState) -> tuple[int, ...]:
    """Every card id in deck, row, hands, paintings and discards (60 distinct ids in a valid state)."""
    ids = list(state.deck) + [card_id for card_id in state.row if card_id is not None] + list(state.discards)
    for player in state.players:
        ids += list(player.hand)
        ids += [card_id for record in player.paintings for card_id in record.cards]
    return tuple(ids)


def max_actions(players: int, ruleset_name: str = "base") -> int:
    """Upper bound on player actions in a game: each takes at most hand_limit + 3*(paintings-1) cards and paints."""
    rules = ruleset(ruleset_name)
    takes = rules.hand_limit + CARDS_PER_PAINTING * (rules.paintings - 1)
    return players * (takes + rules.paintings)


def max_silver_per_painting() -> int:
    """Most silver ribbons one painting can earn: b bonus swatches, each counting at most the other swatches.

    A bonus icon fills a swatch alone and an Element shows at most once per swatch, so b bonus icons face at
    most (swatches - b) matching Elements each: the maximum over b of b * (swatches - b).
    """
    return max(bonus * (SWATCH_COUNT - bonus) for bonus in range(SWATCH_COUNT + 1))


def score_bound(scoring: Sequence[str], paintings: int | None = None) -> int:
    """Largest final score possible: every card at its top value plus the most silver ribbons per painting.

    `paintings` defaults to the base game's paintings per player (rules.json).
    """
    count = RULESETS["base"].paintings if paintings is None else paintings
    top = sum(scoring_card(slug).points[-1] for slug in scoring)
    return top + SILVER_POINTS * max_silver_per_painting() * count


# ------------------------------------------------------------------------------------------- JSON


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    """Validate and build a GameState from JSON ("expected X, got Y" errors)."""
    _expect_type(data, dict, "state")
    rules_name = _expect_type(data.get("ruleset"), str, "ruleset")
    if rules_name not in RULESETS:
        raise ValueError(f"ruleset: expected one of {sorted(RULESETS)}, got {rules_name!r}")
    rules = RULESETS[rules_name]
    scoring = tuple(_expect_type(data.get("scoring"), list, "scoring"))
    known = {entry.slug for entry in SCORING_CARDS}
    if not 1 <= len(scoring) <= len(MAT_SLOTS) or len(set(scoring)) != len(scoring) or set(scoring) - known:
        raise ValueError(
            f"scoring: expected 1-{len(MAT_SLOTS)} distinct Scoring Card slugs, got {list(scoring)}"
        )
    players_raw = _expect_type(data.get("players"), list, "players")
    if not 1 <= len(players_raw) <= rules.max_players:
        raise ValueError(f"players: expected 1-{rules.max_players} players, got {len(players_raw)}")
    players = tuple(
        _player_from_dict(raw, index, rules, len(scoring)) for index, raw in enumerate(players_raw)
    )
    row = tuple(_expect_card_or_none(value, "row[]") for value in _expect_type(data.get("row"), list, "row"))
    row_tokens = tuple(
        _expect_count(value, "row_tokens[]")
        for value in _expect_type(data.get("row_tokens"), list, "row_tokens")
    )
    if len(row) != rules.row_size or len(row_tokens) != rules.row_size:
        raise ValueError(
            f"row: expected {rules.row_size} slots and token counts, got {len(row)} and {len(row_tokens)}"
        )
    if any(count and card_id is None for card_id, count in zip(row, row_tokens, strict=True)):
        raise ValueError(
            "row_tokens: expected tokens only on slots holding a card, got tokens on an empty slot"
        )
    current = _expect_int(data.get("current"), "current")
    if not 0 <= current < len(players):
        raise ValueError(f"current: expected a player index 0-{len(players) - 1}, got {current}")
    level = data.get("solo_level")
    state = GameState(
        ruleset=rules_name,
        seed=_expect_int(data.get("seed"), "seed"),
        scoring=scoring,
        players=players,
        current=current,
        deck=tuple(_expect_card(value, "deck[]") for value in _expect_type(data.get("deck"), list, "deck")),
        row=row,
        row_tokens=row_tokens,
        discards=tuple(
            _expect_card(value, "discards[]")
            for value in _expect_type(data.get("discards", []), list, "discards")
        ),
        supply=_expect_count(data.get("supply", 0), "supply"),
        vincent_tokens=_expect_count(data.get("vincent_tokens", 0), "vincent_tokens"),
        step=_expect_count(data.get("step", 0), "step"),
        scenario=_optional_str(data.get("scenario"), "scenario"),
        solo_level=solo_level(level).slug if level is not None else None,
        events=tuple(_expect_type(value, str, "events[]") for value in data.get("events", [])),
        vincent_to_play=_expect_type(data.get("vincent_to_play", False), bool, "vincent_to_play"),
    )
    if state.vincent_to_play and (not rules.vincent or state.game_over):
        raise ValueError(
            "vincent_to_play: expected true only in a Vincent game that is not over, got true"
        )
    locations = sorted(card_locations(state))
    if locations != list(range(1, CARD_COUNT + 1)):
        duplicates = sorted({card_id for card_id in locations if locations.count(card_id) > 1})
        raise ValueError(
            f"cards: expected each of the {CARD_COUNT} Art Cards exactly once, got {len(locations)} placements"
            + (f" (repeated: {duplicates})" if duplicates else "")
        )
    if state.scenario is not None:
        scenario(state.scenario)
    return state


# ------------------------------------------------------------------------------------------- private


@dataclass(frozen=True)
class _Taken:
    card: int
    row: tuple[int | None, ...]
    row_tokens: tuple[int, ...]
    paid: int
    gained: int
    to_supply: int
    discarded: tuple[int, ...]


def _check(state: GameState, action: Action) -> None:
    rules = state.rules
    if state.game_over:
        raise IllegalAction("action/game_over")
    if state.vincent_to_play:
        raise IllegalAction("action/vincent_to_play")
    if not isinstance(action, TakeCard | CompletePainting):
        raise TypeError(f"expected TakeCard or CompletePainting, got {type(action).__name__}")
    if not 0 <= action.player < len(state.players):
        raise IllegalAction("action/no_such_player", f"player {action.player}")
    player = state.players[action.player]
    if len(player.paintings) >= rules.paintings:
        raise IllegalAction("action/no_paintings_left")
    if action.player != state.current:
        raise IllegalAction("action/not_your_turn", f"player {state.current} is to play")
    if isinstance(action, TakeCard):
        if len(player.hand) >= rules.hand_limit:
            raise IllegalAction("action/hand_full", f"{len(player.hand)} cards in hand")
        if not 1 <= action.position <= rules.row_size or state.row[action.position - 1] is None:
            raise IllegalAction("action/no_such_position", f"position {action.position}")
        cost = skip_cost(rules, state.row, action.position)
        if cost > player.tokens:
            raise IllegalAction("action/not_enough_tokens", f"needs {cost}, has {player.tokens}")
        return
    if len(player.hand) < CARDS_PER_PAINTING:
        raise IllegalAction("action/too_few_cards", f"{len(player.hand)} in hand")
    if len(action.cards) != CARDS_PER_PAINTING:
        raise IllegalAction("action/wrong_card_count", f"got {len(action.cards)}")
    if len(set(action.cards)) != len(action.cards):
        raise IllegalAction("action/duplicate_card")
    missing = [card_id for card_id in action.cards if card_id not in player.hand]
    if missing:
        raise IllegalAction("action/card_not_in_hand", f"card(s) {missing}")


def skip_cost(rules: Ruleset, row: Sequence[int | None], position: int) -> int:
    """Tokens paid to take the card at `position`: the ruleset's cost for each card skipped (p. 3).

    Gaps in the row (only at the deck end, ruling 8.9) are not cards, so they cost nothing.
    """
    skipped = sum(1 for card_id in row[: position - 1] if card_id is not None)
    return rules.skip_cost_per_card * skipped


def _take_from_row(state: GameState, position: int, paid: int) -> _Taken:
    rules = state.rules
    row = list(state.row)
    row_tokens = list(state.row_tokens)
    discarded: list[int] = []
    to_supply = 0
    for index in range(position - 1):
        if row[index] is None:
            continue
        if rules.skip_payment == "on_card":
            row_tokens[index] += rules.skip_cost_per_card
        else:
            to_supply += rules.skip_cost_per_card
        if rules.discard_skipped:
            discarded.append(row[index])
            to_supply += row_tokens[index]  # tokens never leave play with a discarded card
            row[index], row_tokens[index] = None, 0
    taken_card = row[position - 1]
    gained = row_tokens[position - 1]
    row[position - 1], row_tokens[position - 1] = None, 0
    return _Taken(taken_card, tuple(row), tuple(row_tokens), paid, gained, to_supply, tuple(discarded))


def _compact_and_refill(
    state: GameState, row: tuple[int | None, ...], row_tokens: tuple[int, ...]
) -> tuple[tuple[int | None, ...], tuple[int, ...], tuple[int, ...]]:
    # Cards slide away from the deck (toward position 1) with their tokens; the free slots next to the deck
    # are refilled from the deck (one slot in the base game, every slot after Solo Puzzle discards).
    kept = [(card_id, count) for card_id, count in zip(row, row_tokens, strict=True) if card_id is not None]
    free_slots = len(row) - len(kept)
    drawn = state.deck[:free_slots]
    new_row = [card_id for card_id, _ in kept] + list(drawn)
    new_tokens = [count for _, count in kept] + [0] * len(drawn)
    gaps = len(row) - len(new_row)
    return tuple(new_row + [None] * gaps), tuple(new_tokens + [0] * gaps), state.deck[len(drawn) :]


def _apply_take(state: GameState, action: TakeCard) -> tuple[GameState, list[str]]:
    rules = state.rules
    player = state.players[action.player]
    cost = skip_cost(rules, state.row, action.position)
    taken = _take_from_row(state, action.position, cost)
    row, row_tokens, deck = _compact_and_refill(state, taken.row, taken.row_tokens)
    supply = state.supply + taken.to_supply
    bonus = min(rules.supply_gain_free_card, supply) if action.position == 1 else 0
    tokens = player.tokens - cost + taken.gained + bonus
    new_player = replace(player, hand=(*player.hand, taken.card), tokens=tokens)
    event = f"player {action.player} takes {card(taken.card).title} from position {action.position}"
    event += f", paying {cost} and gaining {taken.gained + bonus} token(s)"
    if taken.discarded:
        event += f"; discarded: {', '.join(card(card_id).title for card_id in taken.discarded)}"
    after = replace(
        state,
        players=_replace_at(state.players, action.player, new_player),
        row=row,
        row_tokens=row_tokens,
        deck=deck,
        discards=(*state.discards, *taken.discarded),
        supply=supply - bonus,
    )
    return after, [event]


def _apply_paint(state: GameState, action: CompletePainting) -> tuple[GameState, list[str]]:
    rules = state.rules
    player = state.players[action.player]
    painting = Painting.from_cards(action.cards)
    score = score_painting(painting, state.scoring)
    met = tuple(score.ribbons[slug] for slug in state.scoring)
    # A player never holds more ribbons of a card than it shows; the extra ones are not taken (ruling 8.2).
    taken = tuple(
        ribbons_taken(slug, count, held) for slug, count, held in zip(state.scoring, met, player.ribbons, strict=True)
    )
    record = PaintingRecord(cards=tuple(action.cards), ribbons=met, taken=taken, silver=score.bonus)
    gain = min(rules.supply_gain_painting, state.supply)
    new_player = replace(
        player,
        hand=tuple(card_id for card_id in player.hand if card_id not in action.cards),
        tokens=player.tokens + gain,
        paintings=(*player.paintings, record),
        ribbons=tuple(held + extra for held, extra in zip(player.ribbons, taken, strict=True)),
        silver=player.silver + score.bonus,
    )
    ribbons_text = ", ".join(f"{slug} {count}" for slug, count in zip(state.scoring, taken, strict=True))
    event = f"player {action.player} paints {painting.title!r}: {ribbons_text}, silver {score.bonus}"
    after = replace(
        state, players=_replace_at(state.players, action.player, new_player), supply=state.supply - gain
    )
    return after, [event]


def _advance_turn(state: GameState, events: list[str]) -> GameState:
    state = replace(state, events=tuple(events))
    if state.game_over:
        return state
    count = len(state.players)
    limit = state.rules.paintings
    order = [(state.current + offset) % count for offset in range(1, count + 1)]
    following = next(index for index in order if len(state.players[index].paintings) < limit)
    wrapped = following <= state.current
    # Vincent goes last in turn order, after the last active player (p. 5): chance acts next.
    return replace(state, current=following, vincent_to_play=state.rules.vincent and wrapped)


def _choose_scoring(scoring: str | Sequence[str] | None, seed: int) -> tuple[tuple[str, ...], str | None]:
    if scoring is None:
        return FIRST_GAME_CARDS, None
    if isinstance(scoring, str):
        chosen = scenario(scoring)
        slugs = list(chosen.cards)
        if chosen.random_cards:
            pool = sorted(entry.slug for entry in SCORING_CARDS if entry.slug not in slugs)
            slugs += _rng(seed, 0, "scoring").sample(pool, chosen.random_cards)
        return tuple(slugs), chosen.slug
    slugs = tuple(scoring_card(name).slug for name in scoring)
    if not 1 <= len(slugs) <= len(MAT_SLOTS) or len(set(slugs)) != len(slugs):
        raise ValueError(f"scoring: expected 1-{len(MAT_SLOTS)} different Scoring Cards, got {list(slugs)}")
    return slugs, None


def _rng(seed: int, step: int, purpose: str) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and Python versions.
    return random.Random(f"canvas:{seed}:{step}:{purpose}")


def _replace_at(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def _player_from_dict(raw: Any, index: int, rules: Ruleset, slots: int) -> PlayerState:
    where = f"players[{index}]"
    _expect_type(raw, dict, where)
    hand = tuple(
        _expect_card(value, f"{where}.hand[]")
        for value in _expect_type(raw.get("hand"), list, f"{where}.hand")
    )
    if len(hand) > rules.hand_limit:
        raise ValueError(f"{where}.hand: expected at most {rules.hand_limit} cards, got {len(hand)}")
    records = []
    for number, record in enumerate(_expect_type(raw.get("paintings", []), list, f"{where}.paintings")):
        spot = f"{where}.paintings[{number}]"
        _expect_type(record, dict, spot)
        cards = tuple(
            _expect_card(value, f"{spot}.cards[]")
            for value in _expect_type(record.get("cards"), list, f"{spot}.cards")
        )
        if len(cards) != CARDS_PER_PAINTING:
            raise ValueError(f"{spot}.cards: expected {CARDS_PER_PAINTING} cards, got {len(cards)}")
        met = tuple(
            _expect_count(value, f"{spot}.ribbons[]")
            for value in _expect_type(record.get("ribbons"), list, f"{spot}.ribbons")
        )
        taken = tuple(
            _expect_count(value, f"{spot}.taken[]")
            for value in _expect_type(record.get("taken"), list, f"{spot}.taken")
        )
        if len(met) != slots or len(taken) != slots:
            raise ValueError(f"{spot}: expected {slots} ribbon counts, got {len(met)} and {len(taken)}")
        records.append(
            PaintingRecord(cards, met, taken, _expect_count(record.get("silver"), f"{spot}.silver"))
        )
    if len(records) > rules.paintings:
        raise ValueError(f"{where}.paintings: expected at most {rules.paintings}, got {len(records)}")
    ribbons = tuple(
        _expect_count(value, f"{where}.ribbons[]")
        for value in _expect_type(raw.get("ribbons"), list, f"{where}.ribbons")
    )
    if len(ribbons) != slots:
        raise ValueError(
            f"{where}.ribbons: expected {slots} counts (one per Scoring Card), got {len(ribbons)}"
        )
    return PlayerState(
        hand=hand,
        tokens=_expect_count(raw.get("tokens"), f"{where}.tokens"),
        paintings=tuple(records),
        ribbons=ribbons,
        silver=_expect_count(raw.get("silver", 0), f"{where}.silver"),
    )


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _expect_type(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{where}: expected {kind.__name__}, got {_describe(value)}")
    return value


def _expect_int(value: Any, where: str) -> int:
    return _expect_type(value, int, where)


def _expect_count(value: Any, where: str) -> int:
    number = _expect_int(value, where)
    if number < 0:
        raise ValueError(f"{where}: expected a count >= 0, got {number}")
    return number


def _expect_card(value: Any, where: str) -> int:
    number = _expect_int(value, where)
    if not 1 <= number <= CARD_COUNT:
        raise ValueError(f"{where}: expected an Art Card id 1-{CARD_COUNT}, got {number}")
    return number


def _expect_card_or_none(value: Any, where: str) -> int | None:
    return None if value is None else _expect_card(value, where)


def _optional_str(value: Any, where: str) -> str | None:
    return None if value is None else _expect_type(value, str, where)


__all__ = [
    "Action",
    "CompletePainting",
    "GameState",
    "IllegalAction",
    "PaintingRecord",
    "PlayerState",
    "TakeCard",
    "action_from_dict",
    "apply_action",
    "apply_chance",
    "card_locations",
    "chance_outcomes",
    "check_action",
    "custom_game",
    "is_chance_node",
    "legal_actions",
    "max_actions",
    "new_game",
    "max_silver_per_painting",
    "replay",
    "resolve_chance",
    "sample_chance_outcome",
    "score_bound",
    "skip_cost",
    "state_from_dict",
    "token_total",
    "vincent_toss_outcomes",
    "vincent_turn",
]
