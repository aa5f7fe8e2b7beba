"""Chat shorthand written out once, before a question is checked for scope, parsed and searched.

Players type "cb de rubans ?", "chui a 4 cartes", "can i paint w all 4 fr", "bro i took the card w 3 tokens".
`normalise(question, lang)` replaces each shorthand word by its standard form and drops the words that carry no
meaning for the rules (laughter, "ngl", "wsh", "bro" said to the reader), from one table per language
(rulesbot/shorthand.json: data, not code), so every later step (scope cues, the question-understanding layer,
retrieval) reads "combien de rubans ?", "je suis a 4 cartes", "can i paint with all 4". The result keeps, for each
of its characters, where it came from in the question as asked (`Normalised.original_span`), so anything read
from the written-out text can be pointed back at the player's own words.

A one-letter key ("c" for "c'est", "u", "w", "n") is read only when typed lowercase and not after a word that
names one of the rulebook's letters ("Step C", "étape C"); a word that also has a plain meaning after a
determiner is read as that noun there ("my bro says" keeps "brother"; "bro, I took it" drops it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from rulesbot.lang import LANGS


@dataclass(frozen=True)
class Normalised:
    """A question as read: `text` (shorthand written out), the question as asked, and where each character of
    `text` came from (`starts[i]`, `ends[i]`: the span of the asked text that character stands for)."""

    original: str
    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @property
    def changed(self) -> bool:
        """Whether anything was written out or dropped."""
        return self.text != self.original

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the question as asked that `text[start:end]` was read from (a written-out word maps to the
        whole shorthand it replaces)."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span ({start}, {end}) is outside the read text (length {len(self.text)})")
        if start == end:
            position = self.starts[start] if start < len(self.starts) else len(self.original)
            return position, position
        return self.starts[start], max(self.ends[start:end])


@lru_cache(maxsize=1)
def shorthand_data() -> dict:
    """The shorthand tables and their guards (shorthand.json)."""
    return json.loads(resources.files(__package__).joinpath("shorthand.json").read_text(encoding="utf-8"))


def _fold_char(char: str) -> str:
    # One character in, one out, so positions in the folded text are positions in the question.
    if char in "’‘":
        return "'"
    lowered = char.lower()
    plain = "".join(part for part in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(part))
    return plain if len(plain) == 1 else (lowered if len(lowered) == 1 else char)


def _fold(text: str) -> str:
    return "".join(_fold_char(char) for char in text)


@lru_cache(maxsize=len(LANGS))
def _entries(lang: str) -> dict[str, str | list[str]]:
    """`lang`'s shorthand table: the elisions the question-understanding layer restores ("jai" -> "j'ai",
    rulesbot/compute/language.json), read here too so retrieval sees them, then shorthand.json's own words."""
    from rulesbot.compute.text import language

    return {**language().get("elisions", {}).get(lang, {}), **shorthand_data().get(lang, {})}


@lru_cache(maxsize=len(LANGS))
def _table(lang: str) -> tuple[re.Pattern | None, dict[str, tuple[str, str]]]:
    table: dict[str, tuple[str, str]] = {}
    for word, plain in _entries(lang).items():
        alone, as_noun = (plain, plain) if isinstance(plain, str) else (plain[0], plain[1])
        table[_fold(word)] = (alone, as_noun)
    if not table:
        return None, table
    words = sorted(table, key=len, reverse=True)
    # A word right after an elision counts too ("l'appli", "d'la"): one letter and an apostrophe before it.
    pattern = re.compile(r"(?:(?<=\b\w')|(?<![\w'/-]))(?:" + "|".join(re.escape(word) for word in words) + r")(?![\w'-])")
    return pattern, table


@lru_cache(maxsize=1)
def _guards() -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    data = shorthand_data()
    determiners = {lang: frozenset(_fold(word) for word in words) for lang, words in data.get("determiners", {}).items()}
    return frozenset(_fold(word) for word in data.get("not_after", ())), determiners


_PREVIOUS_WORD = re.compile(r"([\w'-]+)\s*$")
_NEXT_WORD = re.compile(r"\s+([\w'-]+)")


