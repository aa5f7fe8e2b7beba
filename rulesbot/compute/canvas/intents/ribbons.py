"""Ribbon points: "3 green ribbons: how many points?", "4 rubans Espace valent 11 points, n'est-ce pas ?"."""

from __future__ import annotations

import re

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents import limits
from rulesbot.compute.canvas.intents.common import claimed_number, spans
from rulesbot.compute.canvas.phrasing import card_name, colour, join, qty, say, word
from rulesbot.compute.canvas.slots import RibbonGroup
from rulesbot.compute.canvas.words import either, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E, alternation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def _rate(parsed: Parsed, slot) -> bool:
    """"1 silver ribbon per matching element", "un ruban par condition": a rule's rate quoted, not ribbons held."""
    after = parsed.folded[slot.end: slot.end + 30]
    return re.match(r"\s*(?:" + alternation(words("ribbon")) + r")?\s*" + either("rate_words") + E, after) is not None


def _groups(parsed: Parsed) -> list[RibbonGroup]:
    groups = [slot.value for slot in parsed.all("ribbon_group") if slot.inherited or not _rate(parsed, slot)]
    if parsed.previous is not None and groups and parsed.cue("in_addition") and not any(
            slot.inherited for slot in parsed.all("ribbon_group")):
        # "et avec 2 argents en plus ?": the previous question's ribbons and these.
        groups = [slot.value for slot in parsed.previous.all("ribbon_group")] + groups
    bare = parsed.first("ribbon_count")
    # A follow-up "and with 4 ribbons?" / "et trois ?" keeps the previous question's colour or card, new count.
    if len(groups) == 1 and parsed.first("ribbon_group").inherited:
        count = bare.value if bare is not None and not bare.inherited else None
        if count is None and parsed.free_numbers():
            count = parsed.free_numbers()[0].value
        old = groups[0]
        card = next((slot for slot in parsed.all("scoring_card") if not slot.inherited), None)
        shade = next((slot for slot in parsed.all("colour") if not slot.inherited), None)
        # "and for Emphasis?" / "et en vert ?": the previous count with the newly named card or colour.
        kind, key = ("card", card.value.slug) if card else (("colour", shade.value) if shade else (old.kind, old.key))
        groups = [RibbonGroup(old.count if count is None else count, kind, key, False)]
    return _tally_changed(parsed, groups)


def _tally_changed(parsed: Parsed, groups: list[RibbonGroup]) -> list[RibbonGroup]:
    """A follow-up that changes one count of the previous question's tally ("and if variety had been 3?", "et si
    j'avais eu 3 rubans Espace ?"): the tally with that card's (or colour's) group replaced, the others kept. Only a
    card or colour the tally has is changed; a new one, or a count added ("en plus"), reads as before."""
    if parsed.previous is None or parsed.cue("in_addition"):
        return groups
    tally = [slot.value for slot in parsed.previous.all("ribbon_group")]
    if len(tally) < 2:
        return groups
    own = [slot.value for slot in parsed.all("ribbon_group") if not slot.inherited]
    if not own:
        card = next((slot for slot in parsed.all("scoring_card") if not slot.inherited), None)
        shade = next((slot for slot in parsed.all("colour") if not slot.inherited), None)
        bare = next((slot for slot in parsed.all("ribbon_count") if not slot.inherited), None)
        free = parsed.free_numbers()
        count = bare.value if bare is not None else (free[0].value if len(free) == 1 else None)
        if count is None or (card is None) == (shade is None):
            return groups
        own = [RibbonGroup(count, "card", card.value.slug, False) if card else RibbonGroup(count, "colour", shade.value, False)]
    keys = {(group.kind, group.key) for group in tally}
    if any((group.kind, group.key) not in keys for group in own):
        return groups
    changed = {(group.kind, group.key): group for group in own}
    return [changed.get((group.kind, group.key), group) for group in tally]


def _counts_elements(parsed: Parsed) -> bool:
    """Whether the question counts Element icons ("5 hues in a row", "6 textures", "3 formes"): a painting described."""
    after = r"\s*(?:" + alternation(words("element_word") + words("icon_word")) + r")" + E
    return any(re.match(after, parsed.folded[slot.end:]) for slot in parsed.free_numbers())


def _asked_instead(parsed: Parsed, groups: list[RibbonGroup]) -> tuple[list[RibbonGroup], bool]:
    """"Symmetry: 1 ribbon = 1 pt, 4 ribbons = how much?": a count followed by what is asked ("= combien", "how
    much") is the count the question asks about; the one given with its value is the asker's example. (The groups,
    and whether such an asked count replaced them: then the question claims nothing.)"""
    if len(groups) != 1 or groups[0].kind != "card":
        return groups, False
    reader = numbers()
    asked = list(re.finditer(B + rf"(?P<count>{reader.core})\s*(?:{alternation(words('ribbon'))})\s*(?:=|:|->)?\s*"
                             + r"(?:" + alternation(words("points_question") + words("count_question")
                                                    + ["combien", "quoi", "?"]) + r")", parsed.folded))
    own = [slot for slot in parsed.all("ribbon_group") if not slot.inherited]
    asked = [match for match in asked if own and match.start() >= own[0].end]
    count = reader.value(asked[0].group("count")) if len(asked) == 1 else None
    return ([RibbonGroup(count, "card", groups[0].key, False)], True) if count else (groups, False)


