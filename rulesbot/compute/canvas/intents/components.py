"""Counts of components and options, from the engine's data: "how many Art Cards are there?", "combien de scénarios ?".

Every count and its page come from the engine's `component_counts(ruleset)`; a "per player" wording picks the
per-player entry of the same component when the engine has one (Background Cards, Inspiration Tokens).
"""

from __future__ import annotations

import re
from dataclasses import replace

from rulesbot.compute.canvas.intents.common import claimed_number, own_cue, spans
from rulesbot.compute.canvas.phrasing import qty, say, word
from rulesbot.compute.canvas.words import numbers, pattern, vocabulary, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E, alternation
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """How many of a component (or players, levels, scenarios) the game has. The variant the question names is
    explained only when it changes the count ("en solo puzzle la reserve a combien de jetons ?"); a count the variant
    leaves as in the base game ("Vincent starts with how many tokens?" is not the box's 20) answers another question."""
    computation = _compute(parsed)
    named = [slot for slot in parsed.all("variant") if not slot.inherited]
    if computation is None or not named:
        return computation
    base = _compute(replace(parsed, slots=tuple(slot for slot in parsed.slots if slot not in named)))
    if base is None or base.value != computation.value or _without_ruleset(base.engine) != _without_ruleset(computation.engine):
        computation.explained.extend((slot.start, slot.end) for slot in named)
    return computation


def _without_ruleset(engine_object: dict) -> dict:
    return {key: value for key, value in engine_object.items() if key != "ruleset"}


def _compute(parsed: Parsed) -> Computation | None:
    lang = parsed.lang
    slot = parsed.first("component")
    if slot is None or parsed.has("art_card", "card_chain", "position", "ribbon_group", "player_tokens", "hand_size"):
        return None
    if _counts_another_thing(parsed, slot):
        return None  # "the 'max ribbons' achievement: how many ribbons is that?" counts ribbons, not achievements
    if parsed.cue("take") and not _share(parsed):
        return None  # "how many tokens to take the 3rd card?" is a take; "each takes 4 tokens, how many are left?" a share
    if parsed.has("position") and slot.value == "inspiration_tokens":
        return None  # "how many tokens are on the first card?": the tokens on a row card (a take), not the box count
    if parsed.has("scoring_card") and slot.value != "scoring_cards":
        return None
    if parsed.has("scenario") and slot.value == "scoring_cards":
        return None  # "combien de cartes de score pour ce scénario ?": the scenario's own cards (the scenario intent)
    variant = parsed.value("variant")
    counts = engine.component_counts(variant.name if variant is not None else "base")
    slug = slot.value
    if slug == "player_range":
        return None  # a range of players stated: the player_range intent (compute_range)
    if parsed.cue("per_player") and f"{slug}_per_player" in counts:
        slug = f"{slug}_per_player"
    entry = counts.get(slug)
    if entry is None:
        return None
    if slug == "ribbons_per_colour" and not parsed.cue("ribbon"):
        return None  # "how many of each colour?" counts ribbons only when ribbons are named
    name = entry.name_fr if lang == "fr" else entry.name_en
    if slug == "art_cards" and parsed.cue("bonus_icon"):
        return _bonus_cards(parsed, entry, lang)
    on_table = _table_at_start(parsed, counts, slug, variant, lang)
    if on_table is not None:
        return on_table
    leftover = _shortage(parsed, counts, slug, lang) or _in_play(parsed, counts, slug, lang) or _leftover(parsed, counts, slug, lang)
    if leftover is not None:
        return leftover
    if variant is not None and parsed.cue("supply") and slug.removesuffix("_per_player") == "inspiration_tokens" \
            and "token_supply" in counts:
        # "how many tokens go into the supply at the start of a Solo Puzzle?": the variant's supply, not a player's.
        slug, entry = "token_supply", counts["token_supply"]
        name = entry.name_fr if lang == "fr" else entry.name_en
    companion = (_box_and_play(parsed, counts, slug, lang) or _each_and_all(parsed, counts, slug, lang)
                 or _each_kind_and_total(parsed, counts, slug, lang))
    if companion is not None:
        return companion
    if own_cue(parsed, "placed_or_spent") and not parsed.cue("box_scope"):
        # "combien de cartes on met au milieu ?", "he spends how many at most?": a count placed, laid out or spent
        # asks how many are in play (a component the engine counts in play was answered above), not how many the
        # box holds nor what a player starts with: a rules question.
        return None
    sentences = [say("component_count", lang, count=entry.count, component=name)]
    number = claimed_number(parsed, spans(parsed, "component")) or claimed_number(parsed)
    if number is None and parsed.claim:
        # "the box came with 25 inspiration tokens": the count stated right before the component's name.
        number = next((item for item in parsed.all("number") if 0 <= slot.start - item.end <= 2), None)
    return Computation(intent="components", sentences=sentences, value=entry.count, value_text=str(entry.count),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_count", "component": slug, "count": entry.count,
                               "page": entry.page, "ruleset": variant.name if variant is not None else "base"},
                       concepts=_variant_rules(variant, slug) + [(f"component/{slot.value}", {"page": entry.page})]
                       + ([("take_variant", {"variant": variant.name})] if slug == "token_supply" else [])
                       # The player range is also what the components list is counted for (its tokens "at 5 players").
                       + ([("component_list", {})] if slug in ("max_players", "min_players") and variant is None else []))


