"""Run a computed-question set (not a test): per language, right / wrong / hijacked.

    python eval/run_computed.py PATH [PATH ...] [--show]

Each line is {"_id", "text", "lang", "kind": "computed"|"claim"|"rule", "verdict", "value", "pages",
"key_facts", "context"?}. Computed and claim items are right when `answer_computed` gives the expected kind,
verdict and language, a gold page among the citations and every key fact; a rule item is *hijacked* when a
computation answers it (it belongs to text retrieval). No embedding model is loaded.
"""

import argparse
import inspect
import json
import sys
from collections import Counter
from pathlib import Path

from rulesbot.compute import answer_computed
from rulesbot.evaluation import key_facts_present
from rulesbot.knowledge import load_packs


def judge(item: dict, pack) -> tuple[str, object]:
    """("right" | "wrong" | "hijacked" | "kept", answer) for one item."""
    context = item.get("context") or []
    if "context" in inspect.signature(answer_computed).parameters:
        answer = answer_computed(None, item["text"], item["lang"], pack, context=context)
    else:
        answer = answer_computed(None, item["text"], item["lang"], pack)
    if item["kind"] == "rule":
        return ("hijacked" if answer is not None else "kept"), answer
    if answer is None:
        return "wrong", None
    pages = {citation.page for citation in answer.citations}
    right = (answer.kind == item["kind"] and answer.verdict == item.get("verdict") and answer.lang == item["lang"]
             and (not item.get("pages") or bool(pages & set(item["pages"])))
             and key_facts_present(item.get("key_facts", []), answer.answer))
    return ("right" if right else "wrong"), answer


def main() -> None:
    """Print per-language counts (and, with --show, every miss)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--show", action="store_true", help="print every wrong or hijacked item")
    parser.add_argument("--game", default="canvas")
    args = parser.parse_args()
    pack = load_packs()[args.game]
    counts: dict[str, Counter] = {}
    for path in args.paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            outcome, answer = judge(item, pack)
            counts.setdefault(item["lang"], Counter())[outcome] += 1
            if args.show and outcome in ("wrong", "hijacked"):
                got = "none" if answer is None else f"{answer.kind} {answer.verdict} p{sorted({c.page for c in answer.citations})}"
                print(f"{outcome.upper()} {item['_id']} [{item['kind']} {item.get('verdict')} {item.get('value')} "
                      f"p{item.get('pages')}] {item['text']!r}" + (f" ctx={item['context']}" if item.get("context") else ""))
                print(f"    got {got}: {answer.answer[:300] if answer else ''}")
    for lang, count in sorted(counts.items()):
        computed = count["right"] + count["wrong"]
        rate = count["right"] / computed if computed else 0.0
        print(f"{lang}: computed/claim right {count['right']}/{computed} ({rate:.2f}), wrong {count['wrong']}; "
              f"rule questions hijacked {count['hijacked']}/{count['hijacked'] + count['kept']}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
