"""A described sequence of actions and the tokens it leaves: "Solo Puzzle, I started with four. I took the leftmost
card, then paid two to take the third card, then took the leftmost card again, then completed a painting. I make that
five", "I take the leftmost card 3 times and paint once; tokens I end with?", "je prends la carte la plus a gauche,
puis au tour suivant je termine une peinture : je gagne combien de jetons ?".

The actions (take the card at a row position, complete a painting, each possibly repeated "3 times" / "twice") are
read in the order said and applied one after the other by the engine, from its own state: the tokens held (said, or
the rules' starting tokens at the start of a game), the variant's supply (said, or full), its supply payments and gains.
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents import take
from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import alternation, either, listed, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed

_TIMES = re.compile(r"\s+(?:(?:art\s+)?(?:card|carte|one)\s+)?(?:(?:again|de nouveau|encore)\s+)?(?:(?P<n>[\w-]+(?:\s[\w-]+)?)\s+(?:times|fois)|(?P<one>once|une fois)|"
                    r"(?P<two>twice|deux fois))" + E)


# "deux fois la carte la plus a gauche", "twice the leftmost one": the count said before the card.
_TIMES_BEFORE = re.compile(r"(?:^|\s)(?:(?P<n>[\w-]+)\s+(?:times|fois)|(?P<two>twice|deux fois))\s+(?:(?:the|la|le|l')\s*)?"
                           r"(?:(?:card|carte|one|celle)\s+)?$")


# "turn 2 I paid ...", "au tour 3": a turn numbered, the number saying which step of the sequence it is.
_TURN_LABEL = re.compile(r"(?:^|\s)(?:(?:on|in|at|au|a\s+mon|on\s+my|my)\s+)?" + either("turn_words") + r"\s+(?:n[o°]\s*)?(?P<n>\d+)" + E)


def _repeat_before(text: str, start: int) -> tuple[int, int]:
    """How many times a take said right after a count ("deux fois la carte ...") is done, and where that count starts."""
    match = _TIMES_BEFORE.search(text[max(0, start - 24): start])
    if match is None:
        return 1, start
    at = max(0, start - 24) + match.start()
    if match.group("two"):
        return 2, at
    value = numbers().count_value(match.group("n"))
    return (value, at) if isinstance(value, int) and value > 0 else (1, start)


def _repeat(text: str, end: int) -> tuple[int, int]:
    """How many times an action said just before `end` is done ("3 times", "twice", "une fois"), and where that ends."""
    match = _TIMES.match(text[end:])
    if match is None:
        return 1, end
    if match.group("one"):
        return 1, end + match.end()
    if match.group("two"):
        return 2, end + match.end()
    value = numbers().count_value(match.group("n"))
    return (value, end + match.end()) if isinstance(value, int) and value > 0 else (1, end)


def _actions(parsed: Parsed) -> tuple[list[tuple[str, int]], list[tuple[int, int]]] | None:
    """The actions said, in order: ("take", position) or ("paint", 0), each repeated as said; and the spans read."""
    text = parsed.folded
    take = alternation(words("take") + listed("taken_past"))
    found: list[tuple[int, str, int, int]] = []  # (where, action, position, times)
    read: list[tuple[int, int]] = []
    for slot in parsed.all("position"):
        if slot.inherited or re.match(r"\s*(?:times|fois)" + E, text[slot.end:]):
            continue  # ("the leftmost card 3 times": the 3 counts the takes, it is no card number)
        lead = text[max(0, slot.start - 40): slot.start]
        clause = re.split(r"[,.;:?!]|\b(?:then|puis|ensuite|and|et)\b", lead)[-1]
        # "..., then the leftmost again": after a sequence word, a card named alone is taken as the one before it was.
        # ("turn 1 I took ..., turn 3 leftmost again": a numbered turn opening the clause says the same.)
        chained = found and (re.search(B + alternation(words("take_sequence")) + r"\s+(?:[\w']+\s+){0,4}$", lead)
                             or _TURN_LABEL.search(clause) is not None)
        if not re.search(B + take + E, clause) and not chained:
            return None  # a position not taken ("the supply next to the leftmost card"): not a described sequence
        before, begins = _repeat_before(text, slot.start)
        times, end = _repeat(text, slot.end)
        found.append((slot.start, "take", slot.value, times if times > 1 else before))
        read.append((begins, end))
    for match in re.finditer(B + either("paint_action") + E, text):
        times, end = _repeat(text, match.end())
        found.append((match.start(), "paint", 0, times))
        read.append((match.start(), end))
    actions = [(action, position) for _where, action, position, times in sorted(found) for _ in range(times)]
    return actions, read


def _start_tokens(parsed: Parsed, first_at: int) -> tuple[int | None, list[tuple[int, int]]]:
    """The tokens held before the actions (said before them: "holding 3 tokens", "I started with four"), or None."""
    held = next((slot for slot in parsed.all("player_tokens") if not slot.inherited and slot.start < first_at), None)
    if held is not None:
        return held.value, [(held.start, held.end)]
    match = re.search(B + either("started_with") + r"\s+(?P<n>" + numbers().fragment + ")" + E, parsed.folded)
    if match is not None and isinstance(numbers().count_value(match.group("n")), int):
        return numbers().count_value(match.group("n")), [match.span()]
    return None, []


def compute(parsed: Parsed) -> Computation | None:
    """The tokens (and the supply) after the actions described, applied one after the other in the engine."""
    lang = parsed.lang
    if parsed.has("tokens_on_cards", "tokens_on_target") or parsed.previous is not None or parsed.has("vincent_tokens"):
        return None
    if take.actors(parsed):
        return None  # "abby takes the 3rd card, then charlotte the 2nd": players' takes, not one player's sequence
    found = _actions(parsed)
    if found is None:
        return None
    actions, read = found
    if len(actions) < 2 or not any(action == "take" for action, _ in actions):
        return None
    if parsed.form == "can" or not (parsed.form == "how_many" or parsed.claim or re.search(B + either("held_after") + E, parsed.folded)):
        return None  # "can I take the first card and then paint?", "do both give a token?" ask a rule, not a count
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    if any(position > rules.row_size for action, position in actions if action == "take"):
        return None
    first_at = min(start for start, _ in read)
    held, start_read = _start_tokens(parsed, first_at)
    # "..., I should have 8 tokens now": tokens said held after the actions are the result stated.
    result_said = [slot for slot in parsed.all("player_tokens") if not slot.inherited and slot.start > first_at]
    assumed = held is None
    if assumed:
        held = rules.starting_tokens  # nothing spent yet: a player starts with the rules' starting tokens
    text = parsed.folded
    supply = None
    supply_stated = None
    supply_read: list[tuple[int, int]] = []
    if rules.token_supply:
        full = re.search(B + either("supply_full") + E, text)
        slot = parsed.first("supply")
        if slot is not None and slot.start > min(start for start, _ in read) and not re.search(
                B + either("supply_started") + E, text[slot.start: slot.end + 12]):
            if not parsed.claim:
                return None  # the supply said after the actions is a result stated ("so the supply is empty")
            supply_stated, slot = slot, None  # checked against the supply the actions leave
        supply = slot.value if slot is not None else rules.token_supply
        supply_read = [full.span()] if full else []
    paints_at = [index for index, (action, _) in enumerate(actions) if action == "paint"]
    # A painting needs its cards in hand: those the takes before it do not bring are held from earlier turns.
    takes_before = sum(1 for action, _ in actions[: paints_at[0]] if action == "take") if paints_at else CARDS_PER_PAINTING
    hand = [card.id for card in engine.ART_CARDS[:max(0, CARDS_PER_PAINTING - takes_before)]]
    used = len(hand)
    row = [card.id for card in engine.ART_CARDS[used: used + rules.row_size]]
    deck = [card.id for card in engine.ART_CARDS[used + rules.row_size:]]
    state = engine.custom_game(row=row, hands=(hand,), tokens=(held,), deck=deck, ruleset_name=rules.name, supply=supply)
    steps = []
    for action, position in actions:
        before = state.players[0].tokens
        if action == "take":
            move = engine.TakeCard(player=0, position=position)
        else:
            cards = tuple(state.players[0].hand[:CARDS_PER_PAINTING])
            move = engine.CompletePainting(player=0, cards=cards)
        code = engine.check_action(state, move)
        if code is not None:
            return Computation(intent="action_sequence", value=False, sentences=[
                say("take_cannot", lang, tokens=qty(before, "token", lang), reason=helpers.reason_text(code, lang), code=code)],
                engine={"intent": "action_sequence", "actions": actions, "reason": code}, concepts=[(f"reason/{code}", {})])
        state = engine.apply_action(state, move)
        steps.append((action, position, before, state.players[0].tokens, state.supply))
    after = steps[-1][3]
    gained = after - held
    shown = [say("sequence_take" if action == "take" else "sequence_paint", lang, position=position,
                 before=qty(before, "token", lang), after=qty(now, "token", lang)) for action, position, before, now, _ in steps]
    sentences = []
    if assumed:
        sentences.append(say("take_start_tokens", lang, tokens=qty(held, "token", lang)))
    sentences.append(say("sequence_done", lang, steps="; ".join(shown), tokens=qty(after, "token", lang),
                         gained=f"{gained:+d}"))
    engine_object = {"intent": "action_sequence", "ruleset": rules.name, "actions": actions, "tokens_before": held,
                     "tokens_after": after, "gained": gained}
    concepts = [("take_variant", {"variant": rules.name}), ("take", {})] if rules.token_supply else [("take", {})]
    if rules.token_supply:
        sentences.append(say("supply_after", lang, tokens=qty(steps[-1][4], "token", lang)))
        engine_object["supply_after"] = steps[-1][4]
        if any(action == "paint" for action, _ in actions):
            concepts.append(("solo_puzzle_gain", {}))
    explained = read + start_read + supply_read
    # "I pay two to take the 3rd card": a cost the asker restates is read when it is the engine's cost.
    for paid in re.finditer(B + either("pay_verbs") + r"\s+(?P<n>" + numbers().fragment + ")" + E, text):
        following = next((slot.value for slot in parsed.all("position") if slot.start > paid.end() and not slot.inherited), None)
        cost = engine.take_cost(following, [0] * rules.row_size)[0] if following else None
        if cost is None or numbers().count_value(paid.group("n")) != cost:
            return None
        explained.append(paid.span())
    asks_gain = parsed.cue("gain") and not parsed.cue("after")
    value = gained if asks_gain else after
    claimed = None
    # "over these two turns": the count of turns the actions take is read.
    explained += [(slot.start, slot.end) for slot in parsed.free_numbers() if slot.value == len(actions)
                  and re.match(r"\s+" + either("turn_words") + r"s?" + E, text[slot.end:])]
    # "turn 1 ..., turn 2 ...": the numbers of the turns the actions are said in (at most one per action) are read.
    explained += [match.span("n") for match in _TURN_LABEL.finditer(text) if 1 <= int(match.group("n")) <= len(actions)]
    stated = [slot for slot in parsed.free_numbers() if not any(start <= slot.start < end for start, end in explained)]
    stated += result_said
    claim = parsed.claim and not (parsed.claim_cue == "statement" and not stated)  # "...; tokens I end with?" asks
    if not claim and not (parsed.form == "how_many" or re.search(B + either("held_after") + E, text)):
        return None  # "I take the 3rd card then paint, is that allowed?" asks a rule, not a count
    if claim:
        if len(stated) != 1:
            return None
        claimed = stated[0].value
        explained.append((stated[0].start, stated[0].end))
    elif stated:
        return None  # a number the actions do not account for
    explained += [(slot.start, slot.end) for slot in parsed.all("component") if slot.value == "inspiration_tokens"]
    explained += [(slot.start, slot.end) for slot in parsed.all("paintings_done") if slot.value == 1]
    # "... and the supply is empty, so the 5th time I get nothing": what the claim says follows, checked too.
    checks = []
    if supply_stated is not None:
        checks.append(supply_stated.value == steps[-1][4])
        explained.append((supply_stated.start, supply_stated.end))
    further = _further_gain(parsed, len(actions))
    if further is not None:
        span, said = further
        action, position = actions[-1]
        move = engine.TakeCard(player=0, position=position) if action == "take" else None
        if move is None or engine.check_action(state, move) is not None:
            return None
        again = engine.apply_action(state, move)
        gain = again.players[0].tokens - state.players[0].tokens + engine.take_cost(position, list(state.row_tokens))[0]
        sentences.append(say("sequence_again", lang, position=position, gain=qty(gain, "token", lang)))
        checks.append(gain == said)
        explained.append(span)
    if checks and claimed is not None:
        return Computation(intent="action_sequence", sentences=sentences, value=claimed == value and all(checks),
                           claimed=True, engine=engine_object, concepts=concepts, explained=explained, states=True)
    if checks:
        return None
    return Computation(intent="action_sequence", sentences=sentences, value=value, value_text=qty(value, "token", lang),
                       claimed=claimed, engine=engine_object, concepts=concepts, explained=explained,
                       states=claimed is not None)


def _further_gain(parsed: Parsed, done: int) -> tuple[tuple[int, int], int] | None:
    """"so the 5th time I get nothing": the gain claimed for the next repetition of the last action (its ordinal is the
    count of actions done plus one), and where that is said; None when the message says no such thing."""
    reader = numbers()
    match = re.search(B + r"(?:the\s+|la\s+|le\s+)?(?P<ord>" + alternation(reader.ordinal_words) + r")\s+(?:time|fois)"
                      r"\b[^.?!]{0,30}?\b(?P<none>" + alternation(words("no_tokens")) + r"|nothing|rien|zero|0)" + E,
                      parsed.folded)
    if match is None or reader.ordinal_words[match.group("ord").replace(" ", "")] != done + 1:
        return None
    return match.span(), 0
