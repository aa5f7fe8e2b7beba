"""Validate the blind held-out Canvas set: python eval/canvas-heldout/check.py

Every line is valid JSON with the required fields; every concept exists in knowledge/canvas/*.jsonl;
each key fact (alternatives split on `|`, accent/case-insensitive, whole words) appears in the text of
EVERY listed concept in the question's language; gold pages come from those concepts; qrels match.
"""
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
KNOWLEDGE = HERE.parents[1] / "knowledge" / "canvas"


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'").replace("\u00a0", " "))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.lower().split())


def has(fact: str, text: str) -> bool:
    return any(re.search(r"(?<!\w)" + re.escape(norm(a)) + r"(?!\w)", norm(text)) for a in fact.split("|") if a.strip())


def main() -> int:
    records = {}
    for path in KNOWLEDGE.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                records[(r["concept_id"], r["lang"])] = r
    errors, queries = [], []
    for n, line in enumerate((HERE / "queries.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        try:
            queries.append(json.loads(line))
        except json.JSONDecodeError as e:
            errors.append(f"line {n}: {e}")
    for qid, k in Counter(q["_id"] for q in queries).items():
        if k > 1:
            errors.append(f"duplicate id {qid}")
    for q in queries:
        qid = q["_id"]
        if set(q) != {"_id", "text", "lang", "kind", "concepts", "pages", "key_facts", "tags"}:
            errors.append(f"{qid}: fields {sorted(q)}")
        if q["kind"] == "unknown":
            if q["concepts"] or q["pages"] or q["key_facts"]:
                errors.append(f"{qid}: unknown must have empty concepts/pages/key_facts")
            continue
        if q["kind"] != "rule" or not q["concepts"] or len(q["key_facts"]) != 1:
            errors.append(f"{qid}: a rule question needs concepts and exactly 1 key fact")
            continue
        pages = set()
        for c in q["concepts"]:
            r = records.get((c, q["lang"]))
            if r is None:
                errors.append(f"{qid}: concept {c} has no {q['lang']} record")
                continue
            pages |= set(r["pages"])
            if not has(q["key_facts"][0], r["text"]):
                errors.append(f"{qid}: key fact {q['key_facts'][0]!r} not in {c}")
        if not set(q["pages"]) <= pages:
            errors.append(f"{qid}: pages {q['pages']} not among the concepts' pages {sorted(pages)}")
    rows = (HERE / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()
    if rows[0] != "query-id\tcorpus-id\tscore":
        errors.append("bad qrels header")
    qrels = defaultdict(set)
    for row in rows[1:]:
        qid, cid, score = row.split("\t")
        if score != "1":
            errors.append(f"qrels score {row!r}")
        qrels[qid].add(cid)
    for q in queries:
        if set(q["concepts"]) != qrels.get(q["_id"], set()):
            errors.append(f"{q['_id']}: qrels differ from concepts")
    print(len(queries), "questions:", dict(Counter(f"{q['lang']}/{q['kind']}" for q in queries)))
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
