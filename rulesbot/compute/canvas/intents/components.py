"""Counts of components and options, from the engine's data: "how many Art Cards are there?", "combien de scénarios ?".

Every count and its page come from the engine's `component_counts(ruleset)`; a "per player" wording picks the
per-player entry of the same component when the engine has one (Background Cards, Inspiration Tokens).
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import say, word
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
    if parsed.has("position") and slot.value == "inspiration_tokens":
        return None  # "how many tokens are on the first card?": the tokens on a row card (a take), not the box count
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
    if slug == "art_cards" and parsed.cue("bonus_icon"):
        return _bonus_cards(parsed, entry, lang)
    leftover = _in_play(parsed, counts, slug, lang) or _leftover(parsed, counts, slug, lang)
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
    # "Julie says at 5 players exactly 5 backgrounds stay in the box": the count stated besides the players'.
    # (A share said per player, "3 each", describes the setup.)
    number = next((item for item in reversed(parsed.free_numbers()) if item.start != players.start
                   and not re.match(r"\s*(?:[\w'-]+\s+){0,3}?" + alternation(words("each_word")) + E,
                                    parsed.folded[item.end:item.end + 40])), None) if parsed.claim else None
    return Computation(intent="components", sentences=[sentence], trace=trace, value=left, value_text=str(left),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_leftover", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _in_play(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """How many are dealt out for a player count ("a 3 joueurs y a 12 jetons en jeu", "with 5 players every token is
    used"): players x the per-player count, against the box (both from the engine); a claim that all of them are
    used is checked against the box count."""
    per_player = counts.get(f"{slug.removesuffix('_per_player')}_per_player")
    total = counts.get(slug.removesuffix("_per_player"))
    players = _players(parsed)
    if per_player is None or total is None or players is None or not parsed.cue("in_play"):
        return None
    if not 1 <= players.value <= counts["max_players"].count:
        return None
    used = players.value * per_player.count
    left = total.count - used
    name = total.name_fr if lang == "fr" else total.name_en
    sentence = say("component_in_play", lang, used=used, component=name, total=total.count, players=players.value,
                   each=per_player.count, left=left)
    trace = [f"{players.value} × {per_player.count} = {used}; {total.count} - {used} = {left}"]
    number = next((item for item in parsed.free_numbers() if item is not players and item.value != per_player.count
                   and not (item.start == players.start)), None) if parsed.claim else None
    if number is not None:
        value, claimed, value_text = used, number.value, str(used)
    elif parsed.claim and parsed.cue("all_of_them"):
        value, claimed, value_text = used >= total.count, not parsed.negated, None  # "all the tokens are used"
    else:
        value, claimed, value_text = used, None, str(used)
    return Computation(intent="components", sentences=[sentence], trace=trace, value=value, value_text=value_text,
                       claimed=claimed,
                       engine={"intent": "component_in_play", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "in_play": used, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _bonus_cards(parsed: Parsed, entry, lang: str) -> Computation:
    """How many Art Cards carry a Silver Bonus Icon, counted on the engine's card data (and how many of each kind)."""
    from rulesbot.compute.canvas import helpers
    from rulesbot.engine.canvas.data import BONUS_ELEMENT

    per_card = [[icon for stripe in art_card.stripes for icon in stripe if icon in BONUS_ELEMENT] for art_card in engine.ART_CARDS]
    holders = [icons for icons in per_card if icons]
    kinds = {icon: sum(icons.count(icon) for icons in per_card) for icon in BONUS_ELEMENT}
    per_word = word("per", lang)
    kinds_text = ", ".join(f"{count} {helpers.icon_name(icon, lang, per_word)}" for icon, count in kinds.items())
    name = entry.name_fr if lang == "fr" else entry.name_en
    sentences = [say("component_bonus_cards", lang, count=len(holders), total=entry.count, component=name, kinds=kinds_text)]
    number = claimed_number(parsed, spans(parsed, "component"))
    return Computation(intent="components", sentences=sentences, value=len(holders), value_text=str(len(holders)),
                       claimed=None if number is None else number.value,
                       trace=[f"{len(holders)} / {entry.count}; " + ", ".join(f"{icon} {count}" for icon, count in kinds.items())],
                       engine={"intent": "bonus_cards", "count": len(holders), "art_cards": entry.count, "kinds": kinds,
                               "most_on_one_card": max(len(icons) for icons in per_card)},
                       concepts=[(f"component/{entry.slug}", {"page": entry.page}), ("bonus_icons", {})])
