"""Canvas (Road To Infamy Games, 2021) as an executable, pure and deterministic rules engine.

Public API (everything the Q&A layer, the CLI and the HTTP API call):

Data and lookups (facts live in data/*.json, validated on import):
- `card(name_or_id) -> ArtCard`: title or alias (case-insensitive, e.g. "Impropable"/"Improbable") or id 1-60;
  raises `UnknownCard` (a ValueError) with suggestions.
- `scoring_card(name) -> ScoringCard`: slug, English or French name, accents optional ("Variete");
  raises `UnknownScoringCard`.
- `scenario(name) -> Scenario`, `ruleset(name) -> Ruleset`, `solo_level(name) -> SoloLevel`.
- `component_counts(ruleset_name="base") -> Mapping[str, ComponentCount]`: slug -> (slug, name_en, name_fr,
  count, page, per) for the box contents (Art Cards 60, Scoring Cards 12, Background Cards 20, Inspiration
  Tokens 20, Ribbons 20 per colour, ...), per-player allowances, the player range, the mat's spaces and the
  numbers of scenarios, achievements and solo levels; all read from data/rules.json.
- `ART_CARDS`, `SCORING_CARDS`, `SCORING_SLUGS`, `SCENARIOS`, `SOLO_LEVELS`, `ACHIEVEMENTS`, `RULESETS`,
  `FIRST_GAME_CARDS`, `MAT_SLOTS` (ribbon colours of the mat slots, in scoring order), `PAGES` (rule -> rulebook page), `ICONS`, `ELEMENTS`, `ILLEGAL_ACTIONS` (code -> page, en, fr).

Paintings and scoring:
- `Painting.from_cards([bottom, middle, top])`, `Painting.from_swatches([s1, ..., s5])`; `.visible`, `.shown_by`,
  `.title`, `.cards`.
- `score_painting(painting, scoring=None) -> PaintingScore` (`.ribbons` slug -> count before any player cap,
  `.bonus` silver ribbons, `.points()`).
- `points_for(scoring_card, ribbons) -> int`: points for holding that many ribbons (capped at the card's maximum).
- `ribbons_taken(scoring_card, met, held) -> int`: the ribbons a painting meeting the card `met` times gives a player
  holding `held` of them (never past the card's maximum).
- `best_painting(hand_cards, scoring_cards) -> BestPainting(painting, score, points)`: searches every ordered
  triple. A single painting is valued as the points its ribbons would be worth if they were the player's only
  ribbons (each card's count capped at its maximum), plus 2 points per silver ribbon.
- `take_cost(position, tokens_on_cards=(), ruleset_name="base") -> (cost, gain)`: the game's own skip cost
  (`skip_cost(rules, row, position)`, one token per skipped card from rules.json) and the tokens on the card.
- `score_request(payload) -> dict` and `score_line(text) -> dict`: the `rulesbot score` JSON contract;
  `score_request` raises `ScoreInputError` (a ValueError).
- `paintings_titled("Chosen Game") -> ((bottom, middle, top), ...)`.

Game (pure functions over frozen state; chance derived from the seed stored in the state):
- `new_game(players=2, ruleset_name="base", scoring=None, seed=0, level=None) -> GameState`;
  `custom_game(row, hands, tokens, row_tokens, deck, ruleset_name, scoring, current, seed, ...)` for examples.
- `TakeCard(player, position)`, `CompletePainting(player, cards)` (cards bottom to top).
- `legal_actions(state) -> tuple[Action, ...]` (sorted), `check_action(state, action) -> str | None` (a stable
  code such as "action/hand_full"), `apply_action(state, action) -> GameState` (raises `IllegalAction` with
  `.code`, `.page`, `.message_fr`), `replay(state, actions)`.
- Chance nodes (Vincent's toss, p. 5): after the last player in turn order acts in the Vincent variant,
  `apply_action` returns a chance node. `is_chance_node(state) -> bool`;
  `chance_outcomes(state) -> tuple[tuple[int, Fraction], ...]` (face-up count, exact probability; sums to 1);
  `apply_chance(state, outcome: int) -> GameState`; `sample_chance_outcome(state) -> int` (seeded draw from
  those outcomes); `resolve_chance(state) -> GameState` (applies the seeded draw; no-op off a chance node).
  At a chance node `legal_actions` is () and player actions are refused with "action/vincent_to_play".
  `replay` and `play_game` resolve chance nodes with the seed. Lower level: `vincent_toss_outcomes(tokens,
  max_face_up=None) -> ((k, probability), ...)`, `vincent_turn(state, face_up) -> GameState`.
- Vincent's odds (exact Fractions, derived by applying `chance_outcomes` to a chance node):
  `vincent_take_odds(row_tokens=None, vincent_tokens=None, ruleset="vincent") -> tuple[tuple[int, Fraction],
  ...]` (row position 1 = the free card -> probability he takes it; one entry per card in the row, whose
  length is len(row_tokens), default a full row without tokens; tokens default to his starting 4);
  `vincent_token_odds(...same arguments) -> VincentTokenOdds(spent, gained, tokens_after,
  after_distribution)`.
- `GameState.to_dict()` / `GameState.from_dict(data)`, `action_from_dict(data)`; `token_total`, `card_locations`,
  `max_actions(players, ruleset_name)`, `score_bound(scoring, paintings=None)`, `max_silver_per_painting()`.
- `results(state) -> GameResult` (totals, winners after the token tie-break, scenario and solo verdicts),
  `final_score(scoring, ribbons, silver)`, `winners(totals, tokens)`,
  `achievements(state, player, passed_scenarios=()) -> tuple[slug, ...]`.
- Bots: `random_bot`, `greedy_bot`, `play_game(state, bots, seed) -> (final_state, actions)`.

Rulebook examples and transcripts:
- `rulesbot.engine.canvas.verify.run_examples() -> [{"id", "page", "claim", "claim_fr", "passed", "detail"}]`
  runs engine/canvas/examples/*.json (what `rulesbot verify` prints).
- `python -m rulesbot.engine.canvas.golden --update` regenerates tests/golden/canvas-<ruleset>.txt.

Versioning: `RULES_VERSION` changes only when the engine's behaviour changes.
"""

