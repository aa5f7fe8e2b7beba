"""Counts of components and options, from the engine's data: "how many Art Cards are there?", "combien de scénarios ?"."""

from __future__ import annotations

from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def _counts(rules) -> dict[str, tuple[int | str, str]]:
    """component -> (count, engine page key), read from the engine's data."""
    counts = getattr(engine, "component_counts", None)
    table: dict[str, tuple[int | str, str]] = {
        "art_cards": (len(engine.ART_CARDS), "components"),
        "scoring_cards": (len(engine.SCORING_CARDS), "components"),
        "scenarios": (len(engine.SCENARIOS), "scenarios"),
        "achievements": (len(engine.ACHIEVEMENTS), "achievements"),
        "levels": (len(engine.SOLO_LEVELS), "solo_levels"),
        "players": (f"{rules.min_players}-{rules.max_players}", "components"),
        "paintings": (rules.paintings, "paint"),
        "background_cards": (rules.backgrounds, "backgrounds"),
        "tokens": (rules.starting_tokens, "starting_tokens"),
    }
    if callable(counts):
        for name, entry in counts(rules.name).items():
            table.setdefault(name, (entry["count"], entry.get("page_key", "components")))
    return table


_PER_PLAYER = {"paintings", "background_cards", "tokens"}


def compute(parsed: Parsed) -> Computation | None:
    """How many of a component (or players, levels, scenarios) the game has."""
    lang = parsed.lang
    component = parsed.value("component")
    if component is None or parsed.has("art_card", "card_chain", "scoring_card", "position", "ribbon_group"):
        return None
    if component == "ribbons" or parsed.has("player_tokens", "hand_size"):
        return None
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    table = _counts(rules)
    if component not in table:
        return None
    count, page_key = table[component]
    if component in _PER_PLAYER and not parsed.cue("per_player", "in_game"):
        return None
    noun = say(f"component_{component}", lang)
    sentence_key = "component_per_player" if component in _PER_PLAYER else "component_count"
    sentences = [say(sentence_key, lang, count=count, component=noun)]
    number = claimed_number(parsed, spans(parsed, "component"))
    return Computation(intent="components", sentences=sentences, value=count, value_text=str(count),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_count", "component": component, "count": count,
                               "ruleset": rules.name},
                       concepts=[(f"component/{component}", {}), ("component", {"page_key": page_key})])
