"""Taking a card from the row: its cost, what it gains, and whether the player's tokens suffice, in any variant.

The cost and gain come from the engine: the move is applied to a state built from the question (the variant,
the tokens already on the cards, the tokens held), so Solo Puzzle's supply payment and discards are the engine's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents.common import claimed_number, spans, vincent_in_question
from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import alternation, either, listed, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E, fold
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed, Slot


def _position(parsed: Parsed) -> int | None:
    asked_row = row_query(parsed)
    slot = next((slot for slot in parsed.all("position")
                 if not (asked_row and slot.start <= asked_row[1][0] < slot.end)), None)
    if slot is not None and slot.inherited and parsed.has("ordinal"):
        return parsed.value("ordinal")  # "and the fourth?" after a question about the second card
    if slot is not None:
        # The position must be what is taken or paid for: a take verb just before it, or a cost question.
        window = parsed.folded[max(0, slot.start - 40): slot.start]
        if not slot.inherited and re.search(B + either("beside_words") + r"\s+(?:the\s+|la\s+|le\s+|l')?$", window):
            return None  # "the supply next to the leftmost card": the card says where something is, not what is taken
        if (slot.inherited or parsed.cue("cost_question", "cost_asked", "gain")
                or re.search(alternation(words("take") + listed("want_take")), window)
                # "3 tokens on the free card: if I take it ...": the card named first, then taken by a pronoun.
                or re.search(r"\b(?:la|le|l'|je\s+l'|take\s+it|grab\s+it|get\s+it)\s*" + alternation(words("take") + ["it"]),
                             parsed.folded[slot.end: slot.end + 40])
                or (parsed.cue("token") and (parsed.claim or parsed.form == "how_many"))
                or (parsed.cue("after") and parsed.has("player_tokens"))):  # "I have 1 token ... what've I got"
            return slot.value
        return None
    on_cards = parsed.value("tokens_on_cards") or {}
    if len(on_cards) == 1 and re.search(r"\b(?:it|la|l')\b", parsed.folded):
        # "The second card has 3 tokens on it: if I take it ..." - the card with tokens is the one taken.
        return next(iter(on_cards))
    return None


def _row_size_said(parsed: Parsed, rules) -> list[tuple[int, int]]:
    """"with the usual 5 cards in the row": the row's size restated (when it is the rules' own), no value asked."""
    row = alternation(words("row_word"))
    return [(slot.start, slot.end) for slot in parsed.free_numbers() if not slot.inherited and slot.value == rules.row_size
            and re.match(r"\s+(?:art\s+)?" + alternation(words("card")) + r"\s+(?:in\s+|on\s+|dans\s+|de\s+|sur\s+)?" + row,
                         parsed.folded[slot.end:])]


def _states_tokens(parsed: Parsed, number: Slot) -> bool:
    """Whether a claimed number is a count of tokens: a token word after it, or a cost / gain / "is" word before it."""
    text = parsed.folded
    if re.match(r"\s*(?:[\w']+\s+)?" + alternation(words("token")) + r"\b", text[number.end:]):
        return True
    before = text[max(0, number.start - 24): number.start]
    lead = alternation(words("cost_question") + words("gain") + listed("value_lead"))
    return re.search(lead + r"\s*(?:me\s+|moi\s+|you\s+|vous\s+)?(?:only\s+|just\s+)?$", before) is not None or (
        not text[number.end:].strip(" ?!.,"))


def _free_word_outside_positions(parsed: Parsed) -> bool:
    """"costs nothing" states a cost of 0; the "free" of "the free card" only names the card."""
    text = parsed.folded
    for match in re.finditer(alternation(words("free_words")), text):
        if not any(slot.overlaps(*match.span()) for slot in parsed.all("position")):
            return True
    return False


_SKIP = re.compile(r"\s+(?:(?:[\w']+\s+){0,2}?" + either("subject_pronouns") + r"\s+)?" + either("skip_verbs") + r"\b")


_SKIPPED_BEFORE = re.compile(r"\b" + either("skipped_before") + r"\s+(?:over\s+)?(?:the\s+|les\s+|ces\s+)?$")


# "les deux premieres", "the first two": the cards before the one taken, i.e. the skipped ones.
_FIRST_ONES = re.compile(r"\s+" + either("first_ones") + E)


def _skipped_count(parsed: Parsed, position: int) -> list[tuple[int, int]]:
    """"what happens to the 2 I skip", "les 3 cartes que je saute": the count of cards skipped, which the take
    accounts for when it is the count the position skips."""
    return [(slot.start, slot.end) for slot in parsed.free_numbers()
            if slot.value == position - 1 and (_SKIP.match(parsed.folded[slot.end:]) or _SKIPPED_BEFORE.search(
                parsed.folded[max(0, slot.start - 24): slot.start])
                # (In a claim, "les 3 premieres je les perds ?" asks what happens to them: not explained here.)
                or not parsed.claim and _FIRST_ONES.match(parsed.folded[slot.end:]))] + [
        match.span() for match in re.finditer(B + r"(?:the\s+)?" + either("first_ones", "en") + r"\s+(?P<n>" + numbers().fragment + ")" + E,
                                              parsed.folded)
        if not parsed.claim and numbers().count_value(match.group("n")) == position - 1]


def row_query(parsed: Parsed) -> tuple[int, tuple[int, int]] | None:
    """"combien de jetons sur la 1re apres mon tour ?", "how many tokens are sitting on the first card after that?":
    the row position whose tokens after the take are asked, and the span naming it."""
    reader = numbers()
    match = re.search(either("tokens_on_lead") + r"\s+(?:[\w'-]+\s+){0,3}?(?:on|sur)\s+"
                      r"(?:the\s+|la\s+|le\s+)?(?P<ord>" + alternation(reader.ordinal_words) + r")(?:\s+" + either("card_or_one") + r")?\b",
                      parsed.folded)
    if match is None or not parsed.cue("after"):
        return None
    return reader.ordinal_words[match.group("ord").replace(" ", "")], match.span("ord")


_HELD_AFTER = re.compile(r"\b" + either("held_now") + r"\s+(?P<n>\d+)\b")
_SUPPLY_AFTER = re.compile(r"\b" + either("supply_word") + r"\s+(?:" + either("stands_at") + r"\s+)?(?P<n>\d+)\b")


def _stated_state(parsed: Parsed, engine_object: dict, moved: dict, rules) -> tuple[bool, list[tuple[int, int]]] | None:
    """"je prends la carte tout a gauche : j'ai 3 et la reserve 2 toujours, non ?": what the claim says is held and in the
    supply after the take (said after the card taken), checked together; None when it states neither."""
    if not parsed.claim:
        return None
    taken = [slot.end for slot in parsed.all("position") if not slot.inherited]
    if not taken:
        return None
    rest_at = max(taken)
    rest = parsed.folded[rest_at:]
    held = _HELD_AFTER.search(rest)
    stock = _SUPPLY_AFTER.search(rest) if rules.token_supply else None
    if stock is None or (held is not None and "tokens_after" not in engine_object):
        return None  # only the supply states a whole state here; the tokens alone are stated_after's
    right = int(stock.group("n")) == moved["supply_after"]
    found = [(rest_at + stock.start("n"), rest_at + stock.end("n"))]
    if held is not None:
        right = right and int(held.group("n")) == engine_object["tokens_after"]
        found.append((rest_at + held.start("n"), rest_at + held.end("n")))
    return right, found


def stated_after(parsed: Parsed) -> Slot | None:
    """The number stated as what is held after the move ("leaves me with 1", "je finis avec 2 jetons"), or None."""
    ends = [match.end() for match in re.finditer(alternation(words("after")), parsed.folded)]
    # "je passe de 4 a 6": the number after the tokens held ("de 4") is the result.
    ends += [held.end + match.end() for held in parsed.all("player_tokens") if not held.inherited
             and (match := re.match(r"\s+(?:a|to)\s+", parsed.folded[held.end:]))]
    for slot in parsed.free_numbers():
        if any(0 <= slot.start - end <= 2 for end in ends):
            return slot
    return None


# (role, word list): "after" is the cue list of what follows a take; the others are pattern_words lists.
_ROLES = (("cost", "stated_cost"), ("gain", "stated_gain"), ("after", "after"), ("after", "stated_held_after"))


def _role_words(key: str) -> str:
    return alternation(words(key)) if key == "after" else either(key)


def stated_roles(parsed: Parsed, exclude: list[tuple[int, int]]) -> list[tuple[str, Slot]]:
    """The numbers a take claim states, each with its role: "cost" ("me coute 2", "I pay 2"), "gain" ("m'en rend 1",
    "I get 2 back") or "after", the tokens held after the take ("I'm back at 4", "je passe de 4 a 3", "she has 5
    now"). A number's role is the role word said closest before it in its sentence, or a "back" / "now" after it;
    numbers `exclude` covers (the position, the tokens on cards, the tokens held before) state no value."""
    text = parsed.folded
    found = []
    for slot in parsed.free_numbers():
        if any(start < slot.end and slot.start < end for start, end in exclude) or slot.value is None:
            continue
        tail = text[slot.end: slot.end + 24]
        token_word = r"\s*(?:" + alternation(words("token")) + r")?"
        before = re.split(r"[.?!;]", text[max(0, slot.start - 28): slot.start])[-1]
        net = _net_said(before, tail, token_word)
        if net is not None:
            found.append(("net", replace(slot, value=net * slot.value)))  # "net zero", "so I'm down 1 overall"
            continue
        if re.match(token_word + r"\s+" + either("stated_back") + E, tail):
            found.append(("gain", slot))  # "I get 2 back"
            continue
        if re.match(token_word + r"\s+(?:" + either("stated_held_after_tail") + ")" + E, tail) \
                and not re.match(token_word + r"\s+(?:then|ensuite)\s+(?:i|je|j')", tail):
            found.append(("after", slot))  # "she has 5 now", "3 left"
            continue
        before = re.split(r"[.?!;]", text[max(0, slot.start - 28): slot.start])[-1]
        closest = None
        for role, key in _ROLES:
            for match in re.finditer(B + _role_words(key) + r"(?:\s+(?:de|a|to|at|with|avec|me|moi|only|just|seulement|"
                                     r"que|qu'|plus|than|like|about|environ|around)){0,2}\s*$", before):
                if closest is None or match.start() > closest[0]:
                    closest = (match.start(), role)
        # "je passe de 4 a 3": the number after the tokens held is the result (stated_after's reading).
        held = [other for other in parsed.all("player_tokens") if not other.inherited
                and re.fullmatch(r"\s+(?:a|to)\s+", text[other.end: slot.start])]
        if held:
            closest = (slot.start, "after")
        if closest is not None:
            found.append((closest[1], slot))
    return found


def _net_said(before: str, tail: str, token_word: str) -> int | None:
    """The sign of a net change said around a number ("net -1", "bilan +2", "down 1 overall", "je perds 1 au final"),
    or None when the number states no net change."""
    sign = re.search(r"(?P<sign>[+-])\s*$", before)
    signed = -1 if sign and sign.group("sign") == "-" else 1
    lead = before[: sign.start()] if sign else before
    if re.search(B + either("net_words") + r"(?:\s+(?:is|was|would be|est|serait|=))?\s*(?:of\s+|de\s+)?$", lead):
        return signed
    if re.match(token_word + r"\s+" + either("net_tail") + E, tail):
        if re.search(B + either("net_down") + r"\s*$", lead):
            return -1
        if re.search(B + either("net_up") + r"\s*$", lead) or sign:
            return signed
    return None


def run_sequence(rules, positions: list[int], player_tokens: int | None, supply: int | None) -> list[dict]:
    """Apply takes one after the other (the row refills between them): tokens and supply after each take."""
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    held = player_tokens if player_tokens is not None else sum(positions)
    state = engine.custom_game(row=row, hands=((),), tokens=(held,), ruleset_name=rules.name, supply=supply)
    steps = []
    for position in positions:
        before = state.players[0].tokens
        code = engine.check_action(state, engine.TakeCard(player=0, position=position))
        if code is not None:
            steps.append({"position": position, "reason": code, "tokens_before": before})
            break
        state = engine.apply_action(state, engine.TakeCard(player=0, position=position))
        steps.append({"position": position, "reason": None, "tokens_before": before,
                      "tokens_after": state.players[0].tokens, "supply_after": state.supply})
    return steps


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
                              "to_supply": after.supply - state.supply, "supply_after": after.supply,
                              "row_tokens_after": list(after.row_tokens)}
    if player_tokens is not None:
        held = engine.custom_game(row=row, hands=((),), tokens=(player_tokens,), row_tokens=tokens_on_cards,
                                  ruleset_name=rules.name)
        code = engine.check_action(held, engine.TakeCard(player=0, position=position))
        result.update({"player_tokens": player_tokens, "reason": code, "allowed": code is None})
    return result


_TWICE = re.compile(r"\b" + either("twice_word") + r"\b")


def compute(parsed: Parsed) -> Computation | None:
    """Cost / gain / affordability of taking the card at a row position."""
    lang = parsed.lang
    if not (parsed.cue("take", "cost_question", "cost_asked", "gain") or parsed.has("tokens_on_cards", "player_tokens")
            or parsed.has("tokens_on_target", "position") or (parsed.claim and parsed.cue("token"))
            or (parsed.has("position") and parsed.cue("token") and parsed.form == "how_many")  # "skip 2: how many tokens?"
            or (parsed.has("player_tokens") and parsed.cue("leaves_me", "farthest_reach")) or len(actors(parsed)) == 2):
        return None
    vincent_takes = vincent_in_question(parsed) and re.search(r"\b(?:vincent|he|il)\s+(?:[\w']+\s+)?"
                                                              + alternation(words("take")), parsed.folded)
    if parsed.cue("odds") or parsed.has("vincent_tokens") or vincent_takes or (vincent_in_question(parsed) and not parsed.has("variant")):
        return None  # Vincent's pick is chance, not a cost (the odds intent); the Vincent variant's own takes are costs
    if parsed.cue("paint") and not parsed.cue("cost_question", "gain"):
        return None  # "can I take the 2nd card and then paint on the same turn?" asks how a turn goes: a rule
    if parsed.cue("where_question") and not parsed.cue("leaves_me", "cost_asked"):
        return None  # "where do the skipped cards go?" asks a rule ("where does that leave me?" asks the tokens after,
        # "how much does it cost, and where do the skipped ones go?" asks a cost too)
    asked_row = row_query(parsed)
    named = [slot.value for slot in parsed.all("position") if not slot.inherited
             and not (asked_row and slot.start <= asked_row[1][0] < slot.end)]
    if len(named) == 1 and _TWICE.search(parsed.folded):
        return _sequence(parsed, named * 2)  # "I take the free card twice in a row"
    if asked_row is not None and not named and parsed.previous is not None:
        return _row_after_previous(parsed, asked_row)  # "and how many tokens are on the first card after that?"
    takers = actors(parsed)
    if len(named) == 2 and len(takers) == 2:
        # "abby took the 3rd card, now charlotte takes the 2nd"; "... how many tokens are on the first card after?"
        return _players(parsed, named, takers, asked_row)
    if len(set(named)) > 1:
        if parsed.cue("take_sequence") and len(named) == 2:
            return _sequence(parsed, named)  # "I take the 3rd, then next turn the leftmost one"
        return None  # "is the card next to the deck the free one?" compares two positions: a rule question
    if parsed.cue("farthest_reach") and not parsed.all("position"):
        return _farthest(parsed)
    position = _position(parsed)
    if position is None and parsed.inherited_from and parsed.has("ordinal"):
        position = parsed.value("ordinal")  # "et la deuxieme ?" after a question about a row card
    if position is None:
        return None
    # A take verb alone ("when I take the 3rd card, where do the others slide?") asks a rule: a computation needs a
    # cost, a gain, tokens, a count or a claim in the question.
    if not (parsed.cue("cost_question", "cost_asked", "gain", "token", "after") or parsed.claim or parsed.form in ("how_many", "can")
            or (parsed.cue("what_happens") and parsed.has("variant"))
            or parsed.has("player_tokens", "tokens_on_cards", "tokens_on_target") or parsed.inherited_from):
        return None
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    on_cards = dict(parsed.value("tokens_on_cards") or {})
    if parsed.has("tokens_on_target"):
        on_cards[position] = parsed.value("tokens_on_target")
    player_tokens = parsed.value("player_tokens")
    # "start of game, I pay for the 5th card: tokens left?": before any take, a player holds the rules' starting tokens.
    at_start = player_tokens is None and parsed.cue("game_start")
    if at_start:
        player_tokens = rules.starting_tokens
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
        if supply == 0 and gain == 0 and (rules.supply_gain_free_card if position == 1 else 0):
            sentences.append(say("supply_empty_gain", lang))  # the gain the rules give is not paid: nothing left
        sentences.append(say("supply_after", lang, tokens=qty(moved["supply_after"], "token", lang)))
        engine_object["supply_after"] = moved["supply_after"]
    if player_tokens is not None:
        engine_object.update({key: moved[key] for key in ("player_tokens", "reason", "allowed")})
        if at_start:
            sentences.append(say("take_start_tokens", lang, tokens=qty(player_tokens, "token", lang)))
            concepts.append(("component/inspiration_tokens", {}))
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
    explained = spans(parsed, "component") if parsed.value("component") == "inspiration_tokens" else []
    # "first turn", "au premier tour": an ordinal naming the turn is when the take happens, not a row position.
    explained += [(slot.start, slot.end) for slot in parsed.all("ordinal") if not slot.inherited
                  and re.match(r"\s+" + either("turn_words") + E, parsed.folded[slot.end:])]
    if parsed.first("ordinal") is not None and position == parsed.value("ordinal"):
        explained += spans(parsed, "ordinal")
    explained += _skipped_count(parsed, position) + _row_size_said(parsed, rules)
    # "I pay two to take the 3rd card": the cost restated by the asker, when it is the engine's cost, is read.
    paid = re.search(B + either("i_pay") + r"\s+(?P<n>" + numbers().fragment + ")" + E, parsed.folded)
    if paid is not None and numbers().count_value(paid.group("n")) == cost:
        explained.append(paid.span())
    if asked_row is not None and asked_row[0] <= rules.row_size and not parsed.claim:
        where, span = asked_row
        left = moved["row_tokens_after"][where - 1]
        sentences.append(say("row_tokens_after", lang, position=where, tokens=qty(left, "token", lang)))
        engine_object["row_tokens_after"] = moved["row_tokens_after"]
        return Computation(intent="take", sentences=sentences, trace=trace, value=left, value_text=qty(left, "token", lang),
                           engine=engine_object, concepts=concepts, explained=explained + [span])
    state_claim = _stated_state(parsed, engine_object, moved, rules)
    if state_claim is not None:
        value, found = state_claim
        return Computation(intent="take", sentences=sentences, trace=trace, value=value, claimed=not parsed.negated
                           if parsed.explicit_claim else True, engine=engine_object, concepts=concepts, states=True,
                           explained=explained + found)
    roles = stated_roles(parsed, spans(parsed, "position", "tokens_on_cards", "tokens_on_target", "player_tokens", "supply")
                         + _skipped_count(parsed, position)) if parsed.claim else []
    if len(roles) > 1 or (roles and roles[0][0] in ("after", "net")):
        # "it costs me 2 and gives 1 back, so I go from 4 to 3": every value the claim states is checked, each by
        # the role its words give it (cost, gain, tokens held after); the first wrong one is the one answered.
        actual = {"cost": cost, "gain": gain, "net": net, "after": engine_object.get("tokens_after")}
        if any(actual[role] is None for role, _slot in roles):
            return None  # what is left depends on the tokens held, which the question does not say
        wrong = [(role, slot) for role, slot in roles if actual[role] != slot.value]
        role, slot = wrong[0] if wrong else roles[-1]
        shown = f"{net:+d}" if role == "net" else qty(actual[role], "token", lang)
        return Computation(intent="take", sentences=sentences, trace=trace, value=actual[role],
                           value_text=shown, claimed=slot.value, engine=engine_object,
                           concepts=concepts, states=True,
                           explained=explained + [(found.start, found.end) for _role, found in roles])
    after_number = stated_after(parsed)
    if after_number is not None:
        # "taking the fourth leaves me with 1 right?", "I'd end with 3 tokens?": a stated result to check.
        if "tokens_after" not in engine_object:
            return None  # what is left depends on the tokens held, which the question does not say
        return Computation(intent="take", sentences=sentences, trace=trace, value=engine_object["tokens_after"],
                           value_text=qty(engine_object["tokens_after"], "token", lang), claimed=after_number.value,
                           engine=engine_object, concepts=concepts, states=True,
                           explained=explained + [(after_number.start, after_number.end)])
    # "solo puzzle: 3 tokens, I take the 4th. Supply after?" reads as a statement but asks what follows.
    # (A yes/no question stating a value, "does taking the fourth card cost 2 tokens?", stays a claim.)
    claim = parsed.claim and not (parsed.claim_cue == "statement" and parsed.text.rstrip().endswith("?")
                                  and parsed.cue("after", "cost_question") and claimed_number(parsed, spans(
                                      parsed, "position", "tokens_on_cards", "tokens_on_target", "player_tokens")) is None)
    if parsed.cue("after") and not claim:
        if parsed.cue("supply") and rules.token_supply:
            value, value_text = moved["supply_after"], qty(moved["supply_after"], "token", lang)
        elif "tokens_after" in engine_object:
            value, value_text = engine_object["tokens_after"], qty(engine_object["tokens_after"], "token", lang)
    gain_stated = re.search(alternation(words("gain") + listed("gives_me"))
                            + r"\s+(?:me\s+)?(?:a|an|un|une)\s+" + alternation(words("token")), parsed.folded)
    if claim:
        # (The count of cards skipped, "the 3 cards she skipped", describes the take: it is not the claimed cost.)
        number = claimed_number(parsed, spans(parsed, "position", "tokens_on_cards", "tokens_on_target", "player_tokens")
                                + _skipped_count(parsed, position))
        if number is None and gain_stated:
            value, value_text, claimed = gain, qty(gain, "token", lang), 1  # "gives me a token"
        elif number is None and _free_word_outside_positions(parsed):
            claimed = 0  # "the free card costs nothing, right?"
        if number is not None and not _states_tokens(parsed, number):
            return None  # "the tokens on the 3 first cards, do I lose them?": a count of cards, not a stated cost
        if number is not None:
            before = parsed.folded[max(0, number.start - 30): number.start]
            if re.search(alternation(words("gain")) + r"\w*\s*(?:\w+\s+)?$", before):
                value, value_text = gain, qty(gain, "token", lang)
            claimed = number.value
            explained.append((number.start, number.end))
        elif player_tokens is not None:
            # ("c'est impossible, non ?", "that's illegal, right?" claim the take is not allowed.)
            refused = re.search(B + either("not_allowed") + E, parsed.folded) is not None
            value, value_text, claimed = engine_object["allowed"], None, not (parsed.negated or refused)
    elif player_tokens is not None and not parsed.cue("after", "cost_question"):
        value, value_text = engine_object["allowed"], None  # "can I take it with 2 tokens?"
    return Computation(intent="take", sentences=sentences, trace=trace, value=value, value_text=value_text,
                       claimed=claimed, engine=engine_object, concepts=concepts, explained=explained)


def _sequence(parsed: Parsed, positions: list[int]) -> Computation | None:
    """Two takes in a row ("the 3rd, then next turn the leftmost"): the tokens held (and the supply) after both."""
    lang = parsed.lang
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    if parsed.has("tokens_on_cards", "tokens_on_target") or max(positions) > rules.row_size:
        return None  # tokens on the row's cards move between turns: not one computation
    player_tokens = parsed.value("player_tokens")
    if player_tokens is None:
        return None  # what is left depends on the tokens held
    if re.search(B + either("paint_action") + E, parsed.folded):
        return None  # a painting completed between or after the takes: the action sequence's (intents/sequence.py)
    supply = parsed.value("supply") if rules.token_supply else None
    steps = run_sequence(rules, positions, player_tokens, supply)
    last = steps[-1]
    concepts = [("take_variant", {"variant": rules.name}), ("take", {})] if rules.token_supply else [("take", {})]
    if last["reason"] is not None:
        code = last["reason"]
        sentences = [say("take_cannot", lang, tokens=qty(last["tokens_before"], "token", lang),
                         reason=helpers.reason_text(code, lang), code=code)]
        return Computation(intent="take", sentences=sentences, value=False, engine={"intent": "take_sequence",
                           "positions": positions, "reason": code}, concepts=[(f"reason/{code}", {})] + concepts)
    steps_text = "; ".join(say("take_sequence_step", lang, position=step["position"],
                               before=qty(step["tokens_before"], "token", lang), after=qty(step["tokens_after"], "token", lang))
                           for step in steps)
    held = last["tokens_after"]
    sentences = [say("take_sequence", lang, steps=steps_text, tokens=qty(held, "token", lang))]
    engine_object = {"intent": "take_sequence", "positions": positions, "ruleset": rules.name, "player_tokens": player_tokens,
                     "tokens_after": held}
    if rules.token_supply:
        sentences.append(say("supply_after", lang, tokens=qty(last["supply_after"], "token", lang)))
        engine_object["supply_after"] = last["supply_after"]
    claimed = None
    explained = spans(parsed, "component") if parsed.value("component") == "inspiration_tokens" else []
    stated = stated_after(parsed) or claimed_number(parsed, spans(parsed, "position", "player_tokens", "supply"))
    if stated is not None:
        claimed = stated.value
        explained.append((stated.start, stated.end))
    return Computation(intent="take", sentences=sentences, value=held, value_text=qty(held, "token", lang), claimed=claimed,
                       engine=engine_object, concepts=concepts, explained=explained, states=stated is not None)


_ACTOR = re.compile(r"\b(?P<who>[a-z]+)\s+(?:" + either("then_word") + r"\s+)?" + either("took_verbs") + r"\b")
# Words before a take verb that are not a player's name ("then he took", "si on prend").
_NOT_NAMES = frozenset(listed("not_names"))


def actors(parsed: Parsed) -> list[tuple[str, int]]:
    """The named players who take ("abby took ...", "charlotte prend ..."): (name, where), in order; pronouns aside."""
    return [(match.group("who"), match.start()) for match in _ACTOR.finditer(parsed.folded)
            if match.group("who") not in _NOT_NAMES]


def _players(parsed: Parsed, positions: list[int], actors: list[tuple[str, int]],
             asked_row: tuple[int, tuple[int, int]] | None = None) -> Computation | None:
    """Two players take one after the other: the tokens the asked one gains or loses on their take, and the row after.

    The asked player is the one named again after both takes ("how many tokens does charlotte gain?"); or a row card's
    tokens after both takes are asked ("how many tokens are on the first card after charlotte's turn?")."""
    lang = parsed.lang
    (first, _), (second, second_at) = actors
    if first == second or parsed.has("player_tokens", "tokens_on_cards", "tokens_on_target") or parsed.claim:
        return None
    asked = [name for name in (first, second) if re.search(r"\b" + re.escape(name) + r"\b", parsed.folded[second_at + len(second):])]
    if asked_row is not None:
        asked = [second]  # the row after the second take is asked, not a player's tokens
    if len(asked) != 1:
        return None  # which player's tokens are asked is not said
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    if max(positions) > rules.row_size or rules.token_supply:
        return None
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    plenty = sum(positions) * rules.skip_cost_per_card
    state = engine.custom_game(row=row, hands=((), ()), tokens=(plenty, plenty), ruleset_name=rules.name)
    nets = []
    for player, position in enumerate(positions):
        action = engine.TakeCard(player=player, position=position)
        if engine.check_action(state, action) is not None:
            return None
        before = state.players[player].tokens
        state = engine.apply_action(state, action)
        nets.append(state.players[player].tokens - before)
    who = 0 if asked[0] == first else 1
    net = nets[who]
    # The names as the player wrote them ("Inès", not the folded "ines").
    names = tuple(next((item for item in re.findall(r"[\w'-]+", parsed.text) if fold(item) == name), name.capitalize())
                  for name in (first, second))
    sentences = [say("take_players", lang, first=names[0], second=names[1], first_position=positions[0],
                     second_position=positions[1], first_net=f"{nets[0]:+d}", second_net=f"{nets[1]:+d}",
                     row=list(state.row_tokens))]
    # The cards the first take skipped ("tokens on the 1st and 2nd") describe that take: explained.
    explained = [(slot.start, slot.end) for slot in parsed.all("ordinal") if not slot.inherited and slot.value < positions[0]]
    explained += [(slot.start, slot.end) for slot in parsed.all("position") if not slot.inherited]
    explained += spans(parsed, "component") if parsed.value("component") == "inspiration_tokens" else []
    if asked_row is not None:
        where, span = asked_row
        if where > rules.row_size:
            return None
        left = state.row_tokens[where - 1]
        sentences.append(say("row_tokens_after", lang, position=where, tokens=qty(left, "token", lang)))
        return Computation(intent="take", sentences=sentences, value=left, value_text=qty(left, "token", lang),
                           engine={"intent": "take_players", "positions": positions, "nets": nets, "asked": None,
                                   "ruleset": rules.name, "row_tokens_after": list(state.row_tokens)},
                           concepts=[("take", {})], explained=explained + [span])
    return Computation(intent="take", sentences=sentences, value=net, value_text=f"{net:+d}",
                       engine={"intent": "take_players", "positions": positions, "nets": nets, "asked": who,
                               "ruleset": rules.name, "row_tokens_after": list(state.row_tokens)},
                       concepts=[("take", {})], explained=explained)


def _row_after_previous(parsed: Parsed, asked_row: tuple[int, tuple[int, int]]) -> Computation | None:
    """"and how many tokens are sitting on the first card after that?": the row after the previous question's takes."""
    lang = parsed.lang
    before = compute(parsed.previous)
    row_after = before.engine.get("row_tokens_after") if before is not None else None
    where, span = asked_row
    if not row_after or where > len(row_after):
        return None
    left = row_after[where - 1]
    return Computation(intent="take", sentences=[say("row_tokens_after", lang, position=where, tokens=qty(left, "token", lang))],
                       value=left, value_text=qty(left, "token", lang),
                       engine={"intent": "row_tokens_after", "position": where, "row_tokens_after": row_after},
                       concepts=[("take", {})], explained=[span] + spans(parsed, "position", "component"))


def _farthest(parsed: Parsed) -> Computation | None:
    """"With 3 tokens, what's the farthest card I can take?": the last row position the engine lets them take."""
    lang = parsed.lang
    player_tokens = parsed.value("player_tokens")
    if player_tokens is None or parsed.has("tokens_on_cards", "tokens_on_target"):
        return None
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((),), tokens=(player_tokens,), ruleset_name=rules.name)
    allowed = [position for position in range(1, rules.row_size + 1)
               if engine.check_action(state, engine.TakeCard(player=0, position=position)) is None]
    if not allowed:
        return None
    farthest = max(allowed)
    cost, _gain = engine.take_cost(farthest, [0] * rules.row_size)
    sentences = [say("take_farthest", lang, tokens=qty(player_tokens, "token", lang), position=farthest,
                     cost=qty(cost, "token", lang))]
    explained = spans(parsed, "component") if parsed.value("component") == "inspiration_tokens" else []
    return Computation(intent="take", sentences=sentences, value=farthest, engine={
        "intent": "take_farthest", "player_tokens": player_tokens, "position": farthest, "cost": cost, "ruleset": rules.name},
        concepts=[("take", {})], explained=explained)
