"""Chance with Vincent: "what are the odds Vincent takes the third card?", "how many tokens does he have after?",
"which card does he most likely take?", "how far can he go with 2 tokens?".

Exact answers from the engine: `vincent_take_odds` (every row position's probability) and `vincent_turn` applied to
a state built from the question (his tokens, the tokens on the row's cards, the face-up count).
"""

from __future__ import annotations

import re
from fractions import Fraction

from rulesbot.compute.canvas.intents.common import vincent_in_question
from rulesbot.compute.canvas.intents.take import stated_after
from rulesbot.compute.canvas.phrasing import qty, say
from rulesbot.compute.canvas.words import alternation, either, listed, numbers, pattern, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed

_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*" + either("percent_word"))
# "avec 3", "if he has only 2" just before a follow-up's bare count: his new token count.
_RESTATED_BEFORE = re.compile(r"\b" + either("with_count") + r"\s+(?:" + either("only_word") + r"\s+)?$")
_RATIO_OF = either("ratio_of")  # "1 in 4", "une chance sur deux"


def _restated_tokens(parsed: Parsed):
    """"et avec 3 ?", "and with only 2?" after a question about Vincent's tokens: the follow-up's bare count is his new
    token count (its slot), or None."""
    slot = parsed.first("vincent_tokens")
    if parsed.inherited_from is None or (slot is not None and not slot.inherited):
        return None
    free = parsed.free_numbers()
    if len(free) != 1:
        return None
    before = parsed.folded[max(0, free[0].start - 24): free[0].start]
    if _RESTATED_BEFORE.search(before):
        return free[0]
    return None


# "he has 4.", "Vincent has 3", "il en a 2", "vincent il a 4": his count said with no token word after it (the token
# word is in the message elsewhere, or implied).
_HELD_BARE = re.compile(r"\b(?:vincent|he|il)(?:\s+il)?(?:'s|\s+" + either("held_verbs") + r")\s+(?:" + either("still_only")
                        + r"\s+)?(?:got\s+)?(?P<count>\d+|" + numbers().core + r")(?:\s+" + either("now_left") + r")?(?=\s*(?:$|[,.;:?!]|\b(?:and|et|donc|so)\b))")


def _held_bare(parsed: Parsed):
    """The number of a bare "he has 4" (Vincent's tokens, no token word after it), or None."""
    match = _HELD_BARE.search(parsed.folded)
    if match is None:
        return None
    found = [slot for slot in parsed.free_numbers() if slot.start == match.start("count")]
    return found[0] if found else None


def _cap_restated(parsed: Parsed, rules) -> list[tuple[int, int]]:
    """Spans of numbers that restate the rule's cap on the tokens Vincent spends ("he can still only spend 4", "il
    n'en depense que 4 au plus"): the rule the asker recalls, equal to the engine's cap, is no state of the game."""
    cap_words = either("spend_cap")
    found = []
    for slot in parsed.free_numbers():
        if slot.value != rules.vincent_max_face_up:
            continue
        before = parsed.folded[max(0, slot.start - 40): slot.start]
        after = parsed.folded[slot.end: slot.end + 14]
        spend = re.search(B + either("spend_verb") + r"\w*\s+(?:[\w']+\s+){0,2}?$", before)
        capped = re.search(B + cap_words + E, before) or re.match(r"\s*" + either("cap_after") + E, after)
        if spend and (capped or re.search(B + either("cap_before") + r"\s+$", before)):
            found.append((slot.start, slot.end))
    return found


def _vincent_tokens(parsed: Parsed, rules) -> int:
    restated = _restated_tokens(parsed)
    if restated is not None:
        return restated.value
    held = parsed.first("vincent_tokens")
    bare = _held_bare(parsed)
    if held is not None and not _face_up_span_covers(parsed, held) and not (held.inherited and bare is not None):
        # (A follow-up's own "s'il lui en reste que deux" replaces the previous question's count.)
        return held.value
    if bare is not None:
        return bare.value
    if parsed.has("player_tokens"):
        return parsed.value("player_tokens")  # "with 5 tokens, what's the chance Vincent ..." are his tokens
    return rules.vincent_tokens


