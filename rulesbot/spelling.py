"""Misspelt words read as the pack's own words, once, at the front door (after the chat shorthand).

Players type "how many ribons", "inspration tokens", "backround card", "les jettons", "le tableua": a word that
neither the pack nor the language knows, one typo away from a word the pack's own texts use often. Retrieval
(lexical and dense) and the question-understanding layer then read the pack's word. The rule is general and
the data is the pack's: the candidates are the words of its records (rulebook passages, FAQ answers, questions
and paraphrases, in every language it has), so an ingested site rulebook gets its own corrections for free.

A word is corrected only when all of these hold:
- it is at least MIN_LENGTH letters, no digit, and the pack's texts do not use it;
- it is not a clipped pack word ("comp", "répét"), a form of the word it is near ("silvers", "empilées": the
  stemmers read those) or a word with its apostrophe left out ("theres", "youre");
- the language does not know it as a word (the English and French frequency lists of `pyspellchecker`, loaded
  only when a candidate was found: "taken" is one edit from "token" but a word, "tokes" is a rare word and a typo);
- one of the pack's words is within 1 edit (2 from 9 letters: "inspration"), an adjacent swap
  counting as one ("tableua"), with the same first letter, used at least MIN_PACK_COUNT times;
- that word is the only closest one (two at the same distance and nearly as common: left as typed);
- a capitalised word inside a sentence (a player's name, "Marc") is read only as a capitalised pack word (a card
  title, "Vincent").
`correct(read, pack)` keeps, for every character, where it came from in the question as asked.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from rapidfuzz.distance import OSA

from rulesbot.lang import LANGS
from rulesbot.retrieval.lexical import tokens
from rulesbot.shorthand import Normalised

MIN_LENGTH = 4
MIN_PACK_COUNT = 2
# Two edits are allowed from this many letters ("inspration", "consistancy"), unless the two words differ only in
# their last ENDING letters (French inflections are two edits apart: "proposées" / "propose").
LONG_WORD = 9
ENDING = 4
# A word the language's frequency list counts at least this often is a word, not a typo ("taken", "robin"); the
# lists count rare words and old spellings too ("tokes", "jetton": 50).
WORD_FREQUENCY = 200
# Two candidates at the same distance: the commoner wins only when it is this many times as common.
CLEAR_WINNER = 4

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s*|\n\s*)$")


def fold(text: str) -> str:
    """Lower case, accents removed."""
    if text.isascii():
        return text.lower()
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


class PackWords:
    """The words of one pack's texts: folded form -> count, most common surface form, capitalised or not."""

    def __init__(self, texts):
        counts: Counter[str] = Counter()
        surfaces: dict[str, Counter[str]] = {}
        for text in texts:
            for word in _WORD.findall(text or ""):
                key = fold(word)
                counts[key] += 1
                surfaces.setdefault(key, Counter())[word] += 1
        self.counts = counts
        self.surface = {key: forms.most_common(1)[0][0] for key, forms in surfaces.items()}
        self.capitalised = {key for key, forms in surfaces.items()
                            if sum(n for form, n in forms.items() if form[:1].isupper()) * 2 > sum(forms.values())}
        by_initial: dict[str, list[str]] = {}
        for key, count in counts.items():
            if count >= MIN_PACK_COUNT and len(key) >= MIN_LENGTH - 1:
                by_initial.setdefault(key[0], []).append(key)
        self.by_initial = by_initial

    def candidate(self, word: str, capitalised_only: bool = False) -> str | None:
        """The pack word `word` (folded, unknown to the pack) is a typo of, or None."""
        limit = 1 if len(word) < LONG_WORD else 2
        found: list[tuple[int, int, str]] = []
        for key in self.by_initial.get(word[0], ()):
            if abs(len(key) - len(word)) > limit or (capitalised_only and key not in self.capitalised):
                continue
            distance = OSA.distance(word, key, score_cutoff=limit)
            if distance == 2 and _ending_only(word, key):
                continue  # "proposées" / "propose": another form of the word, not a typo of it
            if distance <= limit:
                found.append((distance, -self.counts[key], key))
        if not found:
            return None
        found.sort()
        best = found[0]
        if len(found) > 1 and found[1][0] == best[0] and -found[1][1] * CLEAR_WINNER > -best[1]:
            return None
        return best[2]


