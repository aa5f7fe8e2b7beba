"""Solo levels and scenario goals: "did I pass Spatial with 36?", "does 38 count as Master?", "what does Hard need?"."""

from __future__ import annotations

import re
from itertools import pairwise

from rulesbot.compute.canvas.intents.common import claimed_number, counts_things, own_cue, score_number, spans
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.canvas.words import either, listed, words
from rulesbot.compute.registry import Computation, own_reading
from rulesbot.compute.text import B, E, alternation, fold
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed, Slot


def _delta(parsed: Parsed):
    """A follow-up's change to the previous score ("and if I had gotten 5 more?", "et avec 3 de moins ?"): the previous
    score moved by the follow-up's number, as a Slot over that number, or None."""
    if parsed.previous is None:
        return None
    steps = alternation(listed("score_more") + listed("score_less"))
    for slot in parsed.free_numbers():
        after = re.match(r"\s*(?:" + alternation(words("points")) + r"\s+)?(?P<word>" + steps + r")" + E, parsed.folded[slot.end:])
        if after is None:
            continue
        before = score_number(parsed.previous, spans(parsed.previous, "scenario", "level"))
        if before is None or not isinstance(before.value, int):
            return None
        sign = -1 if after.group("word") in listed("score_less") else 1
        return Slot("number", before.value + sign * slot.value, slot.start, slot.end + after.end())
    return None


def _score(parsed: Parsed):
    delta = _delta(parsed)
    if delta is not None:
        return delta
    used = spans(parsed, "scenario", "level")
    score = score_number(parsed, used)
    if score is None and parsed.previous is not None and not parsed.free_numbers():
        score = score_number(parsed.previous)  # "and on Master?" after "I got 36 in solo on Hard, did I win?"
        if score is not None:
            return score
    if parsed.claim and parsed.cue("goal") and not parsed.cue("pass") and not _asserts_failure(parsed):
        return None  # "the Hard level needs 40 points, right?" states a target, not a score reached
    if score is not None and re.search(B + r"(?:scenarios?|niveau|level)\s+" + either("goal_of_prep") + r"\s*$",
                                       parsed.folded[: score.start]):
        return None  # "Bonus c'est le scenario a 40": the scenario's goal, not a score
    if score is not None and _said_as_goal(parsed, score):
        return None  # "All Elements, 40 to reach?", "c 40 a faire ?": the goal claimed, not a score
    named = next((slot for slot in parsed.slots if slot.name in ("scenario", "level") and not slot.inherited
                  and score is not None and slot.end <= score.start), None)
    # (The level's word and the solo mode may stand between: "the Normal level in solo is 35 points isn't it".)
    qualifiers = r"(?:\s*(?:" + alternation(words("level_word") + words("solo") + ["in", "en", "the", "le"]) + r"))*"
    if named is not None and re.fullmatch(qualifiers + r"\s*,?\s*" + either("goal_is") + r"\s*",
                                          parsed.folded[named.end: score.start]):
        return None  # "le scenario No Elements c'est 35 points ?": the goal stated, not a score reached
    return score


def _said_as_goal(parsed: Parsed, slot) -> bool:
    """Whether a number is said as what must be reached ("40 to reach", "40 a faire", "36 needed"), not as a score."""
    after = parsed.folded[slot.end:]
    return re.match(r"\s*(?:(?:" + alternation(words("points")) + r")\s*)?(?:" + either("goal_after") + r")" + E,
                    after) is not None


def _bool_claim(parsed: Parsed, score, target) -> bool | None:
    """The asserted pass (True) for a claim; a plain statement asserts it only when it names the target as the score's
    result ("38 ca fait Maitre ?", "24 points, ca valide facile ?"), not when it reports a score ("32 points au scenario
    X : c'est reussi ?")."""
    if not parsed.claim:
        return None
    if parsed.explicit_claim:
        # "my sister says you have to beat it, so it's lost?": the claim asserts the score fails.
        return parsed.negated if _asserts_failure(parsed) else not parsed.negated
    if target is not None and score is not None and target.start > score.end:
        between = parsed.folded[score.end: target.start]
        if (parsed.cue("pass") or len(between) <= 24) and re.search(alternation(words("pass") + listed("makes_it")), between):
            return not parsed.negated
    return None


