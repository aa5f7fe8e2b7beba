"""Achievements: "I scored 47 points: did I beat the designers' top score?", "8 rubans argent : quels succès ?",
"5 of the same element in one painting is an achievement, right?", and what a painting named earlier unlocks."""

from __future__ import annotations

import re
from dataclasses import replace

from rapidfuzz import fuzz

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents.common import ONE_PAINTING, score_number, scoring_selection, unit_after
from rulesbot.compute.canvas.intents.limits import compute_max_points
from rulesbot.compute.canvas.phrasing import join, qty, say
from rulesbot.compute.canvas.words import either
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import fold
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed

_KINDS = {
    ("points", False): "game_points", ("ribbons", False): "game_ribbons", ("silver", False): "game_silver",
    ("ribbons", True): "painting_ribbons", ("silver", True): "painting_silver",
    ("same_element", True): "painting_same_element", ("same_element", False): "painting_same_element",
}
# Who speaks of their own result ("I scored", "j'ai fait"): then it is no question about the designers' score.
# ("my son read that ..." is someone else speaking: "my" / "mon" count only before a result, "my score".)
_FIRST_PERSON = {lang: (r"\b" + either("first_person_pronouns", lang) + r"\b" + (r"|\bj'" if lang == "fr" else "")
                         + r"|\b" + either("first_person_owners", lang) + r"\s+(?:[\w']+\s+)?" + either("own_results", lang) + r"\b")
                 for lang in ("en", "fr")}
# A threshold stated ("the achievement for ... is 5 silvers", "il faut 7 rubans"), not a value reached.
_STATES_THRESHOLD = r"(?:\bis|\bare|=|c'est|\best|\bneeds?|\brequires?|\bfaut|\bdemande|\bexige)\s*(?:the\s+|le\s+|de\s+)?$"


def _unit(parsed: Parsed, slot) -> str:
    """What a stated number counts for an achievement: "same_element", "silver", "ribbons" or "points"."""
    after = parsed.folded[slot.end: slot.end + 40]
    if parsed.cue("same_element") and re.match(r"\s*(?:times\s+|fois\s+|x\s+)?(?:of\s+)?(?:the\s+|le\s+|du\s+)?"
                                               r"(?:same|meme|identi|\w*\s*(?:element|elements))", after):
        return "same_element"
    if re.match(r"\s*" + either("silver_plural") + r"\b", after):
        return "silver"
    return unit_after(parsed, slot)


def _designers(parsed: Parsed) -> Computation | None:
    """The designers' own top score: the points achievement that beats it needs one more (data: its threshold)."""
    lang = parsed.lang
    beat = [a for a in engine.ACHIEVEMENTS if a.kind == "game_points" and "min" in a.params]
    if not beat or not re.search(r"\b" + either("score_words") + r"\b", parsed.folded):
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
    silver = re.search(r"\b(?:silver|silvers|argent\w*|gris)\b", text) is not None
    unit = "same_element" if parsed.cue("same_element") else (
        "silver" if silver else ("ribbons" if parsed.cue("ribbon") else "points"))
    one_painting = one_painting or unit == "same_element"
    candidates = [a for a in engine.ACHIEVEMENTS if a.kind == _KINDS.get((unit, one_painting)) and "min" in a.params]
    both = [a for a in engine.ACHIEVEMENTS if "min" in a.params and a.kind in {_KINDS.get((unit, False)), _KINDS.get((unit, True))}]
    # "over the game = ? and in one painting = ?", "the silver achievements, what are the numbers?": both scopes are
    # asked (or neither is said, and the question is no claim): every threshold of that unit answers it, not one.
    game_scope = re.search(_GAME_SCOPE, text) is not None
    if not parsed.cue("designers") and len({a.kind for a in both}) > 1 and (
            (one_painting and game_scope and unit != "same_element") or (not one_painting and not game_scope and not parsed.claim)):
        return _thresholds(parsed, both)
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


# A whole-game scope said ("over the game", "sur la partie", "in total"), against "in one painting".
_GAME_SCOPE = (r"\b" + either("scope_prep") + r"\s+(?:the\s+|la\s+|a\s+|une\s+|"
               r"toute\s+la\s+|l'ensemble\s+de\s+la\s+)?(?:whole\s+|entire\s+|full\s+)?(?:game|partie)\b"
               r"|\b" + either("in_total") + r"\b")


# "in one painting", "sur une seule peinture": the painting scope of an achievement.
_ONE_PAINTING = ONE_PAINTING


