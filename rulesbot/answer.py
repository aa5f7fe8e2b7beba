"""Compose an Answer from ranked records: the answer text is a knowledge record's text, never generated.

kind "rule": the best record (an FAQ record if one scores close: it answers the question directly), in the
answer language through its other-language twin, with citations best first (the answer's own pages first,
then other close records, one per page and concept). kind "unknown": an honest message in the asker's language
and, when something is close, the pages to read.

An FAQ record's `lead` ("Yes.", "Non, 5.") answers that record's own question: it is shown before the text only
when the asker's question is close to the record's own phrasings (Calibration.lead_threshold) and asked the same
way round (negation on both sides or on neither) and in the same form (yes/no or not); and never for an elliptical follow-up (its records were ranked with the previous question, whose answer the lead gives); otherwise the statement
stands alone. When the second-best concept ranks within Calibration.alternative_margin of the answer, the
answer adds one line, "If you meant …: …", with that concept's statement and page (`Answer.alternatives`); and of
those two, the one about what the question names answers (rulesbot.fit: the other becomes the "If you meant" line).

When the statement does not hold what the question asks (a how-many question and no number in it, or a variant or
scenario the question names, such as Vincent, that the record is not about), the answer adds one sentence, with its page,
from a close record on the same page (the rulebook passage behind the FAQ record, or another record of the same
family): the first of them, in rank order, whose sentence fills that gap (`supplement_sentence`). It is still a
knowledge record's own sentence, never generated.
"""

import re
from functools import lru_cache

from rulesbot.fit import fits_better
from rulesbot.knowledge import Entry, Pack
from rulesbot.models import Alternative, Answer, Citation
from rulesbot.retrieval import Calibration, Ranked, tokens
from rulesbot.retrieval.ranking import asks_yes_no, negated, ranking_data
from rulesbot.scope import OutOfScope, fold, scope_message

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


def lead_applies(question: str, item: Ranked, calibration: Calibration, engine: str | None = None) -> bool:
    """Whether `item`'s FAQ lead answers `question`: close to the record's own question, same polarity, same form,
    and naming no value (a colour, a number, a hand size, a Scoring Card) that question does not name (read with the
    game's `engine` parser; without one, values are not compared)."""
    entry = item.entry
    # The lead answers the record's own question: its closeness is read there (`own`), not on a paraphrase, which
    # may ask a neighbouring case ("Hue in red and Shape in green?" beside "in neighbouring swatches?", "No.").
    close = item.own if item.own is not None else item.asked
    if not entry.lead or not entry.question or close is None:
        return False
    if close < calibration.lead_threshold:
        return False
    if negated(question) != negated(entry.question) or asks_yes_no(question) != asks_yes_no(entry.question):
        return False
    from rulesbot.lang import detect_lang

    question_lang = detect_lang(question, entry.lang)
    if engine and _answers_yes_no(entry.lead) and _parse(question, question_lang, engine).explicit_claim:
        # A claim ("my mate says the tokens on my card go back to the supply, right?") may state the opposite
        # outcome of the record's question ("Do I get the tokens on the card I take?", "Yes.") in words no
        # negation shows: "Yes." would endorse it. The statement settles a claim by itself.
        return False
    return stated_values(question, question_lang, engine) <= stated_values(entry.question, entry.lang, engine)


def _parse(text: str, lang: str, engine: str):
    from rulesbot.compute.parse import parse

    return parse(text, "fr" if lang == "fr" else "en", engine)


def _answers_yes_no(lead: str) -> bool:
    # A lead that opens with yes or no ("Yes.", "Non, 5."), from the ranking vocabulary.
    words = ranking_data()["yes_no_answers"]
    return bool(re.match(r"(?:" + "|".join(map(re.escape, words)) + r")(?!\w)", fold(lead)))


def stated_values(text: str, lang: str, engine: str | None) -> frozenset[tuple[str, str]]:
    """The values `text` states, read by the question-understanding layer (rulesbot.compute.parse): each slot's
    kind and value ("colour" "red", "hand_size" "4", "scoring_card" "space"); empty for a game without an engine.

    A lead answers its record's question for the values that question names: "No." to "a Hue and a Shape in
    neighbouring swatches?" says nothing of a Hue in red and a Shape in green (swatches 1 and 3)."""
    if not engine:
        return frozenset()
    parsed = _parse(text, lang, engine)
    return frozenset((slot.name, str(getattr(slot.value, "slug", slot.value))) for slot in parsed.slots)


def statement(question: str, item: Ranked, pack: Pack, lang: str, calibration: Calibration, *, lead: bool) -> str:
    """The answer text of one record in `lang`: its twin's text, after its lead when `lead` and the lead applies."""
    shown = pack.twin(item.entry, lang) or _any_twin(pack, item.entry, lang)
    text = shown.text
    if lead and shown.lead and lead_applies(question, item, calibration, pack.manifest.engine):
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