def stated_probability(parsed: Parsed) -> tuple[Fraction | None, list[tuple[int, int]]]:
    """A probability the question states ("1 in 4", "une chance sur deux", "3/8", "25%", "always", "never") and its span."""
    text = parsed.folded
    reader = numbers()
    # A ratio in words ("1 chance sur 4") is the figure stated, even beside an idiom of the toss ("style pile ou face").
    ratio = re.search(B + f"({reader.fragment_articles})\\s+{_RATIO_OF}\\s+({reader.fragment})", text)
    if ratio:
        top, bottom = reader.count_value(ratio.group(1)), reader.count_value(ratio.group(2))
        if top is not None and bottom:
            return Fraction(top, bottom), [ratio.span()]
    # "fifty fifty", "50/50", "une fois sur deux": even odds (before "50/50" reads as the fraction 1).
    even = re.search(B + alternation(words("even_odds")) + r"(?![\w/])", text)
    if even:
        return Fraction(1, 2), [even.span()]
    slash = re.search(r"\b(\d+)\s*/\s*(\d+)\b", text)
    if slash and int(slash.group(2)):
        return Fraction(int(slash.group(1)), int(slash.group(2))), [slash.span()]
    percent = _PERCENT.search(text)
    if percent:
        return Fraction(percent.group(1).replace(",", ".")) / 100, [percent.span()]
    # "he can never take the 5th": a certainty, said in the sentence that names the card (not "he never spends more
    # than 4. odds he takes the last card?", where "never" is about the tokens).
    said = _sentence_of(parsed, parsed.first("position"))
    if pattern("never").search(said):
        return Fraction(0), []
    if pattern("always").search(said):
        return Fraction(1), []
    return None, []


def _sentence_of(parsed: Parsed, slot) -> str:
    """The sentence of the question holding `slot` (the whole question without one)."""
    if slot is None or slot.inherited:
        return parsed.folded
    for match in re.finditer(r"[^.?!;]+[.?!;]*", parsed.folded):
        if match.start() <= slot.start < match.end():
            return match.group(0)
    return parsed.folded


def compute(parsed: Parsed) -> Computation | None:
    """The exact probability that Vincent's toss makes him select one row position."""
    lang = parsed.lang
    if not vincent_in_question(parsed):
        return None
    position = parsed.value("position")
    if parsed.inherited_from and parsed.has("ordinal") and (position is None or parsed.first("position").inherited):
        position = parsed.value("ordinal")  # "et la deuxieme ?" after a question about another card
    if position is None:
        return None
    if parsed.cue("most_likely", "farthest_reach", "vincent_which"):
        return None  # "his most likely pick is the 2nd card", "he can't go further than the 3rd": compute_pick
    # A sentence without a question that writes a probability ("..., so the second card is 1 in 2") states it.
    states = not parsed.claim and "?" not in parsed.text
    stated, stated_spans = stated_probability(parsed) if parsed.claim or states else (None, [])
    if states and not stated_spans:
        stated = None  # ("never" / "always" alone, outside a claim, state no probability)
    # "he can never / always takes ...": a claim that the probability is 0 / 1 (the negation is the claim itself).
    certainty = stated if stated in (0, 1) and not stated_spans else None
    # A probability written as one ("1/4", "25 %", "fifty fifty") says odds are in question without an odds word.
    written = stated is not None and bool(stated_spans)
    if not (parsed.cue("odds") or (parsed.explicit_claim and stated is not None) or ((parsed.claim or states) and written)):
        return None
    if parsed.explicit_claim and stated is None:
        return None  # "his best chance is the 2nd card, right?" states no probability: nothing to check it against
    rules = engine.ruleset("vincent")
    tokens = _vincent_tokens(parsed, rules)
    if tokens > engine.component_counts()["inspiration_tokens"].count:
        return None  # more tokens than the box holds: not a game state (and the toss is enumerated token by token)
    odds = dict(engine.vincent_take_odds(vincent_tokens=tokens))
    if position not in odds:
        return None
    probability = odds[position]
    percent = f"{float(probability) * 100:.2f}".rstrip("0").rstrip(".")
    table = "; ".join(f"{where}: {chance}" for where, chance in sorted(odds.items()))
    sentences = [say("vincent_odds", lang, position=position, tokens=tokens, fraction=str(probability), percent=percent)]
    value = (probability == certainty) if certainty is not None else probability
    return Computation(intent="odds", sentences=sentences, trace=[say("vincent_trace", lang, outcomes=table)],
                       value=value, value_text=None if certainty is not None else f"{probability} ({percent}%)",
                       claimed=True if certainty is not None else stated, states=states and stated is not None,
                       engine={"intent": "vincent_odds", "position": position, "tokens": tokens,
                               "probability": str(probability), "odds": {str(k): str(v) for k, v in odds.items()}},
                       concepts=[("vincent_turn", {})],
                       # (Vincent never scores: a Scoring Card's name there is chat, "coin-flip style".)
                       explained=stated_spans + _ordinal_used(parsed, position) + _unit(parsed)
                       + [(slot.start, slot.end) for slot in parsed.all("scoring_card")])