def _thresholds(parsed: Parsed, achievements) -> Computation:
    """Every threshold of one unit, one sentence each (a question that asks both scopes gets both answers)."""
    lang = parsed.lang
    sentences = [say("achievement_threshold", lang, achievements=getattr(a, lang), threshold=a.params["min"])
                 for a in achievements]
    return Computation(intent="achievement", sentences=sentences,
                       engine={"intent": "achievement_threshold", "achievements": [a.slug for a in achievements],
                               "min": [a.params["min"] for a in achievements]},
                       concepts=[("achievement", {})])


def _painting(parsed: Parsed) -> Computation | None:
    """Which one-painting achievements a painting earns ("... does it unlock an achievement?"), judged by the engine."""
    lang = parsed.lang
    chain = parsed.first("card_chain")
    cards = list(chain.value)
    if len(cards) != CARDS_PER_PAINTING or len({art_card.id for art_card in cards}) != CARDS_PER_PAINTING:
        return None
    slugs, choice, concepts = scoring_selection(parsed, [] if chain.inherited else [(chain.start, chain.end)], lang)
    if slugs is None:
        return Computation(intent="achievement", asks=True, sentences=choice, concepts=concepts)
    earned, record = helpers.painting_achievements(cards, slugs)
    by_slug = {entry.slug: entry for entry in engine.ACHIEVEMENTS}
    missed = [entry for entry in engine.ACHIEVEMENTS if entry.kind.startswith("painting_") and entry.slug not in earned]
    titles = ", ".join(art_card.title for art_card in cards)
    if earned:
        sentences = [say("achievement_painting_got", lang, cards=titles,
                         earned=join([getattr(by_slug[slug], lang) for slug in earned], lang))]
    else:
        sentences = [say("achievement_painting_none", lang, cards=titles,
                         missed=join([getattr(entry, lang) for entry in missed], lang))]
    sentences += choice
    counts = engine.Painting.from_cards(cards).element_counts()
    count_text = ", ".join(f"{helpers.element_name(element, lang)} {count}" for element, count in counts.items())
    trace = [say("achievement_painting_trace", lang, ribbons=sum(record.taken), silver=record.silver, counts=count_text)]
    asserted = parsed.explicit_claim or parsed.claim and "?" not in parsed.text
    value = bool(earned)
    named = _named(parsed, [entry for entry in engine.ACHIEVEMENTS if entry.kind.startswith("painting_")])
    if named is not None:
        # "does that tick the 'five of the same element' achievement?": that one, not any.
        value = named.slug in earned
        sentences.append(say("achievement_named_yes" if value else "achievement_named_no", lang, achievement=getattr(named, lang)))
    return Computation(intent="achievement", sentences=sentences, trace=trace, value=value,
                       value_text=say("yes" if value else "no", lang),
                       claimed=(not parsed.negated) if asserted else None,
                       engine={"intent": "painting_achievements", "cards": [art_card.title for art_card in cards],
                               "scoring": list(slugs), "earned": list(earned), "silver": record.silver,
                               "ribbons": list(record.taken)},
                       concepts=[("achievement", {}), *concepts])


# A quote opens after a space and closes before one (the apostrophe of "that's" opens nothing).
_QUOTED = re.compile(r"(?:(?<=\s)|^)(?:'[^'\s][^']{3,}?'|\"[^\"]{4,}\"|«[^»]{4,}»|“[^”]{4,}”)(?=[\s,.?!;:]|$)")


def _quoted(parsed: Parsed) -> list[tuple[int, int]]:
    """Spans of quoted text ("the 'five of the same element' achievement"): names, not values."""
    return [match.span() for match in _QUOTED.finditer(parsed.folded)]


def _named(parsed: Parsed, candidates):
    """The achievement a question names in quotes (closest wording among `candidates`, EN and FR), or None."""
    quoted = [parsed.folded[start + 1: end - 1] for start, end in _quoted(parsed)]
    best, best_score = None, 0.0
    for text in quoted:
        for entry in candidates:
            score = max(fuzz.token_set_ratio(text, fold(getattr(entry, lang))) for lang in ("en", "fr"))
            if score > best_score:
                best, best_score = entry, score
    return best if best_score >= 70 else None


_LABELS = {"points": "point", "ribbons": "ribbon", "silver": "silver_ribbon", "same_element": "same_element"}