def _asserts_failure(parsed: Parsed) -> bool:
    """Whether a claim says the score falls short ("so it's lost", "c'est perdu", "you have to beat it", "il faut
    depasser"): a strict target or a loss asserted (vocabulary `score_fails`)."""
    return re.search(B + either("score_fails") + E, _claim_sentence(parsed)) is not None


def _claim_sentence(parsed: Parsed) -> str:
    """The sentence that holds the claim: the one of its cue ("... 30. my sister says you have to beat it, so it's
    lost?"), not the asker's own opinion after it ("my partner insists 35 is enough. I think you need more than 35.");
    the whole message for a plain statement."""
    text = fold(parsed.text)
    where = text.find(parsed.claim_cue) if parsed.claim_cue and parsed.claim_cue != "statement" else -1
    if where < 0:
        return parsed.folded
    for match in re.finditer(r"[^.?!;]+[.?!;]*", text):
        if match.start() <= where < match.end():
            return match.group(0)
    return parsed.folded


# Where a clause ends: punctuation, or a connector that opens a reason or a consequence.
_CLAUSE_BREAK = re.compile(r"[.,;:?!]|\b" + either("clause_connectors") + r"(?:\b|(?<='))")


def _needing(parsed: Parsed, slot) -> bool:
    """Whether a level is named as a requirement ("hard needs more than 35", "il faut depasser 35 pour le hard"),
    not as the level a score is claimed to reach."""
    cuts = [0] + [cut for match in _CLAUSE_BREAK.finditer(parsed.folded) for cut in match.span()] + [len(parsed.folded)]
    clause = next((parsed.folded[begin:stop] for begin, stop in pairwise(cuts) if begin <= slot.start < stop), parsed.folded)
    return re.search(B + alternation(words("goal") + listed("score_fails")) + E, clause) is not None


def _two_levels(parsed: Parsed, score) -> Computation | None:
    """"35 in solo is still only Normal, Hard needs more than 35, no?": two levels named with one score; the claim is
    the level the score reaches (the one not named as a requirement), checked against the engine's levels."""
    named = [slot for slot in parsed.all("level") if not slot.inherited]
    reached_claimed = [slot for slot in named if not _needing(parsed, slot)]
    if score is None:
        # "35 ... is only Normal, Hard needs more than 35": the score, outside the requirement's clause (or said again
        # in it).
        scores = [slot for slot in _scores(parsed) if not _needing(parsed, slot)] or _scores(parsed)
        score = scores[0] if len({slot.value for slot in scores}) == 1 else None
    if not parsed.claim or score is None or len({slot.value.slug for slot in reached_claimed}) != 1:
        return None
    claimed_level = reached_claimed[0].value
    reached = _level_reached(parsed, score.value)
    reached.value, reached.claimed = reached.value == claimed_level.slug, not parsed.negated
    reached.engine["claimed_level"] = claimed_level.slug
    reached.trace = [say("solo_trace", parsed.lang, score=score.value, target=level.target,
                         result=say("yes" if score.value >= level.target else "no", parsed.lang))
                     for level in engine.SOLO_LEVELS if level.slug in {slot.value.slug for slot in named}]
    return reached


def _only(parsed: Parsed, target) -> bool:
    """"35, that's only Normal", "c'est que Normal": the claim names the level a score reaches (no higher one),
    not merely a level it passes."""
    before = parsed.folded[max(0, target.start - 12): target.start]
    return re.search(B + alternation(words("only_level")) + r"\s*(?:the\s+|le\s+|du\s+|au\s+|en\s+)?(?:level\s+|niveau\s+)?$",
                     before) is not None


