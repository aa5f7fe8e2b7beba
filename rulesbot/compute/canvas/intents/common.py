"""Pieces several Canvas intents share: the claimed value, the score a player states, which Scoring Cards apply."""

from __future__ import annotations

import re

from rulesbot.compute.canvas.phrasing import card_name, join, say
from rulesbot.compute.canvas.words import either, listed, names, words
from rulesbot.compute.text import B, E, alternation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed, Slot

# A number inside "N ribbons" is what a painting claim or an achievement question states: only the ribbon-points
# intent consumes it (it passes those spans in `exclude`).
_COUNTS = ("ribbon_group", "ribbon_count")


# "in one painting", "sur une seule peinture", "for one single painting": a scope of one painting.
ONE_PAINTING = re.compile(r"\b" + either("one_count") + r"[\s-]+" + either("painting_word") + r"|"
                          r"\b" + either("in_with") + r"\s+" + either("one_article") + r"\s+" + either("painting_word"))


def claimed_number(parsed: Parsed, exclude: list[tuple[int, int]] = ()) -> Slot | None:
    """The number a claim states: the last number no slot (or `exclude` span) uses; None when not a claim."""
    if not parsed.claim:
        return None
    free = [slot for slot in parsed.free_numbers(_COUNTS)
            if not any(start < slot.end and slot.start < end for start, end in exclude)
            and not _counts_icons(parsed, slot) and not counts_players(parsed, slot) and not page_reference(parsed, slot)]
    if not free:
        # "ca rapporte qu'un seul point", "it's worth a single point": one point, said with an article.
        # Only a restrictive "one" states a value ("does each ribbon give a point?" states none).
        one = re.search(r"(?:" + B + alternation(words("single_one") + listed("just_one"))
                        + r"|\bqu'un)\s+(?:" + alternation(words("points")) + r")" + E, parsed.folded)
        if one is not None:
            return Slot("number", 1, *one.span())
    if not free:
        return None
    return _summed(parsed, free[-1])


_PAGE = re.compile(B + either("page_word") + r"\s*$")


def page_reference(parsed: Parsed, slot: Slot) -> bool:
    """Whether a number names a rulebook page ("it says on page 1 ...", "p. 4 says"): no value of the question."""
    return _PAGE.search(parsed.folded[max(0, slot.start - 8): slot.start]) is not None


def sets_scene(parsed: Parsed, slot: Slot) -> bool:
    """Whether a number only sets the scene: it counts the players ("3 players") or labels where the asker is
    ("table 6 guy wants ...", "a la table 3", vocabulary `scene_label`), so no intent needs to explain it."""
    label = re.search(B + either("scene_label") + r"\s*(?:n[o°]\.?\s*|#\s*)?$", parsed.folded[max(0, slot.start - 12): slot.start])
    return label is not None or counts_players(parsed, slot)


# "3+7+11", "3 + 7 + 11 points": a sum written out, its terms joined by "+" (a claim states the total, not a term).
_SUM = re.compile(r"\d+(?:\s*\+\s*\d+)+")


def _summed(parsed: Parsed, slot: Slot) -> Slot:
    """The claimed value when `slot` closes a written-out sum ("ca fait 3+7+11 points ?"): the sum itself, unless the
    asker gives its result ("3 + 7 + 11 = 21"), which the reader finds as the last number anyway."""
    for match in _SUM.finditer(parsed.folded):
        if match.start() <= slot.start and slot.end <= match.end():
            total = sum(int(term) for term in re.findall(r"\d+", match.group(0)))
            return Slot("number", total, match.start(), match.end())
    return slot


def _counts_icons(parsed: Parsed, slot: Slot) -> bool:
    """"6 elements", "2 tons 2 textures", "in one painting": a count of icons, swatches or paintings describes the
    situation; it is not the claimed value nor the score."""
    after = parsed.folded[slot.end: slot.end + 16]
    return re.match(r"\s*(?:" + alternation(words("element_word") + words("icon_word") + words("swatch_word")
                                             + words("painting")) + r")\b", after) is not None


