"""Comparing two or three named options: "take the 2nd or the 4th: which leaves me more tokens?", "Chosen, Game, Truth or
Truth, Game, Chosen: which scores more?".

Each option is evaluated by the engine on the situation the question describes (the variant, the tokens held, the
tokens lying on the row's cards, the Scoring Cards in play) and the answer says which gives more and by how much. An
option is one stretch of the question: the text from one option's thing (a row position, a painting's cards) to the
next's, split where an "or" word or an option label ("option 1:", "choix 2") stands between them. Each stretch is
parsed on its own, so what it says about its card ("it has 2 tokens on it", "(empty)") belongs to that option only.
"""

from __future__ import annotations

import re
from itertools import pairwise

from rulesbot.compute.canvas.intents import painting as painting_intent
from rulesbot.compute.canvas.intents import take
from rulesbot.compute.canvas.intents.common import scoring_selection, spans
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.canvas.words import alternation, either, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.data import CARDS_PER_PAINTING
from rulesbot.parsed import Parsed, Slot

# "option 1:", "choix 2 -", "option b)": a label opening one option (its number is the label, not a value).
_LABEL = re.compile(B + r"(?:" + either("option_labels") + r")\s*(?:n[o°]\s*)?(?P<label>\d|[abc]|one|two|three|un|une|deux|trois)\b"
                    r"\s*[:)\-=.,]?")
_OR = re.compile(B + r"(?:" + either("option_or") + r")" + E)


def _labels(parsed: Parsed) -> list[tuple[int, int]]:
    return [match.span() for match in _LABEL.finditer(parsed.folded)]


def _separated(text: str, start: int, end: int, labels: list[tuple[int, int]]) -> bool:
    """Whether an "or" word or an option label stands in text[start:end], between two options."""
    return _OR.search(text, start, end) is not None or any(start <= label_start < end for label_start, _ in labels)


def _anchors(parsed: Parsed, names: tuple[str, ...]) -> list[Slot]:
    """The question's own slots of `names` (in order) that are not inside a tokens-on-cards description."""
    described = [(slot.start, slot.end) for slot in parsed.all("tokens_on_cards") if not slot.inherited]
    found = [slot for slot in parsed.slots if slot.name in names and not slot.inherited
             and not any(start <= slot.start < end for start, end in described)]
    return sorted(found, key=lambda slot: slot.start)


