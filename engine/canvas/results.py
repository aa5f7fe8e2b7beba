"""Reading a finished game: final scores, winners and tie-break, scenario goals, solo levels, achievements (p. 5-6).

Achievements are declared in data/rules.json as a `kind` plus parameters; this module implements each kind
once. "Pass every scenario" spans several games, so it takes the scenarios already passed as an argument.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .data import ACHIEVEMENTS, SCENARIOS, SILVER_POINTS, Achievement, scenario, scoring_card, solo_level
from .game import GameState
from .painting import Painting
from .scoring import points_for


@dataclass(frozen=True)
class PlayerResult:
    """One player's final score: points per mat slot, silver points, total, and tokens left (the tie-break)."""

    player: int
    ribbons: tuple[int, ...]
    points_by_slot: tuple[int, ...]
    silver: int
    silver_points: int
    total: int
    tokens: int

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "player": self.player,
            "ribbons": list(self.ribbons),
            "points_by_slot": list(self.points_by_slot),
            "silver": self.silver,
            "silver_points": self.silver_points,
            "total": self.total,
            "tokens": self.tokens,
        }


@dataclass(frozen=True)
class GameResult:
    """Final scores, the winner(s) after the token tie-break, and the scenario / solo-level verdicts."""

    players: tuple[PlayerResult, ...]
    winners: tuple[int, ...]
    scenario_passed: bool | None
    solo_passed: bool | None

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "players": [result.to_dict() for result in self.players],
            "winners": list(self.winners),
            "scenario_passed": self.scenario_passed,
            "solo_passed": self.solo_passed,
        }


def final_score(scoring: Sequence[str], ribbons: Sequence[int], silver: int) -> int:
    """Total points for ribbons held per mat slot (in `scoring` order) plus 2 points per silver ribbon (p. 5)."""
    if len(scoring) != len(ribbons):
        raise ValueError(f"expected one ribbon count per Scoring Card ({len(scoring)}), got {len(ribbons)}")
    return (
        sum(points_for(slug, count) for slug, count in zip(scoring, ribbons, strict=True))
        + SILVER_POINTS * silver
    )


def winners(totals: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """Indices of the winner(s): most points, then most Inspiration Tokens; several if still tied (ruling 8.8)."""
    best = max(zip(totals, tokens, strict=True))
    return tuple(index for index, pair in enumerate(zip(totals, tokens, strict=True)) if pair == best)


def player_result(state: GameState, player: int) -> PlayerResult:
    """The current score of one player (final once the game is over)."""
    held = state.players[player]
    by_slot = tuple(points_for(slug, count) for slug, count in zip(state.scoring, held.ribbons, strict=True))
    silver_points = SILVER_POINTS * held.silver
    return PlayerResult(
        player=player,
        ribbons=held.ribbons,
        points_by_slot=by_slot,
        silver=held.silver,
        silver_points=silver_points,
        total=sum(by_slot) + silver_points,
        tokens=held.tokens,
    )


def results(state: GameState) -> GameResult:
    """Scores of every player, winners with the tie-break, and whether the scenario goal / solo level is met."""
    scored = tuple(player_result(state, index) for index in range(len(state.players)))
    best = max(result.total for result in scored)
    goal_met = None
    if state.scenario is not None:
        # "If any player's score meets or exceeds the goal, you pass the scenario" (p. 6).
        goal_met = best >= scenario(state.scenario).goal
    solo_met = None
    if state.solo_level is not None:
        solo_met = best >= solo_level(state.solo_level).target
    return GameResult(
        players=scored,
        winners=winners([result.total for result in scored], [result.tokens for result in scored]),
        scenario_passed=goal_met,
        solo_passed=solo_met,
    )


def achievements(state: GameState, player: int, passed_scenarios: Iterable[str] = ()) -> tuple[str, ...]:
    """Slugs of the achievements (p. 6) this player earned in a finished game.

    `passed_scenarios` lists scenarios passed in earlier games, for "Pass every scenario".
    """
    if not state.game_over:
        return ()
    earned = tuple(
        entry.slug for entry in ACHIEVEMENTS if _earned(entry, state, player, set(passed_scenarios))
    )
    return earned


def _earned(entry: Achievement, state: GameState, player: int, passed: set[str]) -> bool:
    held = state.players[player]
    params = entry.params
    kind = entry.kind
    if kind == "painting_conditions_met":
        return len(state.scoring) == params["count"] and any(
            all(count >= 1 for count in record.ribbons) for record in held.paintings
        )
    if kind == "painting_silver":
        return any(record.silver >= params["min"] for record in held.paintings)
    if kind == "painting_ribbons":
        return any(sum(record.taken) + record.silver >= params["min"] for record in held.paintings)
    if kind == "painting_same_element":
        return any(
            max(Painting.from_cards(record.cards).element_counts().values()) >= params["min"]
            for record in held.paintings
        )
    if kind == "max_ribbons_all_cards":
        return len(state.scoring) == params["count"] and all(
            count >= scoring_card(slug).max_ribbons
            for slug, count in zip(state.scoring, held.ribbons, strict=True)
        )
    if kind == "game_silver":
        return held.silver >= params["min"]
    if kind == "game_ribbons":
        return sum(held.ribbons) + held.silver >= params["min"]
    if kind == "game_points":
        return player_result(state, player).total >= params["min"]
    if kind == "all_scenarios_passed":
        now = set(passed)
        if state.scenario is not None and results(state).scenario_passed:
            now.add(state.scenario)
        return {entry_scenario.slug for entry_scenario in SCENARIOS} <= now
    raise ValueError(f"unknown achievement kind {kind!r}")
