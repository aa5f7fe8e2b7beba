"""Taking a card from the row: its cost, what it gains, and whether the player's tokens suffice, in any variant.

The cost and gain come from the engine: the move is applied to a state built from the question (the variant,
the tokens already on the cards, the tokens held), so Solo Puzzle's supply payment and discards are the engine's.
"""

from __future__ import annotations

import re
from typing import Any

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import alternation, words
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def _position(parsed: Parsed) -> int | None:
    slot = parsed.first("position")
    if slot is not None and slot.inherited and parsed.has("ordinal"):
        return parsed.value("ordinal")  # "and the fourth?" after a question about the second card
    if slot is not None:
        # The position must be what is taken or paid for: a take verb just before it, or a cost question.
        window = parsed.folded[max(0, slot.start - 40): slot.start]
        if (slot.inherited or parsed.cue("cost_question", "gain") or re.search(alternation(words("take")), window)
                or (parsed.cue("token") and (parsed.claim or parsed.form == "how_many"))):
            return slot.value
        return None
    on_cards = parsed.value("tokens_on_cards") or {}
    if len(on_cards) == 1 and re.search(r"\b(?:it|la|l')\b", parsed.folded):
        # "The second card has 3 tokens on it: if I take it ..." - the card with tokens is the one taken.
        return next(iter(on_cards))
    return None


def _free_word_outside_positions(parsed: Parsed) -> bool:
    """"costs nothing" states a cost of 0; the "free" of "the free card" only names the card."""
    text = parsed.folded
    for match in re.finditer(alternation(words("free_words")), text):
        if not any(slot.overlaps(*match.span()) for slot in parsed.all("position")):
            return True
    return False


def run_take(rules, position: int, tokens_on_cards: list[int], player_tokens: int | None,
             supply: int | None = None) -> dict:
    """Apply the take in the engine: cost, gain (card and supply), discards, supply after, legality with the tokens held."""
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    plenty = position + sum(tokens_on_cards)
    state = engine.custom_game(row=row, hands=((),), tokens=(plenty,), row_tokens=tokens_on_cards,
                               ruleset_name=rules.name, supply=supply)
    after = engine.apply_action(state, engine.TakeCard(player=0, position=position))
    cost, on_card = engine.take_cost(position, tokens_on_cards)
    gained = after.players[0].tokens - plenty + cost
    result: dict[str, Any] = {"cost": cost, "gain": gained, "gain_on_card": on_card, "gain_supply": gained - on_card,
                              "net": gained - cost, "discarded": len(after.discards) - len(state.discards),
                              "to_supply": after.supply - state.supply, "supply_after": after.supply}
    if player_tokens is not None:
        held = engine.custom_game(row=row, hands=((),), tokens=(player_tokens,), row_tokens=tokens_on_cards,
                                  ruleset_name=rules.name)
        code = engine.check_action(held, engine.TakeCard(player=0, position=position))
        result.update({"player_tokens": player_tokens, "reason": code, "allowed": code is None})
    return result