def _segments(parsed: Parsed, anchors: list[Slot], labels: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """One (start, end) stretch per option: from an anchor to the next one, split by an "or" word or a label."""
    text = parsed.folded
    groups: list[list[Slot]] = [[anchors[0]]]
    for previous, slot in pairwise(anchors):
        if _separated(text, previous.end, slot.start, labels):
            groups.append([slot])
        else:
            groups[-1].append(slot)
    if not 2 <= len(groups) <= 3:
        return None
    bounds = []
    for index, group in enumerate(groups):
        start = group[0].start
        if index + 1 < len(groups):
            end = groups[index + 1][0].start
        else:
            # The last option runs to the end of its sentence ("..., it has 2 tokens on it. which is better?").
            stop = re.search(r"[?!.;]|\b(?:which|what|lequel|laquelle|lesquelles|quelle|quel)\b", text[group[-1].end:])
            end = group[-1].end + (stop.start() if stop else len(text) - group[-1].end)
        bounds.append((start, end))
    return bounds


def _parse_part(parsed: Parsed, start: int, end: int) -> Parsed:
    from rulesbot.compute.parse import parse  # the parser loads the game plugins: imported when first needed

    return parse(parsed.folded[start:end].strip(" ,:;-"), parsed.lang, parsed.game)


def _empty_said(part: Parsed) -> bool:
    """"(empty)", "vide", "no tokens on it": the option's card is said to hold nothing."""
    return re.search(B + alternation(words("no_tokens") + ["empty", "vide", "nothing on it", "rien dessus"]) + E,
                     part.folded) is not None


def _option_parts(parsed: Parsed, anchors: list, labels: list[tuple[int, int]]) -> list[tuple[int, int, Parsed]] | None:
    """Each option's span and its own parse (its tokens belong to it), or None when the options can't be cut apart."""
    bounds = _segments(parsed, anchors, labels)
    return None if bounds is None else [(start, end, _parse_part(parsed, start, end)) for start, end in bounds]


def _take_options(parsed: Parsed, labels: list[tuple[int, int]]) -> list[dict] | None:
    """(position, tokens said on that card or None) per option, or None when the options are not row positions."""
    anchors = [slot for slot in _anchors(parsed, ("position", "ordinal")) if isinstance(slot.value, int)]
    if len(anchors) < 2:
        return None
    parts = _option_parts(parsed, anchors, labels)
    if parts is None:
        return None
    options = []
    for start, end, part in parts:
        positions = [slot.value for slot in part.slots if slot.name in ("position", "ordinal")]
        on_cards = dict(part.value("tokens_on_cards") or {})
        if not positions:
            positions = list(on_cards)
        if len(set(positions)) != 1:
            return None  # an option names no card, or several: not one take each
        position = positions[0]
        on_card = part.value("tokens_on_target")
        if on_card is None:
            on_card = on_cards.get(position)
        if on_card is None and _empty_said(part):
            on_card = 0
        options.append({"position": position, "on_card": on_card, "span": (start, end)})
    if len({option["position"] for option in options}) != len(options):
        return None
    return options


def _take_situation(parsed: Parsed, options: list[dict]):
    """(rules, tokens on the row's cards, tokens held, supply) the question describes, each option's words over it;
    None when tokens said to lie "on it" belong to no one option."""
    variant = parsed.value("variant")
    rules = variant if variant is not None else engine.ruleset("base")
    if any(option["position"] > rules.row_size for option in options):
        return None
    # The row described for the whole question ("card 1 has 2 tokens on it"), each option's own words over it.
    row = [0] * rules.row_size
    own = [option["span"] for option in options]
    for slot in parsed.all("tokens_on_cards"):
        if slot.inherited or not any(start <= slot.start < end for start, end in own):
            for position, count in slot.value.items():
                if position <= rules.row_size:
                    row[position - 1] = count
    for option in options:
        if option["on_card"] is not None:
            row[option["position"] - 1] = option["on_card"]
    target = parsed.first("tokens_on_target")
    if target is not None and not target.inherited and not any(start <= target.start < end for start, end in own):
        return None  # "2 tokens on it" said of no one option: which card holds them is not known
    supply = parsed.value("supply") if rules.token_supply else None
    return rules, row, parsed.value("player_tokens"), supply


def _compare_takes(lang: str, options: list[dict], situation, explained: list[tuple[int, int]]) -> Computation:
    """Each take on the same row and tokens held: what it costs, gains and leaves; which leaves more."""
    rules, row, held, supply = situation
    results = [take.run_take(rules, option["position"], row, held, supply) for option in options]
    names = [say("compare_take_name", lang, position=option["position"]) for option in options]
    lines = []
    for name, result in zip(names, results, strict=True):
        if held is not None and not result["allowed"]:
            lines.append(say("compare_take_refused", lang, option=name, cost=qty(result["cost"], "token", lang),
                             tokens=qty(held, "token", lang)))
            continue
        left = held - result["cost"] + result["gain"] if held is not None else None
        key = "compare_take_line_held" if held is not None else "compare_take_line"
        lines.append(say(key, lang, option=name, cost=qty(result["cost"], "token", lang),
                         gain=qty(result["gain"], "token", lang), net=f"{result['net']:+d}",
                         left=qty(left, "token", lang) if left is not None else ""))
    allowed = [index for index, result in enumerate(results) if held is None or result["allowed"]]
    if not allowed:
        verdict = say("compare_none_allowed", lang, tokens=qty(held, "token", lang))
        value, value_text = None, None
    else:
        nets = {index: results[index]["net"] for index in allowed}
        best_net = max(nets.values())
        winners = [index for index, net in nets.items() if net == best_net]
        others = [net for index, net in nets.items() if index not in winners]
        if len(winners) > 1 and len(winners) == len(allowed) and len(allowed) == len(options):
            amount = held + best_net if held is not None else None
            verdict = say("compare_take_same_held" if held is not None else "compare_take_same", lang,
                          net=f"{best_net:+d}", left=qty(amount, "token", lang) if amount is not None else "")
            value, value_text = "same", None
        elif len(winners) > 1:
            verdict = say("compare_take_tied", lang, options=join([names[index] for index in winners], lang),
                          net=f"{best_net:+d}")
            value, value_text = "same", None
        else:
            winner = winners[0]
            margin = best_net - max(others) if others else None
            if margin is None:
                verdict = say("compare_take_only", lang, option=names[winner])
            else:
                verdict = say("compare_take_more", lang, option=names[winner], margin=qty(margin, "token", lang))
            value, value_text = options[winner]["position"], names[winner]
    sentences = [" ".join(lines), verdict]
    trace = [say("compare_trace", lang, row=row, positions=", ".join(str(option["position"]) for option in options),
                 nets=", ".join(f"{result['net']:+d}" for result in results))]
    concepts = [("take_variant", {"variant": rules.name}), ("take", {})] if rules.token_supply else [("take", {})]
    return Computation(intent="compare", sentences=sentences, trace=trace, value=value, value_text=value_text,
                       engine={"intent": "compare_takes", "ruleset": rules.name, "tokens_on_cards": row,
                               "player_tokens": held,
                               "options": [{"position": option["position"], "cost": result["cost"], "gain": result["gain"],
                                            "net": result["net"], "allowed": result.get("allowed", True)}
                                           for option, result in zip(options, results, strict=True)]},
                       concepts=concepts, explained=explained)


def _painting_options(parsed: Parsed, labels: list[tuple[int, int]]) -> list[dict] | None:
    """The cards (bottom to top) of each painting compared, or None when the options are not paintings."""
    anchors = _anchors(parsed, ("art_card",))
    if len(anchors) < 2 * CARDS_PER_PAINTING:
        return None
    parts = _option_parts(parsed, anchors, labels)
    if parts is None:
        return None
    options = []
    for start, end, part in parts:
        chain = part.first("card_chain")
        if chain is None or len(chain.value) != CARDS_PER_PAINTING or len({card.id for card in chain.value}) != CARDS_PER_PAINTING:
            return None
        options.append({"cards": list(chain.value), "span": (start, end)})
    return options


def _compare_paintings(parsed: Parsed, options: list[dict], labels: list[tuple[int, int]], own_spans: bool = True,
                       explained: list[tuple[int, int]] | None = None) -> Computation | None:
    """Each painting scored on the Scoring Cards in play; which scores more and by how much."""
    lang = parsed.lang
    own = [option["span"] for option in options] if own_spans else []
    slugs, choice, concepts = scoring_selection(parsed, own, lang)
    if slugs is None:
        return Computation(intent="compare", asks=True, sentences=choice, concepts=concepts)
    scored = []
    for option in options:
        computation = painting_intent.score_painting(engine.Painting.from_cards(option["cards"]), slugs, lang,
                                                     cards=option["cards"])
        scored.append(computation.engine)
    names = [", ".join(card.title for card in option["cards"]) for option in options]
    lines = " ".join(say("compare_painting_line", lang, option=name, title=result["title"] or "-",
                         points=qty(result["points"], "point", lang)) for name, result in zip(names, scored, strict=True))
    points = [result["points"] for result in scored]
    best = max(points)
    winners = [index for index, value in enumerate(points) if value == best]
    if len(winners) > 1:
        verdict = say("compare_painting_same", lang, points=qty(best, "point", lang))
        value, value_text = "same", None
    else:
        winner = winners[0]
        margin = best - max(value for index, value in enumerate(points) if index != winner)
        verdict = say("compare_painting_more", lang, option=names[winner], margin=qty(margin, "point", lang))
        value, value_text = names[winner], names[winner]
    trace = [say("compare_painting_trace", lang, scoring=join([card_name(slug, lang) for slug in slugs], lang),
                 points=", ".join(str(value) for value in points))]
    return Computation(intent="compare", sentences=[lines, *choice, verdict], trace=trace, value=value,
                       value_text=value_text,
                       engine={"intent": "compare_paintings", "scoring": slugs,
                               "options": [{"cards": result["cards"], "title": result["title"], "ribbons": result["ribbons"],
                                            "bonus": result["bonus"], "points": result["points"]} for result in scored]},
                       concepts=[("painting", {}), *concepts],
                       explained=list(labels) + own + (explained or []))


def _options(parsed: Parsed):
    """("paintings" | "takes", options) named in the question's own words, or None."""
    labels = _labels(parsed)
    options = _painting_options(parsed, labels)
    if options is not None:
        return "paintings", options
    options = _take_options(parsed, labels)
    if options is not None:
        return "takes", options
    return None


def _changed_row(parsed: Parsed, row: list[int]) -> list[int]:
    """A follow-up's own words about the row ("and if the fourth had 3 on it?", "et si la 5e en avait 4 ?") over `row`."""
    row = list(row)
    for slot in parsed.all("tokens_on_cards"):
        for position, count in slot.value.items():
            if position <= len(row):
                row[position - 1] = count
    named = [slot for slot in parsed.slots if slot.name in ("position", "ordinal") and isinstance(slot.value, int)]
    target = parsed.value("tokens_on_target")
    for slot in named:
        said = re.match(r"\s+(?:en\s+)?" + either("row_had") + r"\s+(?:deja\s+|already\s+)?(?P<count>"
                        + numbers().fragment_articles + r")" + E, parsed.folded[slot.end:])
        count = numbers().count_value(said.group("count")) if said else (target if len(named) == 1 else None)
        if count is not None and slot.value <= len(row):
            row[slot.value - 1] = count
    return row


def _follow_up(parsed: Parsed) -> Computation | None:
    """"and with only 2 tokens?", "et si la 5e en avait 4 ?", "and with Composition instead?" after a comparison: the
    previous question's options again, the one value the follow-up changes replaced, the rest of its situation kept."""
    from rulesbot.compute.registry import own_reading  # (the registry imports the game plugins lazily too)

    previous = parsed.previous
    found = _options(previous)
    if found is None:
        return None
    kind, options = found
    own = own_reading(parsed)
    if not own.slots and not own.cues:
        return None
    explained = [(0, len(parsed.folded))]  # the follow-up only changes the previous comparison's situation
    if kind == "paintings":
        if not (own.has("scoring_card") or own.has("scenario")):
            return None  # only the Scoring Cards in play change a painting's points
        return _compare_paintings(parsed, options, [], own_spans=False, explained=explained)
    situation = _take_situation(previous, options)
    if situation is None:
        return None
    rules, row, held, supply = situation
    if own.has("variant"):
        rules = own.value("variant")
        row = (row + [0] * rules.row_size)[: rules.row_size]
        supply = own.value("supply") if rules.token_supply else None
    if own.has("player_tokens"):
        held = own.value("player_tokens")
    row = _changed_row(own, row)
    if row == situation[1] and held == situation[2] and rules is situation[0]:
        return None  # nothing this follow-up says changes the comparison: not this intent's question
    if any(option["position"] > rules.row_size for option in options):
        return None
    return _compare_takes(parsed.lang, options, (rules, row, held, supply), explained)


def compute(parsed: Parsed) -> Computation | None:
    """Evaluate each named option with the engine and say which gives more, by how much."""
    if parsed.claim:
        return None  # a claim about which option is better states a verdict this intent does not read yet
    found = _options(parsed)
    if found is None:
        return _follow_up(parsed) if parsed.previous is not None else None
    kind, options = found
    labels = _labels(parsed)
    if kind == "paintings":
        return _compare_paintings(parsed, options, labels)
    situation = _take_situation(parsed, options)
    if situation is None:
        return None
    explained = list(labels) + [option["span"] for option in options]
    explained += spans(parsed, "component") if parsed.value("component") == "inspiration_tokens" else []
    return _compare_takes(parsed.lang, options, situation, explained)
