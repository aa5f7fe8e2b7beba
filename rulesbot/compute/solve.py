"""Recognise a computable Canvas question and answer it by running the engine.

Each recogniser reads the folded question (see text.py) and either declines (None) or returns a
`Computation`: the answer sentences (from templates), a short trace, the value a claim is checked against,
the engine object and the knowledge concepts to cite. Recognisers are deliberately narrow: a false positive
would steal a rules question from text retrieval, so each one needs concrete, countable content (a number of
ribbons, three card titles, a row position, a score) before it answers.

Order matters: the more specific intents (best arrangement, legality, paintings) are tried before the
general ones (costs, ribbon points, solo goals).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from rulesbot.compute import helpers
from rulesbot.compute.phrasing import (
    card_name,
    colour,
    join,
    qty,
    ribbons_text,
    say,
    visible_text,
    word,
)
from rulesbot.compute.text import (
    Span,
    alternation,
    art_cards,
    count_value,
    find,
    has,
    number_fragment,
    numbers,
    ordinals,
    scenarios,
    scoring_cards,
    solo_levels,
    vocabulary,
    words,
)
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING, SWATCH_COUNT

_B, _E = r"(?<![\w])", r"(?![\w])"


@dataclass
class Computation:
    """What an intent computed, ready to be rendered as an Answer."""

    intent: str
    sentences: list[str]
    trace: list[str] = field(default_factory=list)
    value: Any = None  # what a claim about this question is checked against
    value_text: str | None = None
    claimed: Any = None  # the value the asker stated (claims only)
    engine: dict = field(default_factory=dict)
    concepts: list[tuple[str, dict]] = field(default_factory=list)
    asks: bool = False  # under-specified: the answer asks for the missing piece


@dataclass
class Question:
    """The folded question, whether it is a claim, and the claim's polarity."""

    text: str
    claim: bool
    negated: bool
    lang: str


def recognise(question: Question) -> Computation | None:
    """The first intent that recognises the question, computed; None when nothing computable is asked."""
    for recogniser in (_best, _legality, _painting_swatches, _painting_cards, _take, _ribbons, _solo):
        result = recogniser(question)
        if result is not None:
            return result
    return None


# ---------------------------------------------------------------------------------------------- claims


def split_claim(text: str) -> tuple[str, bool]:
    """Strip "is it true that ..." / "..., right?" markers; (body, is_claim)."""
    body = text.strip()
    prefix = re.match(r"^\s*(?:" + alternation(words("claim_prefix")) + r")\s*[:,]?\s*", body)
    claim = False
    if prefix:
        body, claim = body[prefix.end():], True
    suffix = re.search(r"[,;:-]\s*(?:" + alternation(words("claim_suffix")) + r")\s*[?!.]*\s*$", body)
    if suffix:
        body, claim = body[: suffix.start()], True
    return body, claim


def is_negated(text: str) -> bool:
    """Whether a stated claim is negative ("I can't ...", "on ne peut pas ...")."""
    return re.search(r"(?:can't|cannot|can not|n't\b|\bnot\b|\bnever\b|\bne\b|\bn'|\bpas\b|\bjamais\b)", text) is not None


def _leftover_numbers(text: str, used: list[tuple[int, int]]) -> list[Span]:
    return [span for span in numbers(text)
            if not any(start < span.end and span.start < end for start, end in used)]


def _claimed_number(question: Question, used: list[tuple[int, int]]) -> Span | None:
    if not question.claim:
        return None
    left = _leftover_numbers(question.text, used)
    return left[-1] if left else None


def _unit_after(text: str, span: Span) -> str:
    after = text[span.end: span.end + 40]
    # "2 Repetition ribbons": a Scoring Card name may sit between the number and the ribbon word.
    named = [found for found in scoring_cards(after) if not after[: found.start].strip()]
    if named:
        after = after[named[0].end:]
    if re.match(r"\s*(?:" + alternation(words("silver")) + r")?\s*" + alternation(words("ribbon")), after) or re.match(
        r"\s*" + alternation(words("ribbon")), after
    ):
        if re.match(r"\s*(?:" + alternation(words("silver")) + r")\s+" + alternation(words("ribbon")), after) or re.match(
            r"\s*" + alternation(words("ribbon")) + r"\s+(?:" + alternation(words("silver")) + ")", after
        ):
            return "silver"
        return "ribbons"
    if re.match(r"\s*" + alternation(words("token")), after):
        return "tokens"
    return "points"


# ---------------------------------------------------------------------------------------------- ribbons


def _ribbon_target_index() -> dict[str, tuple[str, str]]:
    index: dict[str, tuple[str, str]] = {}
    for slot, names in vocabulary()["colours"].items():
        for name in names:
            index[name] = ("colour", slot)
    for name in words("silver"):
        index[name] = ("silver", "silver")
    return index


