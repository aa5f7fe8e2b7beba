"""Chat shorthand written out once, before a question is checked for scope, parsed and searched.

Players type "cb de rubans ?", "chui a 4 cartes", "can i paint w all 4 fr", "bro i took the card w 3 tokens".
`normalise(question, lang)` replaces each shorthand word by its standard form and drops the words that carry no
meaning for the rules (laughter, "ngl", "wsh", "bro" said to the reader), from one table per language
(rulesbot/shorthand.json: data, not code), so every later step (scope cues, the question-understanding layer,
retrieval) reads "combien de rubans ?", "je suis a 4 cartes", "can i paint with all 4". The result keeps, for each
of its characters, where it came from in the question as asked (`Normalised.original_span`), so anything read
from the written-out text can be pointed back at the player's own words.

With a game (`normalise(question, lang, game)`), the words players borrow from other games and their vague
references are then read as that game's own things, from the game's table (rulesbot/game_words.json): "coins" and
"chips" are its tokens, "tiles" and "les transparents" its Art Cards, "medals" its ribbons, "the river" its row. Each
word that has a false friend is guarded there ("coin flip", "score sheet", "board game", "sous la carte").

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


def _words_pattern(words) -> re.Pattern:
    """One pattern for any of `words` as a whole word, longest first; a word right after an elision counts too
    ("l'appli", "d'la": one letter and an apostrophe before it)."""
    ordered = sorted(words, key=len, reverse=True)
    return re.compile(r"(?:(?<=\b\w')|(?<![\w'/-]))(?:" + "|".join(re.escape(word) for word in ordered) + r")(?![\w'-])")


@lru_cache(maxsize=len(LANGS))
def _table(lang: str) -> tuple[re.Pattern | None, dict[str, tuple[str, str]]]:
    table: dict[str, tuple[str, str]] = {}
    for word, plain in _entries(lang).items():
        alone, as_noun = (plain, plain) if isinstance(plain, str) else (plain[0], plain[1])
        table[_fold(word)] = (alone, as_noun)
    if not table:
        return None, table
    return _words_pattern(table), table


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
def normalise(question: str, lang: str, game: str | None = None) -> Normalised:
    """`question` with `lang`'s chat shorthand written out and its empty words dropped (shorthand.json), then, with
    a `game`, the words borrowed from other games read as that game's own (game_words.json)."""
    read = _normalise_shorthand(question, lang)
    return _read_game_words(read, lang, game) if game else read


def _normalise_shorthand(question: str, lang: str) -> Normalised:
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


