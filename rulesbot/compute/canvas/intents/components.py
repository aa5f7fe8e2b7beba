"""Counts of components and options, from the engine's data: "how many Art Cards are there?", "combien de scénarios ?".

Every count and its page come from the engine's `component_counts(ruleset)`; a "per player" wording picks the
per-player entry of the same component when the engine has one (Background Cards, Inspiration Tokens).
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import say
from rulesbot.compute.canvas.words import words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import E, alternation
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
    if slug == "ribbons_per_colour" and not parsed.cue("ribbon"):
        return None  # "how many of each colour?" counts ribbons only when ribbons are named
    name = entry.name_fr if lang == "fr" else entry.name_en
    leftover = _leftover(parsed, counts, slug, lang)
    if leftover is not None:
        return leftover
    sentences = [say("component_count", lang, count=entry.count, component=name)]
    number = claimed_number(parsed, spans(parsed, "component")) or claimed_number(parsed)
    if number is None and parsed.claim:
        # "the box came with 25 inspiration tokens": the count stated right before the component's name.
        number = next((item for item in parsed.all("number") if 0 <= slot.start - item.end <= 2), None)
    return Computation(intent="components", sentences=sentences, value=entry.count, value_text=str(entry.count),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_count", "component": slug, "count": entry.count,
                               "page": entry.page, "ruleset": variant.name if variant is not None else "base"},
                       concepts=[(f"component/{slot.value}", {"page": entry.page})]
                       # The player range is also what the components list is counted for (its tokens "at 5 players").
                       + ([("component_list", {})] if slug in ("max_players", "min_players") else []))


def _players(parsed: Parsed):
    """The number of players a question states ("5 of us", "à 4 joueurs", "on est 3"), or None."""
    text = parsed.folded
    for number in parsed.all("number"):
        after = text[number.end: number.end + 16]
        before = text[max(0, number.start - 12): number.start]
        if re.match(r"\s*(?:" + alternation(words("player_count")) + r")" + E, after) or re.search(
                r"\b(?:on est|we are|we're|nous sommes|a)\s*$", before) and not re.match(r"\s*(?:[a-z]+\s+)?each\b", after):
            return number
    return None


def _leftover(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """What goes back in the box once every player took their share: the box count minus players x the per-player
    count (both from the engine), for "5 of us, 3 backgrounds each: how many go back in the box?"."""
    per_player = counts.get(f"{slug.removesuffix('_per_player')}_per_player")
    total = counts.get(slug.removesuffix("_per_player"))
    players = _players(parsed)
    if per_player is None or total is None or players is None or not parsed.cue("box_leftover"):
        return None
    most = counts["max_players"].count
    if not 1 <= players.value <= most:
        return None
    left = total.count - players.value * per_player.count
    name = total.name_fr if lang == "fr" else total.name_en
    sentence = say("component_leftover", lang, left=left, component=name, total=total.count, players=players.value,
                   each=per_player.count)
    trace = [f"{total.count} - {players.value} × {per_player.count} = {left}"]
    return Computation(intent="components", sentences=[sentence], trace=trace, value=left, value_text=str(left),
                       engine={"intent": "component_leftover", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])
