"""The best painting a hand can make: "I hold Chosen, Game, Truth, Mess and Dreams: what should I paint?"."""

from __future__ import annotations

from math import perm

from rulesbot.compute.canvas.intents.common import claimed_number, scoring_selection, spans
from rulesbot.compute.canvas.phrasing import card_name, join, qty, ribbons_text, say, word
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """Search every ordered triple of the hand (bounded by the hand limit) for the most points."""
    lang = parsed.lang
    hand = list(dict.fromkeys(slot.value for slot in parsed.all("art_card")))
    if len(hand) < CARDS_PER_PAINTING:
        return None
    if not parsed.cue("best") and not (len(hand) > CARDS_PER_PAINTING and (
            parsed.cue("points_question", "score_question", "points") or parsed.claim)):
        # A hand of more cards than a painting uses, and points asked or claimed: the best painting it makes is asked.
        return None
    limit = engine.ruleset(parsed.value("variant").name if parsed.has("variant") else "base").hand_limit
    if len(hand) > limit:
        # A hand never holds more than the hand limit: say so instead of searching an impossible hand.
        return Computation(intent="best", sentences=[say("best_too_many", lang, count=len(hand), limit=limit)],
                           value=False, engine={"intent": "best_painting", "hand_size": len(hand), "hand_limit": limit},
                           concepts=[("reason/action/hand_full", {})])
    exclude = spans(parsed, "art_card")
    slugs, choice, concepts = scoring_selection(parsed, exclude, lang)
    if slugs is None:
        return Computation(intent="best", asks=True, sentences=choice, concepts=concepts)
    best = engine.best_painting(hand, slugs)
    painting = best.painting
    by_id = {art_card.id: art_card.title for art_card in engine.ART_CARDS}
    titles = [by_id[card_id] for card_id in painting.cards]
    names = join([card_name(slug, lang) for slug in slugs], lang)
    ribbons = dict(best.score.ribbons)
    sentences = [
        say("best_painting", lang, scoring=names, cards=", ".join(titles),
            title=painting.title or word("no_title", lang), points=qty(best.points, "point", lang)),
        *choice,
    ]
    left_out = [art_card.title for art_card in hand if art_card.title not in titles]
    if left_out:
        # "which one do I keep aside?": the cards the best painting does not use.
        sentences.insert(1, say("best_left_out", lang, cards=join(left_out, lang)))
    trace = [say("best_trace", lang, tried=perm(len(hand), CARDS_PER_PAINTING), hand=len(hand),
                 ribbons=ribbons_text(ribbons, lang), bonus=best.score.bonus)]
    claimed = claimed_number(parsed, exclude)
    return Computation(
        intent="best", sentences=sentences, trace=trace, value=best.points, value_text=qty(best.points, "point", lang),
        claimed=None if claimed is None else claimed.value,
        engine={"intent": "best_painting", "hand": [art_card.title for art_card in hand], "cards": titles,
                "visible": [list(icons) for icons in painting.visible], "title": painting.title,
                "shown_by": [by_id.get(card_id) if card_id else None for card_id in painting.shown_by],
                "scoring": slugs, "ribbons": ribbons, "bonus": best.score.bonus, "points": best.points,
                "left_out": left_out},
        concepts=[("best", {}), *concepts],
    )
