"""Benchmark the question-understanding layer and computed answers (not a test): CPU time per question.

    python eval/bench_compute.py

Runs over every question of eval/canvas (computed and rules sets) and eval/canvas-heldout: `parse` uncached, then
`answer_computed` (parse included, the intent chosen and run, the Answer built). Thread CPU time, so the figures
hold on a loaded machine; no embedding model is loaded (computed answers never embed).
"""

import json
import statistics
import time
from pathlib import Path

from rulesbot.compute import answer_computed
from rulesbot.compute.parse import parse
from rulesbot.knowledge import load_packs

EVAL = Path(__file__).resolve().parent


def _questions() -> list[dict]:
    files = [EVAL / "canvas" / "computed.jsonl", EVAL / "canvas" / "queries.jsonl", EVAL / "canvas-heldout" / "queries.jsonl"]
    return [json.loads(line) for path in files for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _timed(function, questions) -> str:
    spent = []
    for question in questions:
        started = time.thread_time()
        function(question)
        spent.append((time.thread_time() - started) * 1000)
    spent.sort()
    return (f"p50 {statistics.median(spent):.2f} ms, p95 {spent[int(0.95 * len(spent))]:.2f} ms, "
            f"max {spent[-1]:.2f} ms")


def main() -> None:
    """Print the figures."""
    pack = load_packs()["canvas"]
    questions = _questions()
    for question in questions:  # warm the compiled patterns and name indexes once
        answer_computed(None, question["text"], question["lang"], pack)
    parse.cache_clear()
    print(f"{len(questions)} questions")
    print("parse (uncached):", _timed(lambda item: parse(item["text"], item["lang"], "canvas"), questions))
    parse.cache_clear()
    print("answer_computed (parse included):", _timed(lambda item: answer_computed(None, item["text"], item["lang"], pack), questions))


if __name__ == "__main__":
    main()