def _unit(parsed: Parsed) -> list[tuple[int, int]]:
    """The span of "tokens" read as a component ("how many tokens ..."): the unit of what is asked, explained; so are
    the counts the Vincent intents read themselves (a follow-up's new count, a bare "he has 4", the cap restated)."""
    restated = _restated_tokens(parsed)  # a follow-up's new count of Vincent's tokens is read too
    own_held = [slot for slot in parsed.all("vincent_tokens") if not slot.inherited]
    bare = _held_bare(parsed) if not own_held else None
    return [(slot.start, slot.end) for slot in parsed.all("component")
            if not slot.inherited and slot.value == "inspiration_tokens"] + (
        [(restated.start, restated.end)] if restated is not None else []) + (
        [(bare.start, bare.end)] if bare is not None else []) + _cap_restated(parsed, engine.ruleset("vincent"))


def _ordinal_used(parsed: Parsed, position: int) -> list[tuple[int, int]]:
    """The span of a bare ordinal the computation read as the position ("et la deuxieme ?")."""
    slot = parsed.first("ordinal")
    return [(slot.start, slot.end)] if slot is not None and not slot.inherited and slot.value == position else []


def _odds_for(parsed: Parsed):
    rules = engine.ruleset("vincent")
    tokens = _vincent_tokens(parsed, rules)
    if tokens > engine.component_counts()["inspiration_tokens"].count:
        return None, tokens
    return dict(engine.vincent_take_odds(vincent_tokens=tokens)), tokens


_SPEND = re.compile(r"\b" + either("spend_verbs") + r"\s+"
                    r"(?:all\s+(?:of\s+)?(?:his\s+|the\s+)?|tous\s+(?:ses\s+|les\s+)?|ses\s+|his\s+|the\s+|les\s+)?(?P<count>\d+)\b")


# "in one go", "en un seul coup"... "en un tour": the turn a spend claim is about.
_IN_ONE_GO = re.compile(r"\b" + either("once_prep") + r"\s*" + either("one_word") + r"\s+" + either("go_word") + r"\b")


