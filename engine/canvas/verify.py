"""The rulebook's worked examples and checkable claims, run against the engine (`rulesbot verify`).

Each example is a JSON file in examples/ with an id, the rulebook page, the claim (EN and FR) and a `kind`
saying how to check it (a scripted game, a painting, a final score, a simulation, ...). `run_examples()`
returns one result per file: {"id", "page", "claim", "claim_fr", "passed", "detail"}.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from .api import paintings_titled
from .bots import play_game, random_bot
from .data import (
    CARD_COUNT,
    CARDS_PER_PAINTING,
    SILVER_POINTS,
    SOLO_LEVELS,
    card,
    ruleset,
    scenario,
    solo_level,
)
from .game import (
    GameState,
    action_from_dict,
    apply_action,
    apply_chance,
    card_locations,
    check_action,
    custom_game,
    is_chance_node,
    legal_actions,
    max_actions,
    new_game,
    resolve_chance,
    sample_chance_outcome,
    token_total,
    vincent_turn,
)
from .painting import Painting
from .results import final_score, winners
from .scoring import points_for, score_painting

_SETUP_KEYS = {"ruleset": "ruleset_name"}


class ExampleFailed(AssertionError):
    """An example's expectation does not hold; the message says what differs."""


def load_examples() -> list[dict]:
    """Every example file, sorted by page then id."""
    folder = resources.files(__package__).joinpath("examples")
    examples = [
        json.loads(entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".json")
    ]
    return sorted(examples, key=lambda example: (example["page"], example["id"]))


def run_example(example: Mapping[str, Any]) -> dict:
    """Check one example; never raises for a failed expectation (it is reported as passed=False)."""
    try:
        detail = _CHECKS[example["kind"]](example)
        passed = True
    except (ExampleFailed, ValueError, KeyError) as error:
        detail, passed = f"{type(error).__name__}: {error}", False
    return {
        "id": example["id"],
        "page": example["page"],
        "claim": example["claim"]["en"],
        "claim_fr": example["claim"].get("fr"),
        "passed": passed,
        "detail": detail,
    }


def run_examples() -> list[dict]:
    """Run every example in examples/."""
    return [run_example(example) for example in load_examples()]


# ---------------------------------------------------------------------------------------------- checks


def _check_game(example: Mapping[str, Any]) -> str:
    setup = {_SETUP_KEYS.get(key, key): value for key, value in example["setup"].items()}
    state = custom_game(**setup)
    for step in example["steps"]:
        if "vincent" in step:
            state = vincent_turn(state, step["vincent"])
        elif "chance" in step:
            # A chance step checks that chance acts here (Vincent's turn), then applies the outcome given
            # or, with "seeded", the one seeded play draws.
            if not is_chance_node(state):
                raise ExampleFailed(f"step {step}: expected a chance node (Vincent to play), got a player's turn")
            outcome = sample_chance_outcome(state) if step["chance"] == "seeded" else step["chance"]
            state = apply_chance(state, outcome)
        else:
            state = apply_action(state, _action(step["action"]))
    checked = []
    for expectation in example["expect"]:
        checked.append(_expect_state(state, expectation))
    return "; ".join(checked)


def _check_painting(example: Mapping[str, Any]) -> str:
    painting = Painting.from_cards(example["cards"])
    score = score_painting(painting, example["scoring"])
    expected = example["expect"]
    actual = {
        "visible": [list(swatch) for swatch in painting.visible],
        "title": painting.title,
        "ribbons": {slug: score.ribbons[slug] for slug in expected.get("ribbons", {})},
        "bonus": score.bonus,
        "bonus_icons": list(painting.bonus_icons()),
        "elements": {name: painting.element_counts()[name] for name in expected.get("elements", {})},
    }
    for key, value in expected.items():
        _same(actual[key], value, key)
    return (
        f"{painting.title}: visible {actual['visible']}, ribbons {dict(score.ribbons)}, silver {score.bonus}"
    )


