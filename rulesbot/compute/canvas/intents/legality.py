"""Legality: "can I take a card with 5 cards in hand?", "peut-on peindre avec quatre cartes ?", asked of the engine."""

from __future__ import annotations

import re

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import alternation, either, listed, words
from rulesbot.compute.registry import Computation
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed

# A move said not to be allowed: the listed phrases, and the French negated modal verbs ("ne ... peut", "peux pas").
_NEGATIVE_MOVE = re.compile(r"\b(?:" + either("not_allowed") + r"|ne\s+(?:\w+\s+)?(?:peu[xt]|peuvent|pourr\w*|dois|doit)|"
                            r"peu[xt]\s+pas|peut-on\s+pas)")
# "one more", "une autre", "en jeter une": the card a move is about, around a bare "one".
_ONE_MORE_AFTER = re.compile(r"\s*" + either("one_more_after") + r"\b")
_ONE_MORE_BEFORE = re.compile(r"\b" + either("one_more_before") + r"\s+$")

_SITUATIONS = {
    "same_card_twice": ("paint", {"hand": CARDS_PER_PAINTING, "duplicate": True}, "situation_duplicate"),
    "game_over": ("take", {"hand": 0, "everyone_done": True}, "situation_over"),
    "out_of_turn": ("take", {"hand": 0, "out_of_turn": True}, "situation_turn"),
}


def _case(parsed: Parsed):
    rules = helpers.base_rules()
    situation = parsed.value("situation")
    if situation in _SITUATIONS:
        return _SITUATIONS[situation]
    done = parsed.value("paintings_done")
    if done is not None and done >= rules.paintings and parsed.cue("take"):
        return "take", {"hand": 0, "paintings_done": done}, "situation_done"
    if done is not None and parsed.cue("take") and not parsed.has("hand_size"):
        return "take", {"hand": 0, "paintings_done": done}, "situation_done_some"
    paints = parsed.cue("paint")
    if parsed.has("paint_cards") and paints:
        used = parsed.value("paint_cards")
        held = parsed.value("hand_size")
        return "paint", {"hand": max(held or used, used), "paint_cards": used}, "situation_paint"
    # "you can hold six cards as long as you paint next turn": holding a count is the question, painting its condition.
    holds = parsed.has("hold_total") and parsed.value("hold_total") > rules.hand_limit
    if parsed.has("hand_size") and paints and not parsed.cue("take") and not holds:
        # "Can I paint with 4 cards in hand?": a painting of the cards it takes, from that hand.
        held = parsed.value("hand_size")
        return "paint", {"hand": held, "paint_cards": min(held, CARDS_PER_PAINTING)}, "situation_paint"
    if parsed.has("hand_size") and (not paints or holds) and (parsed.cue("take") or parsed.has("hold_total")):
        position = parsed.value("position")
        where = {"position": position} if position is not None and position <= rules.row_size else {}
        held = _tokens_held(parsed)
        tokens = {"tokens": held.value} if held is not None else {}
        return "take", {"hand": parsed.value("hand_size"), **where, **tokens}, "situation_take"
    return None


def compute(parsed: Parsed) -> Computation | None:
    """Build the smallest state posing the question and ask the engine's check_action."""
    lang = parsed.lang
    if parsed.cue("obligation") and parsed.explicit_claim:
        # Only a claim marked as such ("..., right?", "my mate says ..."): "must I paint with 5 cards?" asks the rule.
        return _obliged(parsed)
    if not (parsed.form == "can" or parsed.cue("can") or parsed.claim) or parsed.cue("obligation"):
        return None  # "must I paint with 5 cards?" asks an obligation, not whether the engine accepts a move
    case = _case(parsed)
    if case is None:
        return None
    kind, arguments, situation_key = case
    code, state = helpers.legality(kind, **arguments)
    situation = say(situation_key, lang, hand=qty(state["hand"], "card", lang),
                    count=qty(arguments.get("paint_cards", CARDS_PER_PAINTING), "card", lang),
                    paintings=qty(state["paintings"], "painting", lang))
    if code is None:
        sentences = [say("legal_yes", lang, situation=situation)]
        concepts = [("legal_take" if kind == "take" else "legal_paint", {})]
        if kind == "take" and parsed.has("hand_size"):
            # "chui à 4 cartes, je peux encore en prendre une ?": how far the hand may go (the rules' hand limit).
            sentences.append(say("legal_hand_limit", lang, limit=qty(helpers.base_rules().hand_limit, "card", lang)))
    else:
        sentences = [say("legal_no", lang, reason=helpers.reason_text(code, lang), code=code, situation=situation)]
        concepts = [(f"reason/{code}", {})]
    trace = [say("legal_trace", lang, hand=qty(state["hand"], "card", lang),
                 paintings=qty(state["paintings"], "painting", lang), action=_action_text(state["action"]),
                 result=code or "None")]
    # The claim is negative only when the move itself is said not to be allowed ("I can't take it"), not when a
    # clause around it is ("... since it doesn't cost anything").
    said_no = parsed.reported and re.search(r"\b(?:no|non)$", parsed.claim_cue or "") is not None
    negative = parsed.negated and (said_no or _NEGATIVE_MOVE.search(parsed.folded) is not None)
    claimed = (not negative) if parsed.claim else None
    return Computation(intent="legality", sentences=sentences, trace=trace, value=code is None, claimed=claimed,
                       engine={"intent": "legality", **state, "allowed": code is None}, concepts=concepts,
                       explained=_the_card_moved(parsed) + _tokens_span(parsed, kind) + _moot(parsed, kind, arguments, code))


