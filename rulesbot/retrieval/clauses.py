"""The question's main clause: a message that chats around its question is also searched by the clause that asks.

"qui commence la partie, c'est celui qui a gagné la dernière fois ?" or "Is there a fuller explanation of each
card? The children keep asking me 'does this count?'": the whole message's embedding is pulled towards the
chit-chat (the winner, final scoring). The message is cut into clauses (sentence ends, dashes, commas, and a
spoken tail opened by "c'est"); the clauses in question form (opened by a question word or a yes/no opening,
ranking.json "forms", plus the few interrogatives of "main_clause_openings"; a question mark alone is not enough,
"…, la gratuite ?" is an apposition) make the main clause, searched with
the things the other clauses name (EntityVocabulary), so "In Solo Puzzle, after I take a card, how far…" keeps its
variant. A clause opened by a preposition ("for a first game", "en solo", "after I take a card") qualifies the
question and stays in the main clause; an asking clause that refers back ("is that right?") is not searched alone.
The caller keeps whichever of the two searches is better supported (Retriever.main_clause_search).
"""

import re
from functools import lru_cache

from rulesbot.retrieval.ranking import _cue_patterns, _pattern, ranking_data
from rulesbot.scope import fold

# A clause ends at a sentence end, a semicolon or colon, a dash between spaces or a comma; a spoken French tail
# ("… c'est celui qui …", "… c est ça …") starts one.
_BOUNDARY = re.compile(r"[?!.;:]+(?=\s|$)|\s[—–-]\s|,|\s(?=c'?\s?est\s)", re.IGNORECASE)
MIN_CLAUSE_WORDS = 2


@lru_cache(maxsize=1)
def _openings() -> re.Pattern:
    patterns = _cue_patterns()
    extra = _pattern(ranking_data().get("main_clause_openings", []))
    options = [patterns["openings"].pattern[len("^(?:"):-1], patterns["wh"].pattern]
    if extra is not None:
        options.append(extra.pattern)
    return re.compile(r"^(?:" + "|".join(f"(?:{option})" for option in options) + ")")


def clauses(question: str) -> list[tuple[str, bool]]:
    """The question's clauses in order, each with whether it was closed by a question mark."""
    found, start = [], 0
    for match in _BOUNDARY.finditer(question):
        found.append((question[start:match.start()].strip(), "?" in match.group()))
        start = match.end()
    found.append((question[start:].strip(), False))
    return [(text, asked) for text, asked in found if text]


@lru_cache(maxsize=1)
def _subordinate() -> re.Pattern | None:
    found = _pattern(ranking_data().get("main_clause_subordinate", []))
    return re.compile(r"^(?:" + found.pattern + ")") if found is not None else None


def asks(clause: str, closed_by_question_mark: bool = False) -> bool:
    """Whether `clause` opens in question form ("qui commence", "does she…", "comment on…"); a clause opened by a
    conjunction of condition or time ("when I take a card", "quand il prend", "si…") asks only when a question mark
    closes it."""
    folded = fold(clause)
    if not _openings().match(folded):
        return False
    subordinate = _subordinate()
    return closed_by_question_mark or subordinate is None or not subordinate.match(folded)


def main_clause(question: str) -> tuple[str, list[str]] | None:
    """The clause(s) that ask, and the other clauses, when the message has both; None when there is nothing to
    separate (one clause, or every clause asks)."""
    parts = [(text, asked) for text, asked in clauses(question) if len(text.split()) >= MIN_CLAUSE_WORDS]
    if len(parts) < 2:
        return None
    main = [text for text, asked in parts if asks(text, asked)]
    if not main or len(main) == len(parts):
        return None
    refers_back = _listed("main_clause_anaphora")
    if any(refers_back.search(fold(text)) for text in main):
        # "…. is that right?", "does it still count?": the asking clause means nothing without the rest.
        return None
    qualifies = _listed("main_clause_qualifiers", opening=True)
    kept = [text for text, asked in parts if text in main or qualifies.match(fold(text))]
    if len(kept) == len(parts):
        return None
    rest = [text for text, _asked in parts if text not in kept]
    return " ".join(kept), rest


@lru_cache(maxsize=4)
def _listed(key: str, opening: bool = False) -> re.Pattern:
    found = _pattern(ranking_data().get(key, [])) or re.compile(r"(?!)")
    return re.compile(r"^(?:" + found.pattern + ")") if opening else found