@lru_cache(maxsize=1)
def game_words_data() -> dict:
    """The borrowed-word tables of every game (game_words.json)."""
    return json.loads(resources.files(__package__).joinpath("game_words.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class _GameWord:
    reads: str
    unless_before: tuple[str, ...] = ()
    unless_after: tuple[str, ...] = ()
    only_after: tuple[str, ...] = ()
    beside: tuple[str, ...] = ()
    counting: tuple[str, ...] = ()
    between: tuple[str, ...] = ()
    after_count: tuple[str, ...] = ()


def _game_word(entry: dict) -> _GameWord:
    return _GameWord(
        entry["reads"],
        *(tuple(_fold(phrase) for phrase in entry.get(key, ())) for key in ("unless_before", "unless_after", "only_after")),
        tuple(entry.get("beside", ())),
        tuple(entry.get("counting", ())),
        tuple(entry.get("between", ())),
        tuple(entry.get("after_count", ())),
    )


@lru_cache(maxsize=16)
def _game_table(game: str, lang: str) -> tuple[re.Pattern | None, dict[str, tuple[_GameWord, ...]]]:
    """Each borrowed word's readings: one, or several alternatives (a list in game_words.json), each with its guards;
    the word is read by the first alternative whose guards all hold."""
    entries = game_words_data().get(game, {}).get(lang, {})
    table: dict[str, tuple[_GameWord, ...]] = {}
    for word, entry in entries.items():
        alternatives = entry if isinstance(entry, list) else [entry]
        table[_fold(word)] = tuple(_GameWord(item) if isinstance(item, str) else _game_word(item) for item in alternatives)
    if not table:
        return None, table
    return _words_pattern(table), table


@lru_cache(maxsize=512)
def _following_pattern(phrases: tuple[str, ...]) -> re.Pattern | None:
    """One pattern for "the text right after a word opens with one of `phrases`" ("{number}", "{end}")."""
    options = [r"\d" if phrase == "{number}" else r"(?:[.?!…]|$)" if phrase == "{end}" else re.escape(phrase) + r"(?!\w)"
               for phrase in phrases]
    return re.compile(r"\s*(?:" + "|".join(options) + ")") if options else None


@lru_cache(maxsize=512)
def _preceding_pattern(phrases: tuple[str, ...]) -> re.Pattern | None:
    """One pattern for "the text right before a word closes with one of `phrases`" ("{start}")."""
    options = [
        r"(?:^|[.?!…:;])\s*" if phrase == "{start}"
        else r"(?<![\w'])" + re.escape(phrase) + (r"\s*" if phrase.endswith("'") else r"\s+")
        for phrase in phrases
    ]
    return re.compile(r"(?:" + "|".join(options) + r")$") if options else None


def _starts_with(following: str, phrases: tuple[str, ...]) -> bool:
    """Whether the text right after a word opens with one of `phrases` (whole words; "{number}", "{end}")."""
    pattern = _following_pattern(phrases)
    return pattern is not None and pattern.match(following) is not None


def _ends_with(preceding: str, phrases: tuple[str, ...]) -> bool:
    """Whether the text right before a word closes with one of `phrases` (whole words; "{start}")."""
    pattern = _preceding_pattern(phrases)
    return pattern is not None and pattern.search(preceding) is not None


_LAST_WORD = re.compile(r"([\w-]+)[\s']*$")
_FIRST_WORD = re.compile(r"\s*([\w-]+)")


def _named_beside(before: str, after: str, lang: str, game: str, kinds: tuple[str, ...]) -> bool:
    """Whether the word right before or right after is one of the game's named things of `kinds` ("proximity
    objective", "l'objectif variété"), as the question-understanding layer reads that word alone."""
    from rulesbot.compute.parse import parse

    words = [match.group(1) for match in (_LAST_WORD.search(before), _FIRST_WORD.match(after)) if match]
    return any(slot.name in kinds for word in words for slot in parse(word, lang, game).slots)


def _named_around(before: str, after: str, lang: str, game: str, kinds: tuple[str, ...]) -> bool:
    """Whether the words right before and right after are both named things of `kinds` ("hierarchie de proportion":
    two Scoring Cards, so the word between them joins two counts of a list)."""
    from rulesbot.compute.parse import parse

    sides = (_LAST_WORD.search(before), _FIRST_WORD.match(after))
    return all(match is not None and any(slot.name in kinds for slot in parse(match.group(1), lang, game).slots)
               for match in sides)


def _counted_before(before: str, game: str, lists: tuple[str, ...]) -> bool:
    """Whether the sentence so far already lists a count: a number (digits or a number word) right before a word of
    the game's vocabulary `lists` ("three violet on composition and to silver", "j'ai deux rubans ... trois emphase"),
    so the message is a tally and a word heard for a number there stands where a number is expected."""
    from rulesbot.compute.text import numbers_for
    from rulesbot.games import game_spec

    sentence = re.split(r"[.?!;]", before)[-1]
    spec = game_spec(game)
    if spec is None:
        return False
    counted = _following_pattern(_counted_words(game, lists))
    return counted is not None and any(counted.match(sentence, slot.end) for slot in numbers_for(spec.vocabulary).find(sentence))


def _counts_next(after: str, game: str, lists: tuple[str, ...]) -> bool:
    """Whether the text right after a word opens with a word of one of the game's vocabulary `lists` (the things a
    number counts: "for tokens", "to ribbons"), so the word stands where a number is expected."""
    return _starts_with(after, _counted_words(game, lists))


@lru_cache(maxsize=64)
def _counted_words(game: str, lists: tuple[str, ...]) -> tuple[str, ...]:
    """The folded words of the game's vocabulary `lists`, longest first (read once per game and lists)."""
    from rulesbot.games import game_spec

    spec = game_spec(game)
    vocabulary = spec.vocabulary if spec is not None else {}
    phrases = set()
    for name in lists:
        entry = vocabulary.get(name, ())
        # A table of named things ("colours": {"red": ["red", "rouge", ...]}) counts by every one of its words.
        for item in (entry.values() if isinstance(entry, dict) else [entry]):
            phrases |= {_fold(phrase) for phrase in item if isinstance(phrase, str)}
    return tuple(sorted(phrases, key=len, reverse=True))


def _read_game_words(read: Normalised, lang: str, game: str) -> Normalised:
    """`read` with `game`'s borrowed words (game_words.json) read as the game's own, each guarded against its false
    friends; every character keeps where it came from in the question as asked."""
    pattern, table = _game_table(game, lang)
    if pattern is None:
        return read
    text = read.text
    folded = _fold(text)
    pieces: list[tuple[str, int, int]] = []
    kept_from = 0
    replaced = False
    for match in pattern.finditer(folded):
        # The sentence so far as read (earlier words already read as numbers count for a tally).
        read_before = _fold("".join(piece[0] for piece in pieces) + text[kept_from: match.start()])
        entry = next((item for item in table[match.group(0)]
                      if _holds(item, read_before, folded[match.end():], lang, game)), None)
        if entry is None:
            continue
        reading = entry.reads
        if text[match.start()].isupper():
            reading = reading[:1].upper() + reading[1:]
        start, end = match.span()
        if reading == "":
            # A dropped word takes one space with it: the one before ("variety objective, which" -> "variety, which").
            if start > kept_from and text[start - 1].isspace():
                start -= 1
            elif end < len(text) and text[end].isspace():
                end += 1
        pieces += [(text[index], read.starts[index], read.ends[index]) for index in range(kept_from, start)]
        span = (read.starts[start], max(read.ends[start:end]))
        pieces += [(char, *span) for char in reading]
        kept_from = end
        replaced = True
    if not replaced:
        return read
    pieces += [(text[index], read.starts[index], read.ends[index]) for index in range(kept_from, len(text))]
    return Normalised(
        read.original,
        "".join(piece[0] for piece in pieces),
        tuple(piece[1] for piece in pieces),
        tuple(piece[2] for piece in pieces),
    )


def _holds(entry: _GameWord, before: str, after: str, lang: str, game: str) -> bool:
    """Whether every guard of one reading of a borrowed word holds, with `before` and `after` the folded text around
    it."""
    if _starts_with(after, entry.unless_before) or _ends_with(before, entry.unless_after):
        return False
    if entry.only_after and not _ends_with(before, entry.only_after):
        return False
    # The guards that read the game's vocabulary come next, and those that parse the words around last (the dearest).
    if entry.counting and not _counts_next(after, game, entry.counting):
        return False
    if entry.after_count and not _counted_before(before, game, entry.after_count):
        return False
    if entry.beside and not _named_beside(before, after, lang, game, entry.beside):
        return False
    return not entry.between or _named_around(before, after, lang, game, entry.between)


def _courtesy_regex(phrase: str) -> str:
    """One courtesy entry as a regular expression: each "[a|b|]" group is one of its alternatives ('' for none),
    words apart by spaces or commas."""
    pieces = []
    for literal, group in re.findall(r"([^\[]*)(?:\[([^\]]*)\])?", _fold(phrase)):
        pieces += [re.escape(word) for word in literal.split()]
        if group:
            options = [r"[\s,]*".join(re.escape(word) for word in option.split()) for option in group.split("|")]
            if any(options):
                pieces.append("(?:" + "|".join(options) + ")")
    return r"[\s,]*".join(piece for piece in pieces if piece)


@lru_cache(maxsize=len(LANGS))
def _courtesy(lang: str) -> re.Pattern | None:
    """One pattern for `lang`'s courtesy formulas, each standing as a clause of its own: after the start or a
    punctuation mark, before a punctuation mark or the end (shorthand.json "courtesy")."""
    entries = [_courtesy_regex(entry) for entry in shorthand_data().get("courtesy", {}).get(lang, ())]
    entries = [entry for entry in entries if entry]
    if not entries:
        return None
    return re.compile(r"(?:^|(?<=[.!?;:,()]))[\s,]*(?:" + "|".join(f"(?:{entry})" for entry in entries)
                      + r")(?:[\s,]*[.!;:,]+|\s*(?=\?)|\s*$)", re.IGNORECASE)


_HANDLE = re.compile(r"(?<![\w.])@\w[\w.-]*")


def strip_courtesy(question: str, lang: str) -> str:
    """`question` without the courtesy formulas around it ("Good evening. ... I should be most grateful for your
    opinion." -> the question alone), each taken out only where it stands as a clause of its own; the question
    unchanged when nothing would be left of it but a word or two."""
    pattern = _courtesy(lang)
    if pattern is None or not question:
        return question
    original = question
    # A chat handle ("question de @meeple_rose", "from @sam") names who asks, never what is asked.
    question = " ".join(_HANDLE.sub("", question).split()) if "@" in question else question
    folded = _fold(question)  # one character per character: spans of the folded text are spans of the question
    kept, last = [], 0
    for match in pattern.finditer(folded):
        if not match.group(0).strip(" ,"):
            continue
        kept.append(question[last:match.start()])
        last = match.end()
    if not kept:
        return question if len(question.split()) >= 3 else original
    kept.append(question[last:])
    text = " ".join(" ".join(kept).split()).strip(" ,;:.")
    if question.rstrip().endswith("?") and "?" not in text:
        text = text + " ?" if lang == "fr" else text + "?"
    return text if len(text.split()) >= 3 else original
