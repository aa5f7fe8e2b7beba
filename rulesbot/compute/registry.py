"""Intents: one entry each (the slots it needs, its cue words and exemplars as data, a compute function).

The runner scores every intent of the game against a `Parsed` question and computes the best-scoring ones until
one answers; no intent depends on the order intents are listed in:

    score = 3 per required slot kind + 1 per `any_of` slot kind present + 2 per cue list present
            + exemplar similarity (word overlap with the closest exemplar, 0..1)

An intent is a candidate only when all its `requires` slot kinds, at least one `any_of` kind (when given) and at
least one of its `needs_cue` lists (when given) are present, and none of its `vetoes` (slot kinds) or `veto_cues`.
A compute function may still decline (None): the question names its things but asks a rule.

Verification (intents with an `explains` list): a computation must account for everything the question states.
Topics (every intent): a question carrying one of the game's `topic_cues` (achievements, odds, ties, titles) is only
answered by an intent whose cue lists or `topics` cover it.
Every slot of the question (not inherited from a follow-up's context) must be of a kind the intent explains, lie
inside such a slot's span, or inside a span the computation says it read itself (`Computation.explained`, e.g. the
claimed value or a face-up count it parsed). Anything left over (a number, an ordinal, a hand size, a card name)
means the intent would answer a different question than the one asked, or use a default where the question gave
the value: the runner discards that computation and tries the next intent (or leaves the question to retrieval).

A computation must answer what was asked: a question asking why a rule is so ("why does the 3rd card cost 2?",
"pk ..."), or how / where a mechanism works ("how does the row get refilled?", "do they go back to the box?", "je les
mets ou ?", "on one painting or over the whole game?") is a rule question, whatever computable things it names, unless
it also asks a value (a count, a cost, odds; the game's `value_cues` lists). So is a question asking what to do or
what stays where ("we're out of green ribbons, what do we do?", "do the tokens stay on the card?", "on fait
comment ?"): it asks a procedure, not a value. So does a question whether two things are the same ("is the first-game
set the same as the First Time Playing scenario, or a different one?"): it asks an identity. The cue lists are the game's vocabulary (`why_question`,
`mechanism_question`, `procedure_question`, `identity_question`, `value_cues`); a follow-up is judged by its own words, not its previous
question's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulesbot.parsed import Parsed, Slot


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
    # The question states a value to check without a claim cue ("if I take card 3 I'd end with 3 tokens?").
    states: bool = False
    # Spans of the question the compute function read itself (a claimed number, a count it parsed): explained.
    explained: list[tuple[int, int]] = field(default_factory=list)
    # The claim's polarity as the computation read it, when a negation word was its own zero count ("n'en avoir aucun
    # face visible" states zero tokens face up): None keeps the parser's `Parsed.negated`.
    negated: bool | None = None
    # What `value` counts (a key of the game's vocabulary `claim_units`: "points", "ribbons", "tokens", ...), and the
    # same answer in the other units the intent can give ({"points": (18, "18 points")}): a claimed number said in
    # another unit is checked against the value in its unit, or not decided by this intent (see `in_claimed_unit`).
    unit: str | None = None
    in_units: dict[str, tuple[Any, str | None]] = field(default_factory=dict)
    # The player's score this computation found (a points total of listed ribbons), or None: a follow-up asking
    # whether it passes a scenario or reaches a solo level ("and does that pass the scenario?") reads it.
    score: int | None = None


@dataclass(frozen=True)
class Intent:
    """One computable question type of a game."""

    name: str
    compute: Callable[[Parsed], Computation | None]
    requires: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()
    needs_cue: tuple[str, ...] = ()
    cues: tuple[str, ...] = ()
    vetoes: tuple[str, ...] = ()
    veto_cues: tuple[str, ...] = ()
    exemplars: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # Slot kinds this intent's computations account for; None: not verified (see the module docstring).
    explains: frozenset[str] | None = None
    # Topic cue lists (the game's `topic_cues`) this intent answers besides its own cue lists.
    topics: frozenset[str] = frozenset()

    def covers(self) -> frozenset[str]:
        """The topic cue lists a question may carry for this intent to answer it."""
        return frozenset(self.cues) | frozenset(self.needs_cue) | self.topics

    def score(self, parsed: Parsed) -> float | None:
        """How well the question fits this intent, or None when it cannot be this intent."""
        present = parsed.slot_names()
        if not all(name in present for name in self.requires):
            return None
        if self.any_of and not any(name in present for name in self.any_of):
            return None
        if self.needs_cue and not parsed.cue(*self.needs_cue):
            return None
        if any(name in present for name in self.vetoes) or parsed.cue(*self.veto_cues):
            return None
        total = 3.0 * len(self.requires) + sum(1.0 for name in self.any_of if name in present)
        total += 2.0 * sum(1 for name in self.cues if name in parsed.cues)
        return total + exemplar_similarity(parsed, self.exemplars.get(parsed.lang, ()))


_WORD = re.compile(r"[a-z']+")


def exemplar_similarity(parsed: Parsed, exemplars: Sequence[str]) -> float:
    """Word overlap (Jaccard) with the closest exemplar question (folded words, names and numbers ignored)."""
    if not exemplars:
        return 0.0
    words = set(_WORD.findall(parsed.folded))
    if not words:
        return 0.0
    best = 0.0
    for exemplar in exemplars:
        other = set(_WORD.findall(exemplar))
        if other:
            best = max(best, len(words & other) / len(words | other))
    return best


def rank(parsed: Parsed, intents: Sequence[Intent]) -> list[Intent]:
    """The candidate intents, best first (ties broken by name, so the listing order never matters)."""
    scored = [(score, intent.name, intent) for intent in intents if (score := intent.score(parsed)) is not None]
    return [intent for _score, _name, intent in sorted(scored, key=lambda item: (-item[0], item[1]))]


def unexplained(parsed: Parsed, intent: Intent, computation: Computation) -> list[Slot]:
    """The slots of the question `computation` leaves unexplained (empty when the intent is not verified)."""
    if intent.explains is None:
        return []
    own = [slot for slot in parsed.slots if not slot.inherited]
    covering = [(slot.start, slot.end) for slot in own if slot.name in intent.explains]
    covering += list(computation.explained)
    scene = _scene_number(parsed.game)
    return [slot for slot in own if slot.name not in intent.explains
            and not any(start <= slot.start and slot.end <= end for start, end in covering)
            and not (slot.name == "number" and scene is not None and scene(parsed, slot))]


def _scene_number(game: str):
    """The game's test for a number that only sets the scene (GameSpec.scene_number), or None."""
    from rulesbot.games import game_spec

    spec = game_spec(game)
    return spec.scene_number if spec is not None else None