def compute_cards_needed(parsed: Parsed) -> Computation | None:
    """"chaque joueur prend au minimum combien de cartes Art au total ?", "at least how many Art Cards does each player
    take over a game?": the paintings each player completes times the Art Cards of a painting (the engine's
    `component_counts` of the variant named), every one of them taken from the row."""
    lang = parsed.lang
    slot = parsed.first("component")
    if slot is None or slot.inherited or slot.value != "art_cards" or parsed.has(
            "art_card", "card_chain", "position", "hand_size", "paint_cards", "paintings_done", "player_tokens"):
        return None
    variant = parsed.value("variant")
    counts = engine.component_counts(variant.name if variant is not None else "base")
    paintings, per_painting = counts["paintings_per_player"], counts["cards_per_painting"]
    total = paintings.count * per_painting.count
    sentences = [say("cards_needed", lang, total=total, paintings=paintings.count, per_painting=per_painting.count)]
    number = claimed_number(parsed, spans(parsed, "component"))
    return Computation(intent="cards_needed", sentences=sentences, value=total, value_text=str(total),
                       claimed=None if number is None else number.value,
                       trace=[f"{paintings.count} × {per_painting.count} = {total}"],
                       engine={"intent": "cards_needed", "paintings": paintings.count,
                               "cards_per_painting": per_painting.count, "count": total,
                               "ruleset": variant.name if variant is not None else "base"},
                       concepts=[("legal_paint", {}), ("component/paintings_per_player", {"page": paintings.page}),
                                 ("component/cards_per_painting", {"page": per_painting.page})]
                       + _variant_rules(variant, "paintings_per_player"))


def compute_range(parsed: Parsed) -> Computation | None:
    """A range of players stated or asked about (the `player_range` component slot)."""
    slot = parsed.first("component")
    if slot is None or slot.value != "player_range" or slot.inherited:
        return None
    variant = parsed.value("variant")
    counts = engine.component_counts(variant.name if variant is not None else "base")
    return _player_range(parsed, counts, variant, slot, parsed.lang)


