"""The Canvas plugin: its GameSpec (engine, score entry point, vocabulary, slot finders, intents), registered on import.

- words.py + vocabulary.json: Canvas's words (over the shared language.json) and the names from the engine;
- slots.py: the slot finders the parser runs;
- intents.json + intents/: one compute function per intent, with its slots, cues and exemplars as data;
- phrasing.py + templates.json: every sentence; concepts.json: which pack passages to cite;
- helpers.py: small engine helpers (first-game colours, the minimal state for a legality question).
"""

from __future__ import annotations

import json
from importlib import resources

from rulesbot.compute.canvas import score_view, slots
from rulesbot.compute.canvas.intents import (
    achievements,
    best,
    card_table,
    common,
    compare,
    components,
    examples,
    goals,
    icon_counts,
    legality,
    limits,
    odds,
    painting,
    ribbons,
    sequence,
    supply,
    take,
    ties,
)
from rulesbot.compute.canvas.words import vocabulary
from rulesbot.compute.registry import load_intents
from rulesbot.engine import canvas as engine
from rulesbot.games import GameSpec, register_game


def _data(name: str) -> dict:
    raw = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    return {key: value for key, value in raw.items() if not key.startswith("_")}


INTENTS = load_intents(_data("intents.json"), {
    "ribbon_points": ribbons.compute,
    "painting_cards": painting.compute_cards,
    "painting_swatches": painting.compute_swatches,
    "best_painting": best.compute,
    "take_cost": take.compute,
    "compare_options": compare.compute,
    "legality": legality.compute,
    "scenario_goal": goals.compute_scenario,
    "solo_level": goals.compute_level,
    "achievements": achievements.compute,
    "card_limit": limits.compute,
    "card_table": card_table.compute,
    "components": components.compute,
    "player_range": components.compute_range,
    "example_score": examples.compute,
    "token_shortage": components.compute_shortage,
    "vincent_odds": odds.compute,
    "vincent_turn": odds.compute_turn,
    "vincent_pick": odds.compute_pick,
    "vincent_face_up": odds.compute_face_up,
    "scenario_by_goal": goals.compute_by_goal,
    "paint_tokens": supply.compute,
    "max_points": limits.compute_max_points,
    "tie_break": ties.compute,
    "action_sequence": sequence.compute,
    "icon_count_ribbons": icon_counts.compute,
    "cards_needed": components.compute_cards_needed,
})

SPEC = register_game(GameSpec(
    engine_id="canvas",
    engine=engine,
    rules_version=engine.RULES_VERSION,
    score=engine.score_request,
    input_error=engine.ScoreInputError,
    unknown_card=engine.UnknownCard,
    vocabulary=vocabulary(),
    slot_finders=slots.FINDERS,
    intents=INTENTS,
    templates=_data("templates.json"),
    concepts=_data("concepts.json"),
    page_of=engine.PAGES.get,
    score_line=engine.score_line,
    score_view=score_view.print_score,
    scene_number=common.sets_scene,
    fewest_players=min(ruleset.min_players for ruleset in engine.data.RULESETS.values()),
    most_players=max(ruleset.max_players for ruleset in engine.data.RULESETS.values()),
))
