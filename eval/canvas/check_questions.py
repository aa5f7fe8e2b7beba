"""Check the Canvas eval question set against the knowledge pack.

    python eval/canvas/check_questions.py

Checks queries.jsonl and qrels/test.tsv: valid records, every referenced concept exists in the knowledge
files (rulebook + FAQ), every key fact appears (accent- and case-insensitively; alternatives split on `|`)
in the text of at least one referenced concept in the question's language, gold pages agree with the
concepts' pages, qrels match the queries, and no question copies an FAQ question or paraphrase verbatim.
Exits non-zero on any error.
"""

import json
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KNOWLEDGE = ROOT / "knowledge" / "canvas"
EVAL = Path(__file__).resolve().parent
MIN_QUESTIONS, MIN_UNKNOWN = 180, 30


def norm(text: str) -> str:
    """Lower-case, strip accents, unify apostrophes and spaces (as the eval compares key facts)."""
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'").replace("\u00a0", " "))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.lower().split())


def load_knowledge() -> tuple[dict, set]:
    """concept_id -> lang -> list of (text, pages); and the normalised FAQ questions/paraphrases."""
    concepts: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    faq_phrasings: set[str] = set()
    for path in sorted(KNOWLEDGE.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            concepts[record["concept_id"]][record["lang"]].append((record["text"], record["pages"]))
            if record.get("source") == "faq":
                faq_phrasings.add(norm(record["question"]))
                faq_phrasings.update(norm(p) for p in record.get("paraphrases", []))
    return concepts, faq_phrasings


def main() -> int:
    errors: list[str] = []
    concepts, faq_phrasings = load_knowledge()
    queries = []
    for number, line in enumerate((EVAL / "queries.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                queries.append(json.loads(line))
            except json.JSONDecodeError as error:
                errors.append(f"queries.jsonl:{number}: {error}")
    ids = Counter(q.get("_id") for q in queries)
    errors += [f"duplicate _id {qid}" for qid, n in ids.items() if n > 1]
    texts = Counter(norm(q.get("text", "")) for q in queries)
    errors += [f"duplicate question text: {t!r}" for t, n in texts.items() if n > 1]

    for q in queries:
        qid = q.get("_id", "?")
        missing = {"_id", "text", "lang", "kind", "concepts", "pages", "key_facts", "tags"} - set(q)
        if missing:
            errors.append(f"{qid}: missing fields {sorted(missing)}")
            continue
        if q["lang"] not in ("en", "fr") or not qid.startswith(q["lang"] + "-"):
            errors.append(f"{qid}: bad lang {q['lang']!r} for this id")
        if not q["text"].strip():
            errors.append(f"{qid}: empty text")
        if norm(q["text"]) in faq_phrasings:
            errors.append(f"{qid}: copies an FAQ question or paraphrase verbatim: {q['text']!r}")
        if q["kind"] == "unknown":
            if q["concepts"] or q["pages"] or q["key_facts"]:
                errors.append(f"{qid}: unknown questions have empty concepts, pages and key_facts")
            continue
        if q["kind"] != "rule":
            errors.append(f"{qid}: kind must be 'rule' or 'unknown', got {q['kind']!r}")
            continue
        if not q["concepts"] or not q["pages"] or not 1 <= len(q["key_facts"]) <= 2:
            errors.append(f"{qid}: a rule question needs concepts, pages and 1-2 key_facts")
            continue
        unknown = [c for c in q["concepts"] if c not in concepts]
        if unknown:
            errors.append(f"{qid}: concepts not in the knowledge files: {unknown}")
        known = [c for c in q["concepts"] if c in concepts]
        in_lang = [text for c in known for text, _ in concepts[c].get(q["lang"], [])]
        if known and not in_lang:
            errors.append(f"{qid}: no referenced concept has a {q['lang']} text")
        for fact in q["key_facts"]:
            alternatives = [norm(a) for a in fact.split("|") if a.strip()]
            if not any(alt in norm(text) for alt in alternatives for text in in_lang):
                errors.append(f"{qid}: key fact {fact!r} is in no referenced {q['lang']} text")
        concept_pages = {p for c in known for _, pages in concepts[c].get(q["lang"], []) for p in pages}
        if concept_pages and not set(q["pages"]) & concept_pages:
            errors.append(f"{qid}: gold pages {q['pages']} share nothing with the concepts' pages {sorted(concept_pages)}")

    # qrels: one row per (question, acceptable concept), score 1; none for unknown questions.
    rows = (EVAL / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()
    if not rows or rows[0] != "query-id\tcorpus-id\tscore":
        errors.append("qrels/test.tsv: header must be 'query-id\\tcorpus-id\\tscore'")
    qrels: dict[str, set] = defaultdict(set)
    for number, row in enumerate(rows[1:], 2):
        parts = row.split("\t")
        if len(parts) != 3 or parts[2] != "1":
            errors.append(f"qrels/test.tsv:{number}: expected 'query-id<TAB>corpus-id<TAB>1', got {row!r}")
            continue
        qrels[parts[0]].add(parts[1])
    for q in queries:
        if set(q.get("concepts", [])) != qrels.get(q.get("_id"), set()):
            errors.append(f"{q.get('_id')}: qrels {sorted(qrels.get(q.get('_id'), set()))} != concepts {q.get('concepts')}")
    extra = set(qrels) - set(ids)
    errors += [f"qrels/test.tsv: unknown query id {qid}" for qid in sorted(extra)]

    counts = Counter((q.get("lang"), q.get("kind")) for q in queries)
    unknown_total = sum(n for (_, kind), n in counts.items() if kind == "unknown")
    if len(queries) < MIN_QUESTIONS:
        errors.append(f"only {len(queries)} questions (at least {MIN_QUESTIONS})")
    if unknown_total < MIN_UNKNOWN:
        errors.append(f"only {unknown_total} out-of-scope questions (at least {MIN_UNKNOWN})")

    print(f"{len(queries)} questions: " + ", ".join(f"{lang}/{kind} {n}" for (lang, kind), n in sorted(counts.items())))
    print(f"{len({c for q in queries for c in q.get('concepts', [])})} distinct concepts referenced; "
          f"{len(concepts)} concepts in the knowledge files")
    for error in errors:
        print("ERROR", error)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
