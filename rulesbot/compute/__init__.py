"""Computed answers and claim checks: questions about points, paintings, costs, legality and goals, run on the engine.

`Rulesbot.ask` calls `answer_computed` before text retrieval. It returns an Answer of kind "computed" (or
"claim" with a true/false `verdict` for "is it true that ...?" / "..., right?") when the question is
something the Canvas engine can compute, and None otherwise so the rulebook text answers it.

- text.py reads the question (numbers in words, names, colours, positions; FR and EN);
- solve.py recognises the intent and runs the engine;
- phrasing.py + templates.json write every sentence; concepts.json says which pack passages to cite.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from rulesbot.compute.phrasing import say
from rulesbot.compute.solve import Computation, Question, is_negated, recognise, split_claim
from rulesbot.compute.text import fold
from rulesbot.models import Answer, Citation

_ENGINE_GAMES = {"canvas"}
_SNIPPET = 160


def answer_computed(bot, question, lang, pack):  # noqa: ARG001 - the core's hook signature; `bot` is not needed
    """An engine-computed Answer for `question` in `lang`, or None when the question is not computable."""
    if pack is not None and getattr(pack, "game", "canvas") not in _ENGINE_GAMES:
        return None
    if not isinstance(question, str) or not question.strip():
        return None
    lang = "fr" if lang == "fr" else "en"
    body, claim = split_claim(fold(question))
    parsed = Question(text=body, claim=claim, negated=claim and is_negated(body), lang=lang)
    computation = recognise(parsed)
    if computation is None:
        return None
    return render(question, lang, pack, parsed, computation)


def render(question: str, lang: str, pack, parsed: Question, computation: Computation) -> Answer:
    """Assemble the Answer: verdict (claims), sentences, trace, pages; citations from the pack."""
    verdict = None
    kind = "computed"
    lines: list[str] = []
    if parsed.claim and not computation.asks and computation.claimed is not None and computation.value is not None:
        kind = "claim"
        verdict = _same(computation.claimed, computation.value)
        if verdict:
            lines.append(say("claim_true", lang))
        elif isinstance(computation.value, bool):
            lines.append(say("claim_false", lang))
        else:
            shown = computation.value_text or str(computation.value)
            lines.append(say("claim_false_value", lang, value=shown, claimed=computation.claimed))
    lines += computation.sentences
    if computation.trace:
        lines.append(say("trace", lang, trace="; ".join(computation.trace)))
    citations = cite(pack, lang, computation.concepts)
    if citations:
        pages = sorted({citation.page for citation in citations})
        lines.append(say("pages", lang, pages=", ".join(str(page) for page in pages)))
    engine_object = dict(computation.engine) if computation.engine else None
    if engine_object is not None:
        from rulesbot.engine import canvas

        engine_object["rules_version"] = canvas.RULES_VERSION
    return Answer(
        question=question,
        answer=" ".join(lines),
        lang=lang,
        kind=kind,
        verdict=verdict,
        citations=citations,
        confidence=0.9 if computation.asks else 1.0,
        engine=engine_object,
    )


def cite(pack, lang: str, concepts: list[tuple[str, dict]]) -> list[Citation]:
    """Citations for the computation's concepts: the pack record of each concept, else a record on the rule's page."""
    if pack is None:
        return []
    table = _concept_table()
    from rulesbot.engine import canvas

    records = [entry for entry in pack.entries if entry.lang == lang] or list(pack.entries)
    by_concept: dict[str, list] = {}
    for entry in records:
        by_concept.setdefault(entry.concept_id, []).append(entry)
    chosen = []
    for key, fill in concepts:
        spec = table.get(key)
        if spec is None:
            continue
        entry = None
        for concept in spec["concepts"]:
            candidates = by_concept.get(concept.format(**fill)) if _fillable(concept, fill) else None
            if candidates:
                # The rulebook passage is the primary source; the FAQ twin only when there is no passage.
                entry = sorted(candidates, key=lambda item: item.source != "rulebook")[0]
                break
        if entry is None:
            page = canvas.PAGES.get(spec.get("page_key", ""))
            on_page = [item for item in records if page in item.pages and item.source == "rulebook"]
            entry = on_page[0] if on_page else None
        if entry is not None and entry.id not in {item.id for item in chosen}:
            chosen.append(entry)
    return [
        Citation(page=entry.page, section=entry.section, lang=entry.lang, snippet=_snippet(entry.text), id=entry.id)
        for entry in chosen[:4]
    ]


def _fillable(concept: str, fill: dict) -> bool:
    try:
        concept.format(**fill)
    except KeyError:
        return False
    return True


def _same(claimed, value) -> bool:
    if isinstance(value, bool) or isinstance(claimed, bool):
        return bool(claimed) == bool(value)
    if isinstance(value, str):
        return fold(str(claimed)) == fold(value)
    return claimed == value


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1].rsplit(" ", 1)[0] + "…"


@cache
def _concept_table() -> dict:
    raw = json.loads(resources.files(__package__).joinpath("concepts.json").read_text(encoding="utf-8"))
    return {key: value for key, value in raw.items() if not key.startswith("_")}
