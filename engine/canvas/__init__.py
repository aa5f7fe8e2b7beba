"""Canvas (Road To Infamy Games, 2021) as an executable, pure and deterministic rules engine.

Public API (everything the Q&A layer, the CLI and the HTTP API call):

Data and lookups (facts live in data/*.json, validated on import):
- `card(name_or_id) -> ArtCard`: title or alias (case-insensitive, e.g. "Impropable"/"Improbable") or id 1-60;
  raises `UnknownCard` (a ValueError) with suggestions.
- `scoring_card(name) -> ScoringCard`: slug, English or French name, accents optional ("Variete");
  raises `UnknownScoringCard`.
- `scenario(name) -> Scenario`, `ruleset(name) -> Ruleset`, `solo_level(name) -> SoloLevel`.
- `ART_CARDS`, `SCORING_CARDS`, `SCORING_SLUGS`, `SCENARIOS`, `SOLO_LEVELS`, `ACHIEVEMENTS`, `RULESETS`,
  `FIRST_GAME_CARDS`, `PAGES` (rule -> rulebook page), `ICONS`, `ELEMENTS`, `ILLEGAL_ACTIONS` (code -> page, en, fr).

Paintings and scoring:
- `Painting.from_cards([bottom, middle, top])`, `Painting.from_swatches([s1, ..., s5])`; `.visible`, `.shown_by`,
  `.title`, `.cards`.
- `score_painting(painting, scoring=None) -> PaintingScore` (`.ribbons` slug -> count before any player cap,
  `.bonus` silver ribbons, `.points()`).
- `points_for(scoring_card, ribbons) -> int`: points for holding that many ribbons (capped at the card's maximum).
- `best_painting(hand_cards, scoring_cards) -> BestPainting(painting, score, points)`: searches every ordered
  triple. A single painting is valued as the points its ribbons would be worth if they were the player's only
  ribbons (each card's count capped at its maximum), plus 2 points per silver ribbon.
- `take_cost(position, tokens_on_cards=()) -> (cost, gain)`.
- `score_request(payload) -> dict` and `score_line(text) -> dict`: the `rulesbot score` JSON contract;
  `score_request` raises `ScoreInputError` (a ValueError).
- `paintings_titled("Chosen Game") -> ((bottom, middle, top), ...)`.

Versioning: `RULES_VERSION` changes only when the engine's behaviour changes.
"""

from .api import ScoreInputError, paintings_titled, score_line, score_request, take_cost
from .data import (
    ACHIEVEMENTS,
    ART_CARDS,
    ELEMENTS,
    FIRST_GAME_CARDS,
    ICONS,
    ILLEGAL_ACTIONS,
    PAGES,
    RULESETS,
    SCENARIOS,
    SCORING_CARDS,
    SCORING_SLUGS,
    SILVER_POINTS,
    SOLO_LEVELS,
    SWATCH_COLOURS,
    Achievement,
    ArtCard,
    Ruleset,
    Scenario,
    ScoringCard,
    SoloLevel,
    UnknownCard,
    UnknownRuleset,
    UnknownScenario,
    UnknownScoringCard,
    card,
    ruleset,
    scenario,
    scoring_card,
    solo_level,
)
from .painting import Painting, PaintingError
from .scoring import BestPainting, PaintingScore, best_painting, points_for, score_painting

RULES_VERSION = "canvas-1"

__all__ = [
    "ACHIEVEMENTS",
    "ART_CARDS",
    "ELEMENTS",
    "FIRST_GAME_CARDS",
    "ICONS",
    "ILLEGAL_ACTIONS",
    "PAGES",
    "RULESETS",
    "RULES_VERSION",
    "SCENARIOS",
    "SCORING_CARDS",
    "SCORING_SLUGS",
    "SILVER_POINTS",
    "SOLO_LEVELS",
    "SWATCH_COLOURS",
    "Achievement",
    "ArtCard",
    "BestPainting",
    "Painting",
    "PaintingError",
    "PaintingScore",
    "Ruleset",
    "Scenario",
    "ScoreInputError",
    "ScoringCard",
    "SoloLevel",
    "UnknownCard",
    "UnknownRuleset",
    "UnknownScenario",
    "UnknownScoringCard",
    "best_painting",
    "card",
    "paintings_titled",
    "points_for",
    "ruleset",
    "scenario",
    "score_line",
    "score_painting",
    "score_request",
    "scoring_card",
    "solo_level",
    "take_cost",
]