def _check_points_table(example: Mapping[str, Any]) -> str:
    for slug, table in example["tables"].items():
        _same([points_for(slug, count) for count in range(1, len(table) + 1)], table, f"{slug} points")
        _same(points_for(slug, len(table) + 1), table[-1], f"{slug} beyond its maximum")
    return "points tables match"


def _check_final_score(example: Mapping[str, Any]) -> str:
    scoring, ribbons, silver = example["scoring"], example["ribbons"], example["silver"]
    expected = example["expect"]
    by_slot = [points_for(slug, count) for slug, count in zip(scoring, ribbons, strict=True)]
    _same(by_slot, expected["points_by_slot"], "points by slot")
    _same(SILVER_POINTS * silver, expected["silver_points"], "silver points")
    total = final_score(scoring, ribbons, silver)
    _same(total, expected["total"], "total")
    return f"{' + '.join(map(str, by_slot))} + {SILVER_POINTS * silver} = {total}"


def _check_titled_paintings(example: Mapping[str, Any]) -> str:
    scoring = example["scoring"]
    target = (*example["ribbons"], example["silver"])
    groups = []
    for title in example["titles"]:
        by_ribbons: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for triple in paintings_titled(title):
            score = score_painting(Painting.from_cards(triple), scoring)
            key = (*(score.ribbons[slug] for slug in scoring), score.bonus)
            by_ribbons.setdefault(key, []).append(triple)
        groups.append(by_ribbons)
    combinations, splits = 0, set()
    for keys in itertools.product(*(group.keys() for group in groups)):
        # The targets are below every card's maximum, so the per-painting counts must add up exactly.
        if tuple(map(sum, zip(*keys, strict=True))) != target:
            continue
        for triples in itertools.product(*(group[key] for group, key in zip(groups, keys, strict=True))):
            # Each card is used once over the paintings.
            if len({card_id for triple in triples for card_id in triple}) == CARDS_PER_PAINTING * len(triples):
                combinations += 1
                splits.add(keys)
    witness = [tuple(card(name).id for name in cards) for cards in example["witness"]]
    witness_total = [0] * len(target)
    for triple, title in zip(witness, example["titles"], strict=True):
        painting = Painting.from_cards(triple)
        _same(painting.title, title, "witness title")
        score = score_painting(painting, scoring)
        for index, value in enumerate((*(score.ribbons[slug] for slug in scoring), score.bonus)):
            witness_total[index] += value
    _same(tuple(witness_total), target, "witness ribbons")
    _same(combinations, example["expect"]["combinations"], "card combinations reproducing the ribbons")
    _same(len(splits), example["expect"]["splits"], "distinct per-painting ribbon splits")
    shown = " | ".join("/".join(card(card_id).title for card_id in triple) for triple in witness)
    used = CARDS_PER_PAINTING * len(witness)
    return f"{combinations} combinations of {used} different cards ({len(splits)} ribbon splits), e.g. {shown}"


def _check_simulate(example: Mapping[str, Any]) -> str:
    games = 0
    for players in example["players"]:
        for seed in range(example["seeds"]):
            state = new_game(players, example["ruleset"], seed=seed)
            total_tokens = token_total(state)
            final, actions = play_game(state, [random_bot] * players, seed=seed)
            replayed = state
            for action in actions:
                if len(replayed.players[action.player].paintings) >= replayed.rules.paintings:
                    raise ExampleFailed(f"seed {seed}: a player with all paintings acted")
                replayed = resolve_chance(apply_action(replayed, action))
                if any(len(player.hand) > replayed.rules.hand_limit for player in replayed.players):
                    raise ExampleFailed(f"seed {seed}: a hand went above the limit")
                if sorted(card_locations(replayed)) != list(range(1, CARD_COUNT + 1)):
                    raise ExampleFailed(f"seed {seed}: cards not conserved")
                if token_total(replayed) != total_tokens:
                    raise ExampleFailed(f"seed {seed}: tokens not conserved")
            _same(replayed, final, f"seed {seed} replay")
            if not final.game_over or legal_actions(final):
                raise ExampleFailed(f"seed {seed}: the game did not end")
            if any(len(player.paintings) != final.rules.paintings for player in final.players):
                raise ExampleFailed(f"seed {seed}: the game ended before every player had all paintings")
            if len(actions) > max_actions(players, example["ruleset"]):
                raise ExampleFailed(f"seed {seed}: more actions than the declared maximum")
            games += 1
    paintings = ruleset(example["ruleset"]).paintings
    return f"{games} random games: each ended exactly when every player had {paintings} paintings"