def _spend(parsed: Parsed) -> Computation | None:
    """"he can spend all 6 and skip the whole row": the most Vincent can spend in one turn, from the toss's odds (the
    farthest card he can select) and the cost of each card skipped."""
    lang = parsed.lang
    match = _SPEND.search(parsed.folded)
    if match is None:
        return None
    odds, tokens = _odds_for(parsed)
    if odds is None:
        return None
    rules = engine.ruleset("vincent")
    farthest = max(where for where, chance in odds.items() if chance > 0)
    most = (farthest - 1) * rules.skip_cost_per_card
    stated = int(match.group("count"))
    sentences = [say("vincent_spend", lang, tokens=tokens, most=qty(most, "token", lang), position=farthest,
                     cap=rules.vincent_max_face_up)]
    table = "; ".join(f"{where}: {chance}" for where, chance in sorted(odds.items()))
    return Computation(intent="vincent_pick", sentences=sentences, trace=[say("vincent_trace", lang, outcomes=table)],
                       value=stated <= most, claimed=(not parsed.negated) if parsed.claim else None,
                       engine={"intent": "vincent_spend", "tokens": tokens, "most_spent": most, "farthest": farthest},
                       concepts=[("vincent_turn", {})], explained=[match.span()] + _unit(parsed) + [
                           once.span() for once in _IN_ONE_GO.finditer(parsed.folded)])


def compute_pick(parsed: Parsed) -> Computation | None:
    """Which card Vincent takes: his most likely pick (or his only one) and the farthest card he can reach."""
    lang = parsed.lang
    if not vincent_in_question(parsed):
        return None
    if _SPEND.search(parsed.folded) and not parsed.cue("odds"):
        return _spend(parsed)
    if not parsed.cue("most_likely", "farthest_reach", "vincent_which"):
        return _reach(parsed)
    if _turn_face_up(parsed) is not None and not parsed.cue("most_likely", "farthest_reach"):
        return None  # "if none land face up, which card does he take?": one toss, its card is determined (compute_turn)
    if parsed.cue("vincent_which") and not parsed.cue("most_likely") and not parsed.has("vincent_tokens"):
        return None  # "which card does Vincent take?" without his tokens asks how his turn works: a rule
    if parsed.has("tokens_on_cards", "tokens_on_target"):
        return None  # tokens on the row do not change his pick, but the question may be about what he gains
    odds, tokens = _odds_for(parsed)
    if odds is None:
        return None
    table = "; ".join(f"{where}: {chance}" for where, chance in sorted(odds.items()))
    trace = [say("vincent_trace", lang, outcomes=table)]
    engine_object = {"intent": "vincent_pick", "tokens": tokens, "odds": {str(k): str(v) for k, v in odds.items()}}
    named = [slot for slot in parsed.all("position") if not slot.inherited]
    explained = [(slot.start, slot.end) for slot in named] + _unit(parsed)
    # A card named in a sentence without a question ("his most likely pick is the 2nd card") is a statement to check.
    stating = parsed.claim or (bool(named) and "?" not in parsed.text)
    if parsed.cue("farthest_reach"):
        farthest = max(where for where, chance in odds.items() if chance > 0)
        sentences = [say("vincent_reach", lang, tokens=tokens, position=farthest, ordinal=ordinal(farthest, lang))]
        engine_object["farthest"] = farthest
        if not (stating and named):
            return Computation(intent="vincent_pick", sentences=sentences, trace=trace, value=farthest, engine=engine_object,
                               concepts=[("vincent_turn", {})], explained=explained)
        # "he can't go further than the 3rd card" states the farthest is at most that card; "he can go beyond" the opposite.
        bound = named[0].value
        value = farthest <= bound if parsed.negated else farthest > bound
        return Computation(intent="vincent_pick", sentences=sentences, trace=trace, value=value, claimed=True, states=True,
                           engine=engine_object, concepts=[("vincent_turn", {})], explained=explained)
    best = max(odds.values())
    likeliest = [where for where, chance in sorted(odds.items()) if chance == best]
    if len(likeliest) != 1:
        return None  # a tie has no single most likely pick
    pick = likeliest[0]
    key = "vincent_pick_certain" if best == 1 else "vincent_pick"
    percent = f"{float(best) * 100:.2f}".rstrip("0").rstrip(".")
    sentences = [say(key, lang, tokens=tokens, position=pick, ordinal=ordinal(pick, lang), fraction=str(best),
                     percent=percent)]
    engine_object["most_likely"] = pick
    claimed = named[0].value if stating and len(named) == 1 else None
    return Computation(intent="vincent_pick", sentences=sentences, trace=trace, value=pick, states=claimed is not None,
                       value_text=f"{ordinal(pick, lang)} ({best})", claimed=claimed, engine=engine_object,
                       concepts=[("vincent_turn", {})], explained=explained)