def _player_range(parsed: Parsed, counts, variant, slot, lang: str) -> Computation | None:
    """"Painting with Vincent is for 1 or 2 players, right?": the fewest and most players of the game (or the variant
    named), from the engine's counts; a claim states its own range (the two numbers inside the range's span)."""
    others = [phrase for name, phrases in vocabulary()["components"].items() if name != "max_players" for phrase in phrases]
    if re.search(B + alternation(others) + E, parsed.folded) or any(parsed.has(name) for name in ("player_tokens", "hand_size")):
        return None  # "we're 3 or 4 players, how many tokens?": the players set the scene for another count
    low, high = counts["min_players"], counts["max_players"]
    stated = [number.value for number in parsed.all("number") if slot.start <= number.start and number.end <= slot.end]
    claimed = f"{min(stated)}-{max(stated)}" if parsed.claim and len(stated) == 2 else None
    shown = f"{low.count}-{high.count}" if low.count != high.count else str(low.count)
    name = (variant.name_fr if lang == "fr" else variant.name_en) if variant is not None else "Canvas"
    return Computation(intent="components", sentences=[say("player_range" if low.count != high.count else "player_single", lang, variant=name, low=low.count,
                                                           high=high.count)],
                       value=shown, value_text=shown, claimed=claimed,
                       explained=[(slot.start, slot.end)],
                       engine={"intent": "component_count", "component": "player_range", "min_players": low.count,
                               "max_players": high.count, "page": high.page,
                               "ruleset": variant.name if variant is not None else "base"},
                       concepts=_variant_rules(variant, "max_players") + [("component/max_players", {"page": high.page})]
                       + ([("component_list", {})] if variant is None else []))


def _box_and_play(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """"how many Scoring Cards in the box, and how many do we play with?": the box count and the count in play
    (the engine's `<component>_in_play`), both when both are asked, the one in play when only it is."""
    in_play = counts.get(f"{slug}_in_play")
    if in_play is None or not parsed.cue("in_play", "placed_or_spent"):
        return None
    box = counts[slug]
    both = len(list(pattern("count_question").finditer(parsed.folded))) >= 2 or parsed.cue("count_scope")
    name = box.name_fr if lang == "fr" else box.name_en
    where = in_play.name_fr if lang == "fr" else in_play.name_en
    key = "component_box_and_play" if both else "component_count"
    sentence = say(key, lang, component=name, count=box.count if both else in_play.count, in_play=in_play.count,
                   in_play_name=where) if both else say(key, lang, component=where, count=in_play.count)
    number = claimed_number(parsed, spans(parsed, "component")) if parsed.claim and not both else None
    return Computation(intent="components", sentences=[sentence], value=in_play.count, value_text=str(in_play.count),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_count", "component": in_play.slug, "count": in_play.count,
                               "box": box.count if both else None, "page": in_play.page, "ruleset": "base"},
                       concepts=[(f"component/{slug}", {"page": in_play.page})])


