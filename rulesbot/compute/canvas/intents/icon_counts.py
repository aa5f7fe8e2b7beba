"""Ribbons from a count of icons: "Répétition : ma fille compte 5 formes visibles, ça fait combien de rubans ?",
"Emphasis with 1 hue showing, how many ribbons?".

Only a count the Scoring Card's ribbons follow from is answered: the engine scores every painting the question leaves
possible (each stated count of an Element on every set of swatches, each other Element nowhere or everywhere) and the
card's ribbons must be the same in all of them. A card whose ribbons also depend on where the icons are (Movement's
runs, Symmetry) or on the other Elements (Variety, Hierarchy) gives different counts: the question then asks that
card's condition, a rule left to the rulebook text. An impossible count (6 Textures on 5 swatches) is no painting
either.
"""

from __future__ import annotations

import itertools
import re

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents.common import claimed_number
from rulesbot.compute.canvas.phrasing import card_name, qty, say
from rulesbot.compute.canvas.words import alternation, numbers, pattern, vocabulary, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import SWATCH_COUNT
from rulesbot.parsed import Parsed


def _stated_counts(parsed: Parsed) -> tuple[dict[str, int], list[tuple[int, int]]] | None:
    """The Elements counted ("5 formes visibles", "4 shapes") and where; None when one is counted twice."""
    index = {name: icon for icon, names in vocabulary()["icons"].items() for name in names}
    regex = re.compile(B + f"(?P<n>{numbers().fragment})" + r"\s+(?P<icon>" + alternation(index) + ")" + E)
    counts: dict[str, int] = {}
    read: list[tuple[int, int]] = []
    for match in regex.finditer(parsed.folded):
        if match.group("n") in words("article_one"):
            continue  # "compte comme une forme": an article names the icon, it counts nothing
        if re.search(r"\b(?:of|de|d')\s*$", parsed.folded[: match.start()]):
            return None  # "2 sets of 3 Textures", "des series de 3": the size of a set, not what the painting shows
        value = numbers().count_value(match.group("n"))
        icon = index[" ".join(match.group("icon").split())]
        if not isinstance(value, int) or icon not in engine.ELEMENTS:
            continue
        if value == 0:
            return None  # "Emphasis with zero Hue, a ribbon anyway?": what the card makes of none is its condition
        if icon in counts and counts[icon] != value:
            return None
        counts[icon] = value
        read.append(match.span())
    return counts, read


def _placements(counts: dict[str, int]):
    """Every painting the counts leave possible: each counted Element on every set of swatches of its count, each
    other Element on no swatch or on all of them."""
    swatches = range(SWATCH_COUNT)
    others = [element for element in engine.ELEMENTS if element not in counts]
    counted = [list(itertools.combinations(swatches, count)) for count in counts.values()]
    for places in itertools.product(*counted):
        for everywhere in itertools.product((False, True), repeat=len(others)):
            painting = [[] for _ in swatches]
            for element, where in zip(counts, places, strict=True):
                for swatch in where:
                    painting[swatch].append(element)
            for element, full in zip(others, everywhere, strict=True):
                if full:
                    for swatch in painting:
                        swatch.append(element)
            yield painting


def ribbons_for_counts(slug: str, counts: dict[str, int]) -> int | None:
    """The ribbons `slug` gives every painting showing these Element counts, or None when they differ (or no painting
    shows them)."""
    if not counts or any(not 0 <= count <= SWATCH_COUNT for count in counts.values()):
        return None
    found = {engine.score_painting(engine.Painting.from_swatches(painting), [slug]).ribbons[slug]
             for painting in _placements(counts)}
    return found.pop() if len(found) == 1 else None


def compute(parsed: Parsed) -> Computation | None:
    """The ribbons (and their points) one Scoring Card gives a painting described by its counts of Elements."""
    lang = parsed.lang
    cards = {slot.value.slug for slot in parsed.all("scoring_card") if not slot.inherited}
    if len(cards) != 1 or parsed.has("card_chain", "swatches", "art_card"):
        return None
    slug = next(iter(cards))
    if re.search(B + alternation(words("bonus_prefix")) + r"[- ]?\s*" + alternation(words("icon_word")) + E, parsed.folded):
        return None  # "l'icone PER forme compte comme une forme ?": what a bonus icon counts for is a rule
    if parsed.has("ribbon_group") and pattern("held_words").search(parsed.folded):
        return None  # "already 2 Repetition ribbons, ... how many more?": the ribbons taken with those held
    stated = _stated_counts(parsed)
    if stated is None or not stated[0]:
        return None
    counts, read = stated
    ribbons = ribbons_for_counts(slug, counts)
    if ribbons is None:
        return None
    points = engine.points_for(slug, ribbons)
    card = card_name(slug, lang)
    icons = ", ".join(f"{helpers.element_name(element, lang)} {count}" for element, count in counts.items())
    sentences = [say("icon_count_ribbons", lang, icons=icons, card=card, ribbons=qty(ribbons, "ribbon", lang),
                     points=qty(points, "point", lang))]
    asks_points = parsed.cue("points_question") and not (parsed.cue("ribbon") and parsed.cue("count_question"))
    value, text, unit = (points, qty(points, "point", lang), "points") if asks_points else \
        (ribbons, qty(ribbons, "ribbon", lang), "ribbons")
    claimed = claimed_number(parsed, read + [(slot.start, slot.end) for slot in parsed.all("scoring_card")])
    units = alternation(words("ribbon") + words("points"))
    if claimed is not None and not re.match(r"\s*(?:[\w']+\s+)?" + units + E, parsed.folded[claimed.end:]):
        return None  # "shouldn't two Hues be even better than one?": a number that is no ribbons nor points
    if claimed is None and not (parsed.cue("count_question") or parsed.form == "how_many"):
        return None  # no value asked nor stated: the question asks the card's condition
    explained = list(read) + ([(claimed.start, claimed.end)] if claimed is not None else [])
    return Computation(
        intent="icon_count_ribbons", sentences=sentences, value=value, value_text=text,
        claimed=claimed.value if claimed is not None else None, unit=unit,
        in_units={"points": (points, qty(points, "point", lang)), "ribbons": (ribbons, qty(ribbons, "ribbon", lang))},
        trace=[f"{card}: {icons} -> {ribbons} / {points}"],
        engine={"intent": "icon_count_ribbons", "scoring": slug, "counts": counts, "ribbons": ribbons, "points": points},
        concepts=[("painting_card", {"slug": slug})], explained=explained)