def _ribbon_groups(text: str) -> list[tuple[int, str, str, tuple[int, int], bool]]:
    """(count, kind, key, span, count_is_article) for each "N <target> ribbons" group."""
    from rulesbot.compute.text import fold

    targets = _ribbon_target_index()
    scoring_names = {fold(name): scoring.slug for scoring in engine.SCORING_CARDS
                     for name in (scoring.slug, scoring.name_en, scoring.name_fr)}
    target_alt = alternation(list(targets) + list(scoring_names))
    count = number_fragment(with_articles=True)
    ribbon = alternation(words("ribbon"))
    link = r"(?:(?:of|from|for|on|de|du|des|d'|pour|sur)\s*(?:the\s+|la\s+|le\s+|l')?(?:(?:scoring\s+)?card\s+|carte\s+(?:de\s+score\s+)?)?)?"
    forward = re.compile(_B + f"(?P<count>{count})\\s+(?:(?P<rib>{ribbon})\\s+)?{link}(?P<target>{target_alt})" + _E)
    backward = re.compile(_B + f"(?P<target>{target_alt})(?:\\s+(?:scoring\\s+)?(?:card|carte))?(?:\\s+[\\w']+){{0,3}}?\\s*"
                          f"(?::|with|avec|=|,)?\\s*(?P<count>{count})\\s+(?P<rib>{ribbon})" + _E)
    groups = []
    taken: list[tuple[int, int]] = []
    for regex in (forward, backward):
        for match in regex.finditer(text):
            span = (match.start(), match.end())
            if any(start < span[1] and span[0] < end for start, end in taken):
                continue
            value = count_value(match.group("count"))
            if value is None:
                continue
            name = " ".join(match.group("target").split())
            kind, key = targets.get(name, ("card", scoring_names.get(name, "")))
            if not key:
                continue
            article = match.group("count").strip() in words("article_one")
            groups.append((value, kind, key, span, article))
            taken.append(span)
    return sorted(groups, key=lambda group: group[3][0])


def _ribbons(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    if not has(text, "ribbon"):
        return None
    groups = _ribbon_groups(text)
    asks_points = has(text, "points_question") or question.claim
    if not groups:
        bare = re.search(_B + f"({number_fragment()})\\s+" + alternation(words("ribbon")) + _E, text)
        # Only a bare "how many points are N ribbons worth?" asks back; with a card or icons named nearby it is
        # a rules question about that card (e.g. "does Movement give 2 ribbons?").
        icon_words = [name for names in vocabulary()["icons"].values() for name in names]
        if (bare and asks_points and not _has_painting_context(text)
                and not scoring_cards(text) and not re.search(_B + alternation(icon_words) + _E, text)):
            value = count_value(bare.group(1))
            if value:
                return Computation(intent="ribbons", asks=True,
                                   sentences=[say("ask_ribbon_card", lang, ribbons=qty(value, "ribbon", lang))],
                                   concepts=[("ribbons", {})])
        return None
    # "a Variety ribbon" alone is a rules question (what is one ribbon worth?), left to retrieval.
    if all(group[4] for group in groups) or not asks_points:
        return None
    mapping = helpers.first_game_colours()
    totals: dict[str, int] = {}
    labels: dict[str, str] = {}
    used_colours = False
    for count, kind, key, _span, _article in groups:
        if kind == "colour":
            slug, used_colours = mapping[key], True
            labels.setdefault(slug, key)
        else:
            slug = key
        totals[slug] = totals.get(slug, 0) + count
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
                                 colour=colour(labels[slug], lang), card=name))  # "3 ribbons (green = Repetition)"
            else:
                items.append(say("ribbons_item", lang, ribbons=qty(count, "ribbon", lang), card=name))
            terms.append(say("ribbons_trace_item", lang, card=name, count=count, points=points))
            if count > scoring.max_ribbons:
                notes.append(say("ribbons_cap", lang, card=name, max=scoring.max_ribbons))
        breakdown[slug] = {"ribbons": count, "points": points}
        total += points
    sentences = [say("ribbons_total", lang, total=qty(total, "point", lang), items=join(items, lang)), *notes]
    concepts = [("ribbons", {})]
    if "silver" in totals:
        concepts.append(("ribbons_silver", {}))
    if used_colours:
        mapping_text = ", ".join(f"{colour(slot, lang)} = {card_name(slug, lang)}" for slot, slug in mapping.items())
        sentences.append(say("assume_colours", lang, mapping=mapping_text))
        concepts.append(("colour_assumption", {}))
    sums = " + ".join(str(item["points"]) for item in breakdown.values())
    trace = [say("ribbons_trace_total", lang, terms="; ".join(terms), total=f"{sums} = {total}")] if len(breakdown) > 1 \
        else ["; ".join(terms)]
    claimed = _claimed_number(question, [group[3] for group in groups])
    return Computation(
        intent="ribbons", sentences=sentences, trace=trace, value=total, value_text=qty(total, "point", lang),
        claimed=None if claimed is None else claimed.value,
        engine={"intent": "ribbon_points", "ribbons": breakdown, "points": total,
                "assumed_colours": mapping if used_colours else None},
        concepts=concepts,
    )


def _has_painting_context(text: str) -> bool:
    return len(art_cards(text)) >= 2


# ---------------------------------------------------------------------------------------------- paintings


