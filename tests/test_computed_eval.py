"""Every computed and claim question of eval/canvas/computed.jsonl is answered right by `answer_computed`.

Right = the expected kind, verdict and language, a gold page among the citations, and every key fact in the
answer (accent- and case-insensitive; "a|b" means either). Uses the real Canvas pack; no embedding model.
"""

import json
import unicodedata
from pathlib import Path

import pytest

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs

EVAL_FILE = Path(__file__).resolve().parents[1] / "eval" / "canvas" / "computed.jsonl"
QUESTIONS = [json.loads(line) for line in EVAL_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
RULE_SETS = [Path(__file__).resolve().parents[1] / "eval" / name / "queries.jsonl" for name in ("canvas", "canvas-heldout")]
RULES = [item for path in RULE_SETS for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
         and (item := json.loads(line))["kind"] in ("rule", "unknown")]


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@pytest.fixture(scope="module")  # loading and validating the pack once is enough for every question
def pack():
    return load_packs()["canvas"]


def test_eval_set_is_big_and_balanced():
    langs = [question["lang"] for question in QUESTIONS]
    verdicts = [question["verdict"] for question in QUESTIONS if question["kind"] == "claim"]
    assert len(QUESTIONS) >= 70
    assert abs(langs.count("fr") - langs.count("en")) <= len(QUESTIONS) // 5
    assert True in verdicts and False in verdicts
    assert len({question["_id"] for question in QUESTIONS}) == len(QUESTIONS)


@pytest.mark.parametrize("item", QUESTIONS, ids=[question["_id"] for question in QUESTIONS])
def test_computed_question(item, pack):
    answer = answer_computed(None, item["text"], item["lang"], pack)
    assert answer is not None, "not recognised as computable"
    assert answer.kind == item["kind"], answer.answer
    assert answer.verdict == item["verdict"], answer.answer
    assert answer.lang == item["lang"]
    pages = {citation.page for citation in answer.citations}
    assert pages & set(item["pages"]), f"cited {sorted(pages)}, gold {item['pages']}"
    text = _plain(answer.answer)
    for fact in item["key_facts"]:
        assert any(_plain(option) in text for option in fact.split("|")), f"missing {fact!r} in: {answer.answer}"


def test_no_rule_question_is_hijacked_by_a_wrong_computation(pack):
    """A rules question of the eval sets that a computation answers must get its gold facts and page (hijack floor 0)."""
    hijacked = []
    for item in RULES:
        answer = answer_computed(None, item["text"], item["lang"], pack)
        if answer is None:
            continue
        pages = {citation.page for citation in answer.citations}
        text = _plain(answer.answer)
        facts = all(any(_plain(option) in text for option in fact.split("|")) for fact in item.get("key_facts", []))
        if item["kind"] == "unknown" or not (facts and pages & set(item.get("pages", []))):
            hijacked.append(f"{item['_id']}: {item['text']!r} -> {answer.answer[:120]}")
    assert not hijacked, "rule questions answered by a wrong computation:\n" + "\n".join(hijacked)
