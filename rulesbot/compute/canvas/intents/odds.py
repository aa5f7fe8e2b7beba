"""Chance with Vincent: "what are the odds Vincent takes the third card?", "how many tokens does he have after?".

Exact answers from the engine: `vincent_take_odds` (every row position's probability) and `vincent_turn` applied to
a state built from the question (his tokens, the tokens on the row's cards, the face-up count).
"""

from __future__ import annotations

import re
from fractions import Fraction

from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import numbers
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed

_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|percent|pour ?cent)")


def _vincent_tokens(parsed: Parsed, rules) -> int:
    if parsed.has("vincent_tokens"):
        return parsed.value("vincent_tokens")
    if parsed.has("player_tokens"):
        return parsed.value("player_tokens")  # "with 5 tokens, what's the chance Vincent ..." are his tokens
    return rules.vincent_tokens


def stated_probability(parsed: Parsed) -> Fraction | None:
    """A probability the question states: "1 in 4", "une chance sur deux", "3/8", "25%", "always", "never"."""
    text = parsed.folded
    reader = numbers()
    ratio = re.search(B + f"({reader.fragment_articles})\\s+(?:in|out of|sur|chance sur|chances sur|fois sur|time in|times in|"
                      f"time out of|times out of)\\s+({reader.fragment})", text)
    if ratio:
        top, bottom = reader.count_value(ratio.group(1)), reader.count_value(ratio.group(2))
        if top is not None and bottom:
            return Fraction(top, bottom)
    slash = re.search(r"\b(\d+)\s*/\s*(\d+)\b", text)
    if slash and int(slash.group(2)):
        return Fraction(int(slash.group(1)), int(slash.group(2)))
    percent = _PERCENT.search(text)
    if percent:
        return Fraction(percent.group(1).replace(",", ".")) / 100
    if parsed.cue("never"):
        return Fraction(0)
    if parsed.cue("always"):
        return Fraction(1)
    return None


def compute(parsed: Parsed) -> Computation | None:
    """The exact probability that Vincent's toss makes him select one row position."""
    lang = parsed.lang
    if not parsed.cue("vincent"):
        return None
    position = parsed.value("position")
    if parsed.inherited_from and parsed.has("ordinal") and (position is None or parsed.first("position").inherited):
        position = parsed.value("ordinal")  # "et la deuxieme ?" after a question about another card
    if position is None:
        return None
    stated = stated_probability(parsed) if parsed.claim else None
    # "he can never / always takes ...": a claim that the probability is 0 / 1 (the negation is the claim itself).
    certainty = stated if stated in (0, 1) and parsed.cue("never", "always") else None
    if not (parsed.cue("odds") or (parsed.explicit_claim and stated is not None) or (parsed.claim and stated is not None
                                                                                     and parsed.cue("odds"))):
        return None
    rules = engine.ruleset("vincent")
    tokens = _vincent_tokens(parsed, rules)
    if tokens > engine.component_counts()["inspiration_tokens"].count:
        return None  # more tokens than the box holds: not a game state (and the toss is enumerated token by token)
    odds = dict(engine.vincent_take_odds(vincent_tokens=tokens))
    if position not in odds:
        return None
    probability = odds[position]
    percent = f"{float(probability) * 100:.2f}".rstrip("0").rstrip(".")
    table = "; ".join(f"{where}: {chance}" for where, chance in sorted(odds.items()))
    sentences = [say("vincent_odds", lang, position=position, tokens=tokens, fraction=str(probability), percent=percent)]
    value = (probability == certainty) if certainty is not None else probability
    return Computation(intent="odds", sentences=sentences, trace=[say("vincent_trace", lang, outcomes=table)],
                       value=value, value_text=None if certainty is not None else f"{probability} ({percent}%)",
                       claimed=True if certainty is not None else stated,
                       engine={"intent": "vincent_odds", "position": position, "tokens": tokens,
                               "probability": str(probability), "odds": {str(k): str(v) for k, v in odds.items()}},
                       concepts=[("vincent_turn", {})])


def compute_turn(parsed: Parsed) -> Computation | None:
    """Vincent's tokens after one turn with a given face-up count (the engine's vincent_turn)."""
    lang = parsed.lang
    if not (parsed.cue("face_up") and parsed.cue("token") and (parsed.cue("after") or parsed.form == "how_many")):
        return None  # "what does Vincent do if none land face up?" asks the rule
    reader = numbers()
    face = re.search(B + f"({reader.fragment_articles})\\s+(?:(?:of his|of vincent's|de ses|des)\\s+(?:\\d+\\s+)?(?:tokens?|jetons?)\\s+"
                     r"(?:de vincent\s+)?|tokens?\s+|jetons?\s+)?(?:lands?|land|tombent|tombe|come|comes)\s+(?:up\s+)?(?:face|pile)",
                     parsed.folded)
    if face is None:
        return None
    face_up = reader.count_value(face.group(1))
    rules = engine.ruleset("vincent")
    held = re.search(r"\b(?:his|ses|des)\s+(\d+)\s+(?:tokens|jetons)", parsed.folded)
    tokens = int(held.group(1)) if held else _vincent_tokens(parsed, rules)
    on_cards = dict(parsed.value("tokens_on_cards") or {})
    row_tokens = [on_cards.get(index, 0) for index in range(1, rules.row_size + 1)]
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((),), row_tokens=row_tokens, ruleset_name=rules.name, vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up)
    skipped = min(face_up, rules.vincent_max_face_up, tokens, rules.row_size - 1)
    gained = after.vincent_tokens - tokens + skipped
    sentences = [say("vincent_turn", lang, tokens=tokens, face_up=face_up, spent=qty(skipped, "token", lang),
                     position=skipped + 1, gained=qty(gained, "token", lang), after=qty(after.vincent_tokens, "token", lang))]
    return Computation(intent="vincent_turn", sentences=sentences, value=after.vincent_tokens,
                       value_text=qty(after.vincent_tokens, "token", lang),
                       engine={"intent": "vincent_turn", "tokens": tokens, "face_up": face_up, "row_tokens": row_tokens,
                               "tokens_after": after.vincent_tokens},
                       concepts=[("vincent_turn", {})])