@lru_cache(maxsize=1)
def _not_before() -> dict[str, frozenset[str]]:
    return {_fold(key): frozenset(_fold(word) for word in words) for key, words in shorthand_data().get("not_before", {}).items()}


def _previous_word(folded: str, start: int) -> str | None:
    match = _PREVIOUS_WORD.search(folded, 0, start)
    return match.group(1) if match and folded[match.end() : start].strip() == "" else None


def _reading(question: str, folded: str, match: re.Match, lang: str, table: dict) -> str | None:
    """What the shorthand at `match` reads as ('' to drop it), or None when it is left as typed."""
    not_after, determiners = _guards()
    word = match.group(0)
    previous = _previous_word(folded, match.start())
    if len(word) == 1:
        # "C" in "Step C" is the rulebook's letter; only a lowercase lone letter is chat.
        if not question[match.start()].islower() or previous in not_after:
            return None
    following = _NEXT_WORD.match(folded, match.end())
    if following and following.group(1) in _not_before().get(word, ()):
        # "c est" is "c'est" typed with a space: written out, it would say "c'est est".
        return None
    alone, as_noun = table[word]
    return as_noun if previous in determiners.get(lang, ()) else alone


@lru_cache(maxsize=2048)
def normalise(question: str, lang: str) -> Normalised:
    """`question` with `lang`'s chat shorthand written out and its empty words dropped (shorthand.json)."""
    pattern, table = _table(lang)
    identity = tuple(range(len(question)))
    if pattern is None:
        return Normalised(question, question, identity, tuple(index + 1 for index in identity))
    folded = _fold(question)
    pieces: list[tuple[str, int, int]] = []  # (text, start, end in the question)
    kept_from = 0
    replaced = False
    for match in pattern.finditer(folded):
        reading = _reading(question, folded, match, lang, table)
        if reading is None:
            continue
        start, end = match.span()
        if reading == "":
            start, end = _dropped_span(question, start, end)
        elif question[start].isupper():
            reading = reading[:1].upper() + reading[1:]
        if start < kept_from:
            continue
        pieces += [(question[index], index, index + 1) for index in range(kept_from, start)]
        pieces += [(char, start, end) for char in reading]
        kept_from = end
        replaced = True
    if not replaced:
        return Normalised(question, question, identity, tuple(index + 1 for index in identity))
    pieces += [(question[index], index, index + 1) for index in range(kept_from, len(question))]
    # A word dropped at the very start or end may leave an edge space or a comma that opened the message.
    while pieces and (pieces[0][0].isspace() or pieces[0][0] in ",;"):
        pieces.pop(0)
    while pieces and pieces[-1][0].isspace():
        pieces.pop()
    if not pieces:
        return Normalised(question, question, identity, tuple(index + 1 for index in identity))
    return Normalised(
        question,
        "".join(piece[0] for piece in pieces),
        tuple(piece[1] for piece in pieces),
        tuple(piece[2] for piece in pieces),
    )


def _dropped_span(question: str, start: int, end: int) -> tuple[int, int]:
    """The span a dropped word takes with it: the spaces after it ("ngl what" -> "what"), a comma that follows
    it at the start ("lol, ok"), or, before punctuation or the end, the spaces before it ("3 cards fr?")."""
    after = end
    if start == 0 or question[:start].strip() == "":
        while after < len(question) and question[after] in ",;:":
            after += 1
    spaces = after
    while spaces < len(question) and question[spaces].isspace():
        spaces += 1
    if spaces > after and spaces < len(question):
        return start, spaces
    before = start
    while before > 0 and question[before - 1].isspace():
        before -= 1
    return before, after


@lru_cache(maxsize=1)
def language_words() -> dict[str, frozenset[str]]:
    """For each language, the shorthand words (folded) that only its table lists: evidence of that language."""
    tables = {lang: frozenset(_fold(word) for word in _entries(lang)) for lang in LANGS}
    return {lang: words - frozenset().union(*(tables[other] for other in LANGS if other != lang)) for lang, words in tables.items()}