def _each_kind_and_total(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """"how many ribbons of each colour? and how many in total?": the count of each kind and the kinds' count times it
    (the engine's `<kind>_per_<unit>` count and its `<unit>` kinds, e.g. ribbons per colour and ribbon colours), when
    a total is asked besides."""
    entry = counts.get(slug)
    if entry is None or "_per_" not in slug or entry.per == "player":
        return None
    kinds = counts.get(f"{slug.split('_per_')[0][:-1]}_{entry.per}s")  # ribbons_per_colour -> ribbon_colours
    if kinds is None or not parsed.cue("count_scope") or len(list(pattern("count_question").finditer(parsed.folded))) < 2:
        return None
    total = entry.count * kinds.count
    sentence = say("component_each_and_total", lang, component=entry.name_fr if lang == "fr" else entry.name_en,
                   each=entry.count, colours_name=kinds.name_fr if lang == "fr" else kinds.name_en, colours=kinds.count,
                   total=total)
    return Computation(intent="components", sentences=[sentence], trace=[f"{kinds.count} × {entry.count} = {total}"],
                       value=total, value_text=str(total),
                       engine={"intent": "component_count", "component": slug, "count": entry.count,
                               "kinds": kinds.count, "total": total, "page": entry.page, "ruleset": "base"},
                       concepts=[(f"component/{slug}", {"page": entry.page})])


def _each_and_all(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """"how many tokens each at the start? and there are 3 of us": the per-player count and what the players hold
    together (players x the per-player count, against the box), both from the engine."""
    if not slug.endswith("_per_player"):
        return None
    shares = _shares(parsed, counts, slug, "per_player")
    if shares is None:
        return None
    per_player, total, players = shares
    used, left, sentence = _dealt(per_player, total, players, lang)
    # "4 each, so at 3 players that's 12 in play?": the count stated besides the players' and the share.
    number = next((item for item in parsed.free_numbers() if item.start != players.start
                   and item.value != per_player.count), None) if parsed.claim else None
    return Computation(intent="components", sentences=[sentence],
                       trace=[f"{players.value} × {per_player.count} = {used}; {total.count} - {used} = {left}"],
                       value=used, value_text=str(used), claimed=None if number is None else number.value,
                       engine={"intent": "component_in_play", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "in_play": used, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _variant_rules(variant, slug: str) -> list[tuple[str, dict]]:
    """A variant's own rules, cited first for its player range ("Vincent, c'est pour combien de joueurs ?" is p. 5)."""
    if variant is None or slug not in ("max_players", "min_players"):
        return []
    return [("vincent_turn", {})] if variant.vincent else [("take_variant", {"variant": variant.name})]


def _players(parsed: Parsed):
    """The number of players a question states ("5 of us", "à 4 joueurs", "on est 3"), or None."""
    text = parsed.folded
    for number in parsed.all("number"):
        after = text[number.end: number.end + 16]
        before = text[max(0, number.start - 12): number.start]
        # ("three-player setup": the count and the player word joined by a hyphen.)
        if re.match(r"[\s-]*(?:" + alternation(words("player_count")) + r")" + E, after) or re.search(
                r"\b(?:on est|we are|we're|nous sommes|a)\s*$", before) and not re.match(r"\s*(?:[a-z]+\s+)?each\b", after):
            return number
    return None


def _counts_another_thing(parsed: Parsed, slot) -> bool:
    """Whether the count asked names a thing other than the component ("succes ... : ca fait combien de rubans ?",
    "achievement X, how many points is that?"): ribbons, points, tokens or cards after "how many" that the
    component's own span does not cover."""
    things = alternation(words("ribbon") + words("points") + words("token") + words("card"))
    for question in pattern("count_question").finditer(parsed.folded):
        noun = re.match(r"\s*(?:(?:de|d'|of|the|les|des)\s*)*(?P<noun>" + things + r")" + E, parsed.folded[question.end():])
        # (An inherited slot's span is in the previous question: any thing the follow-up counts is another.)
        if noun is not None and (slot.inherited or not slot.start <= question.end() + noun.start("noun") < slot.end):
            return True
    return False


def compute_shortage(parsed: Parsed) -> Computation | None:
    """"4 players with 4 tokens each is more than the box has, right?": the players' tokens against the box, read
    without a component named as a count (see _shortage)."""
    if any(parsed.has(name) for name in ("card_chain", "position", "ribbon_group", "variant")) or not parsed.cue("token"):
        return None  # a painting, a row card or a variant's own setup is another question
    return _shortage(parsed, engine.component_counts("base"), "inspiration_tokens", parsed.lang)


def _table_at_start(parsed: Parsed, counts, slug: str, variant, lang: str) -> Computation | None:
    """"en solo puzzle, combien de jetons au total sur la table (moi + la reserve) ?": in a variant with a supply, the
    players' tokens plus the supply's, both from the engine's counts for that variant."""
    if variant is None or "token_supply" not in counts or slug.removesuffix("_per_player") != "inspiration_tokens":
        return None
    if not parsed.cue("supply") or not (parsed.cue("count_scope") or "+" in parsed.folded):
        return None
    players = counts["max_players"].count if counts["max_players"].count == counts["min_players"].count else None
    if players is None:
        return None  # how many play decides the players' share: not one count
    each = counts["inspiration_tokens_per_player"].count
    supply = counts["token_supply"].count
    total = players * each + supply
    name = variant.name_fr if lang == "fr" else variant.name_en
    sentence = say("component_table_start", lang, variant=name, total=qty(total, "token", lang), each=qty(each, "token", lang),
                   supply=qty(supply, "token", lang))
    return Computation(intent="components", sentences=[sentence], trace=[f"{players} × {each} + {supply} = {total}"],
                       value=total, value_text=qty(total, "token", lang),
                       claimed=None if not parsed.claim or claimed_number(parsed) is None else claimed_number(parsed).value,
                       engine={"intent": "component_table_start", "ruleset": variant.name, "players": players,
                               "per_player": each, "supply": supply, "total": total},
                       concepts=[("take_variant", {"variant": variant.name}), ("component/inspiration_tokens", {"page": 2})])


def _share(parsed: Parsed) -> bool:
    """Whether a take verb states the setup's share ("chacun prend 4 jetons", "everyone grabs four", "takes 4 each");
    a share asked ("et chacun en prend combien ?") is another question than the box count."""
    each = alternation(words("each_word") + words("who_among"))
    take = alternation(words("take"))
    count = numbers().fragment
    return re.search(B + each + r"\s+(?:[\w']+\s+){0,5}?" + take + r"\s+(?:[\w']+\s+){0,2}?" + count + E, parsed.folded) is not None \
        or re.search(B + take + r"\s+(?:[\w']+\s+){0,3}?" + count + r"\s+(?:[\w']+\s+){0,3}?" + each + E, parsed.folded) is not None


def _shares(parsed: Parsed, counts, slug: str, cue: str):
    """A component's per-player and box counts and the player count said (all from the engine and the question),
    when `cue` is in the question and the player count is a playable one; None otherwise."""
    per_player = counts.get(f"{slug.removesuffix('_per_player')}_per_player")
    total = counts.get(slug.removesuffix("_per_player"))
    players = _players(parsed)
    if per_player is None or total is None or players is None or not parsed.cue(cue):
        return None
    if not 1 <= players.value <= counts["max_players"].count:
        return None
    return per_player, total, players


def _dealt(per_player, total, players, lang: str):
    """The count dealt out to the players, what stays in the box, and the sentence saying both."""
    used = players.value * per_player.count
    left = total.count - used
    name = total.name_fr if lang == "fr" else total.name_en
    sentence = say("component_in_play", lang, used=used, component=name, total=total.count, players=players.value,
                   each=per_player.count, left=left)
    return used, left, sentence


def _shortage(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """A claim that the players' shares exceed the box ("at 5 players, 4 each is more than the 20 in the box, so we
    need substitutes"): players x the per-player count against the box count, both from the engine."""
    shares = _shares(parsed, counts, slug, "shortage")
    if shares is None:
        return None
    if not parsed.claim and parsed.cue("count_question"):
        return None  # "... we'll run short. How many will be left?" asks the count left (_leftover)
    per_player, total, players = shares
    used, left, sentence = _dealt(per_player, total, players, lang)
    trace = [f"{players.value} × {per_player.count} = {used}; {used} > {total.count}? {say('yes' if used > total.count else 'no', lang)}"]
    # Every number stated is part of the comparison (the players, the share, the box count).
    explained = [(slot.start, slot.end) for slot in parsed.free_numbers()]
    # "y en a pas assez": the negation is the shortage's own word; only one outside it denies the shortage.
    rest = pattern("shortage").sub(" ", parsed.folded)
    denies = parsed.negated and pattern("negation").search(rest) is not None
    return Computation(intent="components", sentences=[sentence], trace=trace, value=used > total.count,
                       value_text=say("yes" if used > total.count else "no", lang),
                       claimed=(not denies) if parsed.claim else None, explained=explained,
                       engine={"intent": "component_shortage", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "in_play": used, "left": left,
                               "short": used > total.count},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _leftover(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """What goes back in the box once every player took their share: the box count minus players x the per-player
    count (both from the engine), for "5 of us, 3 backgrounds each: how many go back in the box?"."""
    shares = _shares(parsed, counts, slug, "box_leftover")
    if shares is None:
        return None
    per_player, total, players = shares
    left = total.count - players.value * per_player.count
    name = total.name_fr if lang == "fr" else total.name_en
    sentence = say("component_leftover", lang, left=left, component=name, total=total.count, players=players.value,
                   each=per_player.count)
    trace = [f"{total.count} - {players.value} × {per_player.count} = {left}"]
    # "Julie says at 5 players exactly 5 backgrounds stay in the box": the count stated besides the players'.
    # (A share said per player, "3 each", describes the setup.)
    number = next((item for item in reversed(parsed.free_numbers()) if item.start != players.start
                   and not re.match(r"\s*(?:[\w'-]+\s+){0,3}?" + alternation(words("each_word")) + E,
                                    parsed.folded[item.end:item.end + 40])), None) if parsed.claim else None
    return Computation(intent="components", sentences=[sentence], trace=trace, value=left, value_text=str(left),
                       claimed=None if number is None else number.value,
                       engine={"intent": "component_leftover", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _in_play(parsed: Parsed, counts, slug: str, lang: str) -> Computation | None:
    """How many are dealt out for a player count ("a 3 joueurs y a 12 jetons en jeu", "with 5 players every token is
    used"): players x the per-player count, against the box (both from the engine); a claim that all of them are
    used is checked against the box count."""
    shares = _shares(parsed, counts, slug, "in_play")
    if shares is None:
        return None
    per_player, total, players = shares
    used, left, sentence = _dealt(per_player, total, players, lang)
    trace = [f"{players.value} × {per_player.count} = {used}; {total.count} - {used} = {left}"]
    number = next((item for item in parsed.free_numbers() if item is not players and item.value != per_player.count
                   and not (item.start == players.start)), None) if parsed.claim else None
    if number is not None:
        value, claimed, value_text = used, number.value, str(used)
    elif parsed.claim and parsed.cue("all_of_them"):
        value, claimed, value_text = used >= total.count, not parsed.negated, None  # "all the tokens are used"
    else:
        value, claimed, value_text = used, None, str(used)
    return Computation(intent="components", sentences=[sentence], trace=trace, value=value, value_text=value_text,
                       claimed=claimed,
                       engine={"intent": "component_in_play", "component": total.slug, "count": total.count,
                               "players": players.value, "per_player": per_player.count, "in_play": used, "left": left},
                       concepts=[(f"component/{total.slug}", {"page": total.page})])


def _bonus_cards(parsed: Parsed, entry, lang: str) -> Computation:
    """How many Art Cards carry a Silver Bonus Icon, counted on the engine's card data (and how many of each kind)."""
    from rulesbot.compute.canvas import helpers
    from rulesbot.engine.canvas.data import BONUS_ELEMENT

    per_card = [[icon for stripe in art_card.stripes for icon in stripe if icon in BONUS_ELEMENT] for art_card in engine.ART_CARDS]
    holders = [icons for icons in per_card if icons]
    kinds = {icon: sum(icons.count(icon) for icons in per_card) for icon in BONUS_ELEMENT}
    per_word = word("per", lang)
    kinds_text = ", ".join(f"{count} {helpers.icon_name(icon, lang, per_word)}" for icon, count in kinds.items())
    name = entry.name_fr if lang == "fr" else entry.name_en
    sentences = [say("component_bonus_cards", lang, count=len(holders), total=entry.count, component=name, kinds=kinds_text)]
    number = claimed_number(parsed, spans(parsed, "component"))
    return Computation(intent="components", sentences=sentences, value=len(holders), value_text=str(len(holders)),
                       claimed=None if number is None else number.value,
                       trace=[f"{len(holders)} / {entry.count}; " + ", ".join(f"{icon} {count}" for icon, count in kinds.items())],
                       engine={"intent": "bonus_cards", "count": len(holders), "art_cards": entry.count, "kinds": kinds,
                               "most_on_one_card": max(len(icons) for icons in per_card)},
                       concepts=[(f"component/{entry.slug}", {"page": entry.page}), ("bonus_icons", {})])