# How far below the best record (rank score) an FAQ record asking the question's form may rank and still answer in
# place of a record that does not ask it (purpose_record); on the dev sets every such record in reach answered right.
FORM_MARGIN = 0.05


def purpose_record(question: str, records: list[Ranked], chosen: Ranked) -> Ranked | None:
    """For a question asking what a thing is for ("what are the coloured stripes for?", "ca sert a quoi ?"), when the
    chosen record's own question does not ask that (it states a neighbouring rule about the thing: how a stripe
    covers), the best FAQ record of another concept within FORM_MARGIN whose own question asks what something is
    for; None otherwise (a passage chosen keeps its place: it has no question of its own to compare)."""
    from rulesbot.retrieval.ranking import asks_purpose

    if not chosen.entry.question or asks_purpose(chosen.entry.question) or not asks_purpose(question):
        return None
    for item in records:
        if records[0].rank_score - item.rank_score > FORM_MARGIN:
            return None
        if item.entry.concept_id != chosen.entry.concept_id and item.entry.question and asks_purpose(item.entry.question):
            return item
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
    follow_up: bool = False,
) -> Answer:
    """A kind "rule" Answer from ranked records (non-empty): an ingested passage answers with its best sentences,
    a shipped record with its statement (after its lead when the lead applies); a "did you mean" line when two are
    close.

    `follow_up`: the records were ranked for the previous question's text plus an elliptical follow-up ("and for
    a different card?"), so a record's closeness is the previous question's: its lead answered that question and
    may say the opposite of the follow-up's answer, so no lead is shown (the statement stands alone)."""
    chosen = choose_answer_record(records, calibration)
    second = alternative_record(records, chosen, calibration)
    if second is not None and not follow_up and chosen.entry.source != "user" and fits_better(question, second.entry, chosen.entry, pack):
        # The two concepts are within the "did you mean" margin and the second is about what the question names
        # (rulesbot.fit): it answers, and the first becomes the "If you meant" line. Not for an elliptical follow-up:
        # its records were ranked with the previous question, whose subject the follow-up does not restate.
        chosen, second = second, chosen
    purpose = None if follow_up or chosen.entry.source == "user" else purpose_record(question, records, chosen)
    if purpose is not None:
        # The question asks what a thing is for and a close record's own question asks just that, while the chosen
        # one's does not: that record answers, and the chosen one becomes the "If you meant" line.
        chosen, second = purpose, chosen
    shown = pack.twin(chosen.entry, lang) or _any_twin(pack, chosen.entry, lang)
    if shown.source == "user":
        # A user rulebook's passage answers with its one or two sentences closest to the question.
        from rulesbot.extractive import best_sentences, rulebook_words

        body = best_sentences(question, question_lang or lang, shown, embedder, rulebook_words(pack))
        text = body if shown.lang == lang else ONLY_IN[lang].format(text=body)
    else:
        text = statement(question, chosen, pack, lang, calibration, lead=not follow_up)
    floor = records[0].score - calibration.cite_margin
    others = [item for item in records if item is not chosen and item.score >= floor]
    if shown.source != "user":
        added = supplement_sentence(question, shown, [item for item in records if item is not chosen], pack, lang)
        if added is not None:
            sentence, source = added
            text += f" {sentence} (p. {', '.join(str(page) for page in source.pages)})"
            others.sort(key=lambda item: item.entry.concept_id != source.concept_id)
    citations = citations_for([chosen, *others], pack, lang)
    alternatives = []
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


# How many of the other ranked records may lend a sentence (the close ones: those the answer cites anyway).
SUPPLEMENT_DEPTH = 4
# Number words that do not state a count ("one of the cards", "une carte").
_NOT_COUNTS = {"one", "un", "une"}
_SAME_NUMBER = re.compile(r"(?<!\w)(?:same number of|as many|meme nombre d'?(?:e )?|autant d'?(?:e )?)")


@lru_cache(maxsize=1)
def _form_patterns() -> tuple[re.Pattern, re.Pattern]:
    # The how-many cue and the number pattern, from the ranking vocabulary (one list for both stages).
    data = ranking_data()
    how_many = "|".join(re.escape(fold(word)) for word in data["forms"]["how_many"])
    words = "|".join(re.escape(fold(word)) for word in data["number_words"] if fold(word) not in _NOT_COUNTS)
    return re.compile(rf"(?<!\w)(?:{how_many})(?!\w)"), re.compile(rf"\d|(?<!\w)(?:{words})(?!\w)")