def _scores(parsed: Parsed) -> list:
    """The players' scores a question lists ("we scored 31, 35 and 29", "moi 31 et elle 34"): the free numbers that
    count no cards, tokens, players or icons, outside the scenario's and level's names."""
    taken = spans(parsed, "scenario", "level")
    return [slot for slot in parsed.free_numbers(("ribbon_group", "ribbon_count"))
            if not counts_things(parsed, slot) and not any(start < slot.end and slot.start < end for start, end in taken)
            and slot.value is not None and not re.match(r"\s*(?:ribbons?|rubans?|silvers?|argents?)\b", parsed.folded[slot.end:])]


def _any_player(parsed: Parsed, scenario, scores, engine_object, concepts) -> Computation:
    """Several players' scores: the scenario is passed when any one of them reaches its goal (the best decides)."""
    lang = parsed.lang
    best = max(slot.value for slot in scores)
    passed = best >= scenario.goal
    key = "scenario_pass" if passed else "scenario_fail"
    sentences = [say(key, lang, score=best, scenario=scenario.name, goal=scenario.goal, short=scenario.goal - best),
                 say("scenario_any_player", lang)]
    trace = [say("solo_trace", lang, score=best, target=scenario.goal, result=say("yes" if passed else "no", lang))]
    engine_object.update({"scores": [slot.value for slot in scores], "score": best, "passed": passed})
    return Computation(intent="scenario", sentences=sentences, trace=trace, value=passed,
                       engine=engine_object, concepts=concepts)


def _asked_last(parsed: Parsed):
    """The scenario a message ends by asking about after naming another ("Family Game c'est 18, ok, et Synergy ?",
    "Spatial is 37 fine, what about Balanced?"), or None: what came before is the asker's context."""
    named = [slot for slot in parsed.all("scenario") if not slot.inherited]
    if len({slot.value.slug for slot in named}) < 2:
        return None
    last = named[-1]
    opener = alternation(words("ellipsis") + words("ellipsis_openers"))
    before = parsed.folded[max(0, last.start - 24): last.start]
    if re.search(B + opener + r"\s+(?:(?:for|pour|about|the|le|la|du|de|scenario)\s+)*$", before) is None:
        return None
    if re.fullmatch(r"\s*(?:scenario\s*)?[?!.]*\s*", parsed.folded[last.end:]) is None:
        return None
    return last