def _ending_only(word: str, other: str) -> bool:
    """Whether two words differ only in their last few letters (an inflection: "débutons" / "débutants")."""
    common = 0
    while common < min(len(word), len(other)) and word[common] == other[common]:
        common += 1
    return len(word) - common <= ENDING and len(other) - common <= ENDING


@lru_cache(maxsize=1)
def _language_words() -> tuple[dict[str, int], ...]:
    """The English and French word frequencies, loaded on first need: each list as it is, and its accented words
    folded ("eloignee" is "éloignée" typed without accents)."""
    from spellchecker import SpellChecker

    tables = []
    for lang in ("en", "fr"):
        frequencies = SpellChecker(language=lang, distance=1).word_frequency.dictionary
        folded: dict[str, int] = {}
        for word, count in frequencies.items():
            if not word.isascii():
                key = fold(word)
                folded[key] = max(count, folded.get(key, 0))
        tables += [frequencies, folded]
    return tuple(tables)


def is_word(word: str) -> bool:
    """Whether English or French knows `word` (folded) as a word of some frequency."""
    return any(table.get(word, 0) >= WORD_FREQUENCY for table in _language_words())


_APOSTROPHE_ENDINGS = ("s", "t", "re", "ve", "ll", "d", "m")


def _not_a_typo(word: str, target: str, words: PackWords) -> bool:
    """Whether `word`, one edit from the pack's `target`, is still as meant: a word of the language, a word with
    its apostrophe left out ("theres", "youre"), a clipped pack word ("comp", "répét", "intro"), or a form of
    `target` itself (a plural, a conjugation: "silvers", "empilées"; the stemmers of retrieval already read them)."""
    if is_word(word):
        return True
    if any(word.endswith(ending) and is_word(f"{word[: -len(ending)]}'{ending}") for ending in _APOSTROPHE_ENDINGS):
        return True
    if any(key.startswith(word) for key in words.by_initial.get(word[0], ())):
        return True
    # Retrieval's own (thread-safe, memoised) stemmers.
    return any(tokens(word, lang) == tokens(target, lang) for lang in LANGS)


def pack_words(pack) -> PackWords:
    """The words of `pack`'s records (computed once per loaded pack)."""
    cached = pack.__dict__.get("_spelling_words")
    if cached is None:
        texts = []
        for entry in pack.entries:
            texts += [entry.text, entry.section, entry.question or "", *entry.paraphrases]
        cached = PackWords(texts)
        pack.__dict__["_spelling_words"] = cached
    return cached


def corrections(text: str, words: PackWords) -> list[tuple[int, int, str]]:
    """(start, end, pack word) for each misspelt word of `text`."""
    found = []
    for match in _WORD.finditer(text):
        word = match.group(0)
        key = fold(word)
        if len(key) < MIN_LENGTH or not key.isalpha() or key in words.counts:
            continue
        inside = word[0].isupper() and not _SENTENCE_START.search(text[: match.start()])
        target = words.candidate(key, capitalised_only=inside)
        if target is None or _not_a_typo(key, target, words):
            continue
        surface = words.surface[target]
        if target not in words.capitalised:
            surface = surface.lower()
        if word[0].isupper():
            surface = surface[0].upper() + surface[1:]
        found.append((match.start(), match.end(), surface))
    return found


def correct(read: Normalised, pack) -> Normalised:
    """`read` with its misspelt words read as `pack`'s own (see the module's rule); spans kept."""
    found = corrections(read.text, pack_words(pack))
    if not found:
        return read
    text = read.text
    pieces: list[tuple[str, int, int]] = []
    kept_from = 0
    for start, end, surface in found:
        pieces += [(text[index], read.starts[index], read.ends[index]) for index in range(kept_from, start)]
        span = (read.starts[start], max(read.ends[start:end]))
        pieces += [(char, *span) for char in surface]
        kept_from = end
    pieces += [(text[index], read.starts[index], read.ends[index]) for index in range(kept_from, len(text))]
    return Normalised(read.original, "".join(piece[0] for piece in pieces),
                      tuple(piece[1] for piece in pieces), tuple(piece[2] for piece in pieces))
