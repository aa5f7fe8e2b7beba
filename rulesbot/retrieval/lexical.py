"""Lexical search: BM25 over records, with French/English Snowball stemming and accent folding.

A record's lexical document is its section, text, FAQ question and paraphrases, stemmed in the record's
language. Unknown query words weigh as much as the rarest known word, so words the rules never use count
against a match (the coverage term of abstention reads the same vocabulary).
"""

import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated

import numpy as np
from pydantic import Field, StrictInt, TypeAdapter

from rulesbot.knowledge import Entry

# Bump when tokenisation (stop words, stemming) changes: cached BM25 term counts then rebuild themselves.
LEXICAL_RECIPE = "snowball-v1"
# The lexical cache's payload: one {stemmed term: count >= 1} per record, in the pack's record order.
_LEXICAL_DOCS = TypeAdapter(list[dict[str, Annotated[StrictInt, Field(ge=1)]]])
_LEXICAL_KIND = "rulesbot-bm25-docs/1"



class BM25:
    """Okapi BM25 over records (text + section + question + paraphrases), stemmed in each record's language."""

    def __init__(
        self, entries: Iterable[Entry], k1: float = 1.2, b: float = 0.75, docs: list[dict[str, int]] | None = None
    ) -> None:
        self.entries = list(entries)
        self.k1, self.b = k1, b
        if docs is None or len(docs) != len(self.entries):
            docs = [Counter(tokens(_record_text(entry), entry.lang)) for entry in self.entries]
        self.docs = [Counter(doc) for doc in docs]
        lengths = [sum(doc.values()) for doc in self.docs]
        self.lengths = np.array(lengths, dtype=np.float32)
        self.average = float(np.mean(lengths)) if lengths else 1.0
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        n = len(self.docs)
        self.idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}
        self.max_idf = math.log(1 + (n + 0.5) / 0.5) if n else 1.0
        # Postings (term -> records holding it, and how often) and per-record length norms, so a query costs a
        # few array operations per query term rather than a loop over every record.
        self._norms = self.k1 * (1 - self.b + self.b * self.lengths.astype(np.float64) / self.average)
        rows: dict[str, list[int]] = {}
        counts: dict[str, list[int]] = {}
        for row, doc in enumerate(self.docs):
            for term, count in doc.items():
                rows.setdefault(term, []).append(row)
                counts.setdefault(term, []).append(count)
        self._postings = {
            term: (np.array(rows[term], dtype=np.int64), np.array(counts[term], dtype=np.float64)) for term in rows
        }

    def scores(self, query: str, lang: str, other_langs: Iterable[str] = ()) -> tuple[np.ndarray, np.ndarray]:
        """(BM25 scores, matched-query-weight fractions in [0,1]) for every record.

        A term no record uses is read as its word's stem in `other_langs` when a record uses that one: a bilingual
        player's "les cards skipped" matches the English records' "skipped" (a French stem matches nothing)."""
        terms = []
        for term, others in stems_by_term(query, lang, sorted(other_langs)).items():
            known = sorted(other for other in others if other in self.idf)
            terms.append(term if term in self.idf or not known else known[0])
        terms = list(dict.fromkeys(terms))
        raw = np.zeros(len(self.docs), dtype=np.float64)
        matched = np.zeros(len(self.docs), dtype=np.float64)
        # Unknown query words weigh as much as the rarest known word: "castle" in a Canvas corpus is evidence
        # that the question is about something else.
        total = sum(self.idf.get(term, self.max_idf) for term in terms) or 1.0
        for term in terms:
            posting = self._postings.get(term)
            if posting is None:
                continue
            rows, counts = posting
            idf = self.idf[term]
            raw[rows] += idf * counts * (self.k1 + 1) / (counts + self._norms[rows])
            matched[rows] += idf
        return raw.astype(np.float32), (matched / total).astype(np.float32)




_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = {
    "en": set(
        "a an the of to in on at for and or is are be do does can i you my your it its how what when many much "
        "if this that with by as from there".split()
    ),
    "fr": set(
        "le la les l un une des de du d au aux et ou est sont je j tu on il elle que qu qui quoi combien comment "
        "quand mon ma mes ton ta tes son sa ses en dans par pour sur avec ce c cette ces y ne n pas se s est-ce "
        "peut peux".split()
    ),
}
# Snowball stemmers keep state between calls, so each thread gets its own (the HTTP API is multi-threaded).
_STEMMERS = threading.local()


def tokens(text: str, lang: str) -> list[str]:
    """Lower-cased, stop-word-free, Snowball-stemmed, accent-folded tokens of `text` in `lang`."""
    stop = _STOP.get(lang, set())
    return [_stem(word, lang) for word in _TOKEN.findall(text.lower().replace("’", "'")) if word not in stop]


def stems_by_term(text: str, lang: str, other_langs: Iterable[str] = ()) -> dict[str, set[str]]:
    """Each of `text`'s terms in `lang` (as `tokens` gives them) -> the stems its words have in `other_langs`
    (a word that is a stop word there has none: "I" in "after I take, les cartes glissent ?" stays unknown, so a
    stray letter never passes for a rules word): what a mixed-language message's words are in the other language."""
    stems: dict[str, set[str]] = {}
    stop = _STOP.get(lang, set())
    for word in _TOKEN.findall(text.lower().replace("’", "'")):
        if word in stop:
            continue
        others = stems.setdefault(_stem(word, lang), set())
        others.update(_stem(word, other) for other in other_langs if word not in _STOP.get(other, set()))
    return stems


@lru_cache(maxsize=1 << 16)
def _stem(word: str, lang: str) -> str:
    # Memoised: a rulebook repeats a few thousand words, and stemming is the cost of building BM25.
    return _fold(_stemmer(lang).stemWord(word))


def _stemmer(lang: str):
    stemmers = _STEMMERS.__dict__
    if lang not in stemmers:
        import snowballstemmer

        stemmers[lang] = snowballstemmer.stemmer("french" if lang == "fr" else "english")
    return stemmers[lang]


def _fold(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word)
    return "".join(char for char in folded if not unicodedata.combining(char))


def _record_text(entry: Entry) -> str:
    return " ".join([entry.section, entry.text, entry.question or "", *entry.paraphrases])


