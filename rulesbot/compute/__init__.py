"""Computed answers and claim checks, for any game with a registered engine (rulesbot.games.GameSpec).

`Rulesbot.ask` calls `answer_computed` before text retrieval. It returns an Answer of kind "computed" (or
"claim" with a true/false `verdict` when the question states something to check) when the question is something
the game's engine can compute, and None otherwise so the rulebook text answers it.

- parse.py: `parse(question, lang, game) -> Parsed` (rulesbot.parsed), the one question-understanding layer;
- registry.py: intents (slots, cues, exemplars, compute function) and the runner that picks the best-fitting one;
- canvas/: the Canvas plugin (vocabulary, slot finders, intents, templates, citations), registered in
  rulesbot.games;
- this module: follow-ups (context), the claim verdict, and the Answer with its citations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from rulesbot.compute.parse import parse
from rulesbot.compute.registry import (
    Computation,
    attempt,
    in_claimed_unit,
    rank,
    restates_given,
    run,
    unexplained_topics,
)
from rulesbot.compute.text import E, alternation, bounded, fold
from rulesbot.fit import unanswered_agents
from rulesbot.games import GameSpec, spec_for_pack
from rulesbot.models import MAX_CONTEXT, Answer, Citation
from rulesbot.parsed import Parsed, Slot

_SNIPPET = 160


def answer_computed(bot, question, lang, pack, context: Sequence[str] = ()):  # noqa: ARG001 - the core's hook signature
    """An engine-computed Answer for `question` in `lang`, or None when the question is not computable.

    `context` lists the player's previous questions (newest last): an elliptical follow-up ("and with 4
    ribbons?") takes the slots of the latest computable one it does not restate.
    """
    spec = spec_for_pack(pack)
    if spec is None or not spec.intents:
        return None
    if not isinstance(question, str) or not question.strip():
        return None
    lang = "fr" if lang == "fr" else "en"
    parsed = understand(question, lang, spec, context)
    computation = run_new(parsed, spec)
    if computation is None:
        return None
    answer = render(question, lang, pack, spec, parsed, computation)
    if pack is not None and unanswered_agents(question, answer.answer, pack):
        # The computation answers another agent's or variant's case than the one the question names: a rule question.
        return None
    return answer


def understand(question: str, lang: str, spec: GameSpec, context: Sequence[str] = ()) -> Parsed:
    """The question's Parsed; for an elliptical follow-up, merged over the latest computable previous question."""
    parsed = with_context_variant(parse(question, lang, spec.engine_id), lang, spec, context)
    if not context or not (parsed.elliptical or parsed.cue("refers_back", "needs_previous")):
        return parsed
    previous = computable_context(context, lang, spec)
    if previous is None:
        return with_referent(parsed, lang, spec, context) or with_uncomputed(parsed, lang, spec, context) or parsed
    swapped = with_swapped_thing(parsed, previous, spec)
    if swapped is not None:
        return swapped
    merged = with_previous_score(parsed.merged_over(previous), spec)
    if parsed.elliptical and previous.claim and not parsed.claim and states_after_opener(parsed, spec):
        # "and 38 would be Master then?" after "35 = Hard, right?": the follow-up restates the claim with a new value.
        merged = replace(merged, claim=True, claim_cue="statement")
    return merged if parsed.elliptical or leans_back(parsed, merged, spec) else parsed


