"""Small helpers the Q&A layer, the CLI and the HTTP API call: costs, the `score` JSON contract, title search.

`score_request` implements the `rulesbot score` JSON-lines contract (issue 2) once, so the CLI and the HTTP
API give the same answers and the same error messages.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .data import (
    ART_CARDS,
    CARDS_PER_PAINTING,
    ICONS,
    SCORING_SLUGS,
    SWATCH_COUNT,
    ArtCard,
    Ruleset,
    UnknownCard,
    UnknownScoringCard,
    card,
    ruleset,
    scoring_card,
)
from .game import skip_cost
from .painting import Painting, PaintingError
from .scoring import score_painting


class ScoreInputError(ValueError):
    """A `score` request cannot be scored (unknown or repeated card, wrong count, unknown icon or scoring card)."""


def take_cost(
    position: int, tokens_on_cards: Sequence[int] = (), ruleset_name: str | Ruleset = "base"
) -> tuple[int, int]:
    """(tokens paid, tokens gained from the card) for taking the card at row position N; position 1 is free (p. 3).

    `tokens_on_cards` lists the tokens already on the row's cards, position 1 first (missing = 0). The cost is
    the game's own skip cost (`skip_cost`, from the ruleset's data) over a row with a card at every position
    up to N; positions beyond the row are priced the same way (callers check the row size).
    """
    if isinstance(position, bool) or not isinstance(position, int) or position < 1:
        raise ValueError(f"expected a row position from 1, got {position!r}")
    on_card = tokens_on_cards[position - 1] if position <= len(tokens_on_cards) else 0
    # Every position up to the taken one holds a card (a placeholder id: which card does not change the cost).
    row = tuple(range(1, position + 1))
    return skip_cost(ruleset(ruleset_name), row, position), on_card


def score_request(payload: Mapping[str, Any]) -> dict:
    """Answer one `rulesbot score` request: {"cards"|"swatches", "scoring"?} -> visible, title, ribbons, bonus."""
    if not isinstance(payload, Mapping):
        raise ScoreInputError(f"expected a JSON object, got {_json_type(payload)}")
    has_cards, has_swatches = "cards" in payload, "swatches" in payload
    if has_cards == has_swatches:
        raise ScoreInputError(
            f'expected exactly one of "cards" ({CARDS_PER_PAINTING} Art Cards, bottom to top)'
            f' or "swatches" ({SWATCH_COUNT} lists)'
        )
    scoring = _scoring_slugs(payload.get("scoring"))
    painting = _cards_painting(payload["cards"]) if has_cards else _swatch_painting(payload["swatches"])
    result = score_painting(painting, scoring)
    return {
        "visible": [list(swatch) for swatch in painting.visible],
        "title": painting.title if has_cards else None,
        "ribbons": dict(result.ribbons),
        "bonus": result.bonus,
    }


def score_line(line: str) -> dict:
    """One JSON line in, one result out: the score_request answer or {"error": "..."} (never raises)."""
    try:
        payload = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"bad JSON: {error.msg} at line {error.lineno} column {error.colno}"}
    try:
        return score_request(payload)
    except ScoreInputError as error:
        return {"error": str(error)}


def paintings_titled(title: str) -> tuple[tuple[int, int, int], ...]:
    """Every ordered triple of card ids (bottom to top) whose painting carries that title (e.g. "Chosen Game")."""
    wanted = " ".join(title.split())
    try:
        named = [card(word) for word in wanted.split()]
    except UnknownCard:
        return ()
    # Every card named in the title is in the painting; the other places can hold any card.
    found = set()
    others = [art_card for art_card in ART_CARDS if art_card not in named]
    for extra in itertools.combinations(others, CARDS_PER_PAINTING - len(named)) if len(named) <= CARDS_PER_PAINTING else ():
        for triple in itertools.permutations([*named, *extra]):
            if Painting.from_cards(triple).title == wanted:
                found.add(tuple(art_card.id for art_card in triple))
    return tuple(sorted(found))


def _scoring_slugs(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return SCORING_SLUGS
    if not isinstance(raw, list):
        raise ScoreInputError(f'expected "scoring" to be a list of Scoring Card names, got {_json_type(raw)}')
    slugs = []
    for name in raw:
        try:
            slug = scoring_card(name).slug
        except UnknownScoringCard as error:
            raise ScoreInputError(str(error)) from None
        if slug in slugs:
            raise ScoreInputError(f"repeated Scoring Card {name!r}")
        slugs.append(slug)
    return tuple(slugs)


def _cards_painting(raw: Any) -> Painting:
    if not isinstance(raw, list):
        raise ScoreInputError(
            f'expected "cards" to be a list of {CARDS_PER_PAINTING} Art Cards, got {_json_type(raw)}'
        )
    if len(raw) != CARDS_PER_PAINTING:
        raise ScoreInputError(f"expected {CARDS_PER_PAINTING} Art Cards (bottom to top), got {len(raw)}")
    resolved: list[ArtCard] = []
    for name in raw:
        if isinstance(name, bool) or not isinstance(name, str | int):
            raise ScoreInputError(f"expected an Art Card title or id 1-{len(ART_CARDS)}, got {_json_type(name)} {name!r}")
        try:
            art_card = card(name)
        except UnknownCard as error:
            raise ScoreInputError(str(error)) from None
        if any(art_card.id == other.id for other in resolved):
            raise ScoreInputError(f"repeated Art Card {art_card.title!r}: a painting uses {CARDS_PER_PAINTING} different cards")
        resolved.append(art_card)
    return Painting.from_cards(resolved)


def _swatch_painting(raw: Any) -> Painting:
    if not isinstance(raw, list):
        raise ScoreInputError(
            f'expected "swatches" to be a list of {SWATCH_COUNT} lists, got {_json_type(raw)}'
        )
    if len(raw) != SWATCH_COUNT:
        raise ScoreInputError(f"expected {SWATCH_COUNT} swatches, got {len(raw)}")
    for number, swatch in enumerate(raw, start=1):
        if not isinstance(swatch, list):
            raise ScoreInputError(f"swatch {number}: expected a list of icon names, got {_json_type(swatch)}")
        for icon in swatch:
            if icon not in ICONS:
                raise ScoreInputError(
                    f"swatch {number}: unknown icon {icon!r}; expected one of {', '.join(ICONS)}"
                )
    try:
        return Painting.from_swatches(raw)
    except PaintingError as error:
        raise ScoreInputError(str(error)) from None


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
