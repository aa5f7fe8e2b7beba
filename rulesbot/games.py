"""The game-plugin registry: one `GameSpec` per game engine, used by `core.score`, compute, the CLI and the API.

A game with an engine registers a `GameSpec` (its engine module, rules version, score entry point, the base
class of its input errors and of its unknown-card errors, its vocabulary, slot finders and intents). Nothing
generic imports a game: the built-in plugins are modules listed in `BUILTIN_PLUGINS`, imported the first time a
spec is asked for; a test or a site registers its own game with `register_game(spec)`.

    spec = game_spec("canvas")           # the knowledge pack's manifest names its engine
    spec.score({"cards": [...]})         # the `rulesbot score` contract
    spec.intents                         # the computed-question intents (rulesbot.compute.registry.Intent)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

# Plugin modules shipped with rulesbot; each calls register_game() on import.
BUILTIN_PLUGINS: tuple[str, ...] = ("rulesbot.compute.canvas",)


@dataclass(frozen=True)
class GameSpec:
    """Everything rulesbot needs to know about one game's engine and how questions about it are phrased.

    - `engine_id`: the id a knowledge pack's manifest names in its `engine` field;
    - `engine`: the engine module; `rules_version`: stamped on computed answers;
    - `score`: the `rulesbot score` entry point (payload -> dict); `input_error` / `unknown_card`: the engine's
      exception base classes for a bad payload and for an unknown card (mapped to BadInput / UnknownCard);
    - `vocabulary`: the game's word lists (language only, no rules facts);
    - `slot_finders`: functions (folded text, vocabulary, lang) -> slots, run by the parser;
    - `intents`: the computed-question intents; `templates` / `concepts`: answer sentences and what to cite;
    - `page_of`: a rule key -> rulebook page lookup (engine data), for citations when a concept has no record;
    - `score_line` / `score_view`: the `rulesbot score --jsonl` line entry point and the readable form's printer;
    - `scene_number`: whether a number only sets the scene (players at the table), left unexplained by any intent;
    - `fewest_players` / `most_players`: the range of players the game's rulesets seat.
    """

    engine_id: str
    engine: ModuleType
    rules_version: str
    score: Callable[[Mapping[str, Any]], dict]
    input_error: type[Exception]
    unknown_card: type[Exception]
    vocabulary: Mapping[str, Any] = field(default_factory=dict)
    slot_finders: Sequence[Callable] = ()
    intents: Sequence[Any] = ()
    templates: Mapping[str, Any] = field(default_factory=dict)
    concepts: Mapping[str, Any] = field(default_factory=dict)
    page_of: Callable[[str], int | None] = lambda _key: None
    # The `rulesbot score --jsonl` line entry point (text -> result or {"error"}) and the readable form's printer
    # (arguments, --scoring option; ValueError on bad input); None when the game has no such form.
    score_line: Callable[[str], dict] | None = None
    score_view: Callable[[list[str], str | None], None] | None = None
    # Whether a number of a question only sets the scene (the number of players at the table: "in our two-player
    # game ..."): (Parsed, number Slot) -> bool; such a number needs no intent to explain it.
    scene_number: Callable[[Any, Any], bool] | None = None
    # The fewest and the most players any of the game's rulesets seats (engine data); None when unknown. A player
    # count beyond them has no rule (rulesbot.scope.players_beyond).
    fewest_players: int | None = None
    most_players: int | None = None


_REGISTRY: dict[str, GameSpec] = {}
_LOADED = False


def register_game(spec: GameSpec) -> GameSpec:
    """Add (or replace) a game's spec; returns it."""
    _REGISTRY[spec.engine_id] = spec
    return spec


def unregister_game(engine_id: str) -> None:
    """Remove a game's spec (tests that register a throw-away game)."""
    _REGISTRY.pop(engine_id, None)


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for module in BUILTIN_PLUGINS:
        importlib.import_module(module)


def game_spec(engine_id: str | None) -> GameSpec | None:
    """The spec registered for an engine id, or None (a pack without an engine, or an unknown one)."""
    if not engine_id:
        return None
    if engine_id not in _REGISTRY:
        _load_builtin()
    return _REGISTRY.get(engine_id)


def spec_for_pack(pack) -> GameSpec | None:
    """The spec of a knowledge pack's engine (its manifest's `engine`), or None."""
    if pack is None:
        return None
    return game_spec(pack.manifest.engine)


def registered() -> tuple[str, ...]:
    """The engine ids registered so far (built-in plugins included)."""
    _load_builtin()
    return tuple(sorted(_REGISTRY))