def compute_scenario(parsed: Parsed) -> Computation | None:
    """A scenario's goal, or whether a score passes it."""
    lang = parsed.lang
    scenario = parsed.value("scenario")
    if scenario is None or parsed.cue("achievement", "designers"):
        return None
    named = parsed.first("scenario")
    if named.inherited and re.search(B + "(?:" + either("goal_highest") + "|" + either("goal_lowest") + ")" + E,
                                     own_reading(parsed).folded):
        # "which one's got the highest goal then?" after one scenario's goal: a superlative over all the scenarios,
        # not the previous question's scenario again.
        return _extreme_goal(parsed)
    asked = _asked_last(parsed)
    if asked is not None:
        # "... 18 ok, et Synergy ?": the last scenario's goal is asked; the first one's goal, stated, is context.
        other = asked.value
        cards = join([card_name(slug, lang) for slug in other.cards]
                     + ([say("random_cards", lang, count=other.random_cards)] if other.random_cards else []), lang) or "-"
        return Computation(intent="scenario", sentences=[say("scenario_goal", lang, scenario=other.name, goal=other.goal,
                                                             cards=cards)],
                           value=other.goal, value_text=qty(other.goal, "point", lang), unit="points",
                           engine={"intent": "scenario", "scenario": other.slug, "goal": other.goal, "cards": list(other.cards)},
                           concepts=[("scenario", {"slug": other.slug})])
    if parsed.has("ribbon_group") and not parsed.cue("goal", "pass"):
        return None  # "scenario X: 3 Emphasis, 1 Hierarchy ... how many points?" counts ribbons
    if parsed.has("ribbon_group"):
        # "All Elements end: emphasis 3, hierarchy 2, ..., 2 silver: do we pass?": the ribbons make the score.
        return _ribbon_tally(parsed, scenario)
    if parsed.cue("limit") and parsed.cue("all_cards"):
        return None  # "if we max out the 4 cards of scenario X": the cards' caps, not the scenario's goal
    concepts = [("scenario", {"slug": scenario.slug})]
    if parsed.cue("solo"):
        concepts.append(("scenario_solo", {}))
    engine_object = {"intent": "scenario", "scenario": scenario.slug, "goal": scenario.goal, "cards": list(scenario.cards)}
    scores = _scores(parsed)
    if len(scores) > 1 and parsed.cue("pass") and not parsed.explicit_claim:
        return _any_player(parsed, scenario, scores, engine_object, concepts)
    score = _score(parsed)
    if score is not None and parsed.form == "which" and own_cue(parsed, "scenario_cards") and not parsed.cue("pass"):
        score = None  # "Family Game, which cards? there are only two on the sheet": the number counts cards, no score
    claimed = _bool_claim(parsed, score, parsed.first("scenario"))
    if score is None:
        if not (parsed.cue("goal", "points_question", "pass", "scenario_cards") or parsed.form in ("how_many", "what_needed")
                or parsed.claim):
            return None
        cards = join([card_name(slug, lang) for slug in scenario.cards]
                     + ([say("random_cards", lang, count=scenario.random_cards)] if scenario.random_cards else []), lang) or "-"
        number = claimed_number(parsed, spans(parsed, "scenario", "level"))
        card_count = _card_count(parsed, scenario)
        if card_count is not None:
            return card_count
        if number is not None and counts_things(parsed, number):
            # "l'objectif c'est 25 et ce sont 3 cartes au hasard": 3 counts the cards, 25 is the goal claimed.
            free = [slot for slot in parsed.free_numbers() if not counts_things(parsed, slot)]
            number = free[-1] if free else None
        # "which cards does it use?" asks the cards (the goal comes with them).
        key = "scenario_cards" if own_cue(parsed, "scenario_cards") else "scenario_goal"
        return Computation(intent="scenario", sentences=[say(key, lang, scenario=scenario.name,
                                                             goal=scenario.goal, cards=cards)],
                           value=scenario.goal, value_text=qty(scenario.goal, "point", lang), unit="points",
                           claimed=None if number is None else number.value, engine=engine_object, concepts=concepts)
    passed = score.value >= scenario.goal
    key = "scenario_pass" if passed else "scenario_fail"
    sentence = say(key, lang, score=score.value, scenario=scenario.name, goal=scenario.goal, short=scenario.goal - score.value)
    trace = [say("solo_trace", lang, score=score.value, target=scenario.goal, result=say("yes" if passed else "no", lang))]
    engine_object.update({"score": score.value, "passed": passed})
    return Computation(intent="scenario", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                       engine=engine_object, concepts=concepts)


def _counts_scoring_cards(parsed: Parsed, slot) -> bool:
    """Whether a number counts cards and no Art Cards ("4 cartes de score", "3 scoring cards", "2 cards")."""
    after = parsed.folded[slot.end: slot.end + 40]
    if not re.match(r"\s+(?:[\w']+\s+)?(?:" + alternation(words("card")) + r")" + E, after):
        return False
    return not re.match(r"\s+(?:[\w']+\s+){0,2}?(?:art|en main|in hand|in my hand)\b", after)