def counts_things(parsed: Parsed, slot: Slot) -> bool:
    """Whether a number counts cards, tokens or players ("the 2 cards I skip", "3 jetons", "3 of us"): then it is
    no score or target."""
    things = alternation(words("card") + words("token"))
    return re.match(r"\s+(?:[\w']+\s+)?" + things + r"\b", parsed.folded[slot.end:]) is not None \
        or counts_players(parsed, slot)


# Who is counted before a number: "we're 3", "there are 3 of us", "on est 3", "nous sommes 3".
_PLAYERS_BEFORE = r"\b" + either("we_are") + r"\s*$"
# "on joue le scenario Spatial a 3.", "a game with 3": a number after "a" / "with" closing its clause, in a
# clause that speaks of playing (the French "a" is also "has": "Manon a 38." states her score).
_MOST_PLAYERS = max(ruleset.max_players for ruleset in engine.data.RULESETS.values())
_PLAY_WORDS = r"\b(?:jou\w*|partie|game|play\w*|scenario|solo|mode|variante?)\b"


def counts_players(parsed: Parsed, slot: Slot) -> bool:
    """Whether a number counts the players ("3 players", "3 of us", "we're 3", "on joue a 3"): its role is the
    player count, never a score, a claimed value or a target."""
    text = parsed.folded
    after, before = text[slot.end:], text[: slot.start]
    if re.match(r"[\s-]*(?:" + alternation(words("player_count")) + r")" + E, after):
        return True
    if re.search(_PLAYERS_BEFORE, before) and not re.match(r"\s*(?:" + alternation(words("points")) + r")" + E, after):
        return True
    if not isinstance(slot.value, int) or not 1 <= slot.value <= _MOST_PLAYERS:
        return False  # "Bonus c'est le scenario a 40": more than any game seats is no player count
    clause = re.split(r"[.?!;:,]", before)[-1]
    return re.search(r"\b(?:a|with|avec)\s+$", clause) is not None and re.match(r"\s*(?:[.?!;:,]|$)", after) is not None \
        and re.search(_PLAY_WORDS, clause) is not None


# "scored 47", "avec 38", "is 40": words just before a number that make it the score.
_SCORE_LEAD = re.compile(alternation(listed("reported_score") + listed("score_lead")) + r"\s*$")


def score_number(parsed: Parsed, exclude: list[tuple[int, int]] = ()) -> Slot | None:
    """A score the player states: a free number followed by "points", or after "with"/"scored", or the only one."""
    text = parsed.folded
    # A number that counts cards or tokens ("the 2 cards I skip", "3 jetons") is not a score.
    free = [slot for slot in parsed.free_numbers(_COUNTS)
            if not any(start < slot.end and slot.start < end for start, end in exclude) and not _counts_icons(parsed, slot)
            and not counts_things(parsed, slot)]
    for slot in free:
        if re.match(r"\s*(?:" + alternation(words("points")) + r")\b", text[slot.end:]):
            return slot
    for slot in free:
        if re.search(_SCORE_LEAD,
                     text[: slot.start]):
            return slot
    return free[0] if len(free) == 1 else None


def unit_after(parsed: Parsed, slot: Slot) -> str:
    """What a number counts: "ribbons", "silver" (silver ribbons), "tokens" or "points"."""
    after = parsed.folded[slot.end: slot.end + 40]
    named = [found for found in names(after, "scoring", "scoring_card") if not after[: found.start].strip()]
    if named:
        after = after[named[0].end:]
    silver, ribbon = alternation(words("silver")), alternation(words("ribbon"))
    if re.match(rf"\s*(?:{silver}\s+{ribbon}|{ribbon}\s+{silver})", after):
        return "silver"
    if re.match(rf"\s*(?:{silver}\s*)?{ribbon}", after):
        return "ribbons"
    if re.match(r"\s*" + alternation(words("token")), after):
        return "tokens"
    return "points"


