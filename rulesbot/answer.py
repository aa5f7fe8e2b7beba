"""Compose an Answer from ranked records: the answer text is a knowledge record's text, never generated.

kind "rule": the best record (an FAQ record if one scores close: it answers the question directly), in the
answer language through its other-language twin, with citations best first (the answer's own pages first,
then other close records, one per page and concept). kind "unknown": an honest message in the asker's language
and, when something is close, the pages to read.

An FAQ record's `lead` ("Yes.", "Non, 5.") answers that record's own question: it is shown before the text only
when the asker's question is close to the record's own phrasings (Calibration.lead_threshold) and asked the same
way round (negation on both sides or on neither) and in the same form (yes/no or not); otherwise the statement
stands alone. When the second-best concept ranks within Calibration.alternative_margin of the answer, the
answer adds one line, "If you meant …: …", with that concept's statement and page (`Answer.alternatives`).
"""

from rulesbot.knowledge import Entry, Pack
from rulesbot.models import Alternative, Answer, Citation
from rulesbot.retrieval import Calibration, Ranked
from rulesbot.retrieval.ranking import asks_yes_no, negated
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


IF_YOU_MEANT = {"en": "If you meant {topic}: {text} (p. {pages})", "fr": "Si vous vouliez dire {topic} : {text} (p. {pages})"}


def lead_applies(question: str, item: Ranked, calibration: Calibration) -> bool:
    """Whether `item`'s FAQ lead answers `question`: close to its own phrasings, same polarity, same form."""
    entry = item.entry
    if not entry.lead or not entry.question or item.asked is None:
        return False
    if item.asked < calibration.lead_threshold:
        return False
    return negated(question) == negated(entry.question) and asks_yes_no(question) == asks_yes_no(entry.question)


def statement(question: str, item: Ranked, pack: Pack, lang: str, calibration: Calibration, *, lead: bool) -> str:
    """The answer text of one record in `lang`: its twin's text, after its lead when `lead` and the lead applies."""
    shown = pack.twin(item.entry, lang) or _any_twin(pack, item.entry, lang)
    text = shown.text
    if lead and shown.lead and lead_applies(question, item, calibration):
        text = f"{shown.lead} {text}"
    return text if shown.lang == lang else ONLY_IN[lang].format(text=text)


def alternative_record(records: list[Ranked], chosen: Ranked, calibration: Calibration) -> Ranked | None:
    """The best record of another concept ranked within `alternative_margin` of the answer, or None."""
    if calibration.alternative_margin < 0:
        return None
    for item in records:
        if item.entry.concept_id == chosen.entry.concept_id or item.entry.text == chosen.entry.text:
            continue
        if records[0].rank_score - item.rank_score <= calibration.alternative_margin:
            return item
        return None
    return None


def rule_answer(
    question: str,
    lang: str,
    records: list[Ranked],
    pack: Pack,
    calibration: Calibration,
    confidence: float,
    *,
    embedder=None,
    question_lang: str | None = None,
) -> Answer:
    """A kind "rule" Answer from ranked records (non-empty): an ingested passage answers with its best sentences,
    a shipped record with its statement (after its lead when the lead applies); a "did you mean" line when two are
    close."""
    chosen = choose_answer_record(records, calibration)
    shown = pack.twin(chosen.entry, lang) or _any_twin(pack, chosen.entry, lang)
    if shown.source == "user":
        # A user rulebook's passage answers with its one or two sentences closest to the question.
        from rulesbot.extractive import best_sentences, rulebook_words

        body = best_sentences(question, question_lang or lang, shown, embedder, rulebook_words(pack))
        text = body if shown.lang == lang else ONLY_IN[lang].format(text=body)
    else:
        text = statement(question, chosen, pack, lang, calibration, lead=True)
    floor = records[0].score - calibration.cite_margin
    others = [item for item in records if item is not chosen and item.score >= floor]
    citations = citations_for([chosen, *others], pack, lang)
    alternatives = []
    second = alternative_record(records, chosen, calibration)
    if second is not None:
        # The alternative answers another question than its record's own: its lead never shows.
        alternative_text = statement(question, second, pack, lang, calibration, lead=False)
        alternative_citations = citations_for([second], pack, lang)
        alternatives.append(Alternative(answer=alternative_text, citations=alternative_citations))
        pages = ", ".join(str(page) for page in dict.fromkeys(citation.page for citation in alternative_citations))
        text += "\n" + IF_YOU_MEANT[lang].format(topic=_topic(second, pack, lang), text=alternative_text, pages=pages)
    return Answer(
        question=question, answer=text, lang=lang, kind="rule", citations=citations, confidence=confidence,
        alternatives=alternatives,
    )


def _topic(item: Ranked, pack: Pack, lang: str) -> str:
    # What the alternative is about: an FAQ record's own question, else its section, in the answer language.
    shown = pack.twin(item.entry, lang) or _any_twin(pack, item.entry, lang)
    if shown.question:
        return f"“{shown.question.rstrip(' ?')}”" if lang == "en" else f"« {shown.question.rstrip(' ?')} »"
    return shown.section


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
