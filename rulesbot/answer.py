"""Compose an Answer from ranked records: the answer text is a knowledge record's text, never generated.

kind "rule": the best record (an FAQ record if one scores close: it answers the question directly), in the
answer language through its other-language twin, with citations best first (the answer's own pages first,
then other close records, one per page and concept). kind "unknown": an honest message in the asker's language
and, when something is close, the pages to read.
"""

from rulesbot.knowledge import Entry, Pack
from rulesbot.models import Answer, Citation
from rulesbot.retrieval import Calibration, Ranked
from rulesbot.scope import OutOfScope, scope_message

MAX_CITATIONS = 4
SNIPPET_CHARS = 200

UNKNOWN = {
    "en": "I don't know: the {title} rules I have don't cover this.",
    "fr": "Je ne sais pas : les règles de {title} dont je dispose ne couvrent pas cette question.",
}
CLOSEST = {"en": "The closest pages: {pages}.", "fr": "Les pages les plus proches : {pages}."}
# When a record has no twin in the answer language (a user's one-language rulebook), say so honestly.
ONLY_IN = {
    "en": "From the rulebook (in French only): {text}",
    "fr": "D'après le livret (en anglais seulement) : {text}",
}


def choose_answer_record(records: list[Ranked], calibration: Calibration) -> Ranked:
    """The record that answers: the best one, or an FAQ record ranked within `faq_margin` of it.

    Records come in rank order, so the margin is on `rank_score` (with fusion, a record ranked lower can have
    the higher dense `score`; that record does not answer in place of the best one).
    """
    best = records[0]
    if best.entry.source == "faq":
        return best
    for item in records[1:]:
        if best.rank_score - item.rank_score > calibration.faq_margin:
            break
        if item.entry.source == "faq":
            return item
    return best


def rule_answer(
    question: str, lang: str, records: list[Ranked], pack: Pack, calibration: Calibration, confidence: float
) -> Answer:
    """A kind "rule" Answer from ranked records (non-empty)."""
    chosen = choose_answer_record(records, calibration)
    shown = pack.twin(chosen.entry, lang) or _any_twin(pack, chosen.entry, lang)
    text = shown.text if shown.lang == lang else ONLY_IN[lang].format(text=shown.text)
    floor = records[0].score - calibration.cite_margin
    others = [item for item in records if item is not chosen and item.score >= floor]
    citations = citations_for([chosen, *others], pack, lang)
    return Answer(question=question, answer=text, lang=lang, kind="rule", citations=citations, confidence=confidence)


def unknown_answer(
    question: str, lang: str, records: list[Ranked], pack: Pack, calibration: Calibration, confidence: float
) -> Answer:
    """A kind "unknown" Answer: says so, and names the closest pages when something is near the threshold."""
    floor = calibration.threshold - calibration.close_margin
    close = [item for item in records if item.score >= floor]
    citations = citations_for(close, pack, lang)[:3]
    text = UNKNOWN[lang].format(title=pack.manifest.title)
    if citations:
        pages = ", ".join(f"p. {page}" for page in dict.fromkeys(citation.page for citation in citations))
        text = f"{text} {CLOSEST[lang].format(pages=pages)}"
    return Answer(question=question, answer=text, lang=lang, kind="unknown", citations=citations, confidence=confidence)


def out_of_scope_answer(question: str, lang: str, beyond: OutOfScope, pack: Pack) -> Answer:
    """A kind "unknown" Answer for a near-domain question, saying why it is not a rules question."""
    text = scope_message(beyond.reason, lang, pack.manifest.title)
    return Answer(question=question, answer=text, lang=lang, kind="unknown", citations=[], confidence=0.0)


def citations_for(records: list[Ranked], pack: Pack, lang: str) -> list[Citation]:
    """Citations best first, one per (page, concept), in the answer language where a twin exists."""
    citations: list[Citation] = []
    seen: set[tuple[int, str]] = set()
    for item in records:
        entry = pack.twin(item.entry, lang) or _any_twin(pack, item.entry, lang)
        for page in entry.pages:
            key = (page, entry.concept_id)
            if key in seen:
                continue
            seen.add(key)
            citations.append(
                Citation(page=page, section=entry.section, lang=entry.lang, snippet=snippet(entry.text), id=entry.id)
            )
            if len(citations) >= MAX_CITATIONS:
                return citations
    return citations


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """`text` cut at a word boundary to at most `limit` characters (with an ellipsis when cut)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


def _any_twin(pack: Pack, entry: Entry, lang: str) -> Entry:
    # An FAQ record's twin is an FAQ record; failing that, any record of the concept in `lang`, else itself.
    for other in pack.entries:
        if other.concept_id == entry.concept_id and other.lang == lang:
            return other
    return entry
