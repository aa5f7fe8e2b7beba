"""Canvas slot finders: typed slots (with spans) found in a folded question, from the engine's data and the vocabulary.

Each finder takes the folded question and the slots found so far (later finders may build on earlier ones, e.g.
the card chain on the Art Card names) and returns new slots. The parser (rulesbot.compute.parse) runs them in
`FINDERS` order; none of them decides an intent.

Slot kinds: art_card, card_chain, scoring_card, scenario, level, variant, colour, ribbon_group, ribbon_count,
swatches, position, tokens_on_cards, tokens_on_target, player_tokens, hand_size, paint_cards, paintings_done,
situation, component, vincent_tokens, level_step, number (the parser adds the numbers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType

from rulesbot.compute.canvas.words import either, has, listed, names, numbers, pattern, vocabulary, words
from rulesbot.compute.text import B, E, alternation
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Slot


@dataclass(frozen=True)
class RibbonGroup:
    """"3 green ribbons": a count of ribbons of one colour, Scoring Card, or silver."""

    count: int
    kind: str  # "colour", "card" or "silver"
    key: str  # the mat slot, the Scoring Card slug or "silver"
    article: bool  # the count was an article ("a Variety ribbon")
    # Silver ribbons the engine gave a bonus icon: (bonus icon, matching Elements visible), e.g. ("per-tone", 3).
    bonus: tuple[str, int] | None = None


def _free(span: tuple[int, int], slots: list[Slot]) -> bool:
    return not any(slot.overlaps(*span) for slot in slots)


# ------------------------------------------------------------------------------------------------ names


def find_names(text: str, _found: list[Slot]) -> list[Slot]:
    """Art Cards, Scoring Cards, scenarios, solo levels and variants named in the question."""
    # Longer names first: a scenario ("Family Game") before the Art Card titles inside it ("Game").
    follow_up = re.match(r"^\s*" + alternation(words("ellipsis") + words("ellipsis_openers")) + E, text) is not None
    scenario_slots = [slot for slot in names(text, "scenario", "scenario") if text[slot.start:slot.end] not in words("silver")]
    # "first-game mat", "end of the game": everyday phrases holding a title are not that Art Card.
    false_friends = [match.span() for match in pattern("title_false_friends").finditer(text)]
    # "a Spatial game": a scenario's name before "game" says which game is played.
    false_friends += [(scenario.start, scenario.end + len(match.group(0))) for scenario in names(text, "scenario", "scenario")
                      if (match := re.match(r"\s+(?:game|games|partie)" + E, text[scenario.end:]))]
    found = [slot for slot in names(text, "art", "art_card") if _free((slot.start, slot.end), scenario_slots)
             and not any(start <= slot.start and slot.end <= end for start, end in false_friends)]
    variants = names(text, "variant", "variant")
    found += variants
    for slot in names(text, "scoring", "scoring_card"):
        if _free((slot.start, slot.end), found):
            found.append(slot)
    scenario_word = alternation(words("scenario"))
    for slot in names(text, "scenario", "scenario"):
        name = text[slot.start:slot.end]
        if name in words("silver") and re.match(r"\s*(?:" + alternation(words("bonus_prefix")) + r")\s+(?:"
                                                + alternation(_icon_index()) + ")" + E, text[slot.end:]):
            continue  # "the bonus per Hue" is a bonus icon, not the Bonus scenario
        if name in words("silver") and pattern("bonus_icon").match(text, slot.start):
            continue  # "what if I have two bonus icons showing": the icon, even in a follow-up
        if name in words("silver") and not follow_up:  # "Bonus" is a scenario only next to the word "scenario"
            before, after = text[max(0, slot.start - 14):slot.start], text[slot.end:slot.end + 24]
            # "scenario Bonus", "Bonus scenario", "Bonus c'est le scenario a 40", "Bonus is the scenario with ...".
            if not (re.search(r"(?:" + scenario_word + r"|partie)\s*(?:de\s+|du\s+|d')?$", before) or re.match(
                    r"\s*(?:(?:c'est|is|est)\s+(?:le\s+|the\s+|un\s+|a\s+)?)?(?:" + scenario_word + r"|game\b)", after)):
                continue
        if _free((slot.start, slot.end), found):
            found.append(slot)
    # Level names are everyday words ("hard", "normal"): a level only where solo play or a level is in question.
    # (or where a score or a goal is: "38 ca fait Maitre ?", "how many pts do I need for hard").
    follow_up = re.match(r"^\s*" + alternation(words("ellipsis") + words("ellipsis_openers")) + E, text) is not None
    if follow_up or re.search(B + r"(?:solo|level|niveau|difficulty|difficulte|mode|count as|compte comme|counts as)" + E, text) or (
            re.search(r"\d\s*=", text)) or has(text, "needs_previous") or (
            (re.search(r"\d", text) or has(text, "goal")) and has(text, "points") or re.search(r"\d", text) and has(text, "pass")
            or has(text, "goal") and re.search(r"\b(?:for|pour|on|en|au)\s+(?:the\s+|le\s+)?\w+\s*\??$", text)):
        # "an easy scenario", "a hard game", "comme un joueur normal": a level name describing a thing of the game (a
        # scenario, a game or turn, a player, a card, a token, a painting, a ribbon) is an adjective, no solo level.
        found += [slot for slot in names(text, "level", "level") if _free((slot.start, slot.end), found)
                  and not re.match(r"\s+(?:" + _qualified_nouns() + r")" + E, text[slot.end:])
                  and not re.search(B + r"(?:" + _qualified_nouns() + r")\s+(?:plus\s+|tres\s+)?$", text[: slot.start])]
    # "the level above", "le niveau suivant": a level named relative to a score (the one after the level it reaches).
    step = pattern("next_level").search(text)
    if step:
        found.append(Slot("level_step", "next", *step.span()))
    for slot_name, colours in vocabulary()["colours"].items():
        for match in re.finditer(B + alternation(colours) + E, text):
            if _free(match.span(), found):
                found.append(Slot("colour", slot_name, match.start(), match.end()))
    found += _scenario_by_cards(text, found)
    return found


@lru_cache(maxsize=1)
def _qualified_nouns() -> str:
    """The nouns a level name may qualify as an everyday adjective (vocabulary word classes)."""
    return alternation(words("scenario_word") + words("game_nouns") + words("player_count") + words("card")
                       + words("token") + words("painting") + words("ribbon"))


def _scenario_by_cards(text: str, found: list[Slot]) -> list[Slot]:
    """"on debute avec seulement Composition et Variete : quel score viser ?": a scenario said by its Scoring Cards
    (exactly one scenario's fixed cards), when the game's goal is in question and no ribbons are counted."""
    if any(slot.name == "scenario" for slot in found) or has(text, "ribbon") \
            or not (has(text, "goal") or has(text, "pass") or has(text, "scenario")):
        return []
    named = [slot for slot in found if slot.name == "scoring_card"]
    count = numbers().fragment_articles
    if any(re.search(B + f"(?:{count})\\s*(?:x\\s*)?$", text[max(0, slot.start - 12): slot.start])
           or re.match(f"\\s*(?::|=|x)?\\s*(?:{count})" + E, text[slot.end:]) for slot in named):
        return []  # "3 compo + 3 variete": counts of ribbons, said without the word
    slugs = {slot.value.slug for slot in named}
    matching = [scenario for scenario in engine.SCENARIOS if scenario.cards and set(scenario.cards) == slugs]
    if len(named) < 2 or len(matching) != 1:
        return []
    return [Slot("scenario", matching[0], named[0].start, named[-1].end)]


def _space_chain(text: str, spans: list[Slot], current: list[Slot], span: Slot) -> bool:
    """Exactly three titles separated by single spaces ("fragile beauty mess") are a painting, not a title; one of
    them may be named again after them ("fragile pride purpose (fragile en bas)")."""
    first_three = spans[:CARDS_PER_PAINTING]
    if text[current[-1].end: span.start] != " " or span not in first_three \
            or len({slot.value.id for slot in spans}) != CARDS_PER_PAINTING or len(first_three) != CARDS_PER_PAINTING:
        return False
    return all(text[first.end: second.start] == " " for first, second in zip(first_three, first_three[1:], strict=False))


_SENTENCE_END = re.compile(r"[.?!;:]")


def _joined(between: str) -> bool:
    """Whether the text between two titles joins them in one list: list or layering words only, or a short clause
    without a sentence break ("tout en bas (celle avec le bonus), ensuite", "at the bottom, then")."""
    plain = re.sub(r"\([^()]*\)", " ", between).replace("(", " ").replace(")", " ")
    # ("bottom: Sudden, middle: Expanse": a colon after a layer word introduces that layer's card, no new sentence.)
    plain = re.sub(r"((?:^|[,;])\s*(?:and\s+|et\s+)?" + alternation([word for key in _LAYER_KEYS for word in words(key)]) + r")\s*:",
                   r"\1 ", plain)
    if _SENTENCE_END.search(plain) or not between.strip():
        return False
    if len(re.findall(r"[\w']+", plain)) > 5:
        return False
    if has(plain, "title_word"):
        return False  # "Chosen, Game, then Unashamed on top is titled 'Unashamed Game'": the title stated, not a card
    # It must say it lists or layers ("the game stop the moment" names two titles in passing).
    listing = [word for key in ("list_sep", "above", "below", "chain_top", "chain_bottom", "chain_middle", "chain_next")
               for word in words(key) if word[0].isalpha()]
    return re.search(r"[,+/>&-]", plain) is not None or re.search(B + alternation(listing) + E, plain) is not None


def _labels(text: str, spans: list[Slot], mentions: list[Slot] = ()) -> list[str | None]:
    """The layer each title is said to be in by the words right after it ("X en bas", "Y on top", "Z au milieu"),
    or after a later mention of it ("fragile pride purpose (fragile en bas)"); `mentions` are all the titles named.
    When a layer word stands right before the first title ("bottom Sudden, middle Expanse, top Childhood", "en bas :
    Divine, au milieu ..."), each title's label is the one said just before it."""
    leading = _leading_labels(text, spans)
    if leading is not None:
        return leading
    found: list[str | None] = []
    for number, span in enumerate(spans):
        end = spans[number + 1].start if number + 1 < len(spans) else min(len(text), span.end + 30)
        end = min([end] + [other.start for other in mentions if other.start >= span.end])
        after = _SENTENCE_END.split(text[span.end:end])[0]
        # "(bottom to top)" says how the whole list reads, not where this card lies.
        after = pattern("order_bottom_up").sub(" ", pattern("order_top_down").sub(" ", after))
        label = None
        # The earliest label word after the title is its own ("Chosen bottom, Attraction, Expanse top").
        matches = [(match.start(), key) for key in ("chain_bottom", "chain_top", "chain_middle")
                   if (match := pattern(key).search(after))]
        if matches:
            label = min(matches)[1]
        found.append(label)
    in_chain = {id(span) for span in spans}
    for other in mentions:
        if id(other) in in_chain or other.start < spans[-1].end:
            continue
        # A card of the chain named again with its layer: that label is the card's ("(fragile en bas)").
        again = [index for index, span in enumerate(spans) if span.value.id == other.value.id]
        if len(again) == 1 and found[again[0]] is None:
            label = _labels(text, [other], [item for item in mentions if item.start > other.start])[0]
            if label is not None and label not in found:
                found[again[0]] = label
    return found


_LAYER_KEYS = ("chain_bottom", "chain_top", "chain_middle")


def _last_label(text: str) -> tuple[int, str] | None:
    """The layer word closing `text` (only separators after it: "bottom ", "en haut : ", "top = "), or None."""
    # ("bottom to top: Fragile, ..." says how the list reads, not where its first card lies.)
    text = pattern("order_bottom_up").sub(lambda match: " " * len(match.group(0)),
                                          pattern("order_top_down").sub(lambda match: " " * len(match.group(0)), text))
    closing = [(match.start(), key) for key in _LAYER_KEYS for match in pattern(key).finditer(text)
               if re.fullmatch(r"[\s:=,(-]*(?:" + either("layer_noun") + r")?[\s:=,(-]*", text[match.end():])]
    return max(closing) if closing else None


def _leading_labels(text: str, spans: list[Slot]) -> list[str | None] | None:
    """The labels said before each title, when the first title of the run has one ("bottom Sudden, middle ..."); None
    otherwise (labels said after the titles are the usual reading)."""
    lead = re.split(r"[.?!;]", text[max(0, spans[0].start - 20): spans[0].start])[-1]  # ("en bas : Trap")
    if _last_label(lead) is None:
        return None
    found: list[str | None] = []
    for number, span in enumerate(spans):
        start = spans[number - 1].end if number else max(0, span.start - 20)
        label = _last_label(text[start: span.start])
        found.append(label[1] if label else None)
    return found


def _order(cards: list, labels: list[str | None]) -> list | None:
    """Cards bottom to top from their layer labels, or None when no card has one (or they contradict)."""
    if not any(labels) or len(cards) != CARDS_PER_PAINTING:
        return None
    tops = [index for index, label in enumerate(labels) if label == "chain_top"]
    bottoms = [index for index, label in enumerate(labels) if label == "chain_bottom"]
    if len(tops) > 1 or len(bottoms) > 1:
        return None
    if (tops and tops[0] == 0) or (bottoms and bottoms[0] == len(cards) - 1) or (tops and bottoms and tops[0] < bottoms[0]):
        cards, labels = cards[::-1], labels[::-1]  # listed from the top down
    placed: list = [None] * len(cards)
    for card, label in zip(cards, labels, strict=True):
        slot = {"chain_bottom": 0, "chain_top": len(cards) - 1, "chain_middle": 1}.get(label)
        if slot is not None:
            if placed[slot] is not None:
                return None
            placed[slot] = card
    rest = iter(card for card, label in zip(cards, labels, strict=True) if label is None)
    return [card if card is not None else next(rest) for card in placed]


def find_card_chain(text: str, found: list[Slot]) -> list[Slot]:
    """The longest run of Art Card titles joined by list or layering words, bottom to top, as one slot."""
    spans = [slot for slot in found if slot.name == "art_card"]
    if len(spans) < 2:
        return []
    best: list[Slot] = []
    best_joins: list[str] = []
    current: list[Slot] = []
    joins: list[str] = []
    for span in spans:
        between = text[current[-1].end: span.start] if current else ""
        if current and (_joined(between) or _space_chain(text, spans, current, span)):
            current.append(span)
            joins.append(between)
        else:
            # Two titles with only a space between them read as a painting title ("Chosen Game"), not a list.
            current, joins = [span], []
        if len(current) > len(best):
            best, best_joins = list(current), list(joins)
    if len(best) < 2:
        return []
    cards = [slot.value for slot in best]
    unique = list({card.id: card for card in cards}.values())
    if len(unique) == CARDS_PER_PAINTING < len(cards):
        cards = unique  # "forbidden, revolution, pride with pride on top": the repeated title marks the order
    ordered = _order(cards, _labels(text, best, spans)) if len(cards) == len(best) else None
    if ordered is not None:
        return [Slot("card_chain", tuple(ordered), best[0].start, best[-1].end)]
    above = pattern("above")
    below = pattern("below")
    says_above = any(above.search(join_text) for join_text in best_joins)
    says_below = any(below.search(join_text) for join_text in best_joins)
    if (says_above or has(text, "order_top_down")) and not says_below:
        cards.reverse()
    return [Slot("card_chain", tuple(cards), best[0].start, best[-1].end)]


# ------------------------------------------------------------------------------------------------ ribbons


@lru_cache(maxsize=1)
def _ribbon_targets() -> dict[str, tuple[str, str]]:
    """Colour and silver words -> ("colour", colour slot) or ("silver", "silver") (vocabulary data)."""
    targets: dict[str, tuple[str, str]] = {}
    for slot_name, colours in vocabulary()["colours"].items():
        for name in colours:
            targets[name] = ("colour", slot_name)
    for name in words("silver"):
        targets[name] = ("silver", "silver")
    return targets


@lru_cache(maxsize=512)
def _ribbon_patterns(card_spellings: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """The forward ("3 <target> ribbons") and backward ("<target> … 3 ribbons") patterns, built once per set of
    Scoring Card spellings found in a question (they vary with misspellings, so they can't be one fixed pattern)."""
    targets = list(_ribbon_targets())
    target_alt = alternation(targets + list(card_spellings)) if card_spellings else alternation(targets)
    count = numbers().fragment_articles
    ribbon = alternation(words("ribbon"))
    link = (r"(?:(?:of|from|for|on|de|du|des|d'|pour|sur)\s*(?:the\s+|la\s+|le\s+|l')?"
            r"(?:(?:scoring\s+)?card\s+|carte\s+(?:de\s+score\s+)?)?)?")
    times = alternation(words("ribbon_times"))
    more = r"(?:(?:more|extra|de plus|en plus|supplementaires?)\s+)?"  # "3 more silvers"
    # "two of those ribbons from the Style card", "deux de ces rubans": a count of the ribbons pointed at.
    more += r"(?:(?:of\s+(?:those|these|the|my|them)|de\s+(?:ces|mes|ses))\s+)?"
    # "each silver ribbon", "chaque ruban gris": one ribbon, said like an article (a value claimed for one is checked).
    each = alternation(words("each_one"))
    forward = re.compile(B + f"(?P<count>{count}|{each})\\s+{more}(?:(?P<rib>{ribbon})\\s+)?{link}(?P<target>{target_alt})" + E)
    backward = re.compile(B + f"(?P<target>{target_alt})(?:\\s+(?:scoring\\s+)?(?:card|carte))?(?:\\s+[\\w']+){{0,3}}?\\s*"
                          f"(?::|with|avec|=|,)?\\s*(?:all\\s+|tous\\s+les\\s+|les\\s+)?(?P<count>{count})\\s+(?P<rib>{ribbon}|{times})" + E)
    return forward, backward


def find_ribbons(text: str, found: list[Slot]) -> list[Slot]:
    """"N <colour|card|silver> ribbons" groups, and bare "N ribbons" counts."""
    reader = numbers()
    ribbon_word = has(text, "ribbon")
    targets = _ribbon_targets()
    card_names = {text[slot.start:slot.end]: slot.value.slug for slot in found if slot.name == "scoring_card"}
    forward, backward = _ribbon_patterns(tuple(sorted(card_names)))
    target_alt = alternation(list(targets) + list(card_names)) if card_names else alternation(targets)
    ribbon = alternation(words("ribbon"))
    times = alternation(words("ribbon_times"))
    groups: list[Slot] = []
    pending: list[Slot] = []  # "un rouge + un vert": article counts without the word "ribbon", kept only in a list
    explicit = False
    for regex in (forward, backward):
        for match in regex.finditer(text):
            if any(slot.overlaps(*match.span()) for slot in groups):
                continue
            each_one = match.group("count").strip() in words("each_one")
            value = 1 if each_one else reader.count_value(match.group("count"))
            if value is None:
                continue
            name = " ".join(match.group("target").split())
            kind, key = targets.get(name, ("card", card_names.get(name, "")))
            if not key:
                continue
            if match.group("rib") is None and regex is forward and (
                    re.search(r"\b(?:for|pour)\b", text[match.end("count"): match.start("target")])
                    or re.search(r"\b(?:le|la|the|du)\s*$", text[max(0, match.start() - 6): match.start()])):
                continue  # "16 for Repetition", "sous le 11 d'Emphase": points said of a card, not ribbons
            # "a single blue ribbon" counts one ribbon on purpose: it is not the article of "a Variety ribbon".
            article = each_one or (match.group("count").strip() in reader.article_one
                                   and match.group("count").strip() not in words("single_one"))
            if not ribbon_word and match.group("rib") is None and regex is backward:
                continue
            if not ribbon_word and article:
                pending.append(Slot("ribbon_group", RibbonGroup(value, kind, key, article), match.start(), match.end()))
                continue
            if match.group("rib") is not None and re.fullmatch(times, match.group("rib")):
                explicit = True  # "Movement 4 fois": that card met 4 times
            groups.append(Slot("ribbon_group", RibbonGroup(value, kind, key, article), match.start(), match.end()))
    listed = sorted(groups + pending, key=lambda slot: slot.start)
    if pending and len(listed) >= 2 and all(re.fullmatch(r"\s*(?:[+,&]|and|et|plus)\s*", text[first.end: second.start])
                                            for first, second in zip(listed, listed[1:], strict=False)):
        groups = [replace(slot, value=replace(slot.value, article=False)) for slot in listed]
    # Without the word "ribbon", "2 red, 3 green and 1 silver" reads as ribbon counts only as a list of two or more,
    # or as one count asked for points ("4 argents ca fait combien ?").
    # ... or in a follow-up that adds ribbons to the previous question's ("et avec 2 argents en plus ?").
    follow_up = re.match(r"^\s*" + alternation(words("ellipsis") + words("ellipsis_openers")) + E, text) is not None
    # ... or as the whole of a follow-up ("and 3 silvers?", "et les 3 argent ?"): the count is all it says.
    bare = follow_up and len(groups) == 1 and re.fullmatch(
        r"\s*" + alternation(words("ellipsis") + words("ellipsis_openers")) + r"[:,-]?(?:\s+(?:the|les|with|avec|des|if|si))*\s*"
        + re.escape(text[groups[0].start:groups[0].end]) + r"(?:\s+ones?)?\s*[?!.]*\s*", text) is not None
    if not ribbon_word and len(groups) < 2 and not explicit and not has(text, "points_question") \
            and not (follow_up and has(text, "in_addition")) and not bare:
        groups = []
    groups = _listed_pairs(text, groups, targets, card_names, target_alt)
    # "movement x2", "Style 3x": a card and how many times it was met.
    if not groups:
        for match in re.finditer(B + f"(?P<target>{target_alt})\\s*(?:x\\s*(?P<after>\\d)|(?P<before>\\d)\\s*x)" + E, text):
            name = " ".join(match.group("target").split())
            kind, key = targets.get(name, ("card", card_names.get(name, "")))
            if key:
                value = int(match.group("after") or match.group("before"))
                groups.append(Slot("ribbon_group", RibbonGroup(value, kind, key, False), match.start(), match.end()))
    if not groups and ribbon_word and has(text, "each_word") and reader.find(text):
        # "silver ribbons are worth 3 points each": a value stated for one silver ribbon (silver points are flat);
        # without a value stated, "what is each silver ribbon worth?" is left to the rulebook.
        silver = alternation(words("silver"))
        one = re.search(B + f"(?:{ribbon})\\s+(?:{silver})|(?:{silver})\\s+(?:{ribbon})" + E, text)
        if one:
            groups.append(Slot("ribbon_group", RibbonGroup(1, "silver", "silver", False), *one.span()))
    if not groups:
        groups += _bonus_icon_ribbons(text)
    bare: list[Slot] = []
    if not groups and ribbon_word:
        # ("donc un seul ruban": a restrictive "one" counts one ribbon, an article does not.)
        for match in re.finditer(B + f"(?P<count>{reader.fragment}|{alternation(words('single_one'))})\\s+{ribbon}" + E, text):
            value = reader.count_value(match.group("count"))
            if value is not None:
                bare.append(Slot("ribbon_count", value, match.start(), match.end()))
    # One Scoring Card named and one bare count elsewhere ("SPACE card. three ribbons.", "Hierarchy ... j'ai deux
    # rubans dessus"): the ribbons are that card's. The count's span stands for the group.
    cards = {slot.value.slug for slot in found if slot.name == "scoring_card"}
    named = [slot for slot in found if slot.name == "scoring_card"]
    if len(bare) == 1 and len(cards) == 2 and len(named) == 2 and has(text[named[0].end: named[1].start], "like_word"):
        # "Espace c'est comme Proximite non ? 3 rubans = 8 pts": the card compared to another is the one counted.
        cards = {named[0].value.slug}
    # (A scenario named besides is the game played when the card is one of its cards: "Scenario All Elements,
    # Hierarchie en jeu : ... un seul ruban".)
    scenario_cards = {slug for slot in found if slot.name == "scenario" for slug in slot.value.cards}
    if len(bare) == 1 and len(cards) == 1 and not any(slot.name in ("colour", "card_chain") for slot in found) \
            and (not any(slot.name == "scenario" for slot in found) or cards <= scenario_cards):
        only = bare[0]
        card = named[0]
        between = text[min(card.end, only.end): max(card.start, only.start)]
        before = text[max(0, only.start - 16): only.start]
        # Not when the card is said to earn them ("does Movement give 2 ribbons?") or the count is a bound.
        if has(between, "ribbon_earn") or has(before, "bound_words"):
            return sorted(groups + bare, key=lambda slot: slot.start)
        return [Slot("ribbon_group", RibbonGroup(only.value, "card", cards.pop(), False), only.start, only.end)]
    return sorted(groups + bare, key=lambda slot: slot.start)


def _bonus_icon_ribbons(text: str) -> list[Slot]:
    """"a 'per Tone' bonus icon and 3 Tone icons showing": the silver ribbons the engine gives such a painting (a
    painting built with the bonus icon alone in one swatch and one matching icon in each of N others)."""
    index = _icon_index()
    icon = alternation(index)
    bonus = re.search(B + alternation(words("bonus_prefix")) + r"[- ]?\s*(?P<element>" + icon + ")" + E, text)
    if bonus is None:
        return []
    element = index[" ".join(bonus.group("element").split())]
    named = B + f"(?P<n>{numbers().fragment})\\s+(?:(?:{alternation(words('element_word'))})\\s+)?(?P<element>{icon})" + E
    after = re.search(named, text[bonus.end():])
    before = None if after else re.search(named, text[: bonus.start()])
    count = after or before
    if count is None or index[" ".join(count.group("element").split())] != element \
            or count.group("n").strip() in numbers().article_one:
        return []  # "does it count as a Shape?": an article, no count of icons
    offset = bonus.end() if after else 0
    matching = numbers().count_value(count.group("n"))
    slots = len(engine.SWATCH_COLOURS)
    if matching is None or matching > slots - 1:
        return []  # the bonus icon fills one swatch: the others show each Element at most once
    swatches = [[f"per-{element}"]] + [[element] for _ in range(matching)] + [[] for _ in range(slots - 1 - matching)]
    silver = engine.score_painting(engine.Painting.from_swatches(swatches), []).bonus
    start, end = min(bonus.start(), offset + count.start()), max(bonus.end(), offset + count.end())
    return [Slot("ribbon_group", RibbonGroup(silver, "silver", "silver", False, (f"per-{element}", matching)), start, end)]


_LIST_GAP = re.compile(r"\s*(?:[+,;&/]|and|et|plus|with|avec|then|puis)?\s*(?:(?:and|et|plus)\s+)?")


def _listed_pairs(text: str, groups: list[Slot], targets: dict, card_names: dict, target_alt: str) -> list[Slot]:
    """End-of-game totals written as a list of "card count" pairs in any order and notation ("consistency 2,
    emphasis 3, plus 1 silver", "emphasis x1, hierarchy x2", "1 coherence, 3 emphase, pas d'argent"): each pair is
    a ribbon group once two or more items stand in one list (a lone "Emphasis 3" may be anything)."""
    reader = numbers()
    count = reader.fragment
    none = alternation(words("no_silver"))
    silver = alternation(words("silver"))
    pair = re.compile(
        B + f"(?:(?P<target>{target_alt})\\s*(?::|=|x|×)?\\s*(?P<count>{count})(?:\\s*x)?"
        f"|(?P<count_first>{count})\\s*(?:x\\s*)?(?P<target_after>{target_alt})"
        f"|(?P<none>{none})\\s*(?:{alternation(words('ribbon'))}\\s+)?(?:{silver}))" + E)
    found: list[Slot] = []
    for match in pair.finditer(text):
        if any(slot.overlaps(*match.span()) for slot in groups):
            continue
        if match.group("none"):
            found.append(Slot("ribbon_group", RibbonGroup(0, "silver", "silver", False), *match.span()))
            continue
        name = " ".join((match.group("target") or match.group("target_after")).split())
        value = reader.count_value(match.group("count") or match.group("count_first"))
        kind, key = targets.get(name, ("card", card_names.get(name, "")))
        if value is None or not key or kind == "colour":
            continue  # a colour next to a number ("red 2") is too loose to read as ribbons
        found.append(Slot("ribbon_group", RibbonGroup(value, kind, key, False), *match.span()))
    items = sorted(groups + found, key=lambda slot: slot.start)
    # Keep the pairs that sit in one list with another item (only list words between them).
    listed = set()
    for first, second in zip(items, items[1:], strict=False):
        if _LIST_GAP.fullmatch(text[first.end: second.start]):
            listed.update((id(first), id(second)))
    kept = [slot for slot in found if id(slot) in listed]
    if not kept:
        return groups
    return sorted(groups + kept, key=lambda slot: slot.start)


# ------------------------------------------------------------------------------------------------ swatches


def _icon_index() -> dict[str, str]:
    return {name: icon for icon, icon_names in vocabulary()["icons"].items() for name in icon_names}


def _parse_group(group: str) -> list[str] | None:
    index = _icon_index()
    regex = re.compile(B + "(" + alternation(index) + ")" + E)
    group = group.strip()
    if not group or re.fullmatch(r"\W*(?:" + alternation(words("empty")) + r")?\W*", group):
        return []
    icons: list[str] = []
    consumed = []
    prefix = alternation(words("bonus_prefix"))
    for match in re.finditer(B + prefix + r"[- ]?\s*(" + alternation(index) + ")" + E, group):
        icons.append("per-" + index[" ".join(match.group(1).split())])
        consumed.append((match.start(), match.end()))
    for match in regex.finditer(group):
        if any(start <= match.start() < end for start, end in consumed):
            continue
        icons.append(index[" ".join(match.group(1).split())])
    return icons or None


def icons_in(text: str) -> list[str]:
    """The icons named in a short text ("per-shape icon", "the Tone"), bonus icons as "per-<element>"."""
    return _parse_group(text) or []


def find_swatches(text: str, _found: list[Slot]) -> list[Slot]:
    """Five swatches from "[hue shape] [tone] [] ...", "hue+shape; tone; -; texture; hue" or "red: ..., yellow: ..."."""
    index = _icon_index()
    if len(re.findall(B + alternation(index) + E, text)) < 3:
        return []
    count = engine.SWATCH_COLOURS and len(engine.SWATCH_COLOURS)
    brackets = list(re.finditer(r"\[([^\]]*)\]", text))
    if len(brackets) == count:
        groups = [_parse_group(match.group(1)) for match in brackets]
        if all(group is not None for group in groups):
            return [Slot("swatches", tuple(tuple(group) for group in groups), brackets[0].start(), brackets[-1].end())]
        return []
    labels = {name: slot for slot, slot_names in vocabulary()["swatches"].items() for name in slot_names}
    order = list(vocabulary()["swatches"])
    label_regex = re.compile(B + r"(?:(?:" + alternation(words("swatch_word")) + r")\s*(?P<num>[1-" + str(count)
                             + "])|(?P<name>" + alternation(labels) + r"))\s*[:=]")
    found = list(label_regex.finditer(text))
    if len(found) >= 2:
        swatches: list[list[str]] = [[] for _ in order]
        for number, match in enumerate(found):
            end = found[number + 1].start() if number + 1 < len(found) else len(text)
            chunk = re.split(r"[?.]|\b(?:what|how|which|quel|quelle|combien|que)\b", text[match.end(): end])[0]
            group = _parse_group(chunk.strip(" ,;."))
            if group is None:
                return []
            position = int(match.group("num")) - 1 if match.group("num") else order.index(labels[match.group("name")])
            swatches[position] = group
        return [Slot("swatches", tuple(tuple(group) for group in swatches), found[0].start(), found[-1].end())]
    start = text.rfind(":") + 1 if ":" in text else 0
    tail = re.split(r"[?]", text[start:])[0]
    for separator in (";", "|", "/"):
        parts = tail.split(separator)
        if len(parts) == count:
            groups = [_parse_group(part) for part in parts]
            if all(group is not None for group in groups):
                return [Slot("swatches", tuple(tuple(group) for group in groups), start, start + len(tail))]
            return []
    return []


# ------------------------------------------------------------------------------------------------ the row


def find_positions(text: str, _found: list[Slot]) -> list[Slot]:
    """Row positions: "the third card", "card 3", "the free one", "the last one", "nearest the deck", tokens on cards."""
    row_size = engine.ruleset("base").row_size
    reader = numbers()
    slots: list[Slot] = []
    count = reader.fragment_articles
    token = alternation(words("token"))
    ordinal = r"(?P<ord>" + alternation(reader.ordinal_words) + r")"
    card = alternation(["card", "carte", "one", "celle"])
    on_cards: dict[int, int] = {}
    used: list[tuple[int, int]] = []
    # The token word may be left out once tokens are in question ("there's 1 sitting on the fourth card", "1 on card 2").
    token_here = f"(?:{token}\\s+)?" if has(text, "token") else f"{token}\\s+"
    for pattern_text in (
        B + f"(?P<count>{count})\\s+{token_here}(?:(?:is|are|already|deja|sont|est|lying|pose|poses|sitting|posee?s?)\\s+)*"
        f"(?:on|sur)\\s+(?:the\\s+|la\\s+|le\\s+)?(?:{ordinal}(?:\\s+{card})?|{card}\\s+(?:number\\s+|numero\\s+|n[o°]\\s*)?(?P<num>\\d))" + E,
        # ("la 1re carte (la plus loin du paquet) a 2 jetons": a remark in brackets may stand between.)
        # ("the first card in the row already has one of Theo's tokens on it": where the card is, and whose tokens.)
        B + f"(?:the\\s+|la\\s+|le\\s+)?{ordinal}\\s+{card}(?:\\s+(?:in|of)\\s+the\\s+row|\\s+de\\s+la\\s+rangee)?(?:\\s*\\([^()]*\\))?"
        f"\\s+(?:(?:has|holds|carries|a|porte|contient|already|deja|y)\\s+)+"
        f"(?P<count>{count})\\s+(?:of\\s+(?:[a-z]+'s|his|her|their|my|your|the other players')\\s+)?{token}",
        # "la 2e en a 3", "the 2nd has 3": the token word left out, said with a pronoun or closing the clause.
        # ("the 4th card already has 2 on it": "already" may come first, "on it" may follow.)
        B + f"(?:the\\s+|la\\s+|le\\s+){ordinal}(?:\\s+{card})?(?:\\s*\\([^()]*\\))?\\s+(?:(?:already|deja)\\s+)?(?:en\\s+a|has|holds|carries|porte|contient|a)\\s+(?:deja\\s+|already\\s+)?"
        f"(?P<count>{count})(?:\\s+{token}|(?=\\s+" + either("on_it") + E + r")|(?=\s*(?:[,.;:?!]|$)))",
        # "la 3e rien", "the third has none": a card said to hold nothing, in a list of the row's cards.
        B + f"(?:the\\s+|la\\s+|le\\s+)?{ordinal}(?:\\s+{card})?\\s+(?:(?:en\\s+a|has|holds|a|porte)\\s+)?"
        f"(?P<count>rien|nothing|none|aucun|zero|" + alternation(words("no_tokens")) + r")(?=\s*(?:[,.;:?!]|$))",
        # "first card 1 token, ...", "2e carte : 2 jetons": a row listed card by card, without a verb.
        # (Only in a list: "la 3e carte = 2 jetons, ok ?" states a cost.)
        B + f"(?:the\\s+|la\\s+|le\\s+)?{ordinal}\\s+{card}\\s+(?P<count>{count})\\s+{token}" + r"(?=\s*[,;])",
    ):
        for match in re.finditer(pattern_text, text):
            position = (int(match.group("num")) if match.groupdict().get("num")
                        else reader.ordinal_words[match.group("ord").replace(" ", "")])
            value = reader.count_value(match.group("count"))
            if re.fullmatch(r"rien|nothing|none|aucun|zero|" + alternation(words("no_tokens")), match.group("count")):
                value = 0
            if value is None or position > row_size:
                continue
            on_cards[position] = value
            used.append(match.span())
    if on_cards:
        # Read-only: a Parsed is cached and shared between questions.
        slots.append(Slot("tokens_on_cards", MappingProxyType(dict(on_cards)), min(start for start, _ in used),
                          max(end for _, end in used)))
    on_it = re.search(B + f"(?P<count>{count})\\s+{token}\\s+(?:(?:already|deja|stacked|piled|placed|sitting|lying|empiles|poses)\\s+)*(?:on it|on that card|on that one|dessus|sur elle|sur cette carte|"
                      r"sur celle-ci|sitting on it|lying on it)", text)
    if on_it and not any(start < on_it.end() and on_it.start() < end for start, end in used):
        # ("la 1re carte a deja un jeton dessus": the "dessus" is that card's, already read.)
        slots.append(Slot("tokens_on_target", reader.count_value(on_it.group("count")), *on_it.span()))
    else:
        # "took the 2nd card with Abby's token on it", "avec le jeton de Léa dessus": one token, said with its owner.
        owned = re.search(B + either("token_owner_with") + r"\s+(?:(?:[a-z]+'s|his|her|their|the|a|an|one|le|un|son|leur)\s+)?"
                          + token + r"\s+(?:(?:de|d')\s*[a-z]+\s+)?" + either("on_it") + E, text)
        if owned and not re.search(r"s\s+(?:on|dessus|sur|de|d')", owned.group(0)) and \
                not any(start < owned.end() and owned.start() < end for start, end in used):
            slots.append(Slot("tokens_on_target", 1, *owned.span()))
    # Positions named in words: the free card (farthest from the deck) is 1, the one by the deck is the row's last.
    for key, position in (("position_second_last", row_size - 1), ("position_free", 1), ("position_last", row_size),
                          ("position_middle", (row_size + 1) // 2)):
        for match in pattern(key).finditer(text):
            if re.search(r"\b(?:my|ma|mon|your|ta|ton|his|her|sa|son)\s+$", text[max(0, match.start() - 8): match.start()]):
                continue  # "ma derniere carte" is a card of mine, not the row's last
            if re.search(B + r"(?:counting|count|counted|starting|start|numbered|en comptant|en partant|compte|comptee|a partir)"
                         r"\s+(?:from|at|de|depuis|d')?\s*(?:la\s+|le\s+|l')?$", text[max(0, match.start() - 24): match.start()]):
                continue  # "the 4th card counting from the free one": where counting starts, not a second card
            if _free(match.span(), slots) and not any(start <= match.start() < end for start, end in used):
                # "the second-to-last one": the noun after the position word is part of it (not the number one).
                tail = re.match(r"\s+(?:one|card|carte)\b", text[match.end():])
                slots.append(Slot("position", position, match.start(), match.end() + (tail.end() if tail else 0)))
    # "2 tokens sitting on the last one", "1 jeton sur la gratuite": tokens on a card named in words.
    for slot in [slot for slot in slots if slot.name == "position"]:
        lead = re.search(B + f"(?P<count>{count})\\s+{token}\\s+(?:(?:is|are|already|deja|sont|est|lying|sitting|posee?s?)\\s+)*"
                         r"(?:on|sur)\s+$", text[max(0, slot.start - 40): slot.start])
        if lead and slot.value not in on_cards and reader.count_value(lead.group("count")) is not None:
            on_cards[slot.value] = reader.count_value(lead.group("count"))
            start = max(0, slot.start - 40) + lead.start()
            slots.append(Slot("tokens_on_cards", MappingProxyType(dict(on_cards)), start, slot.start))
    # "la carte deux cartes apres la gratuite", "the card 2 cards past the free one": counted from the free card.
    for slot in [slot for slot in slots if slot.name == "position" and slot.value == 1]:
        lead = re.search(B + f"(?P<count>{reader.fragment})\\s+{alternation(words('card'))}\\s+(?:apres|after|past|beyond|"
                         r"to the right of|a droite de)\s+$", text[max(0, slot.start - 30): slot.start])
        steps = reader.count_value(lead.group("count")) if lead else None
        if steps is not None and 1 + steps <= row_size:
            slots.remove(slot)
            slots.append(Slot("position", 1 + steps, max(0, slot.start - 30) + lead.start(), slot.end))
    # "la carte la plus loin de la pioche a rien", "the free one has 2": a card described by its tokens, not a take.
    _described_by_tokens(text, slots, on_cards)
    # "au bout de la rangee" is the free end (the rulebook's wording), unless another position word says which end.
    if not any(slot.name == "position" for slot in slots):
        for match in pattern("position_end").finditer(text):
            if _free(match.span(), slots):
                slots.append(Slot("position", 1, *match.span()))
    # "the third card", "la 3e carte", "card 3", "the fourth" after a take verb.
    taken = [(slot.start, slot.end) for slot in slots]
    for match in reader.ordinal_regex.finditer(text):
        if any(start <= match.start() < end for start, end in used + taken):
            continue
        value = reader.ordinal_words[match.group(0).replace(" ", "")]
        after, before = text[match.end(): match.end() + 14], text[max(0, match.start() - 40): match.start()]
        names_card = re.match(r"\s*(?:art\s+)?(?:card|carte|one)\b", after)
        after_take = re.search(B + alternation(words("take") + listed("want_take")) + r"\s+(?:the\s+|la\s+|le\s+|l')?$", before) or (
            # "je prends la 4e puis ensuite la 2e": a second take, after a sequence word.
            re.search(B + alternation(words("take")) + E, text[: match.start()])
            and re.search(B + alternation(words("take_sequence")) + r"\s+(?:(?:au|on|at)\s+[\w' ]{0,20}?\s+)?"
                          r"(?:the\s+|la\s+|le\s+|l')?$", before))
        if re.match(r"\s*(?:painting|peinture|tableau)", after) or re.search(r"\b(?:my|ma|mon|your|ta|ton|his|her|sa|son)\s+$", before):
            continue  # "my third painting", "my third card" (in hand) are not row positions
        indefinite = re.search(r"(?:\ba|\bune|\bun|another|une autre)\s+$", before)
        if indefinite and names_card:
            # "a sixth card", "une sixieme carte": the nth card in hand, not a row position.
            slots.append(Slot("hand_size", value - 1, match.start(), match.end() + len(names_card.group(0))))
            continue
        if after_take and not names_card and re.match(r"\s*(?:turn|tour|player|joueur|game|partie|time|fois|round|manche)\b", after):
            continue  # "who takes the first turn" is not a row position
        # "la 4e a partir de la gratuite", "the 3rd counting from the free one": a row position by where counting starts.
        counted = re.match(r"\s+(?:counting|en comptant|a partir|en partant|starting)\b", text[match.end(): match.end() + 20])
        # "the card I want is third in the row", "celle que je veux est la 3e": the card wanted, named by its place.
        wanted = re.search(B + r"(?:card|one|carte|celle)\s+(?:(?:i|je|que\s+je|qu'on|we)\s+)?(?:want|need|am\s+after|veux|vise)\s+"
                           r"(?:is|est)\s+(?:the\s+|la\s+|le\s+)?$", before)
        if names_card or after_take or counted or wanted:
            slots.append(Slot("position", value, match.start(), match.end()))
    # "Abby skips two cards", "elle saute 3 cartes": the card taken is the one after the skipped ones.
    # ("skip all four", "je saute les 3": the card word may go unsaid after "all" / "les".)
    for match in re.finditer(B + r"(?:skip|skips|skipped|skipping|saute|sautes|sautent|a saute|passe|passes|a passe)\s+"
                             + f"(?:(?P<n>{reader.fragment_articles})\\s+{alternation(words('card'))}|"
                             r"(?:all\s+(?:the\s+)?|toutes\s+(?:les\s+)?|les\s+)(?P<m>" + reader.fragment + "))" + E, text):
        skipped = reader.count_value(match.group("n") or match.group("m"))
        if skipped is not None and skipped + 1 <= row_size and _free(match.span(), slots):
            slots.append(Slot("position", skipped + 1, *match.span()))
    for match in re.finditer(r"\b(?:card|carte|position|place|slot|emplacement|spot)\s*(?:number|numero|n[o°]|#)?\s*(\d)\b", text):
        if _free(match.span(1), slots):
            slots.append(Slot("position", int(match.group(1)), match.start(1), match.end(1)))
    # "card 1 has 2 tokens on it, card 2 none": the row listed card by card with the cards' numbers.
    _described_by_tokens(text, slots, on_cards)
    # Every tokens-on-cards slot carries all the cards described (whichever the intent reads first).
    final = MappingProxyType(dict(on_cards))
    return [replace(slot, value=final) if slot.name == "tokens_on_cards" else slot for slot in slots]


def _described_by_tokens(text: str, slots: list[Slot], on_cards: dict[int, int]) -> None:
    """Turn each position followed by what lies on it ("the free one has 2", "card 2 none,", "card 3 has 1.") into a
    tokens-on-cards description (in place): such a card is described, not taken."""
    reader = numbers()
    count, token = reader.fragment_articles, alternation(words("token"))
    none = r"(?P<none>rien|nothing|none|zero|" + alternation(words("no_tokens")) + ")"
    for slot in [slot for slot in slots if slot.name == "position"]:
        trail = re.match(r"\s+(?:en\s+a|has|holds|a|porte|contient)\s+(?:deja\s+|already\s+)?(?:" + none + "|"
                         + f"(?P<count>{count})(?:\\s+{token}|(?=\\s*(?:[,.;:?!]|$))))", text[slot.end:])
        if trail is None:
            # (No verb: "card 2 none," - only in a list, the nothing word closing the clause.)
            trail = re.match(r"\s*:?\s+" + none + r"(?=\s*(?:[,.;:?!]|$))", text[slot.end:])
        value = 0 if trail and trail.group("none") else (reader.count_value(trail.group("count")) if trail else None)
        if value is not None and slot.value not in on_cards:
            on_cards[slot.value] = value
            slots.remove(slot)
            end = slot.end + trail.end()
            on_it = re.match(r"\s+" + either("on_it") + E, text[end:])
            end += on_it.end() if on_it else 0
            # ("card 1 has 2 tokens on it": the "on it" is that card's, not the card taken.)
            slots[:] = [other for other in slots if not (other.name == "tokens_on_target" and slot.start <= other.start < end)]
            slots.append(Slot("tokens_on_cards", MappingProxyType(dict(on_cards)), slot.start, end))


def find_tokens(text: str, found: list[Slot]) -> list[Slot]:
    """Tokens the player holds ("with 2 tokens", "j'ai 3 jetons", "if I only had 1 token") and Vincent's tokens."""
    reader = numbers()
    token = alternation(words("token"))
    regex = re.compile(
        # Another player's tokens read the same way ("Paul has 2 tokens", "elle a 3 jetons", "she only holds 1").
        B + "(?:" + either("held_tokens_lead") + "|"
        # ("y a 12 jetons" is "there are", not "has".)
        r"(?<!\by\s)(?:a|a encore|a deja))\s+"
        r"(?:only\s+|just\s+|exactly\s+|seulement\s+|exactement\s+|que\s+|qu'|plus que\s+|plus qu')?"
        r"(?:(?:my|all my|all|mes|tous mes|mes|ses|his)\s+)?"
        + f"(?P<count>{reader.fragment_articles})\\s*(?:of\\s+(?:his|my|her)\\s+|de\\s+(?:ses|mes)\\s+)?"
        + f"(?:(?:starting|initial|original)\\s+)?{token}"
        + r"(?!\s+(?:on|sur|dessus|already|deja))"
    )
    # "... I'd end with 3 tokens", "je finis avec 2 jetons": what is held after the move, not before it.
    ends = re.compile(alternation(words("after")) + r"\s*$")
    pronoun = re.compile(B + either("held_tokens_pronoun") + r"\s+(?:que\s+|qu'|seulement\s+|only\s+)?"
                         + f"(?P<count>{reader.fragment_articles})"
                         + r"(?=\s*(?:$|[,.;:?!]|" + either("held_count_enders") + r"\b))")
    # "je passe de 4 a 6", "I go from 4 to 6 tokens": held before the move, then the result stated (take.stated_after).
    going = re.search(B + "(?:" + either("go_from_verb") + r"\s+(?:de|from)|"
                      r"(?<=so )from|(?<=, )from)\s+"
                      + r"(?P<count>\d+)(?:\s+" + token + r")?(?=\s+(?:a|to)\s+\d+)", text)
    # "4 tokens, and there's ...": a count of tokens opening the message is what the player holds.
    opening = re.search(r"(?:^|[:,.;!?]|\s-)\s*(?:(?:ok|so|alors|bon|donc)[\s,]+)?(?P<count>\d+)\s*" + token
                        + r"(?:\s+" + either("mine_aside") + r")?(?=\s*[,.;:-]|\s+(?:and|et)\s+(?:the|la|le)\s)",
                        text)
    slots = []
    vincent = re.search(B + r"(?:vincent|he|il)\s+" + either("vincent_holds") + r"\s+(?:amasse|accumule|recupere|garde|[a-z]+ed|got|now|maintenant|"
                        r"encore)?\s*(?:only\s+|seulement\s+|his\s+|ses\s+|just\s+|all\s+|"
                        r"all\s+his\s+|tous\s+ses\s+)?" + f"(?P<count>{reader.fragment_articles})\\s+{token}", text) or re.search(
        B + f"(?P<count>{reader.fragment_articles})\\s+{token}\\s+(?:for|pour|a)\\s+vincent", text) or re.search(
        # "(he had his starting 4)", "il avait ses 4 jetons de depart": the count Vincent began his turn with.
        B + r"(?:vincent|he|il)\s+" + either("vincent_started") + r"\s+(?:his\s+|ses\s+)?"
        + f"(?P<count>{reader.fragment_articles})(?:\\s+{token}(?:\\s+" + either("starting_count_tail") + ")?|\\s+"
        + either("starting_count_tail") + r"|(?=\s*(?:[),.;:?!]|$)))" + E, text) or re.search(
        B + r"(?:vincent|he|il)\s+" + either("toss_verb") + r"\s+(?:his|ses|all\s+his|tous\s+ses)\s+(?P<count>" + reader.fragment + ")" + E, text) or re.search(
        # "vincent qui lance 4 jetons", "Vincent tosses 3 tokens": the count he tosses, with the token word.
        B + r"vincent\s+(?:qui\s+)?" + either("toss_verb") + r"\s+" + f"(?P<count>{reader.fragment})\\s+{token}", text) or re.search(
        # "vincent il lui reste plus que 2 jetons", "vincent's got 6 tokens", "vincent is down to 1 token".
        B + r"(?:vincent|he)(?:'s|\s+(?:il\s+)?(?:lui\s+reste|is\s+down\s+to|is\s+left\s+with|has\s+got|en\s+a))\s+(?:got\s+)?"
        r"(?:plus\s+que\s+|que\s+|only\s+|just\s+|encore\s+)?" + f"(?P<count>{reader.fragment_articles})\\s+{token}", text) or re.search(
        # "vincent 2 tokens", "Vincent : 4 jetons": his name, then his count.
        B + r"vincent\s*[:,-]?\s*" + f"(?P<count>{reader.fragment})\\s+{token}", text) or (
        # "... quand il en a 4", "when he has 3": Vincent's tokens said with a pronoun, Vincent and tokens in question.
        re.search(r"\bvincent\b", text) and has(text, "token") and re.search(B + r"(?:quand il en a|s'il en a|lorsqu'il en a|when he has|if he has|when he's got|if he's got)\s+"
        r"(?:que\s+|only\s+|just\s+)?" + f"(?P<count>{reader.fragment_articles})" + r"(?:\s+" + token + r")?" + E, text))
    # "he has 3 tokens" is Vincent's count only where Vincent is in question (named, or a follow-up about him);
    # otherwise "he" is a player.
    follow_up = re.match(r"^\s*" + alternation(words("ellipsis") + words("ellipsis_openers")) + E, text) is not None
    if vincent and not re.search(r"\bvincent", text) and not follow_up:
        vincent = None
    if vincent:
        slots.append(Slot("vincent_tokens", reader.count_value(vincent.group("count")), *vincent.span()))
    else:
        # "Vincent n'a plus aucun jeton", "he's out of tokens": none left.
        none_left = re.search(B + r"(?:vincent|he|il)\b[^.?!,;]{0,24}?" + alternation(words("no_tokens")) + E, text)
        if none_left and re.search(r"\bvincent", text) and not re.match(r"il\s+(?:n')?y\b", none_left.group(0)):
            slots.append(Slot("vincent_tokens", 0, *none_left.span()))
    supply = alternation(words("supply"))
    # ("supply started at four", "la reserve etait a 3": the supply before the move is stated the same way.)
    stock = re.search(B + f"{supply}\\s+" + either("supply_holds") + r"\s+" + "(?:only\\s+|encore\\s+)?"
                      f"(?P<count>{reader.fragment_articles})" + E, text) or re.search(
        B + f"(?P<count>{reader.fragment_articles})\\s+{token}\\s+(?:in|dans)\\s+(?:the\\s+|la\\s+)?{supply}", text)
    if stock:
        slots.append(Slot("supply", reader.count_value(stock.group("count")), *stock.span()))
    elif has(text, "supply_empty"):
        match = pattern("supply_empty").search(text)
        slots.append(Slot("supply", 0, *match.span()))
    elif empty := re.search(B + f"{supply}(?:'s)?\\s+(?:(?:is|est|now|already|gone|run|deja|maintenant|totally|completely|toute|"
                            f"completement)\\s+){{0,2}}(?:empty|vide|epuisee|emptied|dry)" + E, text):
        # Telegraphic "supply empty tho", "reserve deja vide": the supply word, then "empty" within its clause.
        slots.append(Slot("supply", 0, *empty.span()))
    for match in regex.finditer(text):
        if not _free(match.span(), found + slots) or ends.search(text[: match.start()] + match.group(0).split()[0]):
            continue
        value = reader.count_value(match.group("count"))
        if value is not None:
            slots.append(Slot("player_tokens", value, *match.span()))
            break
    if not any(slot.name == "player_tokens" for slot in slots) and has(text, "token"):
        match = pronoun.search(text)
        if match and _free(match.span(), found + slots):
            slots.append(Slot("player_tokens", reader.count_value(match.group("count")), *match.span()))
    if not any(slot.name in ("player_tokens", "vincent_tokens") for slot in slots):
        # "i'm out of tokens (0)", "je n'ai plus aucun jeton": the player holds none.
        mine = re.search(B + r"(?:i'm|i am|i have|i've got|i got|je n'ai|j'ai|je suis|moi j'ai)\s+(?:[\w']+\s+){0,2}?"
                         + alternation(words("no_tokens")) + r"(?:\s*\(\s*0\s*\))?", text)
        if mine and _free(mine.span(), found + slots):
            slots.append(Slot("player_tokens", 0, *mine.span()))
    if not any(slot.name == "player_tokens" for slot in slots) and going and _free(going.span(), found + slots) \
            and has(text, "token"):
        slots.append(Slot("player_tokens", int(going.group("count")), *going.span()))
    if not any(slot.name == "player_tokens" for slot in slots) and opening and _free(opening.span("count"), found + slots):
        slots.append(Slot("player_tokens", int(opening.group("count")), opening.start("count"), opening.end()))
    if not any(slot.name == "player_tokens" for slot in slots) and has(text, "token"):
        # "so with 2 I'd have 3": a bare count after "with", tokens being in question, followed by what it leads to.
        bare = re.search(B + r"(?:with|avec)\s+(?P<count>\d+)(?=\s*(?:$|[,.;:?!]|i'd\b|i\b|je\b|j'|i'll\b|that\b|ca\b))", text)
        # ("I end up with 2": what is held after the move, not before it.)
        if bare and _free(bare.span(), found + slots) and not ends.search(text[: bare.start()] + bare.group(0).split()[0]):
            slots.append(Slot("player_tokens", int(bare.group("count")), *bare.span()))
    return slots


# ------------------------------------------------------------------------------------------------ hand and paintings


def find_hand(text: str, found: list[Slot]) -> list[Slot]:
    """Cards in hand, cards used to paint, paintings already done, and named situations (out of turn, ...)."""
    reader = numbers()
    count = reader.fragment
    card_word = alternation(words("card"))
    # Whoever holds them: "in his hand", "dans sa main" count as "in my hand".
    in_hand = alternation(["in hand", "in my hand", "en main", "dans ma main", "in your hand", "dans la main", "in his hand",
                           "in her hand", "in their hand", "in their hands", "dans sa main", "dans leur main", "dans ta main"])
    # A player other than the asker holds them too ("my nephew has five cards", "ma fille a 5 cartes").
    holds = r"has|holds|is holding|has got|tient|possede|(?<!\by\s)(?:a|a deja)"
    slots: list[Slot] = []
    take_with = re.search(B + f"(?:with|avec|holding|having|i have|j'ai|if i have|si j'ai|already have|ai deja|{holds})\\s+(?:already\\s+)?"
                          f"(?P<n>{count})\\s+(?:art\\s+)?(?:{card_word}\\s+)?(?:already\\s+|deja\\s+)?{in_hand}", text)
    if take_with:
        slots.append(Slot("hand_size", reader.count_value(take_with.group("n")), *take_with.span()))
    if not take_with:
        # "5 cartes en main, je peux ...", "ok 4 cards in hand - ...": a hand size said on its own.
        bare = re.search(r"(?:^|[,.;:!?]|\s-)\s*(?:(?:ok|so|alors|bon|donc)[\s,]+)?" + f"(?P<n>{count})\\s+(?:art\\s+)?"
                         f"{card_word}\\s+{in_hand}" + E, text)
        if bare and _free(bare.span("n"), found) and reader.count_value(bare.group("n")) is not None:
            take_with = bare
            slots.append(Slot("hand_size", reader.count_value(bare.group("n")), bare.start("n"), bare.end()))
    full = pattern("hand_full").search(text)
    if not take_with and full:
        # "hand's full (5 cards)", "main pleine": the hand limit of the rules, or the count said right after it.
        stated = re.match(r"\s*[(,:-]?\s*(?P<n>\d+)\s*(?:" + card_word + r")?\s*\)?", text[full.end():])
        held = int(stated.group("n")) if stated else engine.ruleset("base").hand_limit
        take_with = full
        slots.append(Slot("hand_size", held, full.start(), full.end() + (stated.end() if stated else 0)))
    if not take_with:
        got = re.search(B + f"(?:^have|^got|youve got|you've got|you have|i've got|ive got|i got|i have|i hold|i'm holding|if i have|if you have|"
                        f"j'en ai|si j'en ai|si j'ai|j'ai|on a|quand on a|si on a|quand j'ai|{holds})\\s+(?:already\\s+|deja\\s+)?"
                        f"(?:que\\s+|qu'|only\\s+|just\\s+|seulement\\s+)?(?P<n>{count})\\s+(?:art\\s+|bonnes\\s+|good\\s+)?{card_word}"
                        + E, text)
        asks_to_hold = got and re.search(r"\b(?:can|could|may|allowed to|puis-je|peut-on|le droit d')\s*$",
                                         text[max(0, got.start() - 14): got.start()])
        if got and not asks_to_hold and _free(got.span(), found):
            take_with = got
            slots.append(Slot("hand_size", reader.count_value(got.group("n")), *got.span()))
    if not take_with and has(text, "card") and not has(text, "token"):
        # "... avec 4 cartes si j'en ai 4", "if I have 4": cards held, said with a pronoun.
        pronoun = re.search(B + f"(?:j'en ai|si j'en ai|if i have|i have)\\s+(?:que\\s+|qu'|only\\s+)?(?P<n>{count})"
                            + r"(?=\s*(?:$|[,.;:?!]|hein\b|en main\b|in hand\b))", text)
        if pronoun and _free(pronoun.span(), found):
            take_with = pronoun
            slots.append(Slot("hand_size", reader.count_value(pronoun.group("n")), *pronoun.span()))
    hold = re.search(B + f"(?:hold|have|keep|avoir|tenir|garder)\\s+(?P<n>{count})\\s+(?:art\\s+)?{card_word}", text)
    if hold and not take_with and _free(hold.span(), found + slots):
        # "Can I hold 6 cards?" asks whether the n-th card may join the hand: n - 1 held, then take one.
        slots.append(Slot("hand_size", max(reader.count_value(hold.group("n")) - 1, 0), *hold.span(), ))
        slots.append(Slot("hold_total", reader.count_value(hold.group("n")), *hold.span()))
    paint_with = re.search(B + f"(?:with|avec|using|of|de|en utilisant|from)\\s+(?:only\\s+|just\\s+|seulement\\s+|que\\s+|juste\\s+)?"
                           f"(?P<n>{count})\\s+(?:art\\s+)?{card_word}", text)
    put_all = re.search(B + f"(?:put|use|place|mettre|utiliser|poser)\\s+(?:all\\s+|les\\s+|tous\\s+les\\s+|toutes\\s+les\\s+)?"
                        f"(?P<n>{count})\\s+(?:(?:art\\s+)?{card_word}\\s+)?(?:in|into|dans|sur)\\b", text)
    if put_all:
        paint_with = put_all
    # "can I paint w all 4 layered?", "peindre avec les 4 ?": the count right after the paint verb names the cards.
    paint_all = re.search(B + r"(?:paint|peindre|peins|complete|terminer|faire\s+une\s+peinture)\s+(?:w/?|with|avec)\s+"
                          r"(?:all\s+|les\s+|tous\s+les\s+|toutes\s+les\s+|mes\s+|my\s+)?" + f"(?P<n>{count})" + E, text)
    if not paint_with and paint_all:
        paint_with = paint_all
    if paint_with and _free(paint_with.span(), found + slots) and re.search(
            r"\b(?:paint|painting|peindre|peinture|tableau|complete|terminer|finir)\b", text):
        slots.append(Slot("paint_cards", reader.count_value(paint_with.group("n")), *paint_with.span()))
    done = re.search(B + r"(?:after|once|apres|quand|une fois|with|avec|j'ai deja|i already have|i've done|i have done|"
                     r"finished|completed|done|j'ai fini|j'ai termine|fini|termine|i finished|i completed)\s+"
                     r"(?:(?:my|the|ma|la|mes|les|all|tous|toutes|completing|finishing|j'ai fini|j'ai termine|i have|i've)\s+)*"
                     f"(?P<n>{alternation(reader.ordinal_words)}|{count})\\s+(?:painting|paintings|peinture|peintures|tableau|tableaux)",
                     text)
    if not done:
        # "once you've done painting 3", "after your 3rd painting", "quand t'as fini ta peinture 3": the paintings done.
        done = re.search(B + r"(?:done|finished|completed|complete|fini|finis|termine|terminee|after|once|apres|quand|une fois)\s+"
                         r"(?:(?:your|you've|you have|ta|ton|votre|vos|their|leur|his|sa|son)\s+)*"
                         r"(?:(?:painting|peinture|tableau)\s+(?:number\s+|numero\s+|n[o°]\s*)?(?P<n>\d)|"
                         f"(?P<nth>{alternation(reader.ordinal_words)})\\s+(?:painting|peinture|tableau))" + E, text)
        if done and done.group("nth"):
            slots.append(Slot("paintings_done", reader.ordinal_words[done.group("nth").replace(" ", "")], *done.span()))
            done = None
    if done:
        token = done.group("n").replace(" ", "")
        value = reader.ordinal_words.get(token) or reader.count_value(done.group("n"))
        if value is not None:
            slots.append(Slot("paintings_done", value, *done.span()))
    for key in ("same_card_twice", "game_over", "out_of_turn"):
        match = pattern(key).search(text)
        if match:
            slots.append(Slot("situation", key, *match.span()))
    return slots


def find_components(text: str, _found: list[Slot]) -> list[Slot]:
    """What a count question or a stated count is about ("how many Art Cards are there?", "there are 15 background
    cards", "12 scoring cards total?", "on peut jouer jusqu'a combien ?"): a component of the game."""
    # "jusqu'a quelle carte Vincent peut aller avec 2 jetons ?" is about the row, not about how many may play.
    players_named = re.search(r"\b(?:players?|joueurs?|people|personnes|potes|friends|amis|of us|on est)\b", text)
    about_row = (has(text, "token") or has(text, "vincent")) and not players_named
    match = pattern("max_players").search(text)
    # A bare "jusqu'a" / "up to" counts players only when players are named or "how many" follows ("peuvent donner
    # jusqu'a 4 rubans" bounds ribbons).
    bare = match is not None and match.group(0) in ("jusqu'a", "up to", "for up to") and not players_named and not re.match(
        r"\s*(?:combien|how many)\b", text[match.end():])
    if match and not about_row and not bare:
        return [Slot("component", "max_players", *match.span())]
    reader = numbers()
    # "it's for 1 or 2 players, right?", "de 1 a 5 joueurs": a range of players stated (the game's or a variant's).
    span = re.search(B + f"(?P<low>{reader.fragment})\\s*(?:" + alternation(words("range_joiner")) + r")\s*"
                     + f"(?P<high>{reader.fragment})\\s+" + alternation(vocabulary()["components"]["max_players"]) + E, text)
    if span:
        return [Slot("component", "player_range", *span.span())]
    for component, phrases in vocabulary()["components"].items():
        # A stated count: "there are 12 achievements", "12 scoring cards total in the box", "il y a 20 fonds".
        # The first count of it that is said as a count ("4 jetons chacun ..., y a 12 jetons": the second).
        stated = next((found for found in re.finditer(
            # The lead is a counting phrase, or a phrase dealing the count to each player ("everyone starts with 5
            # tokens", "chaque joueur recoit 4 jetons").
            r"(?P<lead>(?:" + alternation(words("count_lead") + words("per_player")) + r")\s+)?" + B + f"(?P<n>{reader.fragment})\\s+"
            r"(?:(?:different|differentes|distinct)\s+)?" + alternation(phrases) + E, text)
            if found.group("lead") or re.match(r"\s*(?:" + alternation(words("count_scope")) + r")" + E, text[found.end():])),
            None)
        if stated:
            if stated.group("n").strip() in reader.article_one:
                continue  # "c'est un accomplissement", "unlocks an achievement": an article, not a stated count
            if component == "max_players" and (has(text[stated.end():], "count_question")
                                               or has(text[stated.end():], "box_leftover")):
                # "a 2 joueurs, il reste combien de jetons ?", "et a cinq joueurs, il en reste dans la boite ?": the
                # players set the scene, what is left is asked.
                continue
            if component == "max_players" and any(
                    re.search(B + alternation(others) + E, text) for other, others in vocabulary()["components"].items()
                    if other not in ("max_players", "ribbons_per_colour")):
                continue  # "how many tokens are left in a 3 player game", "a 3 joueurs y a 12 jetons": the players set the scene
            return [Slot("component", component, stated.end("n") + 1, stated.end())]
        # "max players is 5", "le nombre de scenarios c'est 9": the component, then its count.
        after = re.search(B + alternation(phrases) + r"\s+(?:is|are|=|c'est|est de|sont|est)\s+(?:only\s+|just\s+|que\s+)?"
                          + f"(?P<n>{reader.fragment})" + E, text)
        if after and has(text, "in_game"):
            return [Slot("component", component, after.start(), after.start("n") - 1)]
    # A follow-up naming only a component ("and scoring cards?", "ok et des cartes fond ?") asks the same count of it.
    opener = re.match(r"^\s*(?:" + alternation(words("interjections")) + r"[\s,.!]+)*(?:"
                      + alternation(words("ellipsis") + words("ellipsis_openers")) + r")" + E
                      + r"\s*(?:(?:the|les|des|de|d'|for|pour|about)\s*)*", text)
    if opener and not has(text, "count_question"):
        for component, phrases in vocabulary()["components"].items():
            named = re.match(alternation(phrases) + E + r"\s*[?!.]*\s*$", text[opener.end():])
            if named:
                return [Slot("component", component, opener.end(), opener.end() + named.end())]
    if not has(text, "count_question"):
        if has(text, "in_play") and has(text, "player_count"):
            # "a 5 joueurs tous les jetons partent ?": a component dealt out for a number of players.
            for component, phrases in vocabulary()["components"].items():
                named = re.search(B + alternation(phrases) + E, text)
                if named and component != "max_players":
                    return [Slot("component", component, *named.span())]
        return []
    # "like in dominion how many kingdom cards... how many background cards come in the box?": the count question
    # that names a component (the last one first), else the first one.
    questions = list(pattern("count_question").finditer(text))
    for question in reversed(questions):
        after = text[question.end():]
        best = None
        for component, phrases in vocabulary()["components"].items():
            match = re.match(r"\s*,?\s*(?:(?:y a-t-il|y a t il|il y a|est-ce qu'il y a|en tout|au total|are there|is there)\s+)?"
                             r"(?:(?:different|differentes|distinct|the|les|des|de|d'|of)\s*)*" + alternation(phrases) + E, after)
            if match and (best is None or len(match.group(0)) > len(best[1].group(0))):
                best = (component, match)
        if best is not None:
            break
    else:
        question = questions[0]
        after = text[question.end():]
    if best is None and has(text, "goal"):
        return []  # "succes argent : il en faut combien ?", "how many do I need?": what something requires, no count of it
    if best is None:
        # Named before the question, in the same sentence ("jetons inspiration il y en a combien", "ribbons - how
        # many of each colour?"): the last component phrase before it.
        before = re.split(r"[.?!]", text[: question.start()])[-1]
        for component, phrases in vocabulary()["components"].items():
            for match in re.finditer(B + alternation(phrases) + E, before):
                if component == "max_players" and _stated_players(before, match):
                    continue  # "et a trois joueurs, il en reste combien ?": the players set the scene, not the count asked
                if best is None or match.start() > best[1].start():
                    best = (component, match)
        # ("il en reste combien ?": the pronoun "en" before the count points back the same way.)
        if best is None and (re.match(r"\s*(?:are|is|will|would|do|does|of them|en|y|d'entre eux|il en|sont|reste|restent)\b", after)
                             or re.search(r"\b(?:en|y en)\s+(?:[\w']+\s+)?$", text[: question.start()])):
            # "... enough inspiration tokens for everybody. How many are left over?": the count asks with a pronoun
            # or a verb, no noun: it counts the component named last in the sentences before it.
            before = text[: question.start()]
            for component, phrases in vocabulary()["components"].items():
                for match in re.finditer(B + alternation(phrases) + E, before):
                    if component == "max_players" and _stated_players(before, match):
                        continue
                    if best is None or match.start() > best[1].start():
                        best = (component, match)
        if best is None:
            return []
        offset = question.start() - len(before)
        return [Slot("component", best[0], offset + best[1].start(), question.end())]
    component, match = best
    return [Slot("component", component, question.start(), question.end() + match.end())]


def _stated_players(text: str, match: re.Match) -> bool:
    """Whether a player word found in `text` follows a number ("a trois joueurs", "three-player"): a player count
    stated, which sets the scene of a count question about something else."""
    return re.search(B + f"(?:{numbers().fragment})[\\s-]*$", text[: match.start()]) is not None


FINDERS = (find_names, find_card_chain, find_ribbons, find_swatches, find_positions, find_tokens, find_hand,
           find_components)
