"""Check one eval question set against its knowledge pack: python eval/check_eval_set.py FOLDER [--game ID]

    python eval/check_eval_set.py eval/canvas --min-questions 180 --min-unknown 30
    python eval/check_eval_set.py eval/canvas-heldout

`tests/test_eval_sets.py` already keeps both sets consistent with the knowledge (gold concepts exist in the
question's language and carry the key facts; qrels match the concepts). This script checks what that test does
not: every record has exactly the required fields and a language matching its id prefix; no duplicate ids or
question texts; no question copies an FAQ question or paraphrase verbatim (that would measure recall, not
understanding), nor nearly copies any stored paraphrase, FAQ or rulebook (a similarity ratio of NEAR_COPY or
more on the normalised texts; paraphrases are what retrieval tuning adds); a rule question has 1-2 key facts and gold pages taken from its concepts' pages; unknown
questions have no gold; every qrels score is 1; and optional size floors. Exits 1 on any error.
"""

import argparse
import difflib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from rulesbot.evaluation import normalise
from rulesbot.knowledge import load_packs

FIELDS = {"_id", "text", "lang", "kind", "concepts", "pages", "key_facts", "tags"}
# difflib's ratio between normalised texts at or above which a question counts as a near copy of a stored
# phrasing ("qui commence la partie" / "Qui commence la partie de Canvas ?" is 0.84).
NEAR_COPY = 0.8


def near_copy(text: str, phrasings: list[str]) -> str | None:
    """The first stored phrasing that `text` (normalised) nearly copies, if any."""
    matcher = difflib.SequenceMatcher(None, "", text)
    for phrasing in phrasings:
        matcher.set_seq1(phrasing)
        if matcher.real_quick_ratio() >= NEAR_COPY and matcher.quick_ratio() >= NEAR_COPY and matcher.ratio() >= NEAR_COPY:
            return phrasing
    return None


def check(folder: Path, game: str, min_questions: int = 0, min_unknown: int = 0) -> list[str]:
    """Every problem found in the eval set at `folder` (empty when it is sound)."""
    pack = load_packs()[game]
    pages_of = defaultdict(set)
    faq_phrasings = set()
    phrasings: set[str] = set()
    for entry in pack.entries:
        pages_of[(entry.concept_id, entry.lang)].update(entry.pages)
        phrasings.update(normalise(text) for text in entry.paraphrases)
        if entry.source == "faq":
            faq_phrasings.update(normalise(text) for text in [entry.question or "", *entry.paraphrases])
    ordered_phrasings = sorted(phrasings)

    errors: list[str] = []
    queries = []
    for number, line in enumerate((folder / "queries.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                queries.append(json.loads(line))
            except json.JSONDecodeError as error:
                errors.append(f"queries.jsonl:{number}: {error}")
    errors += [f"duplicate _id {qid}" for qid, n in Counter(q.get("_id") for q in queries).items() if n > 1]
    errors += [f"duplicate question text {text!r}" for text, n in Counter(normalise(q.get("text", "")) for q in queries).items() if n > 1]

    for query in queries:
        qid = query.get("_id", "?")
        if set(query) != FIELDS:
            errors.append(f"{qid}: expected fields {sorted(FIELDS)}, got {sorted(query)}")
            continue
        if query["lang"] not in pack.manifest.languages or f"-{query['lang']}-" not in f"-{qid}":
            errors.append(f"{qid}: language {query['lang']!r} does not match the id")
        if normalise(query["text"]) in faq_phrasings:
            errors.append(f"{qid}: copies an FAQ question or paraphrase verbatim: {query['text']!r}")
        elif copied := near_copy(normalise(query["text"]), ordered_phrasings):
            errors.append(f"{qid}: nearly copies a stored paraphrase: {query['text']!r} ~ {copied!r}")
        if query["kind"] == "unknown":
            if query["concepts"] or query["pages"] or query["key_facts"]:
                errors.append(f"{qid}: an unknown question has empty concepts, pages and key_facts")
            continue
        if query["kind"] != "rule" or not query["concepts"] or not 1 <= len(query["key_facts"]) <= 2:
            errors.append(f"{qid}: a rule question needs kind 'rule', concepts and 1-2 key facts")
            continue
        concept_pages = set().union(*(pages_of[(c, query["lang"])] for c in query["concepts"]))
        if not query["pages"] or not set(query["pages"]) <= concept_pages:
            errors.append(f"{qid}: gold pages {query['pages']} not among the concepts' pages {sorted(concept_pages)}")

    for number, row in enumerate((folder / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:], 2):
        if len(row.split("\t")) != 3 or row.split("\t")[2] != "1":
            errors.append(f"qrels/test.tsv:{number}: expected 'query-id<TAB>corpus-id<TAB>1', got {row!r}")

    unknown = sum(q.get("kind") == "unknown" for q in queries)
    if len(queries) < min_questions:
        errors.append(f"only {len(queries)} questions (at least {min_questions})")
    if unknown < min_unknown:
        errors.append(f"only {unknown} out-of-scope questions (at least {min_unknown})")
    return errors


def main(argv: list[str] | None = None) -> int:
    """Print the set's make-up and its problems; 1 if there are any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="an eval set: queries.jsonl and qrels/test.tsv")
    parser.add_argument("--game", default="canvas", help="the knowledge pack the set is about")
    parser.add_argument("--min-questions", type=int, default=0)
    parser.add_argument("--min-unknown", type=int, default=0)
    args = parser.parse_args(argv)
    if not (args.folder / "queries.jsonl").is_file() or not (args.folder / "qrels" / "test.tsv").is_file():
        parser.error(f"{args.folder} is not an eval set: expected queries.jsonl and qrels/test.tsv in it")
    errors = check(args.folder, args.game, args.min_questions, args.min_unknown)
    queries = [json.loads(line) for line in (args.folder / "queries.jsonl").open(encoding="utf-8") if line.strip()]
    counts = Counter(f"{q.get('lang')}/{q.get('kind')}" for q in queries)
    print(f"{len(queries)} questions: " + ", ".join(f"{key} {n}" for key, n in sorted(counts.items())))
    for error in errors:
        print("ERROR", error)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
