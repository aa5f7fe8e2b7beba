"""Achievements: "I scored 47 points: did I beat the designers' top score?", "8 rubans argent : quels succès ?"."""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import score_number, unit_after
from rulesbot.compute.canvas.phrasing import join, qty, say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed

_KINDS = {
    ("points", False): "game_points", ("ribbons", False): "game_ribbons", ("silver", False): "game_silver",
    ("ribbons", True): "painting_ribbons", ("silver", True): "painting_silver",
}


def compute(parsed: Parsed) -> Computation | None:
    """Which achievements of one kind a stated value earns (thresholds from the engine's data)."""
    lang = parsed.lang
    if not parsed.cue("achievement", "designers"):
        return None
    score = score_number(parsed)
    if score is None:
        return None
    value = score.value
    unit = unit_after(parsed, score)
    one_painting = re.search(r"\b(?:one|1|a single|une seule|une|1 seule)\s+(?:painting|peinture|tableau)|"
                             r"\b(?:in|with|on|en|avec|sur)\s+(?:one|1|a|une)\s+(?:painting|peinture|tableau)", parsed.folded)
    kind = _KINDS.get((unit, bool(one_painting)))
    candidates = [achievement for achievement in engine.ACHIEVEMENTS if achievement.kind == kind]
    if not candidates:
        return None
    earned = [achievement for achievement in candidates if value >= achievement.params["min"]]
    missed = [achievement for achievement in candidates if value < achievement.params["min"]]
    label = {"points": "point", "ribbons": "ribbon", "silver": "silver_ribbon"}[unit]
    value_text = qty(value, label, lang)
    sentences = []
    if earned:
        sentences.append(say("achievement_got", lang, value=value_text, earned=join([getattr(a, lang) for a in earned], lang)))
        if missed:
            sentences.append(say("achievement_missed", lang, missed=join([getattr(a, lang) for a in missed], lang)))
    else:
        sentences.append(say("achievement_none", lang, value=value_text, missed=join([getattr(a, lang) for a in missed], lang)))
    checks = "; ".join(f"{value} ≥ {a.params['min']}: {say('yes' if value >= a.params['min'] else 'no', lang)}"
                       for a in candidates)
    passed = (bool(earned) and not missed) if len(candidates) == 1 else bool(earned)
    if parsed.cue("designers"):
        # The designers' score is the highest threshold of that kind.
        top = max(a.params["min"] for a in candidates)
        passed = value >= top
    return Computation(intent="achievement", sentences=sentences, trace=[say("achievement_trace", lang, checks=checks)],
                       value=passed, claimed=(not parsed.negated) if parsed.claim else None,
                       engine={"intent": "achievements", "kind": kind, "value": value,
                               "earned": [a.slug for a in earned], "missed": [a.slug for a in missed]},
                       concepts=[("achievement", {})])