_CAN = re.compile(r"\b" + either("can_verbs") + r"\b")


def _reach(parsed: Parsed) -> Computation | None:
    """"Vincent can't take the last card with only 3 tokens, right?": whether his toss can select that card at all."""
    lang = parsed.lang
    named = [slot for slot in parsed.all("position") if not slot.inherited]
    takes = re.search(r"\b(?:vincent|he|il)\s+(?:[\w']+\s+){0,2}?"
                      + alternation(words("take") + listed("reach_verbs")), parsed.folded)
    asks_can = parsed.form == "can" or _CAN.search(parsed.folded)
    # Only with his tokens stated: "can Vincent take the first card?" asks how his turn works (a rule).
    if len(named) != 1 or not takes or not (parsed.claim or asks_can) or parsed.cue("odds"):
        return None
    if not parsed.has("vincent_tokens") and not parsed.has("player_tokens"):
        return None
    odds, tokens = _odds_for(parsed)
    if odds is None or named[0].value not in odds:
        return None
    position = named[0].value
    probability = odds[position]
    percent = f"{float(probability) * 100:.2f}".rstrip("0").rstrip(".")
    table = "; ".join(f"{where}: {chance}" for where, chance in sorted(odds.items()))
    sentences = [say("vincent_can" if probability > 0 else "vincent_cannot", lang, tokens=tokens, position=position),
                 say("vincent_odds", lang, position=position, tokens=tokens, fraction=str(probability), percent=percent)]
    return Computation(intent="vincent_pick", sentences=sentences, trace=[say("vincent_trace", lang, outcomes=table)],
                       value=probability > 0, claimed=(not parsed.negated) if parsed.claim else None,
                       engine={"intent": "vincent_reach", "position": position, "tokens": tokens,
                               "probability": str(probability), "possible": probability > 0},
                       concepts=[("vincent_turn", {})], explained=[(slot.start, slot.end) for slot in named] + _unit(parsed))


def ordinal(position: int, lang: str) -> str:
    """"3rd" / "3e" (the row position as an ordinal)."""
    if lang == "fr":
        return "1re" if position == 1 else f"{position}e"
    suffix = "th" if 10 <= position % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(position % 10, "th")
    return f"{position}{suffix}"


_NONE = ("aucun", "aucune", "none", "no", "zero", "pas un")


def _face_up_regex() -> re.Pattern:
    count = numbers().fragment_articles
    return re.compile(r"(?:\b(?P<bound>au moins|at least|exactly|exactement|pile|only|seulement|all|tous|toutes)\s+(?:les\s+|the\s+)?)?"
                      r"\b(?P<count>" + count + "|" + "|".join(_NONE) + r"|all|tous|toutes)\s+(?:[\w']+\s+){0,5}?(?:up\s+)?"
                      r"(?:face up|face-up|face visible)")


def _zero_negation(parsed: Parsed, match, word: str) -> bool | None:
    """The claim's polarity when its face-up count is a negative word ("n'en avoir aucun face visible", "none of them
    land face up"): read again with that word blanked out, since it states a count of zero, not a negation; None
    otherwise (the parser's polarity holds)."""
    if word not in _NONE or not parsed.claim:
        return None
    from rulesbot.compute.parse import polarity
    from rulesbot.games import game_spec

    blank = parsed.folded[: match.start("count")] + " " * len(word) + parsed.folded[match.end("count"):]
    return polarity(blank, list(parsed.slots), parsed.claim_cue, parsed.reported, parsed.lang,
                    game_spec(parsed.game).vocabulary)