def _several(parsed: Parsed, one_painting: bool) -> Computation | None:
    """"14 ribbons over the game and 42 points: which achievements?": each stated value checked against the
    achievements of its own unit (one sentence per unit); None when the question states one unit only."""
    lang = parsed.lang
    by_unit: dict[str, int] = {}
    for slot in parsed.free_numbers(("ribbon_group", "ribbon_count")):
        unit = _unit(parsed, slot)
        if _KINDS.get((unit, one_painting or unit == "same_element")) and unit not in by_unit:
            by_unit[unit] = slot.value
    if len(by_unit) < 2:
        return None
    sentences, checks, earned_all, missed_all = [], [], [], []
    for unit, value in by_unit.items():
        kind = _KINDS[(unit, one_painting or unit == "same_element")]
        candidates = [a for a in engine.ACHIEVEMENTS if a.kind == kind and "min" in a.params]
        earned = [a for a in candidates if value >= a.params["min"]]
        missed = [a for a in candidates if value < a.params["min"]]
        value_text = qty(value, _LABELS[unit], lang)
        if earned:
            sentences.append(say("achievement_got", lang, value=value_text, earned=join([getattr(a, lang) for a in earned], lang)))
        else:
            sentences.append(say("achievement_none", lang, value=value_text, missed=join([getattr(a, lang) for a in missed], lang)))
        checks += [f"{value} ≥ {a.params['min']}: {say('yes' if value >= a.params['min'] else 'no', lang)}" for a in candidates]
        earned_all += earned
        missed_all += missed
    return Computation(intent="achievement", sentences=sentences, trace=[say("achievement_trace", lang, checks="; ".join(checks))],
                       value=bool(earned_all),
                       engine={"intent": "achievements", "values": by_unit, "earned": [a.slug for a in earned_all],
                               "missed": [a.slug for a in missed_all]},
                       concepts=[("achievement", {})])


def _names_max_ribbons(parsed: Parsed) -> bool:
    """Whether a question (or the one it follows up) is about the "max Ribbons from all 4 Scoring Cards" achievement:
    named in quotes, or said with its words (an achievement, every card, the most)."""
    target = [a for a in engine.ACHIEVEMENTS if a.kind == "max_ribbons_all_cards"]
    for reading in (parsed, parsed.previous):
        if reading is None:
            continue
        named = _named(reading, engine.ACHIEVEMENTS)
        if named is not None:
            return named in target
        if reading.cue("achievement") and reading.cue("all_cards") and reading.cue("limit"):
            return True
    return False


def _max_ribbons(parsed: Parsed) -> Computation | None:
    """"the 'max ribbons on all 4 cards' achievement with the first-game cards: how many ribbons, how many points, more
    than the designers?": each Scoring Card's cap and last table value (the max-points computation), with the
    designers' top score compared when asked."""
    # "sans compter l'argent", "silver aside": no silver counted, which the cards' maximum leaves out anyway.
    no_silver = [slot for slot in parsed.all("ribbon_group") if slot.value.kind == "silver" and slot.value.count == 0]
    if not target_kind_present() or not _names_max_ribbons(parsed) or parsed.has("card_chain") \
            or len(no_silver) != len(parsed.all("ribbon_group")):
        return None
    lang = parsed.lang
    achievement = next(a for a in engine.ACHIEVEMENTS if a.kind == "max_ribbons_all_cards")
    computed = compute_max_points(_with_all_cards(parsed))
    if computed is None or computed.asks:
        return computed
    computed.sentences.insert(0, say("achievement_max_ribbons", lang, achievement=getattr(achievement, lang)))
    if parsed.cue("designers"):
        beat = max((a for a in engine.ACHIEVEMENTS if a.kind == "game_points" and "min" in a.params),
                   key=lambda a: a.params["min"])
        designers_score = beat.params["min"] - 1  # "beat" is strictly more than their score
        total = computed.engine["total"]
        computed.sentences.append(say("designers_more" if total > designers_score else "designers_not_more", lang,
                                      total=qty(total, "point", lang), score=designers_score))
        computed.engine["designers_score"] = designers_score
    computed.intent = "achievement"
    computed.engine["achievement"] = achievement.slug
    computed.concepts = [("achievement", {}), *computed.concepts]
    return computed


def target_kind_present() -> bool:
    """Whether the engine lists the max-ribbons achievement (the data decides, not this code)."""
    return any(a.kind == "max_ribbons_all_cards" for a in engine.ACHIEVEMENTS)


def _with_all_cards(parsed: Parsed) -> Parsed:
    """`parsed` read as being about every Scoring Card in play (the achievement's own scope), silver left aside."""
    slots = tuple(slot for slot in parsed.slots if slot.name != "ribbon_group")
    return replace(parsed, cues=parsed.cues | {"all_cards"}, slots=slots)


def _shortfall_for(parsed: Parsed, source: Parsed, score, one_painting: bool) -> Computation | None:
    """The shortfall to the achievements of the stated value's kind (see _shortfall)."""
    unit = _unit(source, score)
    kind = _KINDS.get((unit, one_painting or unit == "same_element"))
    candidates = [achievement for achievement in engine.ACHIEVEMENTS if achievement.kind == kind and "min" in achievement.params]
    return _shortfall(parsed, score.value, unit, candidates) if candidates else None