def with_swapped_thing(parsed: Parsed, previous: Parsed, spec: GameSpec) -> Parsed | None:
    """A follow-up that only names another thing of a kind the previous question named once ("and the background
    cards?" after "3 players: how many inspiration tokens go back in the box?", "et les jetons ?"): the previous
    question asked again with that thing in place of its own (the previous question read with the follow-up's words
    there), kept only when an intent answers it; None otherwise."""
    if not parsed.elliptical:
        return None
    own = [slot for slot in parsed.slots if not slot.inherited]
    if len(own) != 1:
        return None
    slot = own[0]
    theirs = [item for item in previous.slots if item.name == slot.name and not item.inherited]
    if len(theirs) != 1 or theirs[0].value == slot.value:
        return None
    vocabulary = spec.vocabulary
    opener = re.match(r"^\s*(?:" + alternation(vocabulary.get("interjections", ["\0"])) + r"[\s,.!]+)*(?:"
                      + alternation(vocabulary["ellipsis"] + vocabulary["ellipsis_openers"]) + r")" + E, parsed.folded)
    if opener is None or slot.start < opener.end():
        return None
    rest = parsed.folded[opener.end(): slot.start] + parsed.folded[slot.end:]
    if rest.strip(" ?!.,;:"):
        return None  # the follow-up says more than the thing: it is merged over the previous question instead
    before = previous.folded
    # A slot's span may hold the words that ask about it ("how many inspiration tokens"): they stay, only the thing
    # itself is swapped.
    kept = _asking_lead(before[theirs[0].start: theirs[0].end], vocabulary)
    named = parsed.folded[slot.start: slot.end].strip(" ?!.,;:")
    named = named[_asking_lead(named, vocabulary):].strip()
    restated = parse(before[: theirs[0].start + kept] + named + before[theirs[0].end:],
                     parsed.lang, spec.engine_id)
    return restated if run(restated, spec.intents) is not None else None


def _asking_lead(span: str, vocabulary) -> int:
    """How many characters at the start of a slot's `span` ask about the thing rather than name it (a phrase of the
    vocabulary's `generic_cues` lists: "how many ", "combien de ")."""
    phrases = [phrase for name in vocabulary.get("generic_cues", ()) for phrase in vocabulary.get(name, ())
               if isinstance(phrase, str)]
    if not phrases:
        return 0
    lead = re.match(r"\s*(?:(?:" + alternation(phrases) + r")" + E + r"\s*)+", span)
    return lead.end() if lead else 0


def with_previous_score(merged: Parsed, spec: GameSpec) -> Parsed:
    """A follow-up merged over a question whose answer was the player's score (a points total of listed ribbons),
    with that score as an inherited `score` slot when the follow-up states no number of its own: "and does that pass
    the scenario?", "donc j'ai atteint quel niveau ?" check the total the previous answer computed."""
    if merged.previous is None or merged.free_numbers() or merged.has("score"):
        return merged
    before = run(merged.previous, spec.intents)
    if before is None or before.score is None:
        return merged
    return replace(merged, slots=tuple(merged.slots) + (Slot("score", before.score, 0, 0, inherited=True),))


def with_referent(parsed: Parsed, lang: str, spec: GameSpec, context: Sequence[str]) -> Parsed | None:
    """A follow-up counting what the previous question named, by a pronoun ("so 6 of them = ?" after "silver
    ribbons, what are they worth?", "et 3 d'entre eux ?"), when that question computed nothing alone: the follow-up read
    with the pronoun replaced by the previous question's thing (its first run of `referent_things` words), kept only
    when an intent then answers it; None otherwise."""
    vocabulary = spec.vocabulary
    if not parsed.elliptical or not context or not vocabulary.get("referent_pronouns"):
        return None
    pronoun = bounded(frozenset(vocabulary["referent_pronouns"])).search(parsed.folded)
    if pronoun is None:
        return None
    before = fold(context[-1])
    spans = sorted(match.span() for name in vocabulary.get("referent_things", ()) if vocabulary.get(name)
                   for match in bounded(frozenset(vocabulary[name])).finditer(before))
    if not spans:
        return None
    start, end = spans[0]
    for next_start, next_end in spans[1:]:
        if next_start > end + 1:
            break  # only adjacent words make the thing ("silver ribbon")
        end = max(end, next_end)
    restated = parse(parsed.folded[: pronoun.start()] + before[start:end] + parsed.folded[pronoun.end():], lang,
                     spec.engine_id)
    return restated if run(restated, spec.intents) is not None else None


def with_uncomputed(parsed: Parsed, lang: str, spec: GameSpec, context: Sequence[str]) -> Parsed | None:
    """An elliptical follow-up completing a previous question that computed nothing alone ("we both ended on 33,
    who wins?", then "and if we both have exactly two tokens too?"): the follow-up merged over the newest previous
    question, kept only when an intent then answers it; None otherwise."""
    if not parsed.elliptical or not any(slot.name == "number" for slot in parsed.slots):
        return None  # only a follow-up stating its own count completes the previous question ("... exactly two tokens")
    latest = next((item.strip() for item in reversed(list(context)[-MAX_CONTEXT:]) if isinstance(item, str) and item.strip()),
                  None)
    if latest is None:
        return None
    merged = parsed.merged_over(parse(latest, lang, spec.engine_id))
    return merged if run(merged, spec.intents) is not None else None


