"""Near-domain questions: about the game but not about its rules (opinion, price, expansions, other games).

Similarity cannot tell "the best card to take first" from "which card is free": both sit close to the rules in
meaning. These questions carry words the rules never need, listed per reason in scope.json (data, not code);
a question that matches gets an honest "not a rules question" message saying why, before anything else runs.
"""

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class OutOfScope:
    """Why a question is outside the rules: the reason and the phrase that showed it."""

    reason: str
    cue: str


def fold(text: str) -> str:
    """Lower-case, accent-free text with plain apostrophes and single spaces (how cues are written)."""
    text = unicodedata.normalize("NFKD", text.replace("’", "'").lower())
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split())


@lru_cache(maxsize=1)
def scope_data() -> dict:
    """The cue lists and messages (scope.json)."""
    return json.loads(resources.files(__package__).joinpath("scope.json").read_text(encoding="utf-8"))


def _phrase_pattern(phrase: str) -> str:
    # A "*" inside a cue stands for the rest of one word: "worth *ing" is "worth spending", "worth taking"...
    return re.escape(phrase).replace(r"\*", r"\w*")


def _group_pattern(phrases: tuple[str, ...], title: str) -> re.Pattern:
    # Longest first, so "best cards" wins over "best card"; whole words only ("uno" is not in "unoriginal").
    words = sorted({fold(phrase.replace("{title}", title)) for phrase in phrases}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(word) for word in words) + r")(?!\w)")


@lru_cache(maxsize=1)
def _comparison_markers() -> re.Pattern:
    # The words that make a cue a comparison ("comme au tarot", "like in chess"), just before it.
    markers = sorted({fold(marker) for marker in scope_data()["comparison"]["markers"]}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(marker) for marker in markers) + r")\s*$")


def _only_compared(folded: str, pattern: re.Pattern) -> bool:
    """Whether every cue `pattern` finds in `folded` is named as a comparison, and the question says enough of
    its own beside them (comparison["min_words"] words) to be about the pack's game."""
    markers = _comparison_markers()
    rest, end = [], 0
    for match in pattern.finditer(folded):
        before = markers.search(folded, 0, match.start())
        if before is None:
            return False
        rest.append(folded[end : before.start()])
        end = match.end()
    rest.append(folded[end:])
    return len(re.findall(r"\w+", " ".join(rest))) >= scope_data()["comparison"]["min_words"]


@lru_cache(maxsize=256)
def _compiled_rules(title: str) -> tuple[tuple[dict, re.Pattern | None, tuple[re.Pattern | None, ...]], ...]:
    """Each scope rule with its `unless` pattern and one pattern per group, for one pack title (built once)."""
    own = fold(title)
    compiled = []
    for rule in scope_data()["rules"]:
        unless = _group_pattern(tuple(rule["unless"]), title) if rule.get("unless") else None
        groups = []
        for group in rule["groups"]:
            # A cue that is the pack's own title never fires.
            phrases = tuple(phrase for phrase in group if fold(phrase) != own)
            groups.append(_group_pattern(phrases, title) if phrases else None)
        compiled.append((rule, unless, tuple(groups)))
    return tuple(compiled)


def _in_sequence(folded: str, groups: tuple[re.Pattern | None, ...], within: int) -> bool:
    """Whether each group's phrase follows the previous group's with at most `within` words between them
    ("best 4-card combo", "meilleur ordre"), somewhere in `folded`."""
    ends = [match.end() for match in groups[0].finditer(folded)]
    for pattern in groups[1:]:
        ends = [
            match.end()
            for match in pattern.finditer(folded)
            if any(end <= match.start() and len(re.findall(r"[\w'-]+", folded[end : match.start()])) <= within for end in ends)
        ]
        if not ends:
            return False
    return True


def out_of_scope(question: str, title: str, game: str | None = None) -> OutOfScope | None:
    """The first scope rule whose every group has a phrase in `question`, or None (a rules question).

    Rules naming `games` apply to those games only (one game's expansions are another's plain words); a cue that
    is the pack's own title never fires (a site's Catan pack is asked about Catan); a rule's `unless` phrases
    keep it from firing (a rules question that borrows one of its cues). A rule marked `comparable` (another
    game's name) does not fire when each of its cues is named as a comparison ("like in chess", "comme au tarot")
    in a question that says enough of its own: that question is about the pack's game. A rule with `within` needs
    its groups in order, at most that many words apart ("the best order", not "best I can do … setup").
    """
    folded = fold(question)
    for rule, unless, groups in _compiled_rules(title):
        if "games" in rule and game not in rule["games"]:
            continue
        if unless is not None and unless.search(folded):
            continue
        found = []
        for pattern in groups:
            match = pattern.search(folded) if pattern is not None else None
            if match is None:
                break
            found.append(match.group(0))
        else:
            if "within" in rule and not _in_sequence(folded, groups, rule["within"]):
                continue
            if rule.get("comparable") and all(_only_compared(folded, pattern) for pattern in groups):
                continue
            return OutOfScope(rule["reason"], found[0])
    return None


def scope_message(reason: str, lang: str, title: str) -> str:
    """The honest message for one reason, in `lang`."""
    return scope_data()["messages"][reason][lang].format(title=title)
