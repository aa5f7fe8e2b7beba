"""Golden playthrough transcripts: one seeded greedy-bot game per registered ruleset, rendered as text.

`python -m rulesbot.engine.canvas.golden --update` rewrites tests/golden/canvas-<ruleset>.txt;
without --update it exits 1 if any transcript differs. The test suite diffs them too, so any change in the
engine's behaviour shows up as a readable diff (and should come with a new RULES_VERSION).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from . import RULES_VERSION
from .bots import greedy_bot
from .data import RULESETS, card
from .game import (
    GameState,
    apply_action,
    apply_chance,
    chance_outcomes,
    is_chance_node,
    legal_actions,
    new_game,
    sample_chance_outcome,
)
from .results import achievements, results

# One game per ruleset: (players, scenario, seed). Every registered ruleset needs an entry (a test checks).
GOLDEN_GAMES = {
    "base": (3, "first-time-playing", 2021),
    "vincent": (2, "spatial", 2022),
    "solo-puzzle": (1, "bonus", 2023),
}


def golden_path(folder: Path, ruleset_name: str) -> Path:
    """Where the transcript of a ruleset lives."""
    return folder / f"canvas-{ruleset_name}.txt"


def transcript(ruleset_name: str) -> str:
    """The full text transcript of the golden game for a ruleset."""
    players, scenario_name, seed = GOLDEN_GAMES[ruleset_name]
    state = new_game(players, ruleset_name, scoring=scenario_name, seed=seed)
    rng = random.Random(f"canvas-bots:{seed}")
    lines = [
        f"# Canvas golden playthrough ({RULES_VERSION})",
        f"ruleset: {ruleset_name}; players: {players}; scenario: {scenario_name}; seed: {seed}",
        f"scoring (red, green, blue, violet): {', '.join(state.scoring)}",
        "",
    ]
    while not state.game_over:
        if is_chance_node(state):
            outcomes = ", ".join(f"{outcome}: {probability}" for outcome, probability in chance_outcomes(state))
            outcome = sample_chance_outcome(state)
            lines.append(f"## chance after step {state.step}: Vincent's toss")
            lines.append(f"outcomes (face-up: probability): {outcomes}; drawn: {outcome}")
            state = apply_chance(state, outcome)
            lines += [f"  - {event}" for event in state.events]
            lines.append("")
            continue
        legal = legal_actions(state)
        action = greedy_bot(state, rng)
        lines.append(f"## step {state.step + 1}")
        lines += _render(state)
        lines.append(
            f"legal actions: {len(legal)} ({sum(1 for item in legal if item.to_dict()['type'] == 'take')} takes)"
        )
        lines.append(f"action: {action.to_dict()}")
        state = apply_action(state, action)
        lines += [f"  - {event}" for event in state.events]
        lines.append("")
    final = results(state)
    lines.append("## final")
    lines += _render(state)
    for player in final.players:
        earned = ", ".join(achievements(state, player.player)) or "none"
        lines.append(
            f"player {player.player}: ribbons {list(player.ribbons)} -> {list(player.points_by_slot)}"
            f" + silver {player.silver} ({player.silver_points}) = {player.total}; tokens {player.tokens};"
            f" achievements: {earned}"
        )
    lines.append(f"winners: {list(final.winners)}; scenario passed: {final.scenario_passed}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (--update) or check the golden transcripts; exit 1 if any differs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the transcripts")
    parser.add_argument("--dir", type=Path, default=Path("tests/golden"), help="folder of the transcripts")
    options = parser.parse_args(argv)
    options.dir.mkdir(parents=True, exist_ok=True)
    differing = []
    for name in RULESETS:
        path = golden_path(options.dir, name)
        text = transcript(name)
        if options.update:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            differing.append(str(path))
    for path in differing:
        sys.stderr.write(f"differs: {path}\n")
    return 1 if differing else 0


def _render(state: GameState) -> list[str]:
    row = ", ".join(
        f"{position}:{card(card_id).title}" + (f"(+{tokens})" if tokens else "")
        for position, (card_id, tokens) in enumerate(zip(state.row, state.row_tokens, strict=True), start=1)
        if card_id is not None
    )
    lines = [f"row: {row} | deck {len(state.deck)} | discards {len(state.discards)}"]
    if state.rules.token_supply:
        lines[-1] += f" | supply {state.supply}"
    if state.rules.vincent:
        lines[-1] += f" | Vincent tokens {state.vincent_tokens}"
    for index, player in enumerate(state.players):
        hand = ", ".join(card(card_id).title for card_id in player.hand) or "-"
        marker = ">" if index == state.current and not state.game_over else " "
        lines.append(
            f"{marker} player {index}: tokens {player.tokens}, hand [{hand}], paintings {len(player.paintings)},"
            f" ribbons {list(player.ribbons)}, silver {player.silver}"
        )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
