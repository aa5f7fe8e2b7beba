"""Chance: "what are the odds Vincent takes the third card?", exact, from the engine's toss outcomes."""

from __future__ import annotations

from fractions import Fraction

from rulesbot.compute.canvas.phrasing import say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def take_odds(position: int, tokens: int, rules) -> Fraction:
    """P(Vincent selects the card at `position`) with `tokens` tossed (the engine's outcomes and its skip rule)."""
    probability = Fraction(0)
    for face_up, chance in engine.vincent_toss_outcomes(tokens, rules.vincent_max_face_up):
        skipped = min(face_up, rules.vincent_max_face_up, tokens, rules.row_size - 1)
        if skipped + 1 == position:
            probability += chance
    return probability


def compute(parsed: Parsed) -> Computation | None:
    """The exact probability that Vincent's toss makes him select one row position."""
    lang = parsed.lang
    if not parsed.cue("vincent") or not parsed.has("position"):
        return None
    if not (parsed.cue("odds") or parsed.claim):
        return None
    rules = engine.ruleset("vincent")
    tokens = parsed.value("vincent_tokens", rules.vincent_tokens)
    position = parsed.value("position")
    if position > rules.row_size:
        return None
    probability = take_odds(position, tokens, rules)
    percent = f"{float(probability) * 100:.1f}".rstrip("0").rstrip(".")
    outcomes = "; ".join(f"{face_up}: {chance}" for face_up, chance in engine.vincent_toss_outcomes(
        tokens, rules.vincent_max_face_up))
    sentences = [say("vincent_odds", lang, position=position, tokens=tokens, fraction=str(probability), percent=percent)]
    return Computation(intent="odds", sentences=sentences, trace=[say("vincent_trace", lang, outcomes=outcomes)],
                       value=probability, value_text=f"{probability} ({percent}%)",
                       engine={"intent": "vincent_odds", "position": position, "tokens": tokens,
                               "probability": str(probability), "percent": float(probability) * 100},
                       concepts=[("vincent_turn", {})])