def _check_setup(example: Mapping[str, Any]) -> str:
    state = new_game(example["players"], seed=0)
    expected = example["expect"]
    _same(sum(1 for card_id in state.row if card_id), expected["row_cards"], "cards in the row")
    _same([player.tokens for player in state.players], expected["tokens"], "tokens")
    _same(
        [state.backgrounds_left(index) for index in range(len(state.players))],
        expected["backgrounds"],
        "backgrounds",
    )
    _same(list(state.scoring), expected["scoring"], "first-game Scoring Cards")
    return "setup matches"


def _check_tie_break(example: Mapping[str, Any]) -> str:
    for case in example["cases"]:
        _same(list(winners(case["totals"], case["tokens"])), case["winners"], f"winners of {case}")
    return f"{len(example['cases'])} cases"


def _check_solo_levels(example: Mapping[str, Any]) -> str:
    _same({level.slug: level.target for level in SOLO_LEVELS}, example["targets"], "solo targets")
    for slug, target in example["targets"].items():
        level = solo_level(slug)
        if not (target >= level.target and target - 1 < level.target):
            raise ExampleFailed(f"{slug}: meeting the score should pass, one less should fail")
    return "levels match"


def _check_scenario_goals(example: Mapping[str, Any]) -> str:
    for case in example["cases"]:
        goal = scenario(case["scenario"]).goal
        _same(max(case["scores"]) >= goal, case["passed"], f"{case['scenario']} with scores {case['scores']}")
    return f"{len(example['cases'])} cases"


_CHECKS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "game": _check_game,
    "painting": _check_painting,
    "points_table": _check_points_table,
    "final_score": _check_final_score,
    "titled_paintings": _check_titled_paintings,
    "simulate": _check_simulate,
    "setup": _check_setup,
    "tie_break": _check_tie_break,
    "solo_levels": _check_solo_levels,
    "scenario_goals": _check_scenario_goals,
}


# ---------------------------------------------------------------------------------------------- helpers


def _action(data: Mapping[str, Any]):
    if "cards" in data:
        data = {**data, "cards": [card(name).id for name in data["cards"]]}
    return action_from_dict(data)


def _view(state: GameState) -> dict:
    view = state.to_dict()
    view["backgrounds_left"] = [state.backgrounds_left(index) for index in range(len(state.players))]
    return view


def _lookup(view: Any, path: str) -> Any:
    for part in path.split("."):
        view = view[int(part)] if isinstance(view, list) else view[part]
    return view


def _expect_state(state: GameState, expectation: Mapping[str, Any]) -> str:
    view = _view(state)
    if "check" in expectation:
        code = check_action(state, _action(expectation["check"]))
        _same(code, expectation["code"], f"check {expectation['check']}")
        return f"{expectation['check']} -> {code or 'legal'}"
    if "legal_kinds" in expectation:
        kinds = sorted({action.to_dict()["type"] for action in legal_actions(state)})
        _same(kinds, expectation["legal_kinds"], "kinds of legal actions")
        return f"legal: {kinds}"
    if "count" in expectation:
        count = len(_lookup(view, expectation["count"]))
        _same(count, expectation["equals"], f"number of {expectation['count']}")
        return f"{expectation['count']}: {count}"
    value = _lookup(view, expectation["path"])
    if "cards" in expectation:
        _same(value, [card(name).id for name in expectation["cards"]], expectation["path"])
        return f"{expectation['path']} = {[card(card_id).title if card_id else None for card_id in value]}"
    _same(value, expectation["equals"], expectation["path"])
    return f"{expectation['path']} = {value}"


def _same(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise ExampleFailed(f"{what}: expected {expected!r}, got {actual!r}")


__all__ = ["ExampleFailed", "load_examples", "run_example", "run_examples"]
