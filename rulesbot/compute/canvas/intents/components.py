"""Counts of components and options, from the engine's data: "how many Art Cards are there?", "combien de scénarios ?".

Every count and its page come from the engine's `component_counts(ruleset)`; a "per player" wording picks the
per-player entry of the same component when the engine has one (Background Cards, Inspiration Tokens).
"""

from __future__ import annotations

from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """How many of a component (or players, levels, scenarios) the game has."""
    lang = parsed.lang
    slot = parsed.first("component")
    if slot is None or parsed.has("art_card", "card_chain", "position", "ribbon_group", "player_tokens", "hand_size"):
        return None
    if parsed.has("scoring_card") and slot.value != "scoring_cards":
        return None
    variant = parsed.value("variant")
    counts = engine.component_counts(variant.name if variant is not None else "base")
    slug = slot.value
    if parsed.cue("per_player") and f"{slug}_per_player" in counts:
        slug = f"{slug}_per_player"
    entry = counts.get(slug)
    if entry is None:
        return None
    name = entry.name_fr if lang == "fr" else entry.name_en
    sentences = [say("component_count", lang, count=entry.count, component=name)]
    number = claimed_number(parsed, spans(parsed, "component")) or claimed_number(parsed)
    if number is None and parsed.claim:
        # "the box came with 25 inspiration tokens": the count stated right before the component's name.
        number = next((item for item in parsed.all("number") if 0 <= slot.start - item.end <= 2), None)
    return Computation(intent="components", sentences=sentences, value=entry.count, value_text=str(entry.count),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_count", "component": slug, "count": entry.count,
                               "page": entry.page, "ruleset": variant.name if variant is not None else "base"},
                       concepts=[(f"component/{slot.value}", {"page": entry.page})])
