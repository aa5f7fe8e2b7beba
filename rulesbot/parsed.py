"""`Parsed`: what rulesbot understood of one question, shared by computed answers and (later) retrieval.

A question is parsed once (`rulesbot.compute.parse.parse`, cached) into typed slots found from data (the game's
card, scenario and level names from its engine; the words of its vocabulary file), each with its span in the
folded question, plus the question's form, its claim cue and its polarity:

    parsed = parse("3 green ribbons are worth 9, innit?", "en", "canvas")
    parsed.form                       # "is_it_true" (a claim)
    parsed.claim_cue                  # "innit"
    [slot.name for slot in parsed.slots]   # ["number", "ribbon_group", "colour", "number"]
    parsed.first("ribbon_group").value     # RibbonGroup(count=3, kind="colour", key="green", article=False)
    parsed.free_numbers()             # the numbers no other slot covers: the slot of 9 (the claimed value)
    parsed.cues                       # {"points_question", "ribbon", "score_question", "value_cue"}

Spans index `folded` (lowercase, accents removed, plain quotes, single spaces), never the raw text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

FORMS = ("how_many", "can", "what_needed", "what_if", "is_it_true", "which", "other")


@dataclass(frozen=True)
class Slot:
    """One typed thing found in the question: its kind (`name`), its value and its span in `Parsed.folded`."""

    name: str
    value: Any
    start: int
    end: int
    # A slot inherited from a previous question of the conversation (no span in this question).
    inherited: bool = False

    def overlaps(self, start: int, end: int) -> bool:
        """Whether this slot's span meets [start, end)."""
        return not self.inherited and self.start < end and start < self.end


@dataclass(frozen=True)
class Parsed:
    """One question, understood: slots with spans, cue words present, form, claim and polarity.

    - `slots`: every slot found, in span order (a slot kind may occur several times, e.g. three `art_card`s);
    - `cues`: the names of the game's cue lists with a phrase in the question (e.g. "best", "goal", "take");
    - `form`: one of FORMS ("how_many", "can", "what_needed", "what_if", "is_it_true", "which", "other");
    - `claim`: the asker states something to check ("is it true that ...", "..., innit?", "my sister reckons ...");
    - `claim_cue`: the phrase that made it a claim; `reported`: the claim is reported speech;
    - `negated`: the statement is negative ("I can't ...", "on ne peut pas ...");
    - `elliptical`: a follow-up that leans on a previous question ("and if I only had 1 token?").
    """

    text: str
    folded: str
    lang: str
    game: str
    slots: tuple[Slot, ...] = ()
    cues: frozenset[str] = frozenset()
    form: str = "other"
    claim: bool = False
    claim_cue: str | None = None
    reported: bool = False
    negated: bool = False
    elliptical: bool = False
    inherited_from: str | None = field(default=None, compare=False)
    # The previous question this follow-up was merged over (its numbers are not inherited as slots: their role
    # depends on the question, so an intent that needs one, e.g. a score, reads it here).
    previous: Parsed | None = field(default=None, compare=False, repr=False)

    @property
    def explicit_claim(self) -> bool:
        """A claim marked as such (a cue, a tag, reported speech), not only a sentence stating something."""
        return self.claim and self.claim_cue != "statement"

    def all(self, name: str) -> tuple[Slot, ...]:
        """Every slot of one kind, in span order."""
        return tuple(slot for slot in self.slots if slot.name == name)

    def first(self, name: str) -> Slot | None:
        """The first slot of one kind, or None."""
        return next((slot for slot in self.slots if slot.name == name), None)

    def value(self, name: str, default: Any = None) -> Any:
        """The value of the first slot of one kind, or `default`."""
        slot = self.first(name)
        return default if slot is None else slot.value

    def has(self, *names: str) -> bool:
        """Whether every named slot kind is present."""
        present = {slot.name for slot in self.slots}
        return all(name in present for name in names)

    def cue(self, *names: str) -> bool:
        """Whether any of the named cue lists has a phrase in the question."""
        return any(name in self.cues for name in names)

    def free_numbers(self, ignoring: tuple[str, ...] = ()) -> tuple[Slot, ...]:
        """The `number` slots no other slot's span covers (slot kinds in `ignoring` aside): e.g. a claimed value."""
        others = [slot for slot in self.slots
                  if slot.name != "number" and slot.name not in ignoring and not slot.inherited]
        return tuple(
            slot for slot in self.all("number")
            if not slot.inherited and not any(other.overlaps(slot.start, slot.end) for other in others)
        )

    def slot_names(self) -> frozenset[str]:
        """The kinds of slot present."""
        return frozenset(slot.name for slot in self.slots)

    def merged_over(self, previous: Parsed) -> Parsed:
        """This follow-up with the slots of `previous` it does not restate (a slot kind named here replaces it)."""
        named = self.slot_names() - {"number"}
        kept = tuple(replace(slot, inherited=True) for slot in previous.slots
                     if slot.name not in named and slot.name != "number")
        cues = self.cues | previous.cues
        return replace(self, slots=tuple(self.slots) + kept, cues=cues, inherited_from=previous.text, previous=previous,
                       form=self.form if self.form != "what_if" else previous.form)