def _card_count(parsed: Parsed, scenario) -> Computation | None:
    """How many Scoring Cards a scenario uses, asked ("combien de cartes de score pour Family Game ?") or claimed
    ("Family Game se joue avec 4 cartes de score"), from the scenario's data (named cards plus cards drawn at
    random)."""
    lang = parsed.lang
    taken = spans(parsed, "scenario", "level")
    stated = [slot for slot in parsed.free_numbers() if not any(start < slot.end and slot.start < end for start, end in taken)]
    counted = [slot for slot in stated if _counts_scoring_cards(parsed, slot)]
    # ("how many of the scoring cards does it use": a few words may stand between the count and the cards.)
    asked = parsed.form == "how_many" and re.search(B + either("how_many_lead") + r"\s+(?:[\w']+\s+){0,3}?(?:"
                                                    + alternation(words("card")) + r")" + E, parsed.folded)
    # "on en pose combien ?" with the Scoring Cards named: the count asked is the scenario's cards.
    asked = asked or ((parsed.form == "how_many" or parsed.cue("count_question")) and not parsed.cue("points_question")
                      and parsed.value("component") == "scoring_cards")
    if len(counted) != 1 or len(stated) != 1:
        if not (asked and not stated):
            return None
    count = len(scenario.cards) + (scenario.random_cards or 0)
    cards = join([card_name(slug, lang) for slug in scenario.cards]
                 + ([say("random_cards", lang, count=scenario.random_cards)] if scenario.random_cards else []), lang) or "-"
    claimed = counted[0].value if counted and parsed.claim else None
    return Computation(intent="scenario",
                       sentences=[say("scenario_card_count", lang, scenario=scenario.name, count=count, cards=cards,
                                      goal=scenario.goal)],
                       value=count, value_text=str(count), claimed=claimed,
                       engine={"intent": "scenario_cards", "scenario": scenario.slug, "cards": list(scenario.cards),
                               "random_cards": scenario.random_cards or 0, "count": count},
                       concepts=[("scenario", {"slug": scenario.slug})])


def _ribbon_tally(parsed: Parsed, scenario) -> Computation | None:
    """Whether the ribbons a player lists (by Scoring Card, plus silver) reach a scenario's goal: the engine's points
    for each card's ribbons and for silver, summed; a total or a goal the message states is checked too."""
    lang = parsed.lang
    # A follow-up ("so did we pass?") checks the ribbons the previous question listed.
    groups = [slot for slot in parsed.all("ribbon_group") if not slot.inherited] or list(parsed.all("ribbon_group"))
    if not groups or any(slot.value.kind not in ("card", "silver") for slot in groups):
        return None  # ribbons by colour: which card a colour is depends on the layout, not said here
    counts: dict[str, int] = {}
    for slot in groups:
        counts[slot.value.key] = counts.get(slot.value.key, 0) + slot.value.count
    terms, total = [], 0
    for slug, count in counts.items():
        if slug == "silver":
            points = engine.SILVER_POINTS * count
            terms.append(say("ribbons_trace_silver", lang, count=count, each=engine.SILVER_POINTS, points=points))
        else:
            points = engine.points_for(slug, count)
            terms.append(say("ribbons_trace_item", lang, card=card_name(slug, lang), count=count, points=points))
        total += points
    taken = spans(parsed, "scenario", "ribbon_group", "ribbon_count")
    free = [slot for slot in parsed.free_numbers(("ribbon_group", "ribbon_count"))
            if not any(start < slot.end and slot.start < end for start, end in taken) and not counts_things(parsed, slot)]
    goal_word = alternation(words("goal"))
    said_goals = [slot for slot in free if re.match(r"\s*(?:points?\s+|pts?\s+)?(?:" + goal_word + r")" + E,
                                                    parsed.folded[slot.end:])
                  or re.search(B + goal_word + r"\s*(?:of|de|is|est|=|:|a)?\s*$", parsed.folded[: slot.start])
                  or _said_as_goal(parsed, slot)]
    totals = [slot for slot in free if slot not in said_goals]
    passed = total >= scenario.goal
    key = "scenario_tally_pass" if passed else "scenario_tally_fail"
    sentence = say(key, lang, total=total, scenario=scenario.name, goal=scenario.goal, short=scenario.goal - total)
    trace = [say("ribbons_trace_total", lang, terms="; ".join(terms), total=total),
             say("solo_trace", lang, score=total, target=scenario.goal, result=say("yes" if passed else "no", lang))]
    value, claimed = passed, None
    if parsed.explicit_claim or parsed.claim and totals:
        claimed = parsed.negated if _asserts_failure(parsed) else not parsed.negated
        # "37 and we pass the 36 goal": a total or a goal said wrong makes the claim wrong.
        if any(slot.value != total for slot in totals) or any(slot.value != scenario.goal for slot in said_goals):
            value = not claimed
    return Computation(intent="scenario", sentences=[sentence], trace=trace, value=value, claimed=claimed,
                       engine={"intent": "scenario", "scenario": scenario.slug, "goal": scenario.goal,
                               "cards": list(scenario.cards), "ribbons": counts, "score": total, "passed": passed},
                       concepts=[("scenario", {"slug": scenario.slug}), ("ribbons", {})])