def _card_chain(text: str) -> tuple[list[Span], list[str]]:
    """The longest run of Art Card titles joined only by list words or layering words, and the joiners."""
    spans = art_cards(text)
    joiner = re.compile(r"^\s*(?:(?:" + alternation(words("list_sep") + words("above") + words("below")
                                                    + ["the", "la", "le", "l'", "card", "carte", "then on top",
                                                       "with", "avec", "finally", "enfin"])
                        + r")\s*)*$")
    best: list[Span] = []
    best_joins: list[str] = []
    current: list[Span] = []
    joins: list[str] = []
    for span in spans:
        if current and joiner.match(text[current[-1].end: span.start]) and text[current[-1].end: span.start].strip():
            current.append(span)
            joins.append(text[current[-2].end: span.start])
        elif current and not text[current[-1].end: span.start].strip():
            # Two titles with only a space between them read as a painting title ("Chosen Game"), not a list.
            current, joins = [span], []
        else:
            current, joins = [span], []
        if len(current) > len(best):
            best, best_joins = list(current), list(joins)
    return best, best_joins


def _bottom_to_top(chain: list[Span], joins: list[str], text: str) -> list:
    cards = [span.value for span in chain]
    above = re.compile(_B + alternation(words("above")) + _E)
    below = re.compile(_B + alternation(words("below")) + _E)
    says_above = any(above.search(join_text) for join_text in joins)
    says_below = any(below.search(join_text) for join_text in joins)
    if says_above and not says_below:
        return list(reversed(cards))
    if has(text, "order_top_down") and not says_below:
        return list(reversed(cards))
    return cards


def _scoring_selection(text: str, exclude: list[tuple[int, int]], lang: str) -> tuple[list[str] | None, list[str], list]:
    """(slugs or None when a question must be asked, sentences about the choice, concepts)."""
    named = [span.value.slug for span in scoring_cards(text)
             if not any(start <= span.start < end for start, end in exclude)]
    named = list(dict.fromkeys(named))
    if named:
        return named, [], []
    found = scenarios(text)
    if found:
        scenario = found[0].value
        if scenario.random_cards:
            return None, [say("ask_random_scenario", lang, scenario=scenario.name)], [("scenario", {"slug": scenario.slug})]
        names = join([card_name(slug, lang) for slug in scenario.cards], lang)
        return (list(scenario.cards), [say("scoring_from_scenario", lang, scenario=scenario.name, cards=names)],
                [("scenario", {"slug": scenario.slug})])
    slugs = list(engine.FIRST_GAME_CARDS)
    names = join([card_name(slug, lang) for slug in slugs], lang)
    return slugs, [say("assume_first_game", lang, cards=names)], [("first_game_assumption", {})]


