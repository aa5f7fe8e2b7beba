"""Paintings: what three Art Cards (bottom to top) or five swatches score, and claims about points, ribbons, title."""

from __future__ import annotations

import re
from dataclasses import replace

from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.intents.common import (
    claimed_number,
    denied,
    own_cue,
    scoring_selection,
    spans,
    unit_after,
)
from rulesbot.compute.canvas.phrasing import (
    card_name,
    colour,
    join,
    qty,
    ribbons_text,
    say,
    visible_text,
    word,
)
from rulesbot.compute.canvas.slots import icons_in
from rulesbot.compute.canvas.words import either, listed, numbers, pattern, vocabulary, words
from rulesbot.compute.registry import Computation, own_reading
from rulesbot.compute.text import B, E, alternation
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed

_TITLE_CUE = "title_word"
# Between the title word and a title it states: "is", "c'est juste", "would be", a quote.
_COPULA = re.compile(r"\s*(?:is|c'est|est|=|:|would be|serait|will be|sera)?\s*(?:just|juste|only|seulement|bien|simply|simplement)?"
                     r"\s*[\"'«“]?\s*")


def _previous_cards(parsed: Parsed) -> list | None:
    """The painting of the previous question, for a follow-up that names some of its cards again."""
    if parsed.previous is None:
        return None
    chain = parsed.previous.first("card_chain")
    return list(chain.value) if chain is not None and len(chain.value) == CARDS_PER_PAINTING else None


