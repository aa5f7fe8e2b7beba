"""A Scoring Card's limit: "how many ribbons can Emphasis give at most?", "Emphasis can give 5 ribbons, yes?"."""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import (
    claimed_number,
    compared,
    scoring_selection,
    spans,
    unit_after,
)
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.canvas.words import alternation, either, listed, numbers, pattern, vocabulary, words
from rulesbot.compute.registry import Computation, own_reading
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """The most ribbons one Scoring Card gives (its points table's length, from the engine's data)."""
    lang = parsed.lang
    # A card named as a comparison ("Style goes up to 4 like Repetition") is not the one asked about.
    cards = {slot.value.slug: slot.value for slot in parsed.all("scoring_card") if not compared(parsed, slot)}
    if len(cards) != 1 or len(parsed.all("art_card")) >= 2 or parsed.has("swatches"):
        return None
    scoring = next(iter(cards.values()))
    own = own_reading(parsed)
    if own is not parsed and own.cue("silver") and not own.has("scoring_card"):
        return None  # "and silver ribbons, is there a cap?" after a card's cap: silver comes from no Scoring Card
    if own.cue("per_painting") and not own.has("art_card"):
        # "how many ribbons max can Emphasis give per painting?", "combien de rubans pour une seule peinture ?": what one
        # painting can earn is the card's rule (its condition, once or per set), not the length of its points table,
        # which counts the whole game.
        return None
    taken = taken_with_held(parsed, scoring)
    if taken is not None:
        return taken
    if (parsed.cue("points_question") and not parsed.cue("limit", "ability")) or (parsed.cue("points") and not parsed.cue("limit")):
        return None  # "what are 3 Emphasis ribbons worth?", "3 Variety ribbons give 13 points" are the ribbons intent
    # "how many ribbons can Emphasis give (at most)?": a count of ribbons asked, no count stated.
    asked = parsed.cue("limit") or (parsed.form == "how_many" and parsed.cue("ribbon") and not parsed.has("number"))
    if parsed.cue("icon_word", "element_word") and not parsed.cue("limit"):
        return None  # "with two of each Element, does Variety give 2 ribbons?" asks how the card counts
    if not (asked or (parsed.claim and parsed.cue("ability", "limit")) or (parsed.explicit_claim and parsed.cue("gives"))):
        return None
    group = parsed.first("ribbon_group")
    stated = group.value.count if group is not None and group.value.kind == "card" else parsed.value("ribbon_count")
    if parsed.claim and stated is None:
        number = claimed_number(parsed, spans(parsed, "scoring_card"))
        stated = None if number is None else number.value
    if parsed.explicit_claim and stated is None:
        # "there's no limit to Emphasis ribbons, is there?", "Emphase est illimitee, non ?": a claim that a limit exists
        # or not, whatever number it is.
        return _limit_exists(parsed, scoring) if parsed.cue("limit") and not parsed.has("number") else None
    # "proximity maxed out: ribbons and points?" states no value: a question.
    claim = parsed.claim and stated is not None
    if not claim and group is not None and not parsed.cue("limit"):
        return None  # "how many points do 3 Emphasis ribbons give?" is the ribbons intent
    name = card_name(scoring.slug, lang)
    sentences = [say("card_limit", lang, card=name, max=qty(scoring.max_ribbons, "ribbon", lang),
                     points=qty(scoring.points[-1], "point", lang))]
    claimed = None
    value = scoring.max_ribbons
    if claim:
        claimed = stated
        if not parsed.cue("limit"):
            if group is not None and any(slot.name == "number" and not slot.inherited
                                         and not group.start <= slot.start < group.end for slot in parsed.slots):
                return None  # "Variety with 3 ribbons gives 9": a value stated for the ribbons is the ribbons intent
            # "Emphasis can give 5 ribbons, yes?" / "doesn't give 4": true when that many ribbons is possible.
            value, claimed = stated <= scoring.max_ribbons, not parsed.negated
    return Computation(intent="limit", sentences=sentences, value=value,
                       value_text=qty(scoring.max_ribbons, "ribbon", lang) if not isinstance(value, bool) else None,
                       claimed=claimed,
                       # "Style au max ca rapporte 18 pts": the most a card gives, in points, is its table's last value.
                       unit="ribbons", in_units={"points": (scoring.points[-1], qty(scoring.points[-1], "point", lang))},
                       engine={"intent": "card_limit", "card": scoring.slug, "max_ribbons": scoring.max_ribbons,
                               "points": list(scoring.points)},
                       concepts=[("painting_card", {"slug": scoring.slug}), ("ribbon_limit", {})])


def _limit_exists(parsed: Parsed, scoring) -> Computation:
    """A claim that a Scoring Card's ribbons are limited (or, negated, unlimited): they are, by its points table."""
    lang = parsed.lang
    sentences = [say("card_limit", lang, card=card_name(scoring.slug, lang), max=qty(scoring.max_ribbons, "ribbon", lang),
                     points=qty(scoring.points[-1], "point", lang))]
    return Computation(intent="limit", sentences=sentences, value=True, claimed=not parsed.negated,
                       engine={"intent": "card_limit", "card": scoring.slug, "max_ribbons": scoring.max_ribbons,
                               "points": list(scoring.points)},
                       concepts=[("painting_card", {"slug": scoring.slug}), ("ribbon_limit", {})])