def _shortfall(parsed: Parsed, value: int, unit: str, candidates) -> Computation | None:
    """"I scored 44, how many more to beat the designers?": the difference to the achievement's threshold (the
    designers' one, the one named, or else the next one not reached)."""
    lang = parsed.lang
    named = _named(parsed, candidates)
    if parsed.cue("designers"):
        target = max(candidates, key=lambda a: a.params["min"])
    elif named is not None:
        target = named
    else:
        above = [a for a in candidates if a.params["min"] > value]
        if not above:
            return None
        target = min(above, key=lambda a: a.params["min"])
    threshold = target.params["min"]
    short = max(0, threshold - value)
    label = {"points": "point", "ribbons": "ribbon", "silver": "silver_ribbon", "same_element": "same_element"}[unit]
    key = "achievement_short" if short else "achievement_no_short"
    sentences = [say(key, lang, value=qty(value, label, lang), short=qty(short, label, lang),
                     achievement=getattr(target, lang), min=threshold)]
    return Computation(intent="achievement", sentences=sentences,
                       trace=[f"{threshold} - {value} = {threshold - value}" if short else f"{value} ≥ {threshold}"],
                       value=short, value_text=qty(short, label, lang),
                       engine={"intent": "achievement_shortfall", "achievement": target.slug, "min": threshold,
                               "value": value, "short": short},
                       concepts=[("achievement", {})])


def compute(parsed: Parsed) -> Computation | None:
    """Which achievements of one kind a stated value earns (thresholds from the engine's data)."""
    lang = parsed.lang
    if not parsed.cue("achievement", "designers"):
        return None
    maxed = _max_ribbons(parsed)
    if maxed is not None:
        return maxed
    if parsed.cue("designers") and not parsed.inherited_from and not re.search(_FIRST_PERSON[lang], parsed.folded):
        return _designers(parsed)
    if parsed.has("component"):
        return None  # "how many achievements are there?" counts them (the components intent)
    if parsed.has("card_chain"):
        return _painting(parsed)
    score = score_number(parsed)
    if score is not None and any(start <= score.start < end for start, end in _quoted(parsed)):
        if not parsed.explicit_claim:
            return None  # "is the '4 silver ribbons' achievement per painting or per game?": a rules question
        score = None  # the number names the achievement ("the '5 silvers' one needs 5, right?")
    source = parsed
    if score is None and parsed.previous is not None and not parsed.free_numbers():
        # "does that earn an achievement?" after "I scored 48 points ...": the previous question's value.
        score = score_number(parsed.previous)
        source = parsed.previous if score is not None else parsed
    one_painting = _ONE_PAINTING.search(parsed.folded)
    reported = score is not None and re.search(either("reported_score") + r"\s*$",
                                               source.folded[: score.start])
    states = score is not None and source is parsed and parsed.claim and not reported and re.search(
        _STATES_THRESHOLD, parsed.folded[: score.start])
    if score is not None and parsed.cue("shortfall") and not states:
        shortfall = _shortfall_for(parsed, source, score, bool(one_painting))
        if shortfall is not None:
            return shortfall
    if score is None or (parsed.cue("goal") and not reported) or states:
        if not (parsed.cue("goal", "pass", "points", "ribbon", "silver") or parsed.claim):
            return None  # "what is the designers' favourite card?" is not a threshold
        return _threshold(parsed, score, bool(one_painting))
    if source is parsed and not parsed.claim:
        several = _several(parsed, bool(one_painting))
        if several is not None:
            return several
    value = score.value
    unit = _unit(source, score)
    one_painting = one_painting or unit == "same_element"
    kind = _KINDS.get((unit, bool(one_painting)))
    candidates = [achievement for achievement in engine.ACHIEVEMENTS if achievement.kind == kind]
    if not candidates:
        return None
    earned = [achievement for achievement in candidates if value >= achievement.params["min"]]
    missed = [achievement for achievement in candidates if value < achievement.params["min"]]
    label = {"points": "point", "ribbons": "ribbon", "silver": "silver_ribbon", "same_element": "same_element"}[unit]
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
    # "5 of the same element is an achievement, I think": a statement asserts it; "... unlocks something?" asks.
    asserted = parsed.explicit_claim or parsed.claim and "?" not in parsed.text
    return Computation(intent="achievement", sentences=sentences, trace=[say("achievement_trace", lang, checks=checks)],
                       value=passed, claimed=(not parsed.negated) if asserted else None,
                       engine={"intent": "achievements", "kind": kind, "value": value,
                               "earned": [a.slug for a in earned], "missed": [a.slug for a in missed]},
                       concepts=[("achievement", {})])