def _claimed(parsed: Parsed):
    if parsed.first("ribbon_group") is not None and parsed.first("ribbon_group").inherited:
        free = parsed.free_numbers()
        bare = parsed.first("ribbon_count")
        if bare is not None and not bare.inherited:
            return free[-1] if parsed.claim and free else None  # "et 3 rubans c'est 9 ?": 3 is the count, 9 claimed
        return free[-1] if parsed.claim and len(free) >= 2 else None
    return claimed_number(parsed, spans(parsed, "ribbon_group", "ribbon_count"))


_BOUNDS = {"more_than": lambda total, number: total > number, "at_least": lambda total, number: total >= number,
           "less_than": lambda total, number: total < number, "at_most": lambda total, number: total <= number}


def _bound(parsed: Parsed, claimed):
    """The comparison a claim makes with its number ("more than 16", "au moins 10"), or None for an equality."""
    if claimed is None:
        return None
    before = parsed.folded[max(0, claimed.start - 16): claimed.start]
    for key, compare in _BOUNDS.items():
        if re.search(alternation(words(key)) + r"\s*$", before):
            return compare
    return None


def compute(parsed: Parsed) -> Computation | None:
    """Points for N ribbons of each named colour / Scoring Card / silver (first-game colours assumed)."""
    lang = parsed.lang
    if re.search(B + "(?:" + alternation(words("swatch_word")) + r")\s+(?:n[o°]\s*)?\d+(?:\s*(?:,|et|and|&|or|ou)\s*\d+)+" + E,
                 parsed.folded):
        # "Textures in swatches 1, 3 and 5 ...": the question lays out a painting by places; ribbon points cannot
        # account for a layout (whether those places earn a ribbon is the Scoring Card's condition, a rule).
        return None
    if not parsed.cue("points", "silver", "bonus_icon") and re.search(B + either("how_many_lead") + r"\s+(?:[\w']+\s+){0,2}?(?:" + alternation(words("ribbon"))
                                               + ")" + E, parsed.folded):
        return None  # "combien de rubans je prends ?" asks a count of ribbons, not their points (silver ones aside: a
        # bonus icon's ribbons are this intent's)
    if _counts_elements(parsed) and not parsed.cue("points", "silver", "bonus_icon"):
        # "5 hues in a row on Movement = 3 ribbons??", "6 textures, only 1 Style ribbon?": the icons are the
        # painting, the ribbon count is the outcome the asker claims for it; their points are not what is asked
        # (whether those icons meet the card that often is the card's condition).
        return None
    groups, asked = _asked_instead(parsed, _groups(parsed))
    # "2 held, my painting makes 2 sets: how many do I get?" asks the ribbons taken (the limit intent); "what's it
    # worth for me?" asks points.
    asks_count = parsed.cue("count_question") and not parsed.cue("points") or not parsed.cue("points_question")
    if len(groups) == 1 and groups[0].kind == "card" and asks_count and limits.taken_with_held(
            parsed, engine.scoring_card(groups[0].key)) is not None:
        return None
    asks_points = (parsed.cue("points_question") or parsed.explicit_claim or parsed.form == "how_many"
                   or len(groups) >= 2 and not parsed.claim)  # "2 symmetry + 1 proximity" asks for the sum
    stated = claimed_number(parsed, spans(parsed, "ribbon_group", "ribbon_count")) if parsed.claim else None
    if (not asks_points and stated is None and parsed.claim_cue == "statement" and "?" in parsed.text
            and len(parsed.folded.split()) <= 6):
        asks_points = True  # "style w/ 2 ribbons??": a terse question about the groups alone, no value stated
    if not asks_points and stated is not None and re.search(
            alternation(words("value_cue")) + r"\s*$", parsed.folded[max(0, stated.start - 14): stated.start]):
        asks_points = True  # a statement of a value: "3 compo + 3 variete + 2 argent ca fait 24"
    if not groups:
        bare = parsed.first("ribbon_count")
        # Only a bare "how many points are N ribbons worth?" asks back; with a card, icons or a painting named it
        # is a rules question about that card (e.g. "does Movement give 2 ribbons?").
        # ("donc la condition remplie 2 fois = 2 rubans ?" states a count of ribbons as its result, no points: a rule
        # about taking ribbons.)
        counts = [slot for slot in parsed.all("ribbon_count") if not slot.inherited]
        ribbons_result = bool(counts) and re.search(either("ribbons_result_lead") + r"\s*$",
                                                    parsed.folded[: counts[-1].start]) is not None
        if (bare is not None and bare.value and asks_points and len(parsed.all("art_card")) < 2 and not ribbons_result
                and not parsed.has("scoring_card") and not parsed.cue("icon_word") and not parsed.cue("limit")):
            return Computation(intent="ribbons", asks=True,
                               sentences=[say("ask_ribbon_card", lang, ribbons=qty(bare.value, "ribbon", lang))],
                               concepts=[("ribbons", {})])
        return None
    # "a Variety ribbon" alone is a rules question (what is one ribbon worth?), left to retrieval; so is a limit.
    # A value claimed for it ("un seul ruban Coherence = 3 pts, c'est ca ?") is checked.
    # A list of two groups or more is a total even when it says "maxed" ("maxed everything: 3 variety, 4 ...").
    if all(group.article for group in groups) and not (parsed.claim and stated is not None) or not asks_points \
            or parsed.cue("limit") and len(groups) < 2:
        return None
    mapping = helpers.first_game_colours()
    totals: dict[str, int] = {}
    labels: dict[str, str] = {}
    used_colours = False
    for group in groups:
        if group.kind == "colour":
            slug, used_colours = mapping[group.key], True
            labels.setdefault(slug, group.key)
        else:
            slug = group.key
        totals[slug] = totals.get(slug, 0) + group.count
    items, terms, notes = [], [], []
    total = 0
    breakdown = {}
    for slug, count in totals.items():
        if slug == "silver":
            points = engine.SILVER_POINTS * count
            items.append(say("ribbons_item_silver", lang, silver=qty(count, "silver_ribbon", lang)))
            terms.append(say("ribbons_trace_silver", lang, count=count, each=engine.SILVER_POINTS, points=points))
        else:
            points = engine.points_for(slug, count)
            scoring = engine.scoring_card(slug)
            name = card_name(slug, lang)
            if slug in labels:
                items.append(say("ribbons_item_colour", lang, ribbons=qty(count, "ribbon", lang),
                                 colour=colour(labels[slug], lang), card=name))
            else:
                items.append(say("ribbons_item", lang, ribbons=qty(count, "ribbon", lang), card=name))
            terms.append(say("ribbons_trace_item", lang, card=name, count=count, points=points))
            if count > scoring.max_ribbons:
                notes.append(say("ribbons_cap", lang, card=name, max=scoring.max_ribbons))
        breakdown[slug] = {"ribbons": count, "points": points}
        total += points
    sentences = [say("ribbons_total", lang, total=qty(total, "point", lang), items=join(items, lang)), *notes]
    concepts = [("ribbons", {})]
    for group in groups:
        if group.bonus is not None:
            icon, matching = group.bonus
            sentences.insert(0, say("ribbons_bonus_icon", lang, icon=helpers.icon_name(icon, lang, word("per", lang)),
                                    silver=qty(group.count, "silver_ribbon", lang), matching=matching,
                                    element=helpers.element_name(icon.removeprefix("per-"), lang)))
            concepts.append(("bonus_icons", {}))
    if "silver" in totals:
        concepts.append(("ribbons_silver", {}))
    if used_colours:
        mapping_text = ", ".join(f"{colour(slot, lang)} = {card_name(slug, lang)}" for slot, slug in mapping.items())
        sentences.append(say("assume_colours", lang, mapping=mapping_text))
        concepts.append(("colour_assumption", {}))
    sums = " + ".join(str(item["points"]) for item in breakdown.values())
    trace = ([say("ribbons_trace_total", lang, terms="; ".join(terms), total=f"{sums} = {total}")] if len(breakdown) > 1
             else ["; ".join(terms)])
    claimed = None if asked else _claimed(parsed)
    value, value_text, claimed_value = total, qty(total, "point", lang), None if claimed is None else claimed.value
    if claimed is not None and len(breakdown) == 1 and (
            re.fullmatch(r"\d+(?:\s*\+\s*\d+)+", parsed.folded[claimed.start: claimed.end])
            or re.search(r"\d+(?:\s*\+\s*\d+)+\s*" + either("sum_result_lead") + r"\s*$", parsed.folded[: claimed.start])):
        # "1+1+1 = 3": the claim adds a value ribbon by ribbon; the card scores the set it holds, once.
        sentences.append(say("ribbons_not_added", lang))
    bound = _bound(parsed, claimed)
    if bound is not None:
        # "that's more than 16 for Repetition, right?": the claim compares the total with the number.
        value, value_text, claimed_value = bound(total, claimed.value), None, not parsed.negated
    return Computation(
        intent="ribbons", sentences=sentences, trace=trace, value=value, value_text=value_text,
        claimed=claimed_value, unit="points", score=total,
        engine={"intent": "ribbon_points", "ribbons": breakdown, "points": total,
                "assumed_colours": mapping if used_colours else None},
        concepts=concepts,
    )
