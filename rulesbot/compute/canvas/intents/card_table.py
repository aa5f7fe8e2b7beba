"""A Scoring Card's points table told and checked: "Hierarchy gives 4 points for one ribbon, 9 for two, 15 for three,
right?", "une carte Mouvement rapporte 3 points pour un ruban, c'est bon ?".

The numbers of such a claim have roles: a value said before "for" / "pour" / "with" is the points claimed, the count
after it is the ribbons they are claimed for ("4 for one ribbon"); later pairs may drop the units ("9 for two"). Each
pair is checked against the card's table in the engine's data, and the whole claim holds only when every pair does.
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import compared
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.canvas.words import alternation, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed

# The words joining a value to the ribbons it is said to be for ("4 points for one ribbon", "3 pts pour un ruban").
_FOR = r"(?:for|pour|with|avec|at|a|=)"


def _pairs(parsed: Parsed, start: int) -> list[tuple[int, int, tuple[int, int]]]:
    """(points, ribbons, span) for each "N (points) for M (ribbons)" after `start`; a pair without any unit counts only
    after one that names a unit (the table is being listed: "4 points for one ribbon, 9 for two")."""
    reader = numbers()
    points_word, ribbon_word = alternation(words("points")), alternation(words("ribbon"))
    count = reader.fragment_articles
    found = re.finditer(B + rf"(?P<points>{reader.core})\s*(?P<unit>{points_word})?\s*{_FOR}\s+(?P<ribbons>{count})"
                        rf"(?:\s+(?P<ribbon>{ribbon_word}))?" + E, parsed.folded[start:])
    pairs: list[tuple[int, int, tuple[int, int]]] = []
    for match in found:
        points, ribbons = reader.value(match.group("points")), reader.count_value(match.group("ribbons"))
        if points is None or not ribbons:
            continue
        if not (match.group("unit") or match.group("ribbon") or pairs):
            continue  # "3 for 11" alone names nothing: it is not a table
        pairs.append((points, ribbons, (start + match.start(), start + match.end())))
    return pairs


def compute(parsed: Parsed) -> Computation | None:
    """Whether the points a claim gives one Scoring Card for some counts of ribbons are those of its table."""
    lang = parsed.lang
    if not parsed.claim or parsed.has("card_chain", "swatches") or len(parsed.all("art_card")) >= 1:
        return None
    cards = [slot for slot in parsed.all("scoring_card") if not slot.inherited and not compared(parsed, slot)]
    if len({slot.value.slug for slot in cards}) != 1 or parsed.cue("icon_word", "element_word"):
        return None  # icons counted describe a painting: whether it meets the card is the card's condition
    scoring = cards[0].value
    pairs = _pairs(parsed, cards[0].start)
    if not pairs:
        return None
    wrong = []
    for points, ribbons, _span in pairs:
        actual = engine.points_for(scoring.slug, ribbons) if ribbons <= scoring.max_ribbons else None
        if actual != points:
            wrong.append((points, ribbons, actual))
    name = card_name(scoring.slug, lang)
    table = join([say("card_table_item", lang, points=qty(points, "point", lang),
                      ribbons=qty(count, "ribbon", lang)) for count, points in enumerate(scoring.points, start=1)], lang)
    sentences = [say("card_table", lang, card=name, table=table, max=qty(scoring.max_ribbons, "ribbon", lang))]
    for points, ribbons, actual in wrong:
        if actual is None:
            sentences.append(say("card_table_over", lang, card=name, ribbons=qty(ribbons, "ribbon", lang),
                                 max=qty(scoring.max_ribbons, "ribbon", lang)))
        else:
            sentences.append(say("card_table_wrong", lang, ribbons=qty(ribbons, "ribbon", lang),
                                 actual=qty(actual, "point", lang), claimed=qty(points, "point", lang)))
    return Computation(
        intent="card_table", sentences=sentences, value=not wrong, claimed=not parsed.negated,
        trace=[f"{name} {ribbons} → {engine.points_for(scoring.slug, ribbons)}" if ribbons <= scoring.max_ribbons
               else f"{name} {ribbons} > {scoring.max_ribbons}" for _points, ribbons, _span in pairs],
        engine={"intent": "card_table", "card": scoring.slug, "points": list(scoring.points),
                "max_ribbons": scoring.max_ribbons,
                "claimed": [{"ribbons": ribbons, "points": points} for points, ribbons, _span in pairs]},
        concepts=[("painting_card", {"slug": scoring.slug}), ("ribbons", {})],
        explained=[span for _points, _ribbons, span in pairs],
    )