def own_reading(parsed: Parsed) -> Parsed:
    """The question read on its own words: a follow-up is judged by what it says, not by its previous question's."""
    from rulesbot.compute.parse import parse  # the parser loads the game plugins: imported when first needed

    return parsed if parsed.previous is None else parse(parsed.text, parsed.lang, parsed.game)


def _vocabulary_list(game: str, name: str) -> frozenset[str]:
    """One list of a game's vocabulary (empty for a game without a spec or without that list)."""
    from rulesbot.games import game_spec

    spec = game_spec(game)
    return frozenset(spec.vocabulary.get(name, ())) if spec is not None else frozenset()


def unexplained_topics(parsed: Parsed, intent: Intent) -> frozenset[str]:
    """The question's own topic cues (the game's `topic_cues`: achievements, odds, ties, titles) `intent` does not
    cover."""
    topics = _vocabulary_list(parsed.game, "topic_cues")
    if not topics:
        return frozenset()
    return (own_reading(parsed).cues & topics) - intent.covers()


def asks_rule(parsed: Parsed) -> bool:
    """Whether the question asks why a rule is so, or how / where a mechanism works, and no value (module docstring)."""
    own = own_reading(parsed)
    if own.cue("why_question"):
        return True
    value_cues = _vocabulary_list(parsed.game, "value_cues")
    return (own.cue("mechanism_question", "procedure_question") or _asks_identity(own)) and not own.cue(*value_cues)


def _asks_identity(parsed: Parsed) -> bool:
    """Whether the question asks if two things are the same ("is the first-game set the same as ...?") and states no
    value after that ("Espace c'est pareil que Proximite ? 2 rubans = 5 pts" states one: a value claim)."""
    if not parsed.cue("identity_question"):
        return False
    from rulesbot.compute.text import bounded

    found = bounded(_vocabulary_list(parsed.game, "identity_question")).search(parsed.folded)
    return found is not None and not any(slot.name == "number" and slot.start >= found.end() for slot in parsed.slots)