def with_context_variant(parsed: Parsed, lang: str, spec: GameSpec, context: Sequence[str]) -> Parsed:
    """`parsed` with the variant the conversation named ("solo puzzle: ...", then "supply empty, I take the leftmost:
    gain?"), inherited, when the question names none: a variant set earlier still holds, whether or not that earlier
    question was computable, so the base game's rules are never computed for it."""
    if not context or parsed.has("variant"):
        return parsed
    for previous in reversed(list(context)[-MAX_CONTEXT:]):
        if not isinstance(previous, str) or not previous.strip():
            continue
        variant = parse(previous.strip(), lang, spec.engine_id).first("variant")
        if variant is not None:
            return replace(parsed, slots=tuple(parsed.slots) + (replace(variant, inherited=True),))
    return parsed


def states_after_opener(parsed: Parsed, spec: GameSpec) -> bool:
    """Whether a follow-up, once its opener ("and", "et") is set aside, states something instead of asking."""
    from rulesbot.compute.parse import is_statement

    vocabulary = spec.vocabulary
    opener = re.match(r"^\s*(?:" + alternation(vocabulary["ellipsis"] + vocabulary["ellipsis_openers"]) + r")" + E + r"\s*",
                      parsed.folded)
    rest = parsed.folded[opener.end():] if opener else parsed.folded
    if re.match(r"\d+\s*(?:points?|pts?)?\s*,?\s*(?:would be|would make|would count as|is|=|serait|ce serait|c'est|ca fait|ca ferait)\b",
                rest):
        return True  # "38 would be Master then?": a value first, then what it is said to be
    return bool(re.search(r"\d", rest)) and is_statement(rest, vocabulary)


def leans_back(parsed: Parsed, merged: Parsed, spec: GameSpec) -> bool:
    """A follow-up without an opening cue: it points back ("which cards does it use?", "how many more for hard?",
    "my opponent also ended on 29"); a complete question keeps its own answer."""
    alone = run(parsed, spec.intents)
    # "that's 2 Symmetry ribbons there, right?": a claim the question alone cannot check leans on the previous one.
    if alone is None or alone.asks or parsed.claim and alone.claimed is None:
        return True
    # "how many more for Hard?" alone gives Hard's target; with the previous score it answers the same intent better.
    # A complete question that happens to say "also" keeps its own intent.
    if not parsed.cue("needs_previous"):
        return False
    together = run_new(merged, spec)
    return together is not None and together.intent == alone.intent


def run_new(parsed: Parsed, spec: GameSpec) -> Computation | None:
    """The best-ranked intent's computation, except that a follow-up's answer must be new: an intent that only
    recomputes the previous question did not use the follow-up's own words ("and does that unlock an
    achievement?"), so the next intent is tried, and none answers rather than a guess."""
    if parsed.previous is None:
        return run(parsed, spec.intents)
    before = run(parsed.previous, spec.intents)
    # The follow-up's own cue lists, less those too common to tie it to an intent ("combien", "how many").
    own = parse(parsed.text, parsed.lang, spec.engine_id).cues - set(spec.vocabulary.get("generic_cues", ()))
    for intent in rank(parsed, spec.intents):
        computation = attempt(intent, parsed)
        if computation is None or unexplained_topics(parsed, intent) or restates_given(parsed, computation):
            continue
        computation = in_claimed_unit(parsed, computation)
        if computation is None:
            continue
        repeated = (before is not None and before.intent == computation.intent and before.engine == computation.engine
                    and before.sentences == computation.sentences and before.claimed == computation.claimed)
        # The same answer again is right when the follow-up's own words ask what this intent answers ("is that a
        # win?" after a solo score); otherwise it would be a guess.
        if not repeated or own & (set(intent.cues) | set(intent.needs_cue)):
            return computation
    return None