def compute(parsed: Parsed) -> Computation | None:
    """Cost / gain / affordability of taking the card at a row position."""
    lang = parsed.lang
    if not (parsed.cue("take", "cost_question", "gain") or parsed.has("tokens_on_cards", "player_tokens")
            or (parsed.claim and parsed.cue("token"))):
        return None
    vincent_takes = re.search(r"\b(?:vincent|he|il)\s+(?:\w+\s+)?" + alternation(words("take")), parsed.folded)
    if parsed.cue("odds") or parsed.has("vincent_tokens") or vincent_takes or (parsed.cue("vincent") and not parsed.has("variant")):
        return None  # Vincent's pick is chance, not a cost (the odds intent); the Vincent variant's own takes are costs
    named = {slot.value for slot in parsed.all("position") if not slot.inherited}
    if len(named) > 1:
        return None  # "is the card next to the deck the free one?" compares two positions: a rule question
    position = _position(parsed)
    if position is None and parsed.inherited_from and parsed.has("ordinal"):
        position = parsed.value("ordinal")  # "et la deuxieme ?" after a question about a row card
    if position is None:
        return None
    # A take verb alone ("when I take the 3rd card, where do the others slide?") asks a rule: a computation needs a
    # cost, a gain, tokens, a count or a claim in the question.
    if not (parsed.cue("cost_question", "gain", "token", "after") or parsed.claim or parsed.form in ("how_many", "can")
            or (parsed.cue("what_happens") and parsed.has("variant"))
            or parsed.has("player_tokens", "tokens_on_cards", "tokens_on_target") or parsed.inherited_from):
        return None
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    on_cards = dict(parsed.value("tokens_on_cards") or {})
    if parsed.has("tokens_on_target"):
        on_cards[position] = parsed.value("tokens_on_target")
    player_tokens = parsed.value("player_tokens")
    if position > rules.row_size:
        code, _state = helpers.legality("take", hand=0, position=position)
        return Computation(intent="take", value=False,
                           sentences=[say("take_no_position", lang, row=rules.row_size, position=position, code=code)],
                           engine={"intent": "take", "position": position, "reason": code},
                           concepts=[(f"reason/{code}", {})])
    tokens_list = [on_cards.get(index, 0) for index in range(1, rules.row_size + 1)]
    if rules.skip_payment != "on_card":
        tokens_list = [0] * rules.row_size  # tokens never sit on the cards in this variant
    supply = parsed.value("supply") if rules.token_supply else None
    moved = run_take(rules, position, tokens_list, player_tokens, supply)
    cost, gain, net = moved["cost"], moved["gain"], moved["net"]
    if rules.skip_payment == "on_card":
        sentences = [say("take_cost", lang, position=position, cost=qty(cost, "token", lang),
                         gain=qty(gain, "token", lang), net=f"{net:+d}")]
        concepts = [("take", {})] + ([("take_gain", {})] if gain else [])
    else:
        sentences = [say("take_cost_supply", lang, variant=rules.name_fr if lang == "fr" else rules.name_en,
                         position=position, cost=qty(cost, "token", lang), discarded=qty(moved["discarded"], "card", lang),
                         gain=qty(gain, "token", lang), net=f"{net:+d}")]
        concepts = [("take_variant", {"variant": rules.name}), ("take", {})]
    engine_object = {"intent": "take_cost", "position": position, "tokens_on_cards": tokens_list, "cost": cost,
                     "gain": gain, "net": net, "ruleset": rules.name, "discarded": moved["discarded"]}
    value: Any = cost
    value_text = qty(cost, "token", lang)
    if rules.token_supply:
        sentences.append(say("supply_after", lang, tokens=qty(moved["supply_after"], "token", lang)))
        engine_object["supply_after"] = moved["supply_after"]
    if player_tokens is not None:
        engine_object.update({key: moved[key] for key in ("player_tokens", "reason", "allowed")})
        if moved["allowed"]:
            sentences.append(say("take_can", lang, tokens=qty(player_tokens, "token", lang)))
            held_after = player_tokens + net
            sentences.append(say("take_after", lang, tokens=qty(held_after, "token", lang)))
            engine_object["tokens_after"] = held_after
        else:
            code = moved["reason"]
            sentences.append(say("take_cannot", lang, tokens=qty(player_tokens, "token", lang),
                                 reason=helpers.reason_text(code, lang), code=code))
            concepts.insert(0, (f"reason/{code}", {}))
    skipped = ", ".join(str(index) for index in range(1, position)) or "-"
    trace = [say("take_trace", lang, skipped=skipped, on_cards=tokens_list, cost_n=cost, gain_n=gain)]
    claimed = None
    if parsed.cue("after") and not parsed.claim:
        if parsed.cue("supply") and rules.token_supply:
            value, value_text = moved["supply_after"], qty(moved["supply_after"], "token", lang)
        elif "tokens_after" in engine_object:
            value, value_text = engine_object["tokens_after"], qty(engine_object["tokens_after"], "token", lang)
    gain_stated = re.search(alternation(words("gain") + ["gives me", "give me", "me donne", "me rapporte"])
                            + r"\s+(?:me\s+)?(?:a|an|un|une)\s+" + alternation(words("token")), parsed.folded)
    if parsed.claim:
        number = claimed_number(parsed, spans(parsed, "position", "tokens_on_cards", "tokens_on_target", "player_tokens"))
        if number is None and gain_stated:
            value, value_text, claimed = gain, qty(gain, "token", lang), 1  # "gives me a token"
        elif number is None and _free_word_outside_positions(parsed):
            claimed = 0  # "the free card costs nothing, right?"
        if number is not None:
            before = parsed.folded[max(0, number.start - 30): number.start]
            if re.search(alternation(words("gain")) + r"\w*\s*(?:\w+\s+)?$", before):
                value, value_text = gain, qty(gain, "token", lang)
            claimed = number.value
        elif player_tokens is not None:
            value, value_text, claimed = engine_object["allowed"], None, not parsed.negated
    elif player_tokens is not None:
        value, value_text = engine_object["allowed"], None
    return Computation(intent="take", sentences=sentences, trace=trace, value=value, value_text=value_text,
                       claimed=claimed, engine=engine_object, concepts=concepts)
