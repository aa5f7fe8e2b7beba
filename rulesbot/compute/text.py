"""Reading a question, for any game: accent folding, phrase alternations, numbers and ordinals in words (FR/EN).

Everything works on *folded* text (lowercase, accents removed, typographic quotes and dashes made plain) so
"Variété", "variete" and "VARIETE" read alike. The words come from a vocabulary mapping (the shared
language.json merged with a game's vocabulary.json); no game's names or rules facts are known here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources

from rulesbot.parsed import Slot

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'", "\u201c": '"', "\u201d": '"',
                         "\u00ab": '"', "\u00bb": '"', "\u2013": "-", "\u2014": "-", "\u2011": "-", "\u00a0": " ",
                         "\u202f": " "})
# A word boundary that treats hyphens as part of words ("vingt-neuf", "est-ce").
B = r"(?<![\w])"
E = r"(?![\w])"


def fold(text: str) -> str:
    """Lowercase, accents removed, plain quotes and dashes, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_QUOTES).lower())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(plain.split())


@cache
def language() -> dict:
    """The shared language words (language.json): numbers, ordinals, claim cues, forms, follow-up cues."""
    return json.loads(resources.files(__package__).joinpath("language.json").read_text(encoding="utf-8"))


def merged_vocabulary(game_words: Mapping) -> dict:
    """The shared language with a game's own word lists added (a game's list of the same name replaces it)."""
    return {**language(), **game_words}


def alternation(phrases) -> str:
    """A regex alternation of phrases, longest first, spaces matching any whitespace, hyphens optional."""
    return _alternation(frozenset(phrases))


@lru_cache(maxsize=512)
def _alternation(phrases: frozenset[str]) -> str:
    # Cached: the parser builds the same alternations for every question.
    parts = []
    for phrase in sorted(phrases, key=lambda text: (-len(text), text)):
        escaped = re.escape(phrase).replace(r"\ ", r"\s+").replace(r"\-", "[- ]?")
        parts.append(escaped)
    return "(?:" + "|".join(parts) + ")"


@lru_cache(maxsize=64)
def alternation_tree(phrases: frozenset[str]) -> str:
    """The same alternation as `alternation` (the same matches, longest first), written as a prefix tree: "je
    (?:crois|pense) que" rather than both phrases in full. Python's regex compiler handles a flat alternation of
    literals faster, so this is only for a pattern that splices something at each of its spaces (the claim
    prefixes with an optional intensifier between their words): the tree has far fewer spaces to splice."""
    root: dict = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(_ATOMS.get(char) or re.escape(char), {})
        node[""] = {}
    return "(?:" + _branches(root) + ")"


# How a phrase's characters read: a space matches any whitespace, a hyphen is optional (or a space).
_ATOMS = {" ": r"\s+", "-": "[- ]?"}


def _depth(node: dict) -> int:
    return max((1 + _depth(child) for atom, child in node.items() if atom), default=0)


def _branches(node: dict) -> str:
    """Everything below `node`, the longest continuation tried first (so "best cards" wins over "best card"), the
    end of a phrase last."""
    children = sorted(((atom, child) for atom, child in node.items() if atom), key=lambda item: (-_depth(item[1]), item[0]))
    parts = [atom + _continuation(child) for atom, child in children]
    if "" in node:
        parts.append("")
    return "|".join(parts)


def _continuation(node: dict) -> str:
    children = [atom for atom in node if atom]
    if not children:
        return ""
    if len(children) == 1 and "" not in node:
        return children[0] + _continuation(node[children[0]])
    return "(?:" + _branches(node) + ")"


@lru_cache(maxsize=512)
def bounded(phrases: frozenset[str]) -> re.Pattern:
    """A compiled word-bounded pattern for a set of phrases."""
    return re.compile(B + _alternation(phrases) + E)


# ------------------------------------------------------------------------------------------------ numbers


