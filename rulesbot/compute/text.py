"""Reading a question: accent folding, numbers and ordinals in words (FR/EN), and the game's names.

Everything here works on *folded* text (lowercase, accents removed, typographic quotes and dashes made plain)
so "Variété", "variete" and "VARIETE" read alike. The words come from vocabulary.json; the names of cards,
scoring cards, scenarios and solo levels come from the engine, never from this module.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from rulesbot.engine import canvas as engine

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'", "\u201c": '"', "\u201d": '"',
                         "\u00ab": '"', "\u00bb": '"', "\u2013": "-", "\u2014": "-", "\u2011": "-", "\u00a0": " ",
                         "\u202f": " "})
# A word boundary that treats hyphens as part of words ("vingt-neuf", "est-ce").
_B = r"(?<![\w])"
_E = r"(?![\w])"


@dataclass(frozen=True)
class Span:
    """Something found in the folded question: its value and where it sits."""

    value: object
    start: int
    end: int


def fold(text: str) -> str:
    """Lowercase, accents removed, plain quotes and dashes, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_QUOTES).lower())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(plain.split())


@cache
def vocabulary() -> dict:
    """The recogniser's word lists (vocabulary.json)."""
    return json.loads(resources.files(__package__).joinpath("vocabulary.json").read_text(encoding="utf-8"))


def words(key: str) -> list[str]:
    """One word list of the vocabulary."""
    return vocabulary()[key]


def alternation(phrases) -> str:
    """A regex alternation of phrases, longest first, spaces matching any whitespace, hyphens optional."""
    return _alternation(frozenset(phrases))


@lru_cache(maxsize=256)
def _alternation(phrases: frozenset[str]) -> str:
    # Cached: the recogniser builds the same alternations for every question.
    parts = []
    for phrase in sorted(phrases, key=lambda text: (-len(text), text)):
        escaped = re.escape(phrase).replace(r"\ ", r"\s+").replace(r"\-", "[- ]?")
        parts.append(escaped)
    return "(?:" + "|".join(parts) + ")"


@cache
def pattern(key: str) -> re.Pattern:
    """A compiled word-bounded pattern for one vocabulary list."""
    return re.compile(_B + alternation(words(key)) + _E)


def has(text: str, key: str) -> bool:
    """Whether folded `text` contains any phrase of a vocabulary list."""
    return pattern(key).search(text) is not None


def find(text: str, key: str) -> list[Span]:
    """Every phrase of a vocabulary list in folded `text`."""
    return [Span(match.group(0), match.start(), match.end()) for match in pattern(key).finditer(text)]


# ------------------------------------------------------------------------------------------------ numbers


@cache
def _number_regex() -> re.Pattern:
    units = {word: value for word, value in vocabulary()["numbers"].items()}
    small = {word: value for word, value in units.items() if 1 <= value <= 9}
    tens = vocabulary()["tens"]
    compound = alternation(tens) + r"(?:[- ](?:et[- ])?(?:and[- ])?" + alternation(small) + r")?"
    return re.compile(_B + "(" + r"\d+" + "|" + compound + "|" + alternation(units) + ")" + _E)


def number_value(token: str) -> int | None:
    """The value of one number token ("7", "seven", "sept", "vingt-neuf", "twenty nine")."""
    token = token.strip()
    if token.isdigit():
        return int(token)
    units = vocabulary()["numbers"]
    tens = vocabulary()["tens"]
    normal = token.replace("-", " ")
    if normal in {key.replace("-", " ") for key in units}:
        return next(value for key, value in units.items() if key.replace("-", " ") == normal)
    pieces = [piece for piece in normal.split() if piece not in ("et", "and")]
    if pieces and pieces[0] in tens:
        total = tens[pieces[0]]
        for piece in pieces[1:]:
            if piece not in units:
                return None
            total += units[piece]
        return total
    return None


def numbers(text: str) -> list[Span]:
    """Every cardinal number in folded `text` (digits, words, "a pair"), articles excluded."""
    found = []
    for match in re.finditer(_B + alternation(words("pair")) + _E, text):
        found.append(Span(2, match.start(), match.end()))
    taken = [(span.start, span.end) for span in found]
    for match in _number_regex().finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue
        value = number_value(match.group(1))
        if value is None:
            continue
        # "un"/"une" are also French articles: they count as 1 only where a pattern asks for it.
        if match.group(1) in ("un", "une"):
            continue
        # An ordinal suffix ("3rd", "3e") or a hyphenated word ("neuf-" in "peut-on") is not a cardinal.
        if re.match(r"(?:st|nd|rd|th|e|eme|er|re|ere)\b", text[match.end():]):
            continue
        found.append(Span(value, match.start(), match.end()))
    return sorted(found, key=lambda span: span.start)