def taken_with_held(parsed: Parsed, scoring) -> Computation | None:
    """"j'ai deja 2 rubans Mouvement, ma 2e peinture remplit 2 fois la condition : j'en prends combien ?": the ribbons a
    painting meeting the card N times gives with some already held (the engine's `ribbons_taken`, capped by the card)."""
    lang = parsed.lang
    held = [slot for slot in parsed.all("ribbon_group") if not slot.inherited and slot.value.kind in ("card", "colour")
            and pattern("held_words").search(parsed.folded[max(0, slot.start - 24): slot.end])]
    if len(held) != 1:
        return None
    reader = numbers()
    times = vocabulary()["ribbon_count_words"]
    # ("another 2 pairs of Shape", "2 sets": the card's condition counted in its own units is met that often.)
    counted = [match for match in re.finditer(B + f"(?P<n>{reader.fragment_articles})\\s+(?:more\\s+|other\\s+|autres\\s+)?(?:" + alternation(words("icon_word")) + r"\s+)?" + either("ribbon_count_units") + E,
                                              parsed.folded) if not held[0].start <= match.start() < held[0].end]
    if scoring.rule.get("kind") == "sets_of":
        # "my last painting has another 2 pairs of Shape": for a card scoring each set of an Element, the sets
        # counted are the times its condition is met.
        # (A count the units reading already took, "2 pairs", is one count, not two.)
        counted += [match for match in re.finditer(B + f"(?P<n>{reader.fragment_articles})\\s+" + either("condition_sets") + E,
                                                   parsed.folded) if not held[0].start <= match.start() < held[0].end
                    and not any(other.start() < match.end() and match.start() < other.end() for other in counted)]
    met = [reader.count_value(match.group("n")) for match in counted]
    # "twice", "qu'une fois": a count said in one word, where no number-and-"times" reading covers it.
    met += [times[re.sub(r"\s+", " ", match.group(0))] for match in re.finditer(B + alternation(list(times)) + E, parsed.folded)
            if not any(other.start() < match.end() and match.start() < other.end() for other in counted)]
    met = [count for count in met if count]
    if len(met) != 1 or not (parsed.cue("count_question") or parsed.form == "how_many" or parsed.claim):
        return None
    count = held[0].value.count
    taken = engine.ribbons_taken(scoring.slug, met[0], count)
    name = card_name(scoring.slug, lang)
    sentences = [say("ribbons_taken_held", lang, held=qty(count, "ribbon", lang), card=name, met=met[0],
                     met_ribbons=qty(met[0], "ribbon", lang),
                     taken=qty(taken, "ribbon", lang), max=qty(scoring.max_ribbons, "ribbon", lang))]
    number = claimed_number(parsed, spans(parsed, "ribbon_group", "scoring_card"))
    return Computation(intent="limit", sentences=sentences, value=taken, value_text=qty(taken, "ribbon", lang),
                       claimed=None if number is None else number.value,
                       engine={"intent": "ribbons_taken", "card": scoring.slug, "held": count, "met": met[0],
                               "taken": taken, "max_ribbons": scoring.max_ribbons},
                       concepts=[("ribbon_limit", {})])


def compute_max_points(parsed: Parsed) -> Computation | None:
    """The most points the Scoring Cards in play can give (each card's last table value), silver aside."""
    lang = parsed.lang
    # "every scoring card", "toutes les cartes de score": all the cards in play, however they are named.
    every = re.search(r"\b(?:" + alternation(words("all_of_them") + words("each_word") + listed("all_word"))
                      + r")\s+(?:[\w']+\s+)?" + alternation(vocabulary()["components"]["scoring_cards"]) + E, parsed.folded)
    if not (parsed.cue("all_cards") or every) or parsed.has("card_chain", "swatches", "ribbon_group"):
        return None
    slugs, choice, concepts = scoring_selection(parsed, [], lang)
    if slugs is None:
        return Computation(intent="max_points", asks=True, sentences=choice, concepts=concepts)
    tops = {slug: engine.scoring_card(slug).points[-1] for slug in slugs}
    total = sum(tops.values())
    items = join([f"{card_name(slug, lang)} {points}" for slug, points in tops.items()], lang)
    sentences = [say("max_points", lang, total=qty(total, "point", lang), items=items), *choice]
    number = claimed_number(parsed, spans(parsed, "scenario"))
    caps = {slug: engine.scoring_card(slug).max_ribbons for slug in slugs}
    ribbons = sum(caps.values())
    value, value_text = total, qty(total, "point", lang)
    if parsed.cue("ribbon"):
        # "si on max les 4 cartes ca fait 14 rubans ?": the ribbons, each card's cap (its table's length).
        capped = join([f"{card_name(slug, lang)} {cap}" for slug, cap in caps.items()], lang)
        sentences.insert(0, say("max_ribbons", lang, total=qty(ribbons, "ribbon", lang), items=capped))
        if unit_after(parsed, number) == "ribbons" if number is not None else not parsed.cue("points"):
            value, value_text = ribbons, qty(ribbons, "ribbon", lang)
    return Computation(intent="max_points", sentences=sentences, value=value, value_text=value_text,
                       claimed=None if number is None else number.value,
                       engine={"intent": "max_points", "scoring": slugs, "points": tops, "total": total,
                               "max_ribbons": caps, "ribbons": ribbons},
                       concepts=[("ribbons", {}), ("ribbon_limit", {}), *concepts])