class Numbers:
    """Numbers in digits and words ("7", "seven", "sept", "vingt-neuf", "a pair") for one vocabulary."""

    def __init__(self, vocabulary: Mapping) -> None:
        self.units: dict[str, int] = dict(vocabulary["numbers"])
        self.tens: dict[str, int] = dict(vocabulary["tens"])
        self.pair: list[str] = list(vocabulary["pair"])
        self.article_one: list[str] = list(vocabulary["article_one"])
        self.ordinal_words: dict[str, int] = dict(vocabulary["ordinals"])
        small = [word for word, value in self.units.items() if 1 <= value <= 9]
        compound = alternation(self.tens) + r"(?:[- ](?:et[- ])?(?:and[- ])?" + alternation(small) + r")?"
        self.core = r"\d+|" + compound + "|" + alternation(self.units)
        self.regex = re.compile(B + "(" + self.core + ")" + E)
        self.fragment = "(?:" + "|".join([alternation(self.pair), self.core]) + ")"
        self.fragment_articles = "(?:" + "|".join([alternation(self.pair), self.core, alternation(self.article_one)]) + ")"
        self.pair_regex = re.compile(B + alternation(self.pair) + E)
        self.ordinal_regex = re.compile(B + alternation(self.ordinal_words) + E)
        self._normal_units = {key.replace("-", " "): value for key, value in self.units.items()}

    def value(self, token: str) -> int | None:
        """The value of one number token, or None."""
        token = token.strip()
        if token.isdigit():
            return int(token)
        normal = token.replace("-", " ")
        if normal in self._normal_units:
            return self._normal_units[normal]
        pieces = [piece for piece in normal.split() if piece not in ("et", "and")]
        if pieces and pieces[0] in self.tens:
            total = self.tens[pieces[0]]
            for piece in pieces[1:]:
                if piece not in self.units:
                    return None
                total += self.units[piece]
            return total
        return None

    def count_value(self, token: str) -> int | None:
        """The value of a count matched by `fragment_articles` (articles and "a pair" included)."""
        token = " ".join(token.split())
        if token in {" ".join(phrase.split()) for phrase in self.pair}:
            return 2
        if token in self.article_one:
            return 1
        return self.value(token)

    def find(self, text: str) -> list[Slot]:
        """Every cardinal number in folded `text` as `number` slots (articles excluded, "a pair" = 2)."""
        found = [Slot("number", 2, match.start(), match.end()) for match in self.pair_regex.finditer(text)]
        taken = [(slot.start, slot.end) for slot in found]
        for match in self.regex.finditer(text):
            if any(start <= match.start() < end for start, end in taken):
                continue
            value = self.value(match.group(1))
            if value is None:
                continue
            # "un"/"une" are also French articles: they count as 1 only where a pattern asks for it.
            if match.group(1) in ("un", "une"):
                continue
            # "the free one", "that one", "which one": a pronoun, not the number 1.
            if match.group(1) == "one" and re.search(r"\b(?:the|that|this|which|each|every|any|no|next)\s+(?:[\w']+\s+)?$",
                                                     text[: match.start()]):
                continue
            # "a different one", "another one": a pronoun too ("a single one" still counts one).
            if match.group(1) == "one" and re.search(r"\b(?:(?:a|an)\s+(?!single\b|lone\b|only\b)[\w']+|another)\s+$",
                                                     text[: match.start()]):
                continue
            # An ordinal suffix ("3rd", "3e") or a hyphenated word ("neuf-" in "peut-on") is not a cardinal.
            if re.match(r"(?:st|nd|rd|th|e|eme|er|re|ere)\b", text[match.end():]):
                continue
            found.append(Slot("number", value, match.start(), match.end()))
        return sorted(found, key=lambda slot: slot.start)

    def ordinals(self, text: str) -> list[Slot]:
        """Ordinal words and suffixes ("third", "3rd", "troisieme", "3e") as `ordinal` slots."""
        return [Slot("ordinal", self.ordinal_words[match.group(0).replace(" ", "")], match.start(), match.end())
                for match in self.ordinal_regex.finditer(text)]


_NUMBERS: dict[int, Numbers] = {}


def numbers_for(vocabulary: Mapping) -> Numbers:
    """The (cached) number reader of a vocabulary mapping."""
    reader = _NUMBERS.get(id(vocabulary))
    if reader is None:
        reader = _NUMBERS[id(vocabulary)] = Numbers(vocabulary)
    return reader