@cache
def number_fragment(with_articles: bool = False) -> str:
    """A regex fragment (one group-free alternation) matching a count: digits, words, "a pair"[, an article]."""
    options = [alternation(words("pair")), r"\d+", _number_regex().pattern[len(_B) + 1:-len(_E) - 1]]
    if with_articles:
        options.append(alternation(words("article_one")))
    return "(?:" + "|".join(options) + ")"


def count_value(token: str) -> int | None:
    """The value of a count matched by number_fragment (articles and "a pair" included)."""
    token = " ".join(token.split())
    if token in {" ".join(phrase.split()) for phrase in words("pair")}:
        return 2
    if token in words("article_one"):
        return 1
    return number_value(token)


def ordinals(text: str) -> list[Span]:
    """Ordinal positions: "third", "3rd", "troisieme", "3e", and "card 3" / "carte n° 3" / "position 3"."""
    found = [Span(vocabulary()["ordinals"][match.group(0).replace(" ", "")], match.start(), match.end())
             for match in pattern_ordinals().finditer(text)]
    for match in re.finditer(r"(?:card|carte|position|place|slot|emplacement)\s*(?:number|numero|n[o°]|#)?\s*(\d)\b",
                             text):
        found.append(Span(int(match.group(1)), match.start(1), match.end(1)))
    return sorted(found, key=lambda span: span.start)


@cache
def pattern_ordinals() -> re.Pattern:
    """The ordinal words of the vocabulary as one pattern."""
    return re.compile(_B + alternation(vocabulary()["ordinals"]) + _E)


# ------------------------------------------------------------------------------------------- game names


@cache
def _name_pattern(kind: str) -> tuple[re.Pattern, dict[str, object]]:
    index: dict[str, object] = {}
    if kind == "art":
        for art_card in engine.ART_CARDS:
            for name in (art_card.title, *art_card.aliases):
                index[fold(name)] = art_card
    elif kind == "scoring":
        for scoring in engine.SCORING_CARDS:
            for name in (scoring.slug, scoring.name_en, scoring.name_fr):
                index[fold(name)] = scoring
    elif kind == "scenario":
        for scenario in engine.SCENARIOS:
            index[fold(scenario.name)] = scenario
            index[fold(scenario.slug.replace("-", " "))] = scenario
    elif kind == "level":
        for level in engine.SOLO_LEVELS:
            for name in (level.slug, level.name_en, level.name_fr):
                index[fold(name)] = level
    return re.compile(_B + alternation(index) + _E), index


def _names(text: str, kind: str) -> list[Span]:
    regex, index = _name_pattern(kind)
    found = []
    for match in regex.finditer(text):
        key = " ".join(match.group(0).replace("-", " ").split())
        value = index.get(key) or index.get(match.group(0))
        if value is None:
            value = next((item for name, item in index.items() if " ".join(name.replace("-", " ").split()) == key), None)
        if value is not None:
            found.append(Span(value, match.start(), match.end()))
    return found


def art_cards(text: str) -> list[Span]:
    """Art Card titles (and aliases such as "Improbable") in folded `text`, in order."""
    return _names(text, "art")


def scoring_cards(text: str) -> list[Span]:
    """Scoring Card names (slug, English or French) in folded `text`, in order."""
    return _names(text, "scoring")


def scenarios(text: str) -> list[Span]:
    """Scenario names; a name that is also an everyday game word ("Bonus") needs "scenario" beside it."""
    found = []
    scenario_word = alternation(words("scenario"))
    for span in _names(text, "scenario"):
        name = text[span.start:span.end]
        if name in words("silver"):
            before, after = text[max(0, span.start - 14):span.start], text[span.end:span.end + 14]
            if not (re.search(scenario_word + r"\s*(?:de\s+|du\s+|d')?$", before) or re.match(r"\s*" + scenario_word, after)):
                continue
        found.append(span)
    return found


def solo_levels(text: str) -> list[Span]:
    """Solo difficulty levels, only where the question is about solo play or a level (names are everyday words)."""
    if not re.search(_B + r"(?:solo|level|niveau|difficulty|difficulte|mode)" + _E, text):
        return []
    return _names(text, "level")


def colours(text: str) -> list[Span]:
    """Ribbon colours ("red", "rouges", "purple"), each as its mat slot name."""
    found = []
    for slot, names in vocabulary()["colours"].items():
        for match in re.finditer(_B + alternation(names) + _E, text):
            found.append(Span(slot, match.start(), match.end()))
    return sorted(found, key=lambda span: span.start)
