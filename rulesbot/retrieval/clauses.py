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

from rulesbot.retrieval.ranking import _cue_patterns, _fold_keeping_positions, _pattern, ranking_data
from rulesbot.scope import fold

# A clause ends at a sentence end, a semicolon or colon, a dash between spaces or a comma; a spoken French tail
# ("… c'est celui qui …", "… c est ça …") starts one.
_BOUNDARY = re.compile(r"[?!.;:]+(?=\s|$)|\s[—–-]\s|,|\s(?=c'?\s?est\s)", re.IGNORECASE)
MIN_CLAUSE_WORDS = 2
_SAME_NUMBER = re.compile(r"(?<!\w)(?:same number of|as many|meme (?:nombre|nb) d'?(?:e )?|autant d'?(?:e )?)")


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


@lru_cache(maxsize=1)
def _asking_phrase() -> re.Pattern:
    # Where a question's asking part starts: a wh phrase or a how-many phrase ("how many tokens do I pay").
    data = ranking_data()
    return _pattern([*data["forms"]["wh"], *data["forms"]["how_many"]]) or re.compile(r"(?!)")


def conditional_ask(question: str) -> str | None:
    """The asking part of a question that opens with a condition ("if I skip 2 cards, how many tokens do I pay?"
    -> "how many tokens do I pay"), or None when it does not open with one or asks nothing after it.

    A follow-up that changes the condition ("what if I skip all four?", "et pour la dernière ?") asks that same
    thing again (Retriever.follow_up_text); a question without a condition ("Vincent starts with how many
    tokens?") lends only the things it names."""
    folded, positions = _fold_keeping_positions(question)
    subordinate = _subordinate()
    if subordinate is None or not subordinate.match(folded):
        return None
    # The asking part follows the condition: after its first clause boundary ("si je saute 1 carte, je dois poser
    # combien ?"), else from the first asking phrase after the opening word ("if I skip 2 how many do I pay").
    parts = clauses(question)
    if len(parts) > 1 and any(_asking_phrase().search(fold(text)) for text, _asked in parts[1:]):
        asked = " ".join(text for text, _asked in parts[1:])
    else:
        found = [match for match in _asking_phrase().finditer(folded) if match.start() > 0]
        if not found:
            return None
        asked = question[positions[found[0].start()]:]
    asked = asked.strip().rstrip("?!. ").strip()
    return asked or None


def situation_ask(question: str) -> str | None:
    """The asking clause of a question that first states a situation, then asks about it ("tom and mia both
    finished on 28. tom kept 1 token, mia kept 2. who takes the win?" -> "who takes the win"), or None: the last clause asks (in question
    form, `asks`, and not a yes/no one) and every clause before it states (none asks).

    A follow-up that changes the situation ("and if they had kept the same number of tokens?") asks that same
    thing again (Retriever.follow_up_text), as after a condition (conditional_ask)."""
    parts = clauses(question)
    if len(parts) < 2:
        return None
    last, closed = parts[-1]
    # A yes/no ask ("je peux en prendre une 6e ?") is about the act it names, which the follow-up may change too.
    if not asks(last, closed) or _cue_patterns()["openings"].match(fold(last)):
        return None
    if any(asks(text, asked) for text, asked in parts[:-1]):
        return None
    return last.strip().rstrip("?!. ").strip() or None


def asks_its_own(follow_up: str) -> bool:
    """Whether a follow-up asks a question of its own (a wh or how-many phrase once its "what if" / "what about"
    opener is set aside): "what if I skip all four?" does not, "and how many for Vincent?" does."""
    # "the same number of tokens" compares two counts, it asks none (as in rulesbot.answer.coverage_gaps).
    folded = _SAME_NUMBER.sub(" ", fold(follow_up))
    openers = _listed("follow_up_openers")
    return bool(_asking_phrase().search(openers.sub(" ", folded)))