def stated_units(parsed: Parsed, value: Any) -> set[str]:
    """The units the question says a number of value `value` in ("18 pts", "3 rubans", "4 jetons", "25 %"): the
    game's vocabulary `claim_units` ({unit: [word list names]}), read right after each own number slot of that value."""
    from rulesbot.games import game_spec

    spec = game_spec(parsed.game)
    table = spec.vocabulary.get("claim_units") if spec is not None else None
    if not table or isinstance(value, bool) or not isinstance(value, (int, float)):
        return set()
    found: set[str] = set()
    for slot in parsed.slots:
        if slot.name != "number" or slot.inherited or slot.value != value:
            continue
        after = parsed.folded[slot.end: slot.end + 30]
        for unit, lists in table.items():
            phrases = [phrase for name in lists for phrase in spec.vocabulary.get(name, (name,))]
            if re.match(r"\s*(?:" + "|".join(re.escape(phrase) for phrase in sorted(phrases, key=len, reverse=True))
                        + r")(?![a-z])", after):
                found.add(unit)
                break
    return found


def in_claimed_unit(parsed: Parsed, computation: Computation) -> Computation | None:
    """`computation` checked in the unit its claimed number is said in: unchanged when that unit is the value's (or
    no unit is said, or the intent gives none); with the value in that unit when the intent gives it there
    (`Computation.in_units`); None when the claim compares numbers of different units ("style au max ca rapporte 18
    pts" against a count of ribbons): this intent cannot decide it."""
    if computation.unit is None or computation.claimed is None or computation.asks or isinstance(computation.value, bool):
        return computation
    units = stated_units(parsed, computation.claimed)
    if not units or computation.unit in units:
        return computation
    for unit in sorted(units):
        if unit in computation.in_units:
            value, text = computation.in_units[unit]
            return replace(computation, value=value, value_text=text, unit=unit)
    return None


def verified(parsed: Parsed, intent: Intent, computation: Computation | None) -> Computation | None:
    """`computation` when it explains the whole question and its claim compares like with like, else None."""
    if computation is None or unexplained(parsed, intent, computation) or unexplained_topics(parsed, intent):
        return None
    return in_claimed_unit(parsed, computation)


def restates_given(parsed: Parsed, computation: Computation) -> bool:
    """Whether a computation only gives back a count the question itself states: its value is the count of a thing
    (its engine object's `component` and `count`) that the question names right after a number of its own ("I only have 3 backgrounds, so how
    many paintings at most?", "and with five players, are any left in the box?"). The asker already said that count;
    the question asks something else, so the computation answers nothing asked. A claim or a stated value to check
    ("3 backgrounds each, right?") is checked, not given back."""
    engine = computation.engine or {}
    thing = engine.get("component")
    if thing is None or computation.value != engine.get("count") or computation.claimed is not None \
            or computation.states or parsed.claim:
        return False  # a value derived from the thing's count (the tokens left once dealt) is not given back
    own = [slot for slot in parsed.slots if not slot.inherited]
    numbers = [slot for slot in own if slot.name == "number"]
    return any(slot.name == "component" and slot.value == thing
               and any(not parsed.folded[number.end:slot.start].strip() for number in numbers if number.end <= slot.start)
               for slot in own)


def run(parsed: Parsed, intents: Sequence[Intent]) -> Computation | None:
    """The computation of the best-ranked intent that answers and explains the whole question, or None."""
    if asks_rule(parsed):
        return None
    for intent in rank(parsed, intents):
        computation = verified(parsed, intent, attempt(intent, parsed))
        if computation is not None and not restates_given(parsed, computation):
            return computation
    return None


def attempt(intent: Intent, parsed: Parsed) -> Computation | None:
    """`intent.compute(parsed)`, or None (declined) when the state the question describes is one the engine rejects
    ("I have 6 cards in hand ..." past the hand limit): the engine validates every state it is given (ValueError and
    its input errors), and a question about an impossible state is left to the rulebook text, never a crash."""
    try:
        return intent.compute(parsed)
    except ValueError:
        return None


def load_intents(table: Mapping[str, Mapping[str, Any]], functions: Mapping[str, Callable]) -> tuple[Intent, ...]:
    """Intents from their data entries (slots, cues, exemplars) and their compute functions, matched by name."""
    missing = set(table) ^ set(functions)
    if missing:
        raise ValueError(f"intents without both a data entry and a compute function: {sorted(missing)}")
    return tuple(
        Intent(
            name=name,
            compute=functions[name],
            requires=tuple(entry.get("requires", ())),
            any_of=tuple(entry.get("any_of", ())),
            needs_cue=tuple(entry.get("needs_cue", ())),
            cues=tuple(entry.get("cues", ())),
            vetoes=tuple(entry.get("vetoes", ())),
            veto_cues=tuple(entry.get("veto_cues", ())),
            exemplars={lang: tuple(items) for lang, items in entry.get("exemplars", {}).items()},
            explains=frozenset(entry["explains"]) if "explains" in entry else None,
            topics=frozenset(entry.get("topics", ())),
        )
        for name, entry in sorted(table.items())
    )