def scoring_selection(parsed: Parsed, exclude: list[tuple[int, int]], lang: str):
    """(Scoring Card slugs or None when a question must be asked, sentences about the choice, concepts)."""
    # (`exclude` spans are the question's own: an inherited slot's offsets are in the previous question's text.)
    named = [slot.value.slug for slot in parsed.all("scoring_card")
             if slot.inherited or not any(start <= slot.start < end for start, end in exclude)]
    named = list(dict.fromkeys(named))
    scenario_slot = parsed.first("scenario")
    # "first time playing, ... does it fill the Composition one?": the scenario's cards are in play; the named one
    # is what is asked about.
    if named and not (scenario_slot is not None and set(named) <= set(scenario_slot.value.cards)):
        return named, [], []

    if scenario_slot is not None:
        scenario = scenario_slot.value
        if scenario.random_cards:
            return None, [say("ask_random_scenario", lang, scenario=scenario.name)], [("scenario", {"slug": scenario.slug})]
        cards = join([card_name(slug, lang) for slug in scenario.cards], lang)
        return (list(scenario.cards), [say("scoring_from_scenario", lang, scenario=scenario.name, cards=cards)],
                [("scenario", {"slug": scenario.slug})])
    slugs = list(engine.FIRST_GAME_CARDS)
    cards = join([card_name(slug, lang) for slug in slugs], lang)
    return slugs, [say("assume_first_game", lang, cards=cards)], [("first_game_assumption", {})]


def vincent_in_question(parsed: Parsed) -> bool:
    """Whether the question is about Vincent: he is named (here or in the question a follow-up leans on), his variant
    is played, or chance is asked ("what are the odds he takes ...", "he can never take ..."). A bare "he" is otherwise a player ("my nephew
    ... may he take it?")."""
    if re.search(r"\bvincent", parsed.folded) or (parsed.previous is not None and re.search(r"\bvincent", parsed.previous.folded)):
        return True
    variant = parsed.value("variant")
    # (What "he" can never / always do is chance too: a player's take is a cost, not a certainty.)
    return (variant is not None and variant.name == "vincent") or parsed.cue("odds", "face_up", "never", "always") \
        and parsed.cue("vincent")


# A clause ends at punctuation or a conjunction ("because", "mais"): a failing word after it is about something else.
_CLAUSE_END = re.compile(r"[.,;:?!]|\b" + either("clause_breaks") + r"\b")


def denied(parsed: Parsed, slot: Slot) -> bool:
    """Whether a Scoring Card is said not to be earned: "no Composition", "pas de Variete", "Emphasis fails",
    "l'Emphase est ratee" (the card, then a failing word in its clause; vocabulary `deny_before` / `deny_after`)."""
    text = parsed.folded
    ribbon = alternation(words("ribbon"))
    before = re.search(B + alternation(words("deny_before")) + rf"\s+(?:(?:{ribbon})\s+)?(?:(?:the|la|le|l'|de|d')\s*)?$",
                       text[max(0, slot.start - 24): slot.start])
    clause = _CLAUSE_END.split(text[slot.end: slot.end + 40])[0]
    after = re.search(B + r"(?:" + either("copula") + r"\s+)?(?:" + alternation(words("deny_after")) + ")" + E, clause)
    return before is not None or after is not None


def compared(parsed: Parsed, slot: Slot) -> bool:
    """Whether a name is said as a comparison ("like Repetition", "comme Repetition", "same as Emphasis")."""
    return re.search(B + alternation(words("like_word")) + r"\s+(?:(?:the|la|le|l')\s*)?$",
                     parsed.folded[max(0, slot.start - 20): slot.start]) is not None


def spans(parsed: Parsed, *kinds: str) -> list[tuple[int, int]]:
    """The spans of every (non-inherited) slot of the given kinds."""
    return [(slot.start, slot.end) for slot in parsed.slots if slot.name in kinds and not slot.inherited]


def own_cue(parsed: Parsed, *names: str) -> bool:
    """Whether the question's own words (not the previous question's, which a follow-up also carries) have a phrase
    of one of the cue lists."""
    if parsed.previous is None:
        return parsed.cue(*names)
    from rulesbot.compute.parse import parse  # the parser loads the game plugins: imported when first needed

    return parse(parsed.text, parsed.lang, parsed.game).cue(*names)