@lru_cache(maxsize=16)
def _entity_patterns(game: str) -> tuple[tuple[str, re.Pattern], ...]:
    # Only the scoped entities (a variant, a scenario, an example): a record about the base rule answers a question
    # about Vincent wrongly by leaving him out, while a missing "token" or "deck" is mostly a different wording.
    vocabulary = ranking_data().get("games", {}).get(game, {})
    entities = {name: phrases for name, phrases in vocabulary.get("entities", {}).items() if name in vocabulary.get("scoped", ())}
    patterns = []
    for name, phrases in sorted(entities.items()):
        options = sorted({fold(phrase) for phrase in phrases if phrase.strip()}, key=len, reverse=True)
        if options:
            patterns.append((name, re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, options)) + r")(?!\w)")))
    return tuple(patterns)


def coverage_gaps(question: str, shown: Entry, game: str) -> tuple[bool, frozenset[str]]:
    """What record `shown` lacks for `question`: a number in its text (for a how-many question), and the scoped
    entities (variants, scenarios, examples) the question names and the record (section, question, text) is not
    about."""
    how_many, number = _form_patterns()
    # "the same number of tokens" compares two counts, it does not ask for one.
    asked = _SAME_NUMBER.sub(" ", fold(question))
    about = fold(" ".join([shown.section, shown.question or "", shown.text]))
    needs_number = bool(how_many.search(asked)) and not number.search(fold(shown.text))
    missing = frozenset(
        name for name, pattern in _entity_patterns(game) if pattern.search(asked) and not pattern.search(about)
    )
    return needs_number, missing


def supplement_sentence(
    question: str, shown: Entry, others: list[Ranked], pack: Pack, lang: str
) -> tuple[str, Entry] | None:
    """A sentence that fills what `shown`'s statement lacks for `question`, and the record it comes from, or None.

    Looked for in the next close records (SUPPLEMENT_DEPTH, in rank order) on one of `shown`'s pages, in `lang`;
    a sentence qualifies when it holds the number a how-many question wants or names a missing entity, and adds
    words the statement does not already say; of a record's qualifying sentences, the one sharing the most words
    with the question is taken.
    """
    needs_number, missing = coverage_gaps(question, shown, pack.game)
    if not needs_number and not missing:
        return None
    _, number = _form_patterns()
    entities = dict(_entity_patterns(pack.game))
    said = set(fold(shown.text).split())
    seen: set[str] = {shown.concept_id}
    for item in others:
        if len(seen) > SUPPLEMENT_DEPTH:
            break
        source = pack.twin(item.entry, lang) or item.entry
        if source.concept_id in seen:
            continue
        seen.add(source.concept_id)
        if source.lang != lang or source.source == "user" or not set(source.pages) & set(shown.pages):
            continue
        from rulesbot.extractive import split_sentences

        filling = []
        for sentence in split_sentences(source.text):
            folded = fold(sentence)
            fills = (needs_number and number.search(folded)) or any(
                entities[name].search(folded) for name in missing
            )
            if fills and set(folded.split()) - said:
                filling.append(sentence)
        if filling:
            # The sentence sharing the most (stemmed) words with the question; the first of them on a tie.
            terms = set(tokens(question, lang))
            return max(filling, key=lambda sentence: len(terms & set(tokens(sentence, lang)))), source
    return None


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


# A bare "why?" after an answer: the rule statement(s) that answer rests on.
REASON = {"en": "The rule behind that answer: {text}", "fr": "La règle derrière cette réponse : {text}"}
# How many of a computed answer's cited rules a "why?" states (its concept's rule, then the one that bounds it).
REASON_RECORDS = 2


def reason_answer(question: str, lang: str, previous: Answer, pack: Pack) -> Answer:
    """The answer to a bare "why?" / "pourquoi ?" after `previous` (the answer to the question before it): the rule
    statement that answer rests on, with its page, since the rulebook gives no reason beyond its rules.

    A rule answer's own record (its first citation) is stated again, without a lead (a "Yes." would answer the
    "why?" wrongly); a computed answer or claim states the records it cites (the rules the engine applied), at
    most REASON_RECORDS; an abstention stays one (there is no rule to give the reason of)."""
    if previous.kind == "unknown" or not previous.citations:
        return previous.model_copy(update={"question": question, "id": None, "headline": None})
    by_id = pack.by_id
    cited = [citation for citation in previous.citations if citation.id in by_id]
    cited = cited[:1] if previous.kind == "rule" else cited[:REASON_RECORDS]
    if not cited:
        return previous.model_copy(update={"question": question, "id": None, "headline": None})
    parts = []
    for citation in cited:
        entry = by_id[citation.id]
        shown = pack.twin(entry, lang) or entry
        parts.append(f"{shown.text} (p. {', '.join(str(page) for page in shown.pages)})")
    return Answer(question=question, answer=REASON[lang].format(text=" ".join(parts)), lang=lang, kind="rule",
                  citations=cited, confidence=previous.confidence)


def out_of_scope_answer(question: str, lang: str, beyond: OutOfScope, pack: Pack) -> Answer:
    """A kind "unknown" Answer for a near-domain question, saying why it is not a rules question."""
    text = scope_message(beyond.reason, lang, pack.manifest.title, beyond.values)
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