def _cards(parsed: Parsed) -> list | None:
    chain = parsed.first("card_chain")
    if chain is None:
        return None
    cards = list(chain.value)
    before = _previous_cards(parsed)
    if not chain.inherited and before and len(cards) == CARDS_PER_PAINTING - 1 and all(card in before for card in cards):
        if parsed.cue("swap") and not own_cue(parsed, "chain_top", "chain_bottom"):
            # "what if I swap Chosen and Truth?": the two named cards change places.
            first, second = before.index(cards[0]), before.index(cards[1])
            before[first], before[second] = before[second], before[first]
            return before
        # "and if I flip it, Truth on the bottom and Sudden on top?": the two named cards (bottom to top) at the
        # ends, the previous painting's other card between them.
        middle = next(card for card in before if card not in cards)
        return [cards[0], middle, cards[1]]
    fresh = [slot.value for slot in parsed.all("art_card") if not slot.inherited]
    if chain.inherited and fresh and len(cards) == CARDS_PER_PAINTING:
        # "what about Mess instead of Game?" swaps a card; "what if Truth is on top?" moves one.
        if parsed.cue("instead") and len(fresh) == 2 and fresh[1] in cards:
            cards[cards.index(fresh[1])] = fresh[0]
        elif fresh[0] in cards and own_cue(parsed, "chain_middle") and not parsed.cue("swap"):
            # "et si elle met Unashamed au milieu, donc au-dessus d'Innocent ?": the first card named moves to the
            # middle, the other two keep their order around it.
            cards.remove(fresh[0])
            cards.insert(len(cards) // 2, fresh[0])
        elif len(fresh) == 1 and fresh[0] in cards and parsed.cue("on_top", "at_bottom"):
            cards.remove(fresh[0])
            cards.insert(len(cards) if parsed.cue("on_top") else 0, fresh[0])
        return cards
    # A follow-up "what if I swap the top two?" reorders the previous question's painting.
    if chain.inherited and parsed.cue("swap") and len(cards) == CARDS_PER_PAINTING:
        if parsed.cue("bottom_two"):
            cards[0], cards[1] = cards[1], cards[0]
        elif parsed.cue("top_two"):
            cards[-1], cards[-2] = cards[-2], cards[-1]
        else:
            cards.reverse()
    return cards


def compute_cards(parsed: Parsed) -> Computation | None:
    """Score the painting named by a chain of Art Card titles."""
    lang = parsed.lang
    cards = _cards(parsed)
    if cards is None:
        return None
    if _asks_title_points(parsed):
        return None  # "does that name give me any points?": what a title is worth is a rule (the rulebook's text)
    # ("cb de pts ?", "combien ?": a count or points asked in slang is a how-many question too.)
    if not (parsed.cue("score_question", "painting", "points_question", "count_question") or parsed.claim
            or parsed.form == "how_many"
            or _previous_cards(parsed) is not None  # "and if I flip it?" asks again about the painting
            or _card_asked(parsed) is not None):  # "A, B, C. Composition or not?": that card's ribbons asked
        return None
    needed = CARDS_PER_PAINTING
    groups = _paintings(parsed, cards)
    if groups is not None:
        return _paintings_total(parsed, groups)
    if len(cards) > needed and parsed.cue("hand", "holding") and parsed.has("art_card"):
        return None  # a hand of more cards than a painting uses: which painting is best is asked (the best intent)
    if len(cards) != needed:
        titles = join([art_card.title for art_card in cards], lang)
        key = "ask_third_card" if len(cards) < needed else "ask_which_three"
        return Computation(intent="painting", asks=True,
                           sentences=[say(key, lang, needed=needed, cards=titles, count=len(cards))],
                           concepts=[("legal_paint", {})])
    if len({art_card.id for art_card in cards}) != needed:
        return None
    painting = engine.Painting.from_cards(cards)
    chain = parsed.first("card_chain")
    chain_span = [] if chain.inherited else [(chain.start, chain.end)]
    # "2 Symmetry ribbons" names what a claim is about, not the Scoring Cards in play.
    groups = [(slot.start, slot.end) for slot in parsed.all("ribbon_group") if not slot.inherited]
    slugs, choice, concepts = scoring_selection(parsed, chain_span + groups, lang)
    if slugs is None:
        return Computation(intent="painting", asks=True, sentences=choice, concepts=concepts)
    # ... but the card a claimed count names is scored too ("BGA gave me 2 Movement ribbons"), in play or not.
    slugs = slugs + [slot.value.key for slot in parsed.all("ribbon_group") if not slot.inherited
                     and slot.value.kind == "card" and slot.value.key not in slugs]
    computation = score_painting(painting, slugs, lang, cards=cards)
    computation.sentences[1:1] = choice
    computation.concepts += concepts
    if parsed.cue(_TITLE_CUE):
        computation.concepts.insert(0, ("painting_title", {}))
    if own_cue(parsed, _TITLE_CUE) and not parsed.claim:
        stated = _stated_title(parsed, chain_span, right_after=True)
        if stated:
            # "and the title is just 'Childhood'?": a title stated after the title word is checked.
            computation.value, computation.claimed, computation.value_text = painting.title, stated, painting.title
            computation.states = True
        # "what's the title of that one?": the title first (a follow-up's answer must say something new).
        computation.sentences.insert(0, say("painting_title_check", lang, title=painting.title or word("no_title", lang)))
    asked_card = _card_asked(parsed) is not None
    if not asked_card:
        painting_claim(parsed, computation, chain_span, painting)
    if not parsed.claim or asked_card:
        _ribbons_asked(parsed, computation, slugs)
    _with_held(parsed, computation, slugs)
    return computation


def _with_held(parsed: Parsed, computation: Computation, slugs: list[str]) -> None:
    """"I already have 2 Composition ribbons and paint X, Y, Z": the ribbons held plus this painting's, on the card's
    points table (the engine's `points_for`, which stops at the card's cap)."""
    lang = parsed.lang
    held = [slot for slot in parsed.all("ribbon_group") if not slot.inherited and slot.value.kind == "card"
            and slot.value.key in slugs and pattern("held_words").search(parsed.folded[max(0, slot.start - 30): slot.end + 30])]
    for slot in held:
        slug = slot.value.key
        total = slot.value.count + computation.engine["ribbons"].get(slug, 0)
        points = engine.points_for(slug, total)
        computation.sentences.insert(0, say("painting_with_held", lang, held=qty(slot.value.count, "ribbon", lang),
                                            card=card_name(slug, lang), total=qty(total, "ribbon", lang),
                                            points=qty(points, "point", lang)))
        computation.trace.append(f"{card_name(slug, lang)} {slot.value.count} + {total - slot.value.count} = {total} → {points}")
        if len(held) == 1 and not parsed.claim:
            computation.value, computation.value_text = points, qty(points, "point", lang)
        elif len(held) == 1 and computation.claimed is not None and computation.value == computation.engine["points"]:
            computation.value, computation.value_text = points, qty(points, "point", lang)


def _card_asked(parsed: Parsed):
    """The one Scoring Card a question about a painting asks after, named with no value asked ("A, B, C.
    Composition or not?", "and Symmetry?"), or None."""
    own = [slot for slot in parsed.all("scoring_card") if not slot.inherited]
    if len({slot.value.slug for slot in own}) != 1 or parsed.cue("points_question", "points") or parsed.has("scenario"):
        return None
    if parsed.claim and not (parsed.claim_cue == "statement" and _bare_ask(parsed, own[-1])):
        return None  # "... Repetition twice, right?" claims; "... Repetition?" asks
    return own[0].value.slug


def _ribbons_in_all(parsed: Parsed, computation: Computation, slugs: list[str]) -> None:
    """"first game cards (variety repetition emphasis composition) ... how many ribbons do I get in total w silver":
    the ribbons of every card listed (or in play) and the silver ones (ribbons too, whether or not the question says
    them)."""
    lang = parsed.lang
    coloured = sum(computation.engine["ribbons"].get(slug, 0) for slug in slugs)
    bonus = computation.engine["bonus"]
    total = coloured + bonus
    computation.sentences.insert(0, say("painting_ribbons_total", lang, total=qty(total, "ribbon", lang),
                                        coloured=qty(coloured, "ribbon", lang), silver=qty(bonus, "silver_ribbon", lang),
                                        cards=join([card_name(slug, lang) for slug in slugs], lang)))
    computation.trace.append(f"{coloured} + {bonus} = {total}")
    computation.value, computation.value_text = total, qty(total, "ribbon", lang)


def _bare_ask(parsed: Parsed, slot) -> bool:
    """Whether the card is asked about in a sentence of its own: its name and at most a few words, no number, a "?"
    at the end ("A, B, C. Repetition?", "... . and Symmetry ?")."""
    text = parsed.folded
    start = max([0] + [match.end() for match in re.finditer(r"[.?!;:]", text[: slot.start])])
    sentence = text[start:]
    rest = (text[start: slot.start] + " " + text[slot.end:]).strip(" ?!.")
    return (sentence.rstrip().endswith("?") and not re.search(r"\d", sentence) and len(rest.split()) <= 3
            and ribbon_count_said(parsed, [slot]) is None)  # "Repetition twice?" states a count


def _ribbons_asked(parsed: Parsed, computation: Computation, slugs: list[str]) -> None:
    """"How many red ribbons does that get me?": the ribbons of one colour's (or one Scoring Card's) card."""
    lang = parsed.lang
    if not (parsed.cue("ribbon") and parsed.cue("count_question")) and _card_asked(parsed) is None:
        return
    shade = next((slot.value for slot in parsed.all("colour") if not slot.inherited), None)
    named = next((slot.value.slug for slot in parsed.all("scoring_card") if not slot.inherited), None)
    listed_cards = [slug for slug in slugs if slug in {slot.value.slug for slot in parsed.all("scoring_card")
                                                       if not slot.inherited}]
    if shade is None and parsed.cue("ribbon") and parsed.cue("count_question") and (
            len(listed_cards) >= 2 or named is None and parsed.cue("final_total")):
        _ribbons_in_all(parsed, computation, listed_cards if len(listed_cards) >= 2 else slugs)
        return
    if shade is None and named is None and parsed.cue("silver"):
        # "how many silver ribbons is that?": the painting's bonus.
        bonus = computation.engine["bonus"]
        if own_reading(parsed).cue("points"):
            # "so how many points is that?" after "how many silver ribbons?": those silver ribbons' points.
            worth = bonus * engine.SILVER_POINTS
            computation.sentences.insert(0, say("painting_silver_points", lang, silver=qty(bonus, "silver_ribbon", lang),
                                                points=qty(worth, "point", lang), each=engine.SILVER_POINTS))
            computation.value, computation.value_text = worth, qty(worth, "point", lang)
            computation.concepts.insert(0, ("ribbons_silver", {}))  # what a silver ribbon is worth: its own page
            return
        computation.sentences.insert(0, say("painting_silver_of", lang, silver=qty(bonus, "silver_ribbon", lang)))
        computation.value, computation.value_text = bonus, qty(bonus, "silver_ribbon", lang)
        return
    by_colour = dict(zip(helpers.mat_slots(), slugs, strict=False)) if len(slugs) == len(helpers.mat_slots()) else {}
    slug = by_colour.get(shade) if shade is not None else named
    if slug is None or slug not in computation.engine["ribbons"]:
        return
    count = computation.engine["ribbons"][slug]
    label = f"{colour(shade, lang)} = {card_name(slug, lang)}" if shade is not None else card_name(slug, lang)
    computation.sentences.insert(0, say("painting_ribbons_of", lang, ribbons=qty(count, "ribbon", lang), card=label))
    computation.value, computation.value_text = count, qty(count, "ribbon", lang)


def compute_swatches(parsed: Parsed) -> Computation | None:
    """Score a painting described by its five swatches."""
    lang = parsed.lang
    swatches = parsed.value("swatches")
    if swatches is None:
        return None
    try:
        painting = engine.Painting.from_swatches([list(group) for group in swatches])
    except ValueError:
        return None
    slugs, choice, concepts = scoring_selection(parsed, [], lang)
    if slugs is None:
        return Computation(intent="painting", asks=True, sentences=choice, concepts=concepts)
    computation = score_painting(painting, slugs, lang)
    computation.sentences[1:1] = choice
    computation.concepts += concepts
    if parsed.claim:
        painting_claim(parsed, computation, [], painting)
        named = [slot.value.slug for slot in parsed.all("scoring_card")]
        if named and computation.claimed is None:
            computation.value = all(computation.engine["ribbons"].get(slug, 0) > 0 for slug in named)
            computation.claimed = not parsed.negated
    return computation


def score_painting(painting, slugs: list[str], lang: str, cards=None) -> Computation:
    """Sentences, trace and engine object for one painting scored on `slugs`."""
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
    total = sum(counts.values())
    trace = [say("painting_trace", lang, layers=layers, counts=count_text, total=total) if cards
             else say("painting_counts", lang, counts=count_text, total=total)]
    concepts: list[tuple[str, dict]] = [("painting", {})]
    concepts += [("painting_card", {"slug": slug}) for slug, count in ribbons.items() if count]
    if score.bonus:
        concepts.append(("painting_silver", {}))
    engine_object = {
        "intent": "painting", "cards": titles, "visible": [list(icons) for icons in painting.visible],
        "title": painting.title, "shown_by": shown_by, "scoring": slugs, "ribbons": ribbons, "bonus": score.bonus,
        "points": points,
    }
    return Computation(intent="painting", sentences=sentences, trace=trace, value=points,
                       value_text=qty(points, "point", lang), engine=engine_object, concepts=concepts)


def _stated_title(parsed: Parsed, used: list[tuple[int, int]], right_after: bool = False) -> str | None:
    """The title a question states ("... is titled 'Unashamed Game'", "le titre c'est 'Childhood'"): the Art Card
    titles named after the title word, outside the painting's own cards. `right_after`: only titles said right
    after the title word and a copula (a question that is no claim: "the title is just 'Childhood'?")."""
    cue = pattern(_TITLE_CUE).search(parsed.folded)
    if cue is None:
        return None
    said = _title_after_copula(parsed, cue.end())
    if said is not None:
        return said
    stated = [slot for slot in parsed.all("art_card") if not slot.inherited and slot.start >= cue.end()
              and not any(start <= slot.start < end for start, end in used)]
    if right_after:
        if not stated or not _COPULA.fullmatch(parsed.folded[cue.end(): stated[0].start]):
            return None
        stated = [slot for slot in stated if slot.start - stated[0].start < 40]
    stated = [slot.value.title for slot in stated]
    if not stated and not right_after:
        # "Chosen Game is the title, right?": the titles said before the title word, outside the painting.
        stated = [slot.value.title for slot in parsed.all("art_card") if not slot.inherited
                  and not any(start <= slot.start < end for start, end in used)]
    return " ".join(stated) or None


def _asks_title_points(parsed: Parsed) -> bool:
    """Whether the question's own words ask what the title itself is worth ("does that name give me any points?", "le
    titre rapporte des points ?"): a title word, then a value verb, then points, in a few words."""
    own = own_reading(parsed).folded
    return re.search(B + alternation(words("title_noun")) + r"\s+(?:[\w']+\s+){0,3}?"
                     + alternation(words("title_value_verbs")) + r"\s+(?:[\w']+\s+){0,3}?" + alternation(words("points")) + E,
                     own) is not None


def _title_after_copula(parsed: Parsed, after: int) -> str | None:
    """"le titre de A, B, C (C en haut) c'est B C": the titles said right after the last copula that follows the title
    word (adjacent Art Card names, the stated title), whatever the painting's cards around them; None without one."""
    cards = [slot for slot in parsed.all("art_card") if not slot.inherited and slot.start >= after]
    for copula in reversed(list(re.finditer(r"\b(?:is|c'est|est|=|would be|serait|sera)\s+[\"'«“]?\s*", parsed.folded))):
        if copula.start() < after:
            break
        run = [slot for slot in cards if slot.start == copula.end()]
        while run:
            following = [slot for slot in cards if re.fullmatch(r"\s*", parsed.folded[run[-1].end: slot.start])
                         and slot.start >= run[-1].end and slot is not run[-1]]
            if not following:
                break
            run.append(following[0])
        if run:
            return " ".join(slot.value.title for slot in run)
    return None


def _asks_value(parsed: Parsed) -> bool:
    """Whether the question ends by asking a value ("... compte pour la compo ? score total ?"): its last sentence
    holds no number and asks for points; then the sentences before it do not make the message a claim."""
    sentences = [chunk for chunk in re.split(r"[?.!]+", parsed.folded) if chunk.strip()]
    last = sentences[-1] if sentences else ""
    return len(sentences) > 1 and not re.search(r"\d", last) and pattern("points_question").search(last) is not None


def _covered_claim(parsed: Parsed, computation: Computation, used: list[tuple[int, int]], painting) -> bool:
    """"Vast's per-Shape icon is covered, right?": whether a card's named icon is hidden by a card above it (the
    engine's `shown_by`, which card shows each swatch). True when the claim was checked."""
    covered = pattern("covered").search(parsed.folded)
    if covered is None:
        return False
    mentions = [slot for slot in parsed.all("art_card") if not slot.inherited
                and not any(start <= slot.start < end for start, end in used) and slot.start < covered.start()]
    if not mentions:
        return False
    card = mentions[-1].value
    # The icon is named next to the card ("Vast's per-Shape icon", "la texture d'Expanse"), after the painting.
    start = max([end for _start, end in used] + [mentions[-1].start - 25, 0])
    icons = icons_in(parsed.folded[start: covered.start()].replace(parsed.folded[mentions[-1].start: mentions[-1].end], " "))
    places = [(number, icon) for number, stripe in enumerate(card.stripes) for icon in stripe if icon in icons]
    if not places or card.id not in painting.cards:
        return False
    lang = parsed.lang
    by_id = {art_card.id: art_card.title for art_card in engine.ART_CARDS}
    hidden = []
    for number, icon in places:
        shown = painting.shown_by[number]
        key = "painting_icon_covered" if shown != card.id else "painting_icon_visible"
        hidden.append(shown != card.id)
        computation.sentences.append(say(key, lang, card=card.title, icon=helpers.icon_name(icon, lang, word("per", lang)),
                                         swatch=number + 1, colour=colour(engine.SWATCH_COLOURS[number], lang),
                                         by=by_id.get(shown, "-")))
    computation.value, computation.claimed, computation.value_text = all(hidden), not parsed.negated, None
    return True


def painting_claim(parsed: Parsed, computation: Computation, used: list[tuple[int, int]], painting) -> None:
    """Set the value a claim about this painting is checked against (points, ribbons, a card met, title)."""
    if not parsed.claim or not parsed.explicit_claim and _asks_value(parsed):
        return
    lang = parsed.lang
    ribbons = computation.engine["ribbons"]
    if parsed.cue(_TITLE_CUE) and used:
        stated = _stated_title(parsed, used)
        if stated:
            computation.value, computation.claimed = painting.title, stated
            computation.value_text = painting.title
            computation.sentences.append(say("painting_title_check", lang, title=painting.title))
            return
    if _covered_claim(parsed, computation, used, painting):
        return
    named = parsed.all("scoring_card")
    said = ribbon_count_said(parsed, [slot for slot in named if slot.value.slug in ribbons])
    number = claimed_number(parsed, used + spans(parsed, "scoring_card"))
    if said is not None and (number is None or said[2][0] <= number.start < said[2][1]):
        # "une seule paire compte pour la Repetition", "Symmetry only counts once", "compte deux fois": a count of
        # that card's ribbons (a number said in it counts them, not points).
        slug, count, span = said
        computation.value, computation.value_text = ribbons[slug], qty(ribbons[slug], "ribbon", lang)
        computation.claimed = count
        computation.explained.append(span)
        return
    if number is None and re.search(B + alternation(vocabulary()["article_one"]) + r"\s+(?:" + alternation(words("silver"))
                                    + r")" + E, parsed.folded):
        # "the per-Tone bonus gives me a silver, no?": one silver ribbon claimed, said with an article.
        bonus = computation.engine["bonus"]
        computation.value, computation.value_text, computation.claimed = bonus, qty(bonus, "silver_ribbon", lang), 1
        computation.concepts.insert(0, ("bonus_icons", {}))
        return
    if number is not None:
        unit = unit_after(parsed, number)
        text = parsed.folded
        after = [slot for slot in parsed.all("scoring_card") if number.end <= slot.start < number.end + 60]
        before = [slot for slot in parsed.all("scoring_card") if number.start - 40 <= slot.end <= number.start]
        target = after[0].value.slug if after else (before[-1].value.slug if before else None)
        group = next((slot.value for slot in parsed.all("ribbon_group") if not slot.inherited and slot.value.kind == "card"
                      and slot.start <= number.start < slot.end), None)
        if group is not None and group.key in ribbons:
            unit, target = "ribbons", group.key  # "la Repetition compte deux fois": that card's ribbons
        del text
        if unit == "points" and re.match(r"\s*(?:" + alternation(words("silver")) + r")" + E, parsed.folded[number.end:]):
            unit = "silver"  # "gives me 3 silver": silver said alone counts silver ribbons
        if unit == "silver":
            computation.value = computation.engine["bonus"]
            computation.value_text = qty(computation.engine["bonus"], "silver_ribbon", lang)
            # The claim is about silver ribbons: the Bonus Icons' rule is its first source.
            computation.concepts.insert(0, ("bonus_icons", {}))
        elif unit == "ribbons" and target in ribbons:
            computation.value, computation.value_text = ribbons[target], qty(ribbons[target], "ribbon", lang)
        elif unit == "ribbons":
            total = sum(ribbons.values())
            computation.value, computation.value_text = total, qty(total, "ribbon", lang)
        computation.claimed = number.value
        return
    group = next((slot for slot in parsed.all("ribbon_group") if not slot.inherited and slot.value.kind == "card"
                  and slot.value.key in ribbons), None)
    if group is not None:
        # "donc mouvement x2 ?": the count of that card's ribbons the slot finder read, claimed.
        slug = group.value.key
        computation.value, computation.value_text = ribbons[slug], qty(ribbons[slug], "ribbon", lang)
        computation.claimed = group.value.count
        computation.explained.append((group.start, group.end))
        return
    named_slugs = [slot.value.slug for slot in named]
    if named_slugs:
        computation.value = all(ribbons.get(slug, 0) > 0 for slug in named_slugs)
        # "no Composition because ...", "Emphasis fails": the claimed outcome is that the card earns nothing.
        computation.claimed = not (parsed.negated or any(denied(parsed, slot) for slot in named))
        computation.value_text = None


def ribbon_count_said(parsed: Parsed, named: list) -> tuple[str, int, tuple[int, int]] | None:
    """A count of one Scoring Card's ribbons said in words in the card's sentence ("une seule paire compte pour la
    Repetition", "Symmetry only scores once", "deux fois la condition", "a single ribbon of Emphasis"): (slug, count,
    span), or None. A count of icons ("4 formes") is no count of ribbons: only ribbon, pair, time or set words count."""
    if not named:
        return None
    reader = numbers()
    units = alternation(words("ribbon") + listed("ribbon_count_units"))
    only = either("only_said")
    counted = re.compile(B + rf"(?:{only}\s+)?(?P<count>{reader.fragment_articles})\s+(?:seule?s?\s+|single\s+)?(?:{units})" + E)
    times = vocabulary()["ribbon_count_words"]
    said_times = re.compile(B + alternation(list(times)) + E)
    text = parsed.folded
    for slot in named:
        sentence_start = max([0] + [match.end() for match in re.finditer(r"[.?!;]", text[: slot.start])])
        ends = [match.start() for match in re.finditer(r"[.?!;]", text[slot.end:])]
        sentence_end = slot.end + ends[0] if ends else len(text)
        found = []
        for match in counted.finditer(text, sentence_start, sentence_end):
            value = reader.count_value(match.group("count"))
            if value is not None:
                found.append((match.start(), value, match.span()))
        for match in said_times.finditer(text, sentence_start, sentence_end):
            found.append((match.start(), times[re.sub(r"\s+", " ", match.group(0))], match.span()))
        if len(found) == 1:
            _start, value, span = found[0]
            return slot.value.slug, value, span
    return None


def _paintings(parsed: Parsed, cards: list) -> list[list] | None:
    """Several paintings listed one after the other ("my 3 paintings: A/B/C, D/E/F, G/H/I"): the cards in groups of
    three, when the question counts that many paintings or its separators group the titles by three (one separator
    inside the paintings, another between them); None otherwise."""
    chain = parsed.first("card_chain")
    count = len(cards) // CARDS_PER_PAINTING
    if chain is None or chain.inherited or len(cards) < 2 * CARDS_PER_PAINTING or len(cards) % CARDS_PER_PAINTING \
            or count > engine.ruleset("base").paintings:
        return None  # (more paintings than a player completes is no game's total)
    titles = [slot for slot in parsed.all("art_card") if chain.start <= slot.start < chain.end]
    if len(titles) != len(cards):
        return None
    joins = [re.sub(r"\s+", " ", parsed.folded[first.end: second.start].strip()) for first, second in zip(titles, titles[1:], strict=False)]
    between = {text for index, text in enumerate(joins) if (index + 1) % CARDS_PER_PAINTING == 0}
    inside = {text for index, text in enumerate(joins) if (index + 1) % CARDS_PER_PAINTING}
    counted = any(slot.value == count and re.match(r"\s*(?:" + alternation(words("painting")) + r")" + E,
                                                   parsed.folded[slot.end:])
                  for slot in parsed.all("number") if not slot.inherited)
    # Grouped by their separators, the paintings are one player's only when a total is asked ("Chosen, Game, Truth
    # and Divine, View, Trap: which is better?" compares two paintings).
    if not (counted or (not between & inside and re.search(B + either("game_total") + E, parsed.folded))):
        return None
    if titles[0].value.id != cards[0].id:
        cards = cards[::-1]  # the list was read top down: each painting is reversed, the paintings keep their order
        groups = [cards[index: index + CARDS_PER_PAINTING][::-1] for index in range(0, len(cards), CARDS_PER_PAINTING)]
        return [group[::-1] for group in groups]
    return [cards[index: index + CARDS_PER_PAINTING] for index in range(0, len(cards), CARDS_PER_PAINTING)]


def _paintings_total(parsed: Parsed, groups: list[list]) -> Computation | None:
    """One player's paintings completed in turn (the engine's CompletePainting: a card's ribbons stop at its cap),
    their total and, in a scenario, whether its goal is met (the engine's results)."""
    lang = parsed.lang
    chain = parsed.first("card_chain")
    slugs, choice, concepts = scoring_selection(parsed, [(chain.start, chain.end)], lang)
    if slugs is None:
        return Computation(intent="painting", asks=True, sentences=choice, concepts=concepts)
    scenario = parsed.value("scenario")
    scoring = scenario.slug if scenario is not None and list(scenario.cards) == list(slugs) else list(slugs)
    held, silver, state, lines = None, 0, None, []
    for number, group in enumerate(groups, start=1):
        state = engine.custom_game(row=[], hands=([card.id for card in group],), scoring=scoring,
                                   ribbons=None if held is None else (held,))
        action = engine.CompletePainting(player=0, cards=tuple(card.id for card in group))
        if engine.check_action(state, action) is not None:
            return None
        state = engine.apply_action(state, action)
        record = state.players[0].paintings[-1]
        held, silver = state.players[0].ribbons, silver + record.silver
        taken = dict(zip(state.scoring, record.taken, strict=True))
        capped = [card_name(slug, lang) for slug, met, got in zip(state.scoring, record.ribbons, record.taken, strict=True)
                  if got < met]
        lines.append(say("paintings_each", lang, number=number, cards=", ".join(card.title for card in group),
                         ribbons=ribbons_text(taken, lang), bonus=record.silver)
                     + (" " + say("paintings_capped", lang, cards=join(capped, lang)) if capped else ""))
    state = replace(state, players=(replace(state.players[0], silver=silver),))
    result = engine.results(state)
    player = result.players[0]
    total = player.total
    sentences = [say("paintings_total", lang, count=len(groups), points=qty(total, "point", lang),
                     ribbons=ribbons_text(dict(zip(state.scoring, player.ribbons, strict=True)), lang),
                     silver=qty(silver, "silver_ribbon", lang)), *lines, *choice]
    engine_object = {"intent": "paintings_total", "paintings": [[card.title for card in group] for group in groups],
                     "scoring": list(state.scoring), "ribbons": list(player.ribbons), "silver": silver, "points": total}
    concepts = [("painting", {}), ("ribbon_limit", {}), *concepts]
    if result.scenario_passed is not None:
        scenario = engine.scenario(state.scenario)
        key = "paintings_pass" if result.scenario_passed else "paintings_fail"
        sentences.insert(1, say(key, lang, score=total, scenario=scenario.name, goal=scenario.goal,
                                short=max(0, scenario.goal - total)))
        engine_object["passed"] = result.scenario_passed
    trace = [" + ".join(f"{card_name(slug, lang)} {count} → {points}" for slug, count, points
                        in zip(state.scoring, player.ribbons, player.points_by_slot, strict=True))
             + f" + {silver} × {engine.SILVER_POINTS} = {total}"]
    claimed = claimed_number(parsed, [(chain.start, chain.end)] + spans(parsed, "scoring_card", "scenario"))
    return Computation(intent="painting", sentences=sentences, trace=trace, value=total,
                       value_text=qty(total, "point", lang), claimed=None if claimed is None else claimed.value,
                       engine=engine_object, concepts=concepts,
                       explained=[(slot.start, slot.end) for slot in parsed.all("number") if not slot.inherited
                                  and slot.value == len(groups)])