def _level_reached(parsed: Parsed, score: int) -> Computation:
    """The highest solo level a score reaches (levels and targets from the engine's data)."""
    lang = parsed.lang
    reached = [level for level in engine.SOLO_LEVELS if score >= level.target]
    if reached:
        best = max(reached, key=lambda level: level.target)
        name = best.name_fr if lang == "fr" else best.name_en
        sentence = say("level_reached", lang, score=score, level=name, target=best.target)
        value = best.slug
    else:
        lowest = min(engine.SOLO_LEVELS, key=lambda level: level.target)
        sentence = say("level_none", lang, score=score, level=lowest.name_fr if lang == "fr" else lowest.name_en,
                       target=lowest.target)
        value = None
    return Computation(intent="solo", sentences=[sentence], value=value,
                       engine={"intent": "solo_level_reached", "score": score, "level": value},
                       concepts=[("solo_level", {})])


def compute_by_goal(parsed: Parsed) -> Computation | None:
    """Which scenario has a given goal ("which scenario has a goal of 40?")."""
    lang = parsed.lang
    goal_words = alternation(words("goal") + listed("goal_of"))
    number = next((slot for slot in parsed.free_numbers()
                   if re.search(goal_words + r"\s*(?:of|de|is|est|=|:)?\s*$", parsed.folded[max(0, slot.start - 20): slot.start])
                   or re.match(r"\s*(?:" + alternation(words("points")) + r")\b", parsed.folded[slot.end:])), None)
    if number is None and not parsed.free_numbers():
        return _extreme_goal(parsed)
    if number is None or not parsed.cue("goal"):
        return None  # the number must be a goal ("a goal of 40", "40 points"), not "if 1 of us hits the goal"
    found = [scenario for scenario in engine.SCENARIOS if scenario.goal == number.value]
    if found:
        sentence = say("scenario_by_goal", lang, goal=number.value, scenarios=join([item.name for item in found], lang))
    else:
        goals = join([f"{item.name} {item.goal}" for item in engine.SCENARIOS], lang)
        sentence = say("scenario_by_goal_none", lang, goal=number.value, goals=goals)
    return Computation(intent="scenario", sentences=[sentence], value=[item.slug for item in found] or None,
                       engine={"intent": "scenario_by_goal", "goal": number.value, "scenarios": [item.slug for item in found]},
                       concepts=[("scenario", {"slug": found[0].slug if found else ""})])


def _extreme_goal(parsed: Parsed) -> Computation | None:
    """Which scenario has the highest (or lowest) goal ("which scenario needs the most points?"), from the engine's
    scenarios; None unless the question asks for a goal's extreme."""
    lang = parsed.lang
    if not (parsed.cue("goal") or re.search(B + alternation(words("points")) + E, parsed.folded)):
        return None
    highest = re.search(B + either("goal_highest") + E, parsed.folded)
    lowest = re.search(B + either("goal_lowest") + E, parsed.folded)
    if (highest is None) == (lowest is None):
        return None  # neither (or both) asked: not a superlative
    pick = max if highest is not None else min
    goal = pick(item.goal for item in engine.SCENARIOS)
    found = [item for item in engine.SCENARIOS if item.goal == goal]
    key = "scenario_goal_highest" if highest is not None else "scenario_goal_lowest"
    goals = join([f"{item.name} {item.goal}" for item in engine.SCENARIOS], lang)
    return Computation(intent="scenario", sentences=[say(key, lang, goal=goal, scenarios=join([item.name for item in found], lang),
                                                         goals=goals)],
                       value=[item.slug for item in found],
                       engine={"intent": "scenario_by_goal", "goal": goal, "scenarios": [item.slug for item in found],
                               "extreme": "highest" if highest is not None else "lowest"},
                       concepts=[("scenario", {"slug": found[0].slug})])