def _moot(parsed: Parsed, kind: str, arguments: dict, code: str | None) -> list[tuple[int, int]]:
    """"5 cards in hand, the 2nd card has 3 tokens on it: can I take it?": when the engine refuses a take whatever the
    card and the tokens (the same refusal for the free card, tokens aside), the card and tokens described cannot change
    the answer: they are read, not left unexplained."""
    if kind != "take" or code is None:
        return []
    bare = {key: value for key, value in arguments.items() if key not in ("position", "tokens")}
    if helpers.legality("take", **bare)[0] != code:
        return []
    return [(slot.start, slot.end) for slot in parsed.slots if not slot.inherited
            and (slot.name in ("position", "ordinal", "tokens_on_cards", "tokens_on_target", "player_tokens", "component")
                 or (slot.name == "number" and not parsed.claim))]  # ("one of my tokens": a count the refusal ignores)


def _tokens_held(parsed: Parsed):
    """The tokens the asker holds, said with the hand ("j'ai 5 cartes en main et 4 jetons", "with 5 cards and 2
    tokens"): the player_tokens slot, else a number right before a token word; None when not said."""
    slot = parsed.first("player_tokens")
    if slot is not None:
        return slot
    token = alternation(words("token"))
    return next((number for number in parsed.free_numbers() if not number.inherited
                 and re.match(r"\s*(?:inspiration\s+)?" + token + r"\b", parsed.folded[number.end:])), None)


def _obliged(parsed: Parsed) -> Computation | None:
    """"5 cards in hand means my turn has to be a painting, right?": painting is forced exactly when the engine refuses
    taking a card with that hand (the only other action of a turn)."""
    lang = parsed.lang
    if not (parsed.has("hand_size") and parsed.cue("paint")) or parsed.has("position", "paint_cards", "situation"):
        return None
    held = parsed.value("hand_size")
    code, state = helpers.legality("take", hand=held)
    hand = qty(held, "card", lang)
    if code is not None:
        sentences = [say("obliged_paint", lang, hand=hand, reason=helpers.reason_text(code, lang))]
        concepts = [(f"reason/{code}", {})]
    else:
        sentences = [say("not_obliged_paint", lang, hand=hand)]
        concepts = [("legal_take", {})]
    trace = [say("legal_trace", lang, hand=hand, paintings=qty(state["paintings"], "painting", lang),
                 action=_action_text(state["action"]), result=code or "None")]
    return Computation(intent="legality", sentences=sentences, trace=trace, value=code is not None, claimed=not parsed.negated,
                       engine={"intent": "obligation", **state, "take_allowed": code is None}, concepts=concepts)


def _tokens_span(parsed: Parsed, kind: str) -> list[tuple[int, int]]:
    """The tokens held, when a take's state was built with them (the engine checks the take with those tokens)."""
    held = _tokens_held(parsed) if kind == "take" else None
    if held is None:
        return []
    # (The token word after the number, "2 jetons", is read with it.)
    word = re.match(r"\s*(?:inspiration\s+)?" + alternation(words("token")) + r"\b", parsed.folded[held.end:])
    return [(held.start, held.end + (word.end() if word else 0))]


def _the_card_moved(parsed: Parsed) -> list[tuple[int, int]]:
    """"grab one more", "throw one away", "en piocher une sixieme": the card the move is about, not a stated count."""
    text = parsed.folded
    held = parsed.value("hand_size")
    spans = []
    for slot in parsed.slots:
        if slot.inherited or slot.name not in ("number", "ordinal"):
            continue
        word = text[slot.start:slot.end]
        before, after = text[max(0, slot.start - 14): slot.start], text[slot.end: slot.end + 10]
        pronoun = slot.name == "number" and word in ("one", "une", "un") and (
            _ONE_MORE_AFTER.match(after)
            or _ONE_MORE_BEFORE.search(before)
            or re.search(r"(?:\ben|\b" + alternation(words("take") + listed("move_card_verbs"))
                         + r")\s+$", before))
        next_card = slot.name == "ordinal" and held is not None and slot.value == held + 1
        if pronoun or next_card:
            spans.append((slot.start, slot.end))
    return spans


def _action_text(action: dict) -> str:
    if action["type"] == "take":
        return f"take {action['position']}"
    return "paint " + ", ".join(str(card_id) for card_id in action["cards"])
