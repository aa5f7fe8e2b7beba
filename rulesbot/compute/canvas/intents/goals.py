"""Solo levels and scenario goals: "did I pass Spatial with 36?", "does 38 count as Master?", "what does Hard need?"."""

from __future__ import annotations

from rulesbot.compute.canvas.intents.common import claimed_number, score_number, spans
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def _score(parsed: Parsed):
    used = spans(parsed, "scenario", "level")
    score = score_number(parsed, used)
    if parsed.claim and parsed.cue("goal") and not parsed.cue("pass"):
        return None  # "the Hard level needs 40 points, right?" states a target, not a score reached
    return score


def compute_scenario(parsed: Parsed) -> Computation | None:
    """A scenario's goal, or whether a score passes it."""
    lang = parsed.lang
    scenario = parsed.value("scenario")
    if scenario is None or parsed.cue("achievement", "designers"):
        return None
    concepts = [("scenario", {"slug": scenario.slug})]
    if parsed.cue("solo"):
        concepts.append(("scenario_solo", {}))
    engine_object = {"intent": "scenario", "scenario": scenario.slug, "goal": scenario.goal, "cards": list(scenario.cards)}
    claimed = (not parsed.negated) if parsed.claim else None
    score = _score(parsed)
    if score is None:
        if not (parsed.cue("goal", "points_question", "pass") or parsed.form in ("how_many", "what_needed") or parsed.claim):
            return None
        cards = join([card_name(slug, lang) for slug in scenario.cards], lang) or "-"
        number = claimed_number(parsed, spans(parsed, "scenario", "level"))
        return Computation(intent="scenario", sentences=[say("scenario_goal", lang, scenario=scenario.name,
                                                             goal=scenario.goal, cards=cards)],
                           value=scenario.goal, value_text=qty(scenario.goal, "point", lang),
                           claimed=None if number is None else number.value, engine=engine_object, concepts=concepts)
    passed = score.value >= scenario.goal
    key = "scenario_pass" if passed else "scenario_fail"
    sentence = say(key, lang, score=score.value, scenario=scenario.name, goal=scenario.goal, short=scenario.goal - score.value)
    trace = [say("solo_trace", lang, score=score.value, target=scenario.goal, result=say("yes" if passed else "no", lang))]
    engine_object.update({"score": score.value, "passed": passed})
    return Computation(intent="scenario", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                       engine=engine_object, concepts=concepts)


def compute_level(parsed: Parsed) -> Computation | None:
    """A solo level's target, whether a score reaches it, or which level to name when none is."""
    lang = parsed.lang
    level = parsed.value("level")
    if parsed.has("scenario") or parsed.cue("achievement", "designers"):
        return None
    score = _score(parsed)
    claimed = (not parsed.negated) if parsed.claim else None
    if level is None:
        if score is None or not parsed.cue("pass") or not parsed.cue("solo"):
            return None
        targets = join([f"{item.name_fr if lang == 'fr' else item.name_en} {item.target}+" for item in engine.SOLO_LEVELS], lang)
        return Computation(intent="solo", asks=True, sentences=[say("ask_level", lang, levels=targets)],
                           concepts=[("solo_level", {})])
    name = level.name_fr if lang == "fr" else level.name_en
    engine_object = {"intent": "solo_level", "level": level.slug, "target": level.target}
    if score is None:
        if not (parsed.cue("goal", "points_question", "pass") or parsed.form in ("how_many", "what_needed") or parsed.claim):
            return None
        number = claimed_number(parsed, spans(parsed, "scenario", "level"))
        return Computation(intent="solo", sentences=[say("level_goal", lang, level=name, target=level.target)],
                           value=level.target, value_text=qty(level.target, "point", lang),
                           claimed=None if number is None else number.value, engine=engine_object,
                           concepts=[("solo_level", {})])
    passed = score.value >= level.target
    key = "level_pass" if passed else "level_fail"
    sentence = say(key, lang, score=score.value, level=name, target=level.target, short=level.target - score.value)
    trace = [say("solo_trace", lang, score=score.value, target=level.target, result=say("yes" if passed else "no", lang))]
    engine_object.update({"score": score.value, "passed": passed})
    return Computation(intent="solo", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                       engine=engine_object, concepts=[("solo_level", {})])