def compute_face_up(parsed: Parsed) -> Computation | None:
    """"What are the odds at least one of Vincent's tokens lands face up?": the toss's law (vincent_toss_outcomes)."""
    lang = parsed.lang
    if not (vincent_in_question(parsed) and parsed.cue("odds")) or parsed.has("position"):
        return None  # the card he takes is vincent_odds; without a chance asked it is one turn (vincent_turn)
    match = _face_up_regex().search(parsed.folded)
    if match is None:
        return None
    # "une chance sur 16 de n'en avoir aucun face visible": the count nearest the side it lands on is the face-up count
    # (a number further back is the stated chance).
    while (nearer := _face_up_regex().search(parsed.folded, match.end("count"))) is not None and nearer.end() == match.end():
        match = nearer
    word = match.group("count")
    reader = numbers()
    count = 0 if word in _NONE else reader.count_value(word)
    bound = match.group("bound") or (word if word in ("all", "tous", "toutes") else "")
    rules = engine.ruleset("vincent")
    tokens = _vincent_tokens(parsed, rules)
    if bound in ("all", "tous", "toutes") and count is None:
        count = tokens
    if count is None or tokens > engine.component_counts()["inspiration_tokens"].count or count > tokens:
        return None
    # The toss itself (every token counted, not only the ones Vincent can use): no cap.
    law = dict(engine.vincent_toss_outcomes(tokens, max_face_up=tokens))
    at_least = bound in ("au moins", "at least")
    probability = sum((chance for up, chance in law.items() if (up >= count if at_least else up == count)), Fraction(0))
    percent = f"{float(probability) * 100:.2f}".rstrip("0").rstrip(".")
    shown_bound = {"en": "at least " if at_least else "exactly ", "fr": "au moins " if at_least else "exactement "}[lang]
    event = say("face_up_event", lang, bound=shown_bound, count=count)
    one = str(rules.vincent_face_up_probability)
    sentences = [say("vincent_face_up", lang, tokens=tokens, one=one, event=event, fraction=str(probability), percent=percent)]
    table = "; ".join(f"{up}: {chance}" for up, chance in sorted(law.items()))
    stated, stated_spans = stated_probability(parsed) if parsed.claim else (None, [])
    return Computation(intent="vincent_face_up", negated=_zero_negation(parsed, match, word), sentences=sentences, trace=[say("face_up_trace", lang, outcomes=table)],
                       value=probability, value_text=f"{probability} ({percent}%)", claimed=stated,
                       engine={"intent": "vincent_face_up", "tokens": tokens, "face_up": count, "at_least": at_least,
                               "probability": str(probability)},
                       concepts=[("vincent_turn", {})], explained=[match.span()] + stated_spans + _unit(parsed))


_DISCARDS = re.compile(r"\b" + either("discard_verbs") + r"\s+"
                       r"(?:the\s+|la\s+|le\s+|l')?$")


def _claimed_discard(parsed: Parsed, skipped: int):
    """The card a claim says Vincent discards ("... et defausse la 2e"), with the spans of the cards it says his tokens
    go on when they are the ones he skips; None when no such card is stated."""
    if not parsed.claim:
        return None
    cards = [slot for slot in parsed.slots if slot.name in ("position", "ordinal") and not slot.inherited]
    chosen = [slot for slot in cards if _DISCARDS.search(parsed.folded[max(0, slot.start - 24): slot.start])]
    if len(chosen) != 1:
        return None
    placed = [(slot.start, slot.end) for slot in cards if slot is not chosen[0] and slot.value <= skipped]
    return chosen[0], placed