def computable_context(context: Sequence[str], lang: str, spec: GameSpec) -> Parsed | None:
    """The Parsed of the newest previous question an intent answers (at most MAX_CONTEXT looked at), or None."""
    for previous in reversed(list(context)[-MAX_CONTEXT:]):
        if not isinstance(previous, str) or not previous.strip():
            continue
        candidate = parse(previous.strip(), lang, spec.engine_id)
        if rank(candidate, spec.intents) and run(candidate, spec.intents) is not None:
            return candidate
    return None


def render(question: str, lang: str, pack, spec: GameSpec, parsed: Parsed, computation: Computation) -> Answer:
    """Assemble the Answer: verdict (claims), sentences, trace, pages; citations from the pack."""
    templates = spec.templates
    verdict = None
    kind = "computed"
    lines: list[str] = []
    claim = parsed.claim or computation.states
    if claim and not computation.asks and computation.claimed is not None and computation.value is not None:
        kind = "claim"
        verdict = _same(computation.claimed, computation.value)
        negated = parsed.negated if computation.negated is None else computation.negated
        if negated and not isinstance(computation.claimed, bool):
            verdict = not verdict  # "3 green ribbons aren't worth 9, right?" claims a value is wrong
        if verdict:
            lines.append(templates["claim_true"][lang])
        elif isinstance(computation.value, bool) or negated:
            lines.append(templates["claim_false"][lang])
        else:
            shown = computation.value_text or str(computation.value)
            lines.append(templates["claim_false_value"][lang].format(value=shown, claimed=computation.claimed))
    lines += computation.sentences
    if computation.trace:
        lines.append(templates["trace"][lang].format(trace="; ".join(computation.trace)))
    citations = cite(pack, lang, spec, computation.concepts)
    if citations:
        pages = sorted({citation.page for citation in citations})
        lines.append(templates["pages"][lang].format(pages=", ".join(str(page) for page in pages)))
    engine_object = dict(computation.engine) if computation.engine else None
    if engine_object is not None:
        engine_object["rules_version"] = spec.rules_version
    return Answer(
        question=question,
        answer=" ".join(lines),
        lang=lang,
        kind=kind,
        verdict=verdict,
        citations=citations,
        confidence=0.9 if computation.asks else 1.0,
        engine=engine_object,
    )


def cite(pack, lang: str, spec: GameSpec, concepts: list[tuple[str, dict]]) -> list[Citation]:
    """Citations for the computation's concepts: the pack record of each concept, else a record on the rule's page."""
    if pack is None:
        return []
    table = spec.concepts
    records = [entry for entry in pack.entries if entry.lang == lang] or list(pack.entries)
    by_concept: dict[str, list] = {}
    for entry in records:
        by_concept.setdefault(entry.concept_id, []).append(entry)
    chosen = []
    for key, fill in concepts:
        entry_spec = table.get(key)
        if entry_spec is None:
            continue
        entry = None
        # A computation may say which page its fact is on (e.g. a component count): only records on it qualify.
        page = fill.get("page")
        for concept in entry_spec["concepts"]:
            candidates = by_concept.get(concept.format(**fill)) if _fillable(concept, fill) else None
            if candidates and page is not None:
                # Cited by its first page: a record whose first page is that page, else one that covers it.
                candidates = ([item for item in candidates if item.page == page]
                              or [item for item in candidates if page in item.pages])
            if candidates:
                # The rulebook passage is the primary source; the FAQ twin only when there is no passage.
                entry = sorted(candidates, key=lambda item: item.source != "rulebook")[0]
                break
        if entry is None:
            page = page if page is not None else spec.page_of(entry_spec.get("page_key", ""))
            on_page = [item for item in records if page in item.pages and item.source == "rulebook"]
            entry = on_page[0] if on_page else None
        if entry is not None and entry.id not in {item.id for item in chosen}:
            chosen.append(entry)
    return [
        Citation(page=entry.page, section=entry.section, lang=entry.lang, snippet=_snippet(entry.text), id=entry.id)
        for entry in chosen[:4]
    ]


def _fillable(concept: str, fill: dict) -> bool:
    try:
        concept.format(**fill)
    except KeyError:
        return False
    return True


def _same(claimed, value) -> bool:
    if isinstance(value, bool) or isinstance(claimed, bool):
        return bool(claimed) == bool(value)
    if isinstance(value, str):
        return fold(str(claimed)) == fold(value)
    return claimed == value


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1].rsplit(" ", 1)[0] + "…"