from .api import ScoreInputError, paintings_titled, score_line, score_request, take_cost
from .bots import greedy_bot, play_game, random_bot
from .data import (
    ACHIEVEMENTS,
    ART_CARDS,
    CARD_COUNT,
    ELEMENTS,
    FIRST_GAME_CARDS,
    ICONS,
    ILLEGAL_ACTIONS,
    MAT_SLOTS,
    PAGES,
    RULESETS,
    SCENARIOS,
    SCORING_CARD_COUNT,
    SCORING_CARDS,
    SCORING_SLUGS,
    SILVER_POINTS,
    SOLO_LEVELS,
    SWATCH_COLOURS,
    Achievement,
    ArtCard,
    ComponentCount,
    Ruleset,
    Scenario,
    ScoringCard,
    SoloLevel,
    UnknownCard,
    UnknownRuleset,
    UnknownScenario,
    UnknownScoringCard,
    card,
    component_counts,
    ruleset,
    scenario,
    scoring_card,
    solo_level,
)
from .game import (
    Action,
    CompletePainting,
    GameState,
    IllegalAction,
    PaintingRecord,
    PlayerState,
    TakeCard,
    action_from_dict,
    apply_action,
    apply_chance,
    card_locations,
    chance_outcomes,
    check_action,
    custom_game,
    is_chance_node,
    legal_actions,
    max_actions,
    max_silver_per_painting,
    new_game,
    replay,
    resolve_chance,
    sample_chance_outcome,
    score_bound,
    skip_cost,
    state_from_dict,
    token_total,
    vincent_toss_outcomes,
    vincent_turn,
)
from .odds import VincentTokenOdds, vincent_take_odds, vincent_token_odds
from .painting import Painting, PaintingError
from .results import GameResult, PlayerResult, achievements, final_score, results, winners
from .scoring import BestPainting, PaintingScore, best_painting, points_for, ribbons_taken, score_painting

RULES_VERSION = "canvas-1"

__all__ = [
    "ACHIEVEMENTS",
    "ART_CARDS",
    "CARD_COUNT",
    "ELEMENTS",
    "FIRST_GAME_CARDS",
    "ICONS",
    "ILLEGAL_ACTIONS",
    "MAT_SLOTS",
    "PAGES",
    "RULESETS",
    "RULES_VERSION",
    "SCENARIOS",
    "SCORING_CARDS",
    "SCORING_CARD_COUNT",
    "SCORING_SLUGS",
    "SILVER_POINTS",
    "SOLO_LEVELS",
    "SWATCH_COLOURS",
    "Achievement",
    "Action",
    "ArtCard",
    "BestPainting",
    "CompletePainting",
    "ComponentCount",
    "GameResult",
    "GameState",
    "IllegalAction",
    "Painting",
    "PaintingError",
    "PaintingRecord",
    "PaintingScore",
    "PlayerResult",
    "PlayerState",
    "Ruleset",
    "Scenario",
    "ScoreInputError",
    "ScoringCard",
    "SoloLevel",
    "TakeCard",
    "UnknownCard",
    "UnknownRuleset",
    "UnknownScenario",
    "UnknownScoringCard",
    "VincentTokenOdds",
    "achievements",
    "action_from_dict",
    "apply_action",
    "apply_chance",
    "best_painting",
    "card",
    "card_locations",
    "chance_outcomes",
    "check_action",
    "component_counts",
    "custom_game",
    "final_score",
    "greedy_bot",
    "is_chance_node",
    "legal_actions",
    "max_actions",
    "max_silver_per_painting",
    "new_game",
    "paintings_titled",
    "play_game",
    "points_for",
    "ribbons_taken",
    "random_bot",
    "replay",
    "resolve_chance",
    "results",
    "ruleset",
    "sample_chance_outcome",
    "scenario",
    "score_bound",
    "score_line",
    "score_painting",
    "score_request",
    "scoring_card",
    "skip_cost",
    "solo_level",
    "state_from_dict",
    "take_cost",
    "token_total",
    "vincent_take_odds",
    "vincent_token_odds",
    "vincent_toss_outcomes",
    "vincent_turn",
    "winners",
]