def _turn_face_up_regex() -> re.Pattern:
    """A toss's face-up count: "3 land face up", "2 of his tokens came up", "aucun jeton tombe face visible", "s'il a
    aucun jeton face visible", "ils tombent tous face visible" (the count, then the toss's verb and its side)."""
    count = numbers().fragment_articles
    verbs = either("toss_lands")
    side = r"(?:face[ -]up|face visible|face|pile|cote visible)"
    tokens = r"(?:(?:of his|of vincent's|of them|de ses|des|d'entre eux)\s+(?:\d+\s+)?(?:tokens?|jetons?)?\s*(?:de vincent\s+)?|(?:tokens?|jetons?)\s+(?:de vincent\s+)?)?"
    return re.compile(
        B + r"(?P<count>" + count + "|" + "|".join(_NONE) + r"|all|tous|toutes)\s+(?:seul\s+|seule\s+|single\s+)?" + tokens
        + r"(?:(?:ne\s+|n')?(?:" + verbs + r")\s+(?:up\s+)?(?:" + side + r"|up\b)|" + side + r"(?![\w-]))"
        + r"|" + B + r"(?:ils|elles|they)\s+(?:(?:" + verbs + r")\s+)?(?P<all>all|tous|toutes)\s+(?:(?:" + verbs + r")\s+)?(?:up\s+)?"
        + side)


def _turn_face_up(parsed: Parsed):
    """(face-up count or "all", span) the question states for one toss, or None."""
    match = _turn_face_up_regex().search(parsed.folded)
    if match is None:
        return None
    word = match.group("count") or match.group("all")
    if word in ("all", "tous", "toutes"):
        return "all", match.span()
    value = 0 if word in _NONE else numbers().count_value(word)
    return (value, match.span()) if value is not None else None


def _face_up_span_covers(parsed: Parsed, slot) -> bool:
    """Whether a "Vincent's tokens" slot is really the toss's face-up count ("s'il a aucun jeton face visible")."""
    match = _turn_face_up_regex().search(parsed.folded)
    if match is None or slot is None:
        return False
    word = match.start("count") if match.group("count") is not None else match.start("all")
    return slot.start <= word < slot.end




