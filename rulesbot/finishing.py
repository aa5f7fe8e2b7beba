"""The last step of every answer (`Rulesbot.ask`): its stable `id` and its one-line `headline`.

    answer = finish_answer(answer, game="canvas")

- `id`: a short hash of the game, the answer language, the normalised question and the answer text, so one answer to
  one question always has the same id (a cached answer keeps it, a vote on it finds it in the analytics).
- `headline`: what a player needs at a glance. A claim: its verdict sentence ("False: it is 11 points, not 9."; a
  bare "True." gets the sentence holding the result after it); a computed answer: the sentence holding the result
  (the engine's `points`, phrased as the answer phrases it); a rule: its first sentence. An abstention ("I don't
  know ...") has no verdict, number or rule to headline: None.
"""

import hashlib
import re
import unicodedata
from collections.abc import Sequence

from rulesbot.models import Answer

ID_HEX_CHARS = 16
# A headline is one line in a widget or a chat: longer first sentences are cut at a word.
MAX_HEADLINE_CHARS = 200
# A sentence ends at . ! ? … followed by a space and a capital, a digit is not a new sentence ("p. 4").
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«“\"(]?[^\W\d_])", flags=re.UNICODE)
# A verdict this short ("True.", "Vrai.") says nothing of the result on its own.
BARE_VERDICT_WORDS = 2
# What a game without its own word list calls its points (a GameSpec's templates name them per language).
DEFAULT_POINT_WORDS = ("point", "points")


def finish_answer(answer: Answer, *, game: str, point_words: Sequence[str] = DEFAULT_POINT_WORDS) -> Answer:
    """`answer` with its `id` and `headline` filled in (those already set are kept).

    `point_words` are the game's words for its points in the answer's language (its GameSpec templates), so the
    headline of a computed answer is the sentence that states the points.
    """
    updates = {}
    if not answer.id:
        updates["id"] = answer_id(answer, game=game)
    if answer.headline is None:
        updates["headline"] = headline(answer, point_words=point_words)
    return answer.model_copy(update=updates) if updates else answer


def normalise_question(question: str) -> str:
    """The question as ids and the answer cache see it: NFKC, casefolded, spaces collapsed, end punctuation cut."""
    text = unicodedata.normalize("NFKC", question).casefold()
    return " ".join(text.split()).rstrip(" ?!.")


def answer_id(answer: Answer, *, game: str) -> str:
    """The stable id of one answer to one question (16 hex characters)."""
    material = "\x1f".join((game, answer.lang, normalise_question(answer.question), answer.answer))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:ID_HEX_CHARS]


def headline(answer: Answer, *, point_words: Sequence[str] = DEFAULT_POINT_WORDS) -> str | None:
    """The verdict, the result or the rule in one sentence (None for an abstention or an empty answer)."""
    sentences = split_sentences(answer.answer)
    if not sentences or answer.kind == "unknown":
        return None
    first = sentences[0]
    result = _result_sentence(answer, sentences, point_words)
    if answer.kind == "claim":
        if len(first.split()) <= BARE_VERDICT_WORDS and result is not None and result != first:
            return _shorten(f"{first} {result}")
        return _shorten(first)
    if answer.kind == "computed" and result is not None:
        return _shorten(result)
    return _shorten(first)


def split_sentences(text: str) -> list[str]:
    """The sentences of an answer text."""
    return [part.strip() for part in _SENTENCE_END.split(text.strip()) if part.strip()]


def _result_sentence(answer: Answer, sentences: list[str], point_words: Sequence[str]) -> str | None:
    points = (answer.engine or {}).get("points")
    if not isinstance(points, int) or isinstance(points, bool) or not point_words:
        return None
    # The number said as points ("11 points", "1 point"): a swatch list's bare digits don't match.
    words = "|".join(re.escape(word) for word in sorted(point_words, key=len, reverse=True))
    phrase = re.compile(rf"(?<![\d.,]){points}\s+(?:{words})\b", re.IGNORECASE)
    return next((sentence for sentence in sentences if phrase.search(sentence)), None)


def _shorten(sentence: str) -> str:
    if len(sentence) <= MAX_HEADLINE_CHARS:
        return sentence
    return sentence[: MAX_HEADLINE_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;: ") + "…"