def _painting_cards(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    title_cut = re.search(_B + r"(?:titled|title is|title|called|named|intitulee?|s'appelle|titre est|titre|nommee?)" + _E, text)
    scan = text
    chain, joins = _card_chain(scan)
    if len(chain) < 2:
        return None
    if not (has(text, "score_question") or has(text, "painting") or question.claim):
        return None
    needed = CARDS_PER_PAINTING
    if len(chain) != needed:
        titles = join([span.value.title for span in chain], lang)
        if len(chain) < needed:
            sentence = say("ask_third_card", lang, needed=needed, cards=titles)
        else:
            sentence = say("ask_which_three", lang, needed=needed, count=len(chain))
        return Computation(intent="painting", asks=True, sentences=[sentence], concepts=[("legal_paint", {})])
    cards = _bottom_to_top(chain, joins, scan)
    if len({art_card.id for art_card in cards}) != needed:
        return None
    painting = engine.Painting.from_cards(cards)
    chain_span = [(chain[0].start, chain[-1].end)]
    slugs, choice, concepts = _scoring_selection(text, chain_span, lang)
    if slugs is None:
        return Computation(intent="painting", asks=True, sentences=choice, concepts=concepts)
    computation = _score_painting(painting, slugs, lang, cards=cards)
    computation.sentences[1:1] = choice
    computation.concepts += concepts
    _painting_claim(question, computation, text, chain_span, painting, title_cut)
    return computation


def _score_painting(painting, slugs: list[str], lang: str, cards=None) -> Computation:
    score = engine.score_painting(painting, slugs)
    points = score.points()
    ribbons = dict(score.ribbons)
    titles = [art_card.title for art_card in cards] if cards else None
    if cards:
        opening = say("painting_cards", lang, cards=", ".join(titles), title=painting.title or word("no_title", lang),
                      visible=visible_text(painting.visible, lang))
    else:
        opening = say("painting_swatches", lang, visible=visible_text(painting.visible, lang))
    met = [card_name(slug, lang) + (f" ×{count}" if count > 1 else "") for slug, count in ribbons.items() if count]
    sentences = [
        opening,
        say("painting_ribbons", lang, ribbons=ribbons_text(ribbons, lang), bonus=score.bonus,
            points=qty(points, "point", lang)),
        say("painting_met", lang, met=join(met, lang)) if met else say("painting_met_none", lang),
    ]
    by_id = {art_card.id: art_card.title for art_card in engine.ART_CARDS}
    shown_by = [by_id.get(card_id) if card_id else None for card_id in painting.shown_by]
    counts = painting.element_counts()
    layers = ", ".join(f"{number}←{name or '-'}" for number, name in enumerate(shown_by, start=1))
    count_text = ", ".join(f"{helpers.element_name(element, lang)} {count}" for element, count in counts.items())
    trace = [say("painting_trace", lang, layers=layers, counts=count_text) if cards
             else say("painting_counts", lang, counts=count_text)]
    concepts: list[tuple[str, dict]] = [("painting", {})]
    concepts += [("painting_card", {"slug": slug}) for slug, count in ribbons.items() if count]
    if score.bonus:
        concepts.append(("painting_silver", {}))
    engine_object = {
        "intent": "painting",
        "cards": titles,
        "visible": [list(icons) for icons in painting.visible],
        "title": painting.title,
        "shown_by": shown_by,
        "scoring": slugs,
        "ribbons": ribbons,
        "bonus": score.bonus,
        "points": points,
    }
    return Computation(intent="painting", sentences=sentences, trace=trace, value=points,
                       value_text=qty(points, "point", lang), engine=engine_object, concepts=concepts)


def _painting_claim(question: Question, computation: Computation, text: str, used: list[tuple[int, int]],
                    painting, title_cut) -> None:
    """Set the value a claim about this painting is checked against (points, ribbons, a card met, title)."""
    if not question.claim:
        return
    lang = question.lang
    ribbons = computation.engine["ribbons"]
    if title_cut is not None:
        start, end = used[0]
        stated = [span.value.title for span in art_cards(text) if span.end <= start or span.start >= end]
        if stated:
            computation.value, computation.claimed = painting.title, " ".join(stated)
            computation.value_text = painting.title
            computation.sentences.append(say("painting_title_check", lang, title=painting.title))
            return
    named = [(span.start, span.end) for span in scoring_cards(text)]
    number = _claimed_number(question, used + named)
    if number is not None:
        unit = _unit_after(text, number)
        target = next((span.value.slug for span in scoring_cards(text[number.end: number.end + 60])), None)
        if target is None:
            before = scoring_cards(text[max(0, number.start - 40): number.start])
            target = before[-1].value.slug if before else None
        if unit == "silver":
            computation.value, computation.value_text = computation.engine["bonus"], qty(computation.engine["bonus"], "silver_ribbon", lang)
        elif unit == "ribbons" and target in ribbons:
            computation.value, computation.value_text = ribbons[target], qty(ribbons[target], "ribbon", lang)
        elif unit == "ribbons":
            total = sum(ribbons.values())
            computation.value, computation.value_text = total, qty(total, "ribbon", lang)
        computation.claimed = number.value
        return
    named_slugs = [span.value.slug for span in scoring_cards(text)]
    if named_slugs:
        meets = all(ribbons.get(slug, 0) > 0 for slug in named_slugs)
        computation.value, computation.claimed = meets, not question.negated
        computation.value_text = None


def _painting_swatches(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    icon_hits = sum(len(find(text, key)) for key in ("icons",)) + sum(
        len(re.findall(_B + alternation(names) + _E, text)) for names in vocabulary()["icons"].values()
    )
    if icon_hits < 3:
        return None
    swatches = _parse_swatches(text)
    if swatches is None:
        return None
    try:
        painting = engine.Painting.from_swatches(swatches)
    except ValueError:
        return None
    named = [span.value.slug for span in scoring_cards(text)]
    slugs, choice, concepts = _scoring_selection(text, [], lang)
    if slugs is None:
        return Computation(intent="painting", asks=True, sentences=choice, concepts=concepts)
    computation = _score_painting(painting, slugs, lang)
    computation.sentences[1:1] = choice
    computation.concepts += concepts
    if question.claim:
        _painting_claim(question, computation, text, [], painting, None)
        if named and computation.claimed is None:
            computation.value = all(computation.engine["ribbons"].get(slug, 0) > 0 for slug in named)
            computation.claimed = not question.negated
    return computation


def _icon_pattern() -> tuple[re.Pattern, dict[str, str]]:
    index = {}
    for icon, names in vocabulary()["icons"].items():
        for name in names:
            index[name] = icon
    return re.compile(_B + "(" + alternation(index) + ")" + _E), index


def _parse_group(group: str) -> list[str] | None:
    regex, index = _icon_pattern()
    group = group.strip()
    if not group or re.fullmatch(r"\W*(?:" + alternation(words("empty")) + r")?\W*", group):
        return []
    icons: list[str] = []
    prefix = alternation(words("bonus_prefix"))
    consumed = []
    for match in re.finditer(_B + prefix + r"[- ]?\s*(" + regex.pattern[len(_B) + 1: -len(_E) - 1] + ")", group):
        name = " ".join(match.group(1).split())
        icons.append("per-" + index[name])
        consumed.append((match.start(), match.end()))
    for match in regex.finditer(group):
        if any(start <= match.start() < end for start, end in consumed):
            continue
        icons.append(index[" ".join(match.group(1).split())])
    if not icons:
        return None
    return icons


def _parse_swatches(text: str) -> list[list[str]] | None:
    """Five swatches from "[hue shape] [tone] [] ...", "hue+shape; tone; -; texture; hue" or "red: ..., yellow: ..."."""
    brackets = re.findall(r"\[([^\]]*)\]", text)
    if len(brackets) == SWATCH_COUNT:
        groups = [_parse_group(group) for group in brackets]
        return None if any(group is None for group in groups) else groups
    labels = {}
    for slot, names in vocabulary()["swatches"].items():
        for name in names:
            labels[name] = slot
    order = list(vocabulary()["swatches"])
    label_regex = re.compile(
        _B + r"(?:(?:" + alternation(words("swatch_word")) + r")\s*(?P<num>[1-" + str(SWATCH_COUNT) + "])|(?P<name>" + alternation(labels) + r"))\s*[:=]"
    )
    found = list(label_regex.finditer(text))
    if len(found) >= 2:
        swatches: list[list[str]] = [[] for _ in order]
        for index, match in enumerate(found):
            end = found[index + 1].start() if index + 1 < len(found) else len(text)
            chunk = re.split(r"[?]|\b(?:what|how|which|quel|quelle|combien|que)\b", text[match.end(): end])[0]
            group = _parse_group(chunk.strip(" ,;."))
            if group is None:
                return None
            position = int(match.group("num")) - 1 if match.group("num") else order.index(labels[match.group("name")])
            swatches[position] = group
        return swatches
    tail = text.rsplit(":", 1)[-1] if ":" in text else text
    tail = re.split(r"[?]", tail)[0]
    for separator in (";", "|", "/"):
        parts = tail.split(separator)
        if len(parts) == SWATCH_COUNT:
            groups = [_parse_group(part) for part in parts]
            if any(group is None for group in groups):
                return None
            return groups
    return None


# ---------------------------------------------------------------------------------------------- best painting


def _best(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    spans = art_cards(text)
    if len(spans) < CARDS_PER_PAINTING or not has(text, "best"):
        return None
    hand = list(dict.fromkeys(span.value for span in spans))
    if len(hand) < CARDS_PER_PAINTING:
        return None
    exclude = [(span.start, span.end) for span in spans]
    slugs, choice, concepts = _scoring_selection(text, exclude, lang)
    if slugs is None:
        return Computation(intent="best", asks=True, sentences=choice, concepts=concepts)
    best = engine.best_painting(hand, slugs)
    painting = best.painting
    by_id = {art_card.id: art_card.title for art_card in engine.ART_CARDS}
    titles = [by_id[card_id] for card_id in painting.cards]
    names = join([card_name(slug, lang) for slug in slugs], lang)
    ribbons = dict(best.score.ribbons)
    tried = len(list(itertools.permutations(hand, CARDS_PER_PAINTING)))
    sentences = [
        say("best_painting", lang, scoring=names, cards=", ".join(titles),
            title=painting.title or word("no_title", lang), points=qty(best.points, "point", lang)),
        *choice,
    ]
    trace = [say("best_trace", lang, tried=tried, hand=len(hand), ribbons=ribbons_text(ribbons, lang),
                 bonus=best.score.bonus)]
    claimed = _claimed_number(question, exclude)
    return Computation(
        intent="best", sentences=sentences, trace=trace, value=best.points, value_text=qty(best.points, "point", lang),
        claimed=None if claimed is None else claimed.value,
        engine={"intent": "best_painting", "hand": [art_card.title for art_card in hand], "cards": titles,
                "visible": [list(icons) for icons in painting.visible], "title": painting.title,
                "shown_by": [by_id.get(card_id) if card_id else None for card_id in painting.shown_by],
                "scoring": slugs, "ribbons": ribbons, "bonus": best.score.bonus, "points": best.points},
        concepts=[("best", {}), *concepts],
    )


# ---------------------------------------------------------------------------------------------- row costs


def _tokens_on_cards(text: str, row_size: int) -> tuple[dict[int, int], list[tuple[int, int]], bool]:
    """Tokens already on row cards: ({position: tokens}, spans used, tokens_on_target_mentioned)."""
    count = number_fragment(with_articles=True)
    token = alternation(words("token"))
    ordinal = r"(?P<ord>" + alternation(vocabulary()["ordinals"]) + r")"
    card = alternation(["card", "carte"])
    found: dict[int, int] = {}
    used: list[tuple[int, int]] = []
    on_target = None
    patterns = [
        _B + f"(?P<count>{count})\\s+{token}\\s+(?:(?:is|are|already|deja|sont|est|lying|pose|poses)\\s+)*(?:on|sur)\\s+(?:the\\s+|la\\s+|le\\s+)?{ordinal}\\s+{card}",
        _B + f"(?:the\\s+|la\\s+|le\\s+)?{ordinal}\\s+{card}\\s+(?:(?:has|holds|carries|a|porte|contient|already|deja|y)\\s+)+(?P<count>{count})\\s+{token}",
    ]
    for pattern_text in patterns:
        for match in re.finditer(pattern_text, text):
            position = vocabulary()["ordinals"][match.group("ord").replace(" ", "")]
            value = count_value(match.group("count"))
            if value is None or position > row_size:
                continue
            found[position] = value
            used.append((match.start(), match.end()))
    on_it = re.search(_B + f"(?P<count>{count})\\s+{token}\\s+(?:on it|on that card|dessus|sur elle|sur cette carte|sur celle-ci)", text)
    if on_it:
        on_target = count_value(on_it.group("count"))
        used.append((on_it.start(), on_it.end()))
    return found, used, on_target


def _take(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    rules = helpers.base_rules()
    if has(text, "sixth_card") or has(text, "hand") and re.search(r"\b(?:hand|main)\b", text) and not has(text, "token"):
        return None
    if not (has(text, "take") or has(text, "cost_question")):
        return None
    on_cards, used, on_target = _tokens_on_cards(text, rules.row_size)
    candidates = [span for span in ordinals(text)
                  if not any(start <= span.start < end for start, end in used)
                  and re.match(r"\s*(?:art\s+)?(?:card|carte)|", text[span.end:]) is not None]
    # The taken card is an ordinal that names a card ("the third card", "card 3").
    target = None
    for span in candidates:
        after, before = text[span.end: span.end + 12], text[max(0, span.start - 22): span.start]
        if re.match(r"\s*(?:art\s+)?(?:card|carte)\b", after) or re.search(r"(?:card|carte|position|place|slot)\s*(?:number|numero|n[o°]|#)?\s*$", before):
            target = span
            break
    # The position must be what is taken or paid for: a take verb just before it, or a cost question.
    if target is not None and not has(text, "cost_question"):
        window = text[max(0, target.start - 40): target.start]
        if not re.search(_B + alternation(words("take")) + _E, window):
            target = None
    if target is None and len(on_cards) == 1 and re.search(r"\b(?:it|la|l')\b", text):
        # "The second card has 3 tokens on it: if I take it ..." - the card with tokens is the one taken.
        only = next(iter(on_cards))
        target = Span(only, used[0][0], used[0][0])
    if target is None:
        return None
    position = target.value
    if on_target is not None:
        on_cards[position] = on_target
    player_tokens = _player_tokens(text, used + [(target.start, target.end)])
    if position > rules.row_size:
        code, _state = helpers.legality("take", hand=0, position=position)
        return Computation(intent="take", sentences=[say("take_no_position", lang, row=rules.row_size, position=position, code=code)],
                           value=False, engine={"intent": "take", "position": position, "reason": code},
                           concepts=[(f"reason/{code}", {})])
    tokens_list = [on_cards.get(index, 0) for index in range(1, rules.row_size + 1)]
    cost, gain = engine.take_cost(position, tokens_list)
    net = gain - cost
    sentences = [say("take_cost", lang, position=position, cost=qty(cost, "token", lang), gain=qty(gain, "token", lang),
                     net=f"{net:+d}")]
    engine_object = {"intent": "take_cost", "position": position, "tokens_on_cards": tokens_list, "cost": cost,
                     "gain": gain, "net": net}
    concepts = [("take", {})] + ([("take_gain", {})] if gain else [])
    value: Any = cost
    value_text = qty(cost, "token", lang)
    if player_tokens is not None:
        code, _state = helpers.legality("take", hand=0, position=position, tokens=player_tokens)
        engine_object.update({"player_tokens": player_tokens, "reason": code, "allowed": code is None})
        if code is None:
            sentences.append(say("take_can", lang, tokens=qty(player_tokens, "token", lang)))
        else:
            sentences.append(say("take_cannot", lang, tokens=qty(player_tokens, "token", lang),
                                 reason=helpers.reason_text(code, lang), code=code))
            concepts.insert(0, (f"reason/{code}", {}))
    skipped = ", ".join(str(index) for index in range(1, position)) or "-"
    trace = [say("take_trace", lang, skipped=skipped, on_cards=tokens_list, cost_n=cost, gain_n=gain)]
    claimed = None
    if question.claim:
        number = _claimed_number(question, used + [(target.start, target.end)] + _player_token_spans(text))
        if number is not None:
            before = text[max(0, number.start - 30): number.start]
            if re.search(r"(?:gain|get back|win|receive|gagne|recupere|recois|obtiens)\w*\s*(?:\w+\s+)?$", before):
                value, value_text = gain, qty(gain, "token", lang)
            claimed = number.value
        elif player_tokens is not None:
            value, value_text, claimed = engine_object["allowed"], None, not question.negated
    elif player_tokens is not None:
        value, value_text = engine_object["allowed"], None
    return Computation(intent="take", sentences=sentences, trace=trace, value=value, value_text=value_text,
                       claimed=claimed, engine=engine_object, concepts=concepts)


def _player_token_regex() -> re.Pattern:
    count = number_fragment()
    token = alternation(words("token"))
    return re.compile(
        _B + r"(?:with|avec|i have|i've got|i hold|having|holding|j'ai|je n'ai que|possedant|if i have|si j'ai|only|seulement)\s+"
        + r"(?:only\s+|just\s+|seulement\s+|que\s+)?" + f"(?P<count>{count})\\s+{token}" + r"(?!\s+(?:on|sur|dessus|already|deja))"
    )


def _player_token_spans(text: str) -> list[tuple[int, int]]:
    return [(match.start(), match.end()) for match in _player_token_regex().finditer(text)]


def _player_tokens(text: str, used: list[tuple[int, int]]) -> int | None:
    for match in _player_token_regex().finditer(text):
        if any(start <= match.start() < end for start, end in used):
            continue
        return count_value(match.group("count"))
    return None


# ---------------------------------------------------------------------------------------------- legality


def _legality(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    statement = re.search(r"\b(?:i can|you can|we can|a player can|players can|one can|on peut|je peux|tu peux|"
                          r"il est possible|it is legal|it's legal|is allowed|est autorise|est permis|on a le droit|"
                          r"i may|you may|allowed|le droit)\b", text)
    if not (has(text, "can") or (question.claim and statement)):
        return None
    rules = helpers.base_rules()
    per_painting = CARDS_PER_PAINTING
    count = number_fragment()
    card_word = alternation(words("card"))
    case = None
    if has(text, "sixth_card"):
        case = ("take", {"hand": rules.hand_limit}, "situation_take")
    hold = re.search(_B + f"(?:hold|have|keep|avoir|tenir|garder)\\s+(?P<n>{count})\\s+(?:art\\s+)?{card_word}", text)
    take_with = re.search(_B + f"(?:with|avec|holding|having)\\s+(?P<n>{count})\\s+(?:art\\s+)?(?:{card_word}\\s+)?(?:already\\s+|deja\\s+)?"
                          + alternation(["in hand", "in my hand", "en main", "dans ma main", "in your hand"]), text)
    paint_with = re.search(_B + f"(?:with|avec|using|of|de|en utilisant)\\s+(?:only\\s+|just\\s+|seulement\\s+|que\\s+)?(?P<n>{count})\\s+(?:art\\s+)?{card_word}", text)
    if case is None and has(text, "same_card_twice"):
        case = ("paint", {"hand": per_painting, "duplicate": True}, "situation_duplicate")
    if case is None and has(text, "after_last_painting"):
        case = ("take", {"hand": 0, "paintings_done": rules.paintings}, "situation_done")
    if case is None and has(text, "game_over"):
        case = ("take", {"hand": 0, "everyone_done": True}, "situation_over")
    if case is None and has(text, "out_of_turn"):
        case = ("take", {"hand": 0, "out_of_turn": True}, "situation_turn")
    paints = re.search(r"\b(?:paint|painting|peindre|peinture|tableau|complete|terminer|finir)\b", text)
    takes = has(text, "take")
    if case is None and take_with and takes and not paints:
        held = count_value(take_with.group("n"))
        case = ("take", {"hand": held}, "situation_take")
    if case is None and hold and not paints:
        held = count_value(hold.group("n"))
        case = ("take", {"hand": max(held - 1, 0)}, "situation_take")
    if case is None and paint_with and paints:
        used = count_value(paint_with.group("n"))
        in_hand = count_value(take_with.group("n")) if take_with else used
        case = ("paint", {"hand": max(in_hand, used), "paint_cards": used}, "situation_paint")
    if case is None:
        return None
    kind, arguments, situation_key = case
    code, state = helpers.legality(kind, **arguments)
    situation = say(situation_key, lang, hand=qty(state["hand"], "card", lang),
                    count=qty(arguments.get("paint_cards", per_painting), "card", lang))
    if code is None:
        sentences = [say("legal_yes", lang, situation=situation)]
        concepts = [("legal_take" if kind == "take" else "legal_paint", {})]
    else:
        sentences = [say("legal_no", lang, reason=helpers.reason_text(code, lang), code=code, situation=situation)]
        concepts = [(f"reason/{code}", {})]
    trace = [say("legal_trace", lang, hand=qty(state["hand"], "card", lang),
                 paintings=qty(state["paintings"], "painting", lang), action=_action_text(state["action"]), result=code or "None")]
    claimed = (not question.negated) if question.claim else None
    return Computation(intent="legality", sentences=sentences, trace=trace, value=code is None, claimed=claimed,
                       engine={"intent": "legality", **state, "allowed": code is None}, concepts=concepts)


def _action_text(action: dict) -> str:
    if action["type"] == "take":
        return f"take {action['position']}"
    return "paint " + ", ".join(str(card_id) for card_id in action["cards"])


# ---------------------------------------------------------------------------------------------- solo, scenarios, achievements


def _solo(question: Question) -> Computation | None:
    text, lang = question.text, question.lang
    found_scenarios = scenarios(text)
    levels = solo_levels(text)
    is_achievement = has(text, "achievement") or has(text, "designers")
    if not (found_scenarios or levels or is_achievement or has(text, "solo")):
        return None
    used = [(span.start, span.end) for span in found_scenarios + levels]
    score_span = _score_number(text, used)
    if question.claim and has(text, "goal") and not has(text, "pass"):
        # "the Hard level needs 40 points, right?" states a target, not a score reached.
        score_span = None
    if is_achievement:
        return _achievements(question, score_span)
    claimed = (not question.negated) if question.claim else None
    if found_scenarios:
        scenario = found_scenarios[0].value
        concepts = [("scenario", {"slug": scenario.slug})]
        if has(text, "solo"):
            concepts.append(("scenario_solo", {}))
        engine_object = {"intent": "scenario", "scenario": scenario.slug, "goal": scenario.goal, "cards": list(scenario.cards)}
        if score_span is None:
            if not (has(text, "goal") or has(text, "points_question")):
                return None
            names = join([card_name(slug, lang) for slug in scenario.cards], lang) or "-"
            claimed_number = _claimed_number(question, used)
            return Computation(intent="scenario", sentences=[say("scenario_goal", lang, scenario=scenario.name, goal=scenario.goal, cards=names)],
                               value=scenario.goal, value_text=qty(scenario.goal, "point", lang),
                               claimed=None if claimed_number is None else claimed_number.value,
                               engine=engine_object, concepts=concepts)
        score = score_span.value
        passed = score >= scenario.goal
        key = "scenario_pass" if passed else "scenario_fail"
        sentence = say(key, lang, score=score, scenario=scenario.name, goal=scenario.goal, short=scenario.goal - score)
        trace = [say("solo_trace", lang, score=score, target=scenario.goal, result=say("yes" if passed else "no", lang))]
        engine_object.update({"score": score, "passed": passed})
        return Computation(intent="scenario", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                           engine=engine_object, concepts=concepts)
    if not levels:
        if score_span is None or not has(text, "pass"):
            return None
        targets = join([f"{level.name_fr if lang == 'fr' else level.name_en} {level.target}+" for level in engine.SOLO_LEVELS], lang)
        return Computation(intent="solo", asks=True, sentences=[say("ask_level", lang, levels=targets)],
                           concepts=[("solo_level", {})])
    level = levels[0].value
    name = level.name_fr if lang == "fr" else level.name_en
    engine_object = {"intent": "solo_level", "level": level.slug, "target": level.target}
    if score_span is None:
        if not (has(text, "goal") or has(text, "points_question") or has(text, "pass")):
            return None
        claimed_number = _claimed_number(question, used)
        return Computation(intent="solo", sentences=[say("level_goal", lang, level=name, target=level.target)],
                           value=level.target, value_text=qty(level.target, "point", lang),
                           claimed=None if claimed_number is None else claimed_number.value,
                           engine=engine_object, concepts=[("solo_level", {})])
    score = score_span.value
    passed = score >= level.target
    key = "level_pass" if passed else "level_fail"
    sentence = say(key, lang, score=score, level=name, target=level.target, short=level.target - score)
    trace = [say("solo_trace", lang, score=score, target=level.target, result=say("yes" if passed else "no", lang))]
    engine_object.update({"score": score, "passed": passed})
    return Computation(intent="solo", sentences=[sentence], trace=trace, value=passed, claimed=claimed,
                       engine=engine_object, concepts=[("solo_level", {})])


def _score_number(text: str, used: list[tuple[int, int]]) -> Span | None:
    left = _leftover_numbers(text, used)
    # A score is a number of points; prefer one followed by "points" or introduced by "with"/"avec".
    for span in left:
        if re.match(r"\s*(?:" + alternation(words("points")) + r")\b", text[span.end:]):
            return span
    for span in left:
        if re.search(r"(?:with|avec|scored|score of|got|made|fait|marque|obtenu|j'ai|i have)\s*$", text[: span.start]):
            return span
    return left[0] if len(left) == 1 else None


def _achievements(question: Question, score_span: Span | None) -> Computation | None:
    text, lang = question.text, question.lang
    if score_span is None:
        return None
    value = score_span.value
    unit = _unit_after(text, score_span)
    one_painting = re.search(r"\b(?:one|1|a single|une seule|une|1 seule)\s+(?:painting|peinture|tableau)|"
                             r"\b(?:in|with|on|en|avec|sur)\s+(?:one|1|a|une)\s+(?:painting|peinture|tableau)", text)
    kinds = {
        ("points", False): "game_points", ("ribbons", False): "game_ribbons", ("silver", False): "game_silver",
        ("ribbons", True): "painting_ribbons", ("silver", True): "painting_silver",
    }
    kind = kinds.get((unit, bool(one_painting)))
    if kind is None:
        return None
    candidates = [achievement for achievement in engine.ACHIEVEMENTS if achievement.kind == kind]
    if not candidates:
        return None
    earned = [achievement for achievement in candidates if value >= achievement.params["min"]]
    missed = [achievement for achievement in candidates if value < achievement.params["min"]]
    label = {"points": "point", "ribbons": "ribbon", "silver": "silver_ribbon"}[unit]
    value_text = qty(value, label, lang)
    describe = [getattr(achievement, lang) for achievement in earned]
    sentences = []
    if earned:
        sentences.append(say("achievement_got", lang, value=value_text, earned=join(describe, lang)))
        if missed:
            sentences.append(say("achievement_missed", lang, missed=join([getattr(a, lang) for a in missed], lang)))
    else:
        sentences.append(say("achievement_none", lang, value=value_text, missed=join([getattr(a, lang) for a in missed], lang)))
    checks = "; ".join(f"{value} ≥ {achievement.params['min']}: {say('yes' if value >= achievement.params['min'] else 'no', lang)}"
                       for achievement in candidates)
    passed = bool(earned) and not missed if len(candidates) == 1 else bool(earned)
    # A question naming the designers' score asks about that one achievement.
    if has(text, "designers"):
        designers = [achievement for achievement in candidates if achievement.params["min"] == max(a.params["min"] for a in candidates)]
        passed = value >= designers[0].params["min"]
    return Computation(intent="achievement", sentences=sentences, trace=[say("achievement_trace", lang, checks=checks)],
                       value=passed, claimed=(not question.negated) if question.claim else None,
                       engine={"intent": "achievements", "kind": kind, "value": value,
                               "earned": [a.slug for a in earned], "missed": [a.slug for a in missed]},
                       concepts=[("achievement", {})])
