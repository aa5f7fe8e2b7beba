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


def _group_pattern(phrases: tuple[str, ...], title: str) -> re.Pattern:
    # Longest first, so "best cards" wins over "best card"; whole words only ("uno" is not in "unoriginal").
    words = sorted({fold(phrase.replace("{title}", title)) for phrase in phrases}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(word) for word in words) + r")(?!\w)")


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


def out_of_scope(question: str, title: str, game: str | None = None) -> OutOfScope | None:
    """The first scope rule whose every group has a phrase in `question`, or None (a rules question).

    Rules naming `games` apply to those games only (one game's expansions are another's plain words); a cue that
    is the pack's own title never fires (a site's Catan pack is asked about Catan); a rule's `unless` phrases
    keep it from firing (a rules question that borrows one of its cues).
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
            return OutOfScope(rule["reason"], found[0])
    return None


def scope_message(reason: str, lang: str, title: str) -> str:
    """The honest message for one reason, in `lang`."""
    return scope_data()["messages"][reason][lang].format(title=title)