def compute_turn(parsed: Parsed) -> Computation | None:
    """Vincent's tokens after one turn with a given face-up count (the engine's vincent_turn)."""
    lang = parsed.lang
    if parsed.cue("odds"):
        return None  # a chance asked is the toss's law (compute_face_up) or his pick's odds, not one turn
    which = parsed.form == "which" or parsed.cue("vincent_which")
    toss = _turn_face_up(parsed)
    if not (toss is not None and (parsed.cue("token") or parsed.claim)
            and (parsed.cue("after") or parsed.form == "how_many" or which or parsed.claim)):
        return None  # "what does Vincent do if none land face up?" asks the rule
    stated_count, face_span = toss
    rules = engine.ruleset("vincent")
    held = re.search(r"\b(?:his|ses|des|vincent's)\s+(\d+)(?:\s+(?:tokens|jetons))?", parsed.folded)
    tokens = int(held.group(1)) if held else _vincent_tokens(parsed, rules)
    face_up = tokens if stated_count == "all" else stated_count
    if face_up > tokens or tokens > engine.component_counts()["inspiration_tokens"].count:
        return None  # more face up than tossed: not one toss
    # "the fourth card has 1 of my tokens on it": the tokens on a row card, said with whose tokens they are.
    on_cards = dict(parsed.value("tokens_on_cards") or {})
    placed, placed_spans = _tokens_on_named_cards(parsed)
    for where, count in placed.items():
        on_cards.setdefault(where, count)
    row_tokens = [on_cards.get(index, 0) for index in range(1, rules.row_size + 1)]
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((),), row_tokens=row_tokens, ruleset_name=rules.name, vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up)
    skipped = min(face_up, rules.vincent_max_face_up, tokens, rules.row_size - 1)
    gained = after.vincent_tokens - tokens + skipped
    sentences = [say("vincent_turn", lang, tokens=tokens, face_up=face_up, spent=qty(skipped, "token", lang),
                     position=skipped + 1, where=row_end(skipped + 1, rules, lang), gained=qty(gained, "token", lang),
                     after=qty(after.vincent_tokens, "token", lang))]
    explained = [face_span] + ([held.span()] if held else []) + _unit(parsed) + placed_spans
    selected = skipped + 1
    engine_object = {"intent": "vincent_turn", "tokens": tokens, "face_up": face_up, "row_tokens": row_tokens,
                     "position": selected, "tokens_after": after.vincent_tokens}
    if which and not parsed.cue("after") and parsed.form != "how_many" and not parsed.claim:
        # "2 land face up: which card does he take?": the card, and what becomes of it (the rule's own words).
        sentences.append(say("vincent_selects", lang, ordinal=ordinal(selected, lang), where=""))  # said above
        return Computation(intent="vincent_turn", sentences=sentences, value=selected, value_text=ordinal(selected, lang),
                           engine=engine_object, concepts=[("vincent_turn", {})], explained=explained)
    claimed = None
    discarded = _claimed_discard(parsed, skipped)
    if discarded is not None:
        # "un seul tombe face visible : il le pose sur la 1re et defausse la 2e, c'est ca ?": the card he selects.
        slot, placed = discarded
        sentences.append(say("vincent_selects", lang, ordinal=ordinal(selected, lang), where=""))  # said above
        # "si aucun ne tombe face visible, il defausse la gratuite": the negation says how many land face up (none);
        # only one outside that count denies the card claimed.
        rest = parsed.folded[: face_span[0]] + " " * (face_span[1] - face_span[0]) + parsed.folded[face_span[1]:]
        denies = parsed.negated and pattern("negation").search(rest) is not None
        return Computation(intent="vincent_turn", sentences=sentences, value=selected == slot.value, claimed=not denies,
                           states=True, value_text=ordinal(selected, lang), engine=engine_object,
                           concepts=[("vincent_turn", {})], explained=explained + [(slot.start, slot.end)] + placed)
    stated = stated_after(parsed)
    if stated is not None:
        claimed = stated.value  # "so he ends with 3 tokens"
        explained.append((stated.start, stated.end))
    return Computation(intent="vincent_turn", sentences=sentences, value=after.vincent_tokens,
                       value_text=qty(after.vincent_tokens, "token", lang), claimed=claimed, states=claimed is not None,
                       explained=explained, engine=engine_object, concepts=[("vincent_turn", {})])


def row_end(position: int, rules, lang: str) -> str:
    """" (the free card, farthest from the deck)" / " (the one next to the deck)" for the row's two ends, else ""."""
    if position == 1:
        return say("row_end_free", lang)
    return say("row_end_deck", lang) if position == rules.row_size else ""


def _tokens_on_named_cards(parsed: Parsed) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Tokens on row cards said with whose they are ("the fourth card has 1 of my tokens on it", "la 3e a 2 de mes
    jetons dessus"), and the spans read; the slot finder reads the plain "the 4th card has 2 tokens"."""
    reader = numbers()
    token = alternation(words("token"))
    found: dict[int, int] = {}
    read: list[tuple[int, int]] = []
    for slot in parsed.all("position"):
        if slot.inherited:
            continue
        trail = re.match(r"(?:\s+(?:card|carte|one))?\s+(?:has|holds|carries|got|a|porte|contient)\s+(?:already\s+|deja\s+)?(?P<count>" + reader.fragment_articles
                         + r")\s+(?:of (?:my|your|her|his|their|our)|de (?:mes|tes|ses|nos|leurs)|des)\s+" + token
                         + r"(?:\s+(?:on it|dessus))?", parsed.folded[slot.end:])
        value = reader.count_value(trail.group("count")) if trail else None
        if value is not None:
            found[slot.value] = value
            read.append((slot.start, slot.end + trail.end()))
    return found, read
