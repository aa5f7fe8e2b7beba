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


def _designers(parsed: Parsed) -> Computation | None:
    """The designers' own top score: the points achievement that beats it needs one more (data: its threshold)."""
    lang = parsed.lang
    beat = [a for a in engine.ACHIEVEMENTS if a.kind == "game_points" and "min" in a.params]
    if not beat or not re.search(r"\b(?:scores?|scored|record|best|top|meilleur|points?|battre|beat)\b", parsed.folded):
        return None  # "the designers' favourite card" is not about their score
    top = max(beat, key=lambda a: a.params["min"])
    designers_score = top.params["min"] - 1  # "beat" is strictly more than their score
    stated = score_number(parsed)
    # "you need 50 to beat the designers" states the threshold; "the designers scored 47" states their score.
    value = top.params["min"] if parsed.cue("goal") else designers_score
    return Computation(intent="achievement", sentences=[say("designers_score", lang, score=designers_score,
                                                            achievement=getattr(top, lang), min=top.params["min"])],
                       value=value, value_text=str(value),
                       claimed=stated.value if (stated is not None and parsed.claim) else None,
                       engine={"intent": "designers_score", "score": designers_score, "achievement": top.slug},
                       concepts=[("achievement", {})])


def _threshold(parsed: Parsed, stated, one_painting: bool) -> Computation | None:
    """What an achievement needs ("how many silver ribbons in one painting for the silver achievement?")."""
    lang = parsed.lang
    text = parsed.folded
    silver = re.search(r"\b(?:silver|argent\w*)\b", text) is not None
    unit = "silver" if silver else ("ribbons" if parsed.cue("ribbon") else "points")
    candidates = [a for a in engine.ACHIEVEMENTS if a.kind == _KINDS.get((unit, one_painting)) and "min" in a.params]
    if parsed.cue("designers"):
        candidates = [max(candidates or [a for a in engine.ACHIEVEMENTS if "min" in a.params and a.kind == "game_points"],
                          key=lambda a: a.params["min"])]
    if len(candidates) != 1:
        return None
    achievement = candidates[0]
    threshold = achievement.params["min"]
    sentences = [say("achievement_threshold", lang, achievements=getattr(achievement, lang), threshold=threshold)]
    return Computation(intent="achievement", sentences=sentences, value=threshold, value_text=str(threshold),
                       claimed=stated.value if (stated is not None and parsed.claim) else None,
                       engine={"intent": "achievement_threshold", "achievement": achievement.slug, "min": threshold},
                       concepts=[("achievement", {})])


def compute(parsed: Parsed) -> Computation | None:
    """Which achievements of one kind a stated value earns (thresholds from the engine's data)."""
    lang = parsed.lang
    if not parsed.cue("achievement", "designers"):
        return None
    if parsed.cue("designers") and not parsed.inherited_from and not re.search(r"\b(?:i|i'm|i've|my|me|we|je|j'|j'ai|mon|ma|on|nous)\b", parsed.folded):
        return _designers(parsed)
    score = score_number(parsed)
    one_painting = re.search(r"\b(?:one|1|a single|une seule|une|1 seule)\s+(?:painting|peinture|tableau)|"
                             r"\b(?:in|with|on|en|avec|sur)\s+(?:one|1|a|une)\s+(?:painting|peinture|tableau)", parsed.folded)
    reported = score is not None and re.search(r"(?:scored|score of|got|made|fait|marque|obtenu|j'ai|i have|with|avec)\s*$",
                                               parsed.folded[: score.start])
    if score is None or (parsed.cue("goal") and not reported):
        if not (parsed.cue("goal", "pass", "points", "ribbon") or parsed.claim):
            return None  # "what is the designers' favourite card?" is not a threshold
        return _threshold(parsed, score, bool(one_painting))
    value = score.value
    unit = unit_after(parsed, score)
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
                       value=passed, claimed=(not parsed.negated) if parsed.explicit_claim else None,
                       engine={"intent": "achievements", "kind": kind, "value": value,
                               "earned": [a.slug for a in earned], "missed": [a.slug for a in missed]},
                       concepts=[("achievement", {})])
