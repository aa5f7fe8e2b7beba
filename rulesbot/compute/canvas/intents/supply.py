"""Tokens a painting gains from the supply in a variant: "solo puzzle, the supply's empty and I paint: how many tokens?"."""

from __future__ import annotations

from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import numbers
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """Complete a painting in the engine with the stated supply and report the tokens gained."""
    lang = parsed.lang
    rules = parsed.value("variant")
    if rules is None or not rules.supply_gain_painting or parsed.has("position", "card_chain"):
        return None
    if not (parsed.cue("token") or parsed.cue("gain")):
        return None
    supply = parsed.value("supply", rules.token_supply)
    hand = [art_card.id for art_card in engine.ART_CARDS[:CARDS_PER_PAINTING]]
    row = [art_card.id for art_card in engine.ART_CARDS[CARDS_PER_PAINTING: CARDS_PER_PAINTING + rules.row_size]]
    state = engine.custom_game(row=row, hands=(hand,), ruleset_name=rules.name, supply=supply)
    after = engine.apply_action(state, engine.CompletePainting(player=0, cards=tuple(hand)))
    gain = after.players[0].tokens - state.players[0].tokens
    name = rules.name_fr if lang == "fr" else rules.name_en
    sentences = [say("paint_tokens", lang, variant=name, supply=qty(supply, "token", lang), gain=qty(gain, "token", lang))]
    claimed = None
    # "how many tokens" names what is asked; the painting completed is the move itself.
    explained = [(slot.start, slot.end) for slot in parsed.slots if not slot.inherited and (
        (slot.name == "component" and slot.value == "inspiration_tokens") or (slot.name == "paintings_done" and slot.value == 1))]
    if parsed.claim:
        claimed = 1 if not parsed.negated else 0
        stated = numbers().find(parsed.folded)
        if stated:
            claimed = stated[-1].value
            explained.append((stated[-1].start, stated[-1].end))
    return Computation(intent="paint_tokens", sentences=sentences, value=gain, value_text=qty(gain, "token", lang),
                       claimed=claimed, engine={"intent": "paint_tokens", "ruleset": rules.name, "supply": supply, "gain": gain},
                       concepts=[("solo_puzzle_gain", {})], explained=explained)