def compute_level(parsed: Parsed) -> Computation | None:
    """A solo level's target, whether a score reaches it, or which level to name when none is."""
    lang = parsed.lang
    level = parsed.value("level")
    if parsed.has("scenario") or parsed.cue("achievement", "designers"):
        return None
    score = _score(parsed)
    if len({slot.value.slug for slot in parsed.all("level") if not slot.inherited}) > 1:
        # "the difference between Easy and Hard" compares levels: a rules question; a claim of the level a score
        # reaches may name the next one as the requirement.
        return _two_levels(parsed, score)
    claimed = _bool_claim(parsed, score, parsed.first("level"))
    if level is None and parsed.has("position") and not parsed.cue("which_level"):
        return None  # "solo puzzle: I want the third card, what do I pay?" is a take, not a score
    if level is None:
        # "which level does 33 reach?", "what solo level is exactly 35": a which-question about a level.
        asks_which = parsed.cue("which_level") or parsed.form == "which" and parsed.cue("level_word")
        if score is not None and parsed.has("level_step"):
            above = [item for item in engine.SOLO_LEVELS if item.target > score.value]
            if not above:
                return _level_reached(parsed, score.value)  # already at the top level
            level = min(above, key=lambda item: item.target)  # "what does the level above need?"
        elif score is not None and parsed.cue("solo") and (asks_which or re.search(
                B + either("level_words") + E, parsed.folded)):
            return _level_reached(parsed, score.value)
        elif score is None or not parsed.cue("pass") or not parsed.cue("solo"):
            return None
        else:
            targets = join([f"{item.name_fr if lang == 'fr' else item.name_en} {item.target}+" for item in engine.SOLO_LEVELS],
                           lang)
            return Computation(intent="solo", asks=True, sentences=[say("ask_level", lang, levels=targets)],
                               concepts=[("solo_level", {})])
    name = level.name_fr if lang == "fr" else level.name_en
    engine_object = {"intent": "solo_level", "level": level.slug, "target": level.target}
    if score is None:
        if not (parsed.cue("goal", "points_question", "pass") or parsed.form in ("how_many", "what_needed") or parsed.claim):
            return None
        number = claimed_number(parsed, spans(parsed, "scenario", "level"))
        if number is not None and counts_things(parsed, number):
            return None  # "les 2 cartes sautees ... comme en normal ?" counts cards: no level target is claimed
        return Computation(intent="solo", sentences=[say("level_goal", lang, level=name, target=level.target)],
                           value=level.target, value_text=qty(level.target, "point", lang), unit="points",
                           claimed=None if number is None else number.value, engine=engine_object,
                           concepts=[("solo_level", {})])
    passed = score.value >= level.target
    target_slot = parsed.first("level")
    if claimed is not None and passed and not target_slot.inherited and _only(parsed, target_slot):
        reached = _level_reached(parsed, score.value)
        if reached.value != level.slug:
            # "35 en solo, c'est que Normal": 35 reaches a higher level, so "only Normal" is false.
            reached.value, reached.claimed = False, claimed
            reached.trace = [say("solo_trace", lang, score=score.value, target=level.target, result=say("yes", lang))]
            return reached
    key = "level_pass" if passed else "level_fail"
    sentence = say(key, lang, score=score.value, level=name, target=level.target, short=level.target - score.value)
    if passed and claimed is False:
        # "you have to beat it, so it's lost?": the answer states the level reached (a "Yes:" would read as agreeing).
        sentence = say("level_reached", lang, score=score.value, level=name, target=level.target)
    if not passed:
        sentence += " " + _level_reached(parsed, score.value).sentences[0]
    trace = [say("solo_trace", lang, score=score.value, target=level.target, result=say("yes" if passed else "no", lang))]
    engine_object.update({"score": score.value, "passed": passed})
    return Computation(intent="solo", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                       engine=engine_object, concepts=[("solo_level", {})])
