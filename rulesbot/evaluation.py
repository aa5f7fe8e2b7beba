"""Deterministic bilingual evaluation of retrieval, answers, citations and abstention.

Eval sets live in `eval/<game>/` in BEIR-like files: `queries.jsonl` (one question per line: `_id`, `text`,
`lang`, `kind` "rule"|"unknown", acceptable `concepts`, gold `pages`, `key_facts` with `|` alternatives),
`qrels/test.tsv`, and optionally `computed.jsonl` (issue 4: `kind` "computed"|"claim"|"rule", `verdict`, `value`, and an
optional `context`: the previous questions of a follow-up).

The computed block reports, per language, the accuracy on computed and claim questions and `hijacked`: rule
questions answered by a wrong computation (a rule item of computed.jsonl answered by any computation, or a rule
question of queries.jsonl answered by a computation missing its key facts or gold page).

Metrics are named `<set>_<lang>_<metric>` (lang: en, fr or all). Retrieval ranks concepts (first occurrence of a
record's concept), ties broken by record id; an abstained question counts as wrong for answer and citation accuracy (unanswered = 0).
"""

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from rulesbot.errors import BadInput

CITATION_DEPTH = 3  # a citation is right when a gold page is among the first 3 citations
MRR_DEPTH = 10


@dataclass(frozen=True)
class Query:
    """One eval question."""

    id: str
    text: str
    lang: str
    kind: str
    concepts: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    key_facts: tuple[str, ...] = ()
    verdict: bool | None = None
    tags: tuple[str, ...] = ()
    context: tuple[str, ...] = ()


@dataclass
class Outcome:
    """What the system did with one query."""

    concepts: list[str] = field(default_factory=list)  # ranked concept ids
    kind: str = "unknown"
    answer: str = ""  # the whole answer text, "did you mean" lines included
    lang: str = ""
    pages: list[int] = field(default_factory=list)  # cited pages, best first
    top_score: float = 0.0
    verdict: bool | None = None
    primary: str | None = None  # the answer without its "did you mean" lines (None: same as `answer`)


def load_queries(path: Path) -> list[Query]:
    """The queries of a queries.jsonl / computed.jsonl file; BadInput names the first malformed line."""
    queries = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise BadInput(f"{path}:{number}: expected a JSON object, got invalid JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise BadInput(f"{path}:{number}: expected a JSON object, got {type(data).__name__}")
        missing = [key for key in ("_id", "text", "lang") if key not in data]
        if missing:
            raise BadInput(f"{path}:{number}: expected fields _id, text and lang, missing {', '.join(missing)}")
        queries.append(
            Query(
                id=data["_id"],
                text=data["text"],
                lang=data["lang"],
                kind=data.get("kind", "rule"),
                concepts=tuple(data.get("concepts", [])),
                pages=tuple(data.get("pages", [])),
                key_facts=tuple(data.get("key_facts", [])),
                verdict=data.get("verdict"),
                tags=tuple(data.get("tags", [])),
                context=tuple(data.get("context") or ()),
            )
        )
    return queries


_ELISION = re.compile(r"\b(?:l|d|j|qu|n|s|c|m|t)'", re.IGNORECASE)
_ARTICLES = {"le", "la", "les", "un", "une", "des", "du", "de", "the", "a", "an"}


def normalise(text: str) -> str:
    """Lower-case, accent-free, punctuation-free text with French elisions and articles (FR/EN) removed."""
    text = text.replace("’", "'").replace("\u00a0", " ").lower()
    text = _ELISION.sub("", text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    words = re.findall(r"[a-z0-9]+(?:[.,][0-9]+)?", text)
    return " ".join(word for word in words if word not in _ARTICLES)


def key_facts_present(key_facts: tuple[str, ...] | list[str], answer: str) -> bool:
    """True when every key fact (any of its `|` alternatives) appears, as whole words, in `answer`; an alternative
    ending in "*" is a word stem ("défauss*": défausse, défaussée, ...), matched at the start of a word."""
    haystack = f" {normalise(answer)} "
    for fact in key_facts:
        alternatives = [(normalise(option), option.strip().endswith("*")) for option in fact.split("|")]
        if not any(option and (f" {option}" if stem else f" {option} ") in haystack for option, stem in alternatives):
            return False
    return True


def recall_at(ranked: list[str], gold: tuple[str, ...], k: int) -> float:
    """1.0 when any acceptable concept is in the first k, else 0.0."""
    return 1.0 if set(ranked[:k]) & set(gold) else 0.0


def reciprocal_rank(ranked: list[str], gold: tuple[str, ...], k: int = MRR_DEPTH) -> float:
    """1/rank of the first acceptable concept within the first k (0 if none)."""
    for rank, concept in enumerate(ranked[:k], start=1):
        if concept in gold:
            return 1.0 / rank
    return 0.0


def score_outcomes(queries: list[Query], outcomes: list[Outcome], set_name: str) -> dict[str, float]:
    """All metrics for rule/unknown queries, per language and overall (pure: unit-tested by hand)."""
    metrics: dict[str, float] = {}
    langs = sorted({query.lang for query in queries})
    for lang in [*langs, "all"]:
        pairs = [(q, o) for q, o in zip(queries, outcomes, strict=True) if lang == "all" or q.lang == lang]
        rule = [(q, o) for q, o in pairs if q.kind == "rule"]
        unknown = [(q, o) for q, o in pairs if q.kind == "unknown"]
        prefix = f"{set_name}_{lang}_"
        if rule:
            n = len(rule)
            # Retrieval metrics need gold concepts; a blind set written without seeing the knowledge has none.
            labelled = [(q, o) for q, o in rule if q.concepts]
            if labelled:
                m = len(labelled)
                metrics[prefix + "recall@1"] = sum(recall_at(o.concepts, q.concepts, 1) for q, o in labelled) / m
                metrics[prefix + "recall@3"] = sum(recall_at(o.concepts, q.concepts, 3) for q, o in labelled) / m
                metrics[prefix + f"mrr@{MRR_DEPTH}"] = sum(reciprocal_rank(o.concepts, q.concepts) for q, o in labelled) / m
            # Right: the key fact is in the answer itself, not only in a "did you mean" line.
            metrics[prefix + "answer_accuracy"] = sum(_answered(o) and _right(q, o) for q, o in rule) / n
            metrics[prefix + "right_with_did_you_mean"] = sum(
                _answered(o) and not _right(q, o) and key_facts_present(q.key_facts, o.answer) for q, o in rule
            ) / n
            # What users feel: an answer given (not "I don't know") whose key fact is nowhere in it.
            metrics[prefix + "confidently_wrong"] = sum(
                _answered(o) and not key_facts_present(q.key_facts, o.answer) for q, o in rule
            ) / n
            metrics[prefix + "citation_accuracy"] = sum(_answered(o) and _cited(q, o) for q, o in rule) / n
            metrics[prefix + "false_abstention_rate"] = sum(not _answered(o) for _, o in rule) / n
        if pairs:
            metrics[prefix + "lang_accuracy"] = sum(o.lang == q.lang for q, o in pairs) / len(pairs)
        abstained = [(q, o) for q, o in pairs if not _answered(o)]
        if unknown:
            metrics[prefix + "abstention_recall"] = sum(not _answered(o) for _, o in unknown) / len(unknown)
            near = [(q, o) for q, o in unknown if "near-domain" in q.tags]
            if near:
                metrics[prefix + "near_domain_abstained"] = sum(not _answered(o) for _, o in near) / len(near)
            # No abstention at all is the worst precision when there was something to abstain on.
            metrics[prefix + "abstention_precision"] = (
                sum(q.kind == "unknown" for q, _ in abstained) / len(abstained) if abstained else 0.0
            )
        metrics[prefix + "count"] = float(len(pairs))
    return {name: round(value, 4) for name, value in metrics.items()}


def score_cross_lingual(queries: list[Query], outcomes: list[Outcome], set_name: str) -> dict[str, float]:
    """Retrieval and citation metrics for questions asked against the other language's records only."""
    metrics: dict[str, float] = {}
    for lang in sorted({query.lang for query in queries}):
        rule = [
            (q, o) for q, o in zip(queries, outcomes, strict=True) if q.lang == lang and q.kind == "rule" and q.concepts
        ]
        if not rule:
            continue
        n = len(rule)
        prefix = f"{set_name}_xling-{lang}_"
        metrics[prefix + "recall@1"] = sum(recall_at(o.concepts, q.concepts, 1) for q, o in rule) / n
        metrics[prefix + "recall@3"] = sum(recall_at(o.concepts, q.concepts, 3) for q, o in rule) / n
        metrics[prefix + f"mrr@{MRR_DEPTH}"] = sum(reciprocal_rank(o.concepts, q.concepts) for q, o in rule) / n
        metrics[prefix + "citation_accuracy"] = sum(_answered(o) and _cited(q, o) for q, o in rule) / n
        metrics[prefix + "false_abstention_rate"] = sum(not _answered(o) for _, o in rule) / n
    return {name: round(value, 4) for name, value in metrics.items()}


def _computed_answer(outcome: Outcome) -> bool:
    return outcome.kind in ("computed", "claim")


def score_hijacks(queries: list[Query], outcomes: list[Outcome], set_name: str) -> dict[str, float]:
    """Rule questions of a rules set answered by a wrong computation (key fact or gold page missing), per language."""
    metrics: dict[str, float] = {}
    for lang in [*sorted({query.lang for query in queries}), "all"]:
        rule = [(q, o) for q, o in zip(queries, outcomes, strict=True) if q.kind == "rule" and lang in ("all", q.lang)]
        if rule:
            metrics[f"{set_name}_computed-{lang}_rules-hijacked"] = float(sum(
                _computed_answer(o) and not (key_facts_present(q.key_facts, o.answer) and _cited(q, o)) for q, o in rule))
    return metrics


def score_computed(queries: list[Query], outcomes: list[Outcome], set_name: str) -> dict[str, float]:
    """Computed/claim questions: correct = kind, verdict, language, page and key facts all right; rule items of the
    set (if any) count as hijacked when a computation answers them."""
    metrics: dict[str, float] = {}
    for lang in [*sorted({query.lang for query in queries}), "all"]:
        everything = [(q, o) for q, o in zip(queries, outcomes, strict=True) if lang == "all" or q.lang == lang]
        rule = [(q, o) for q, o in everything if q.kind == "rule"]
        if rule:
            metrics[f"{set_name}_computed-{lang}_hijacked"] = float(sum(_computed_answer(o) for _, o in rule))
        pairs = [(q, o) for q, o in everything if q.kind != "rule"]
        if not pairs:
            continue
        correct = sum(
            o.kind == q.kind
            and o.verdict == q.verdict
            and o.lang == q.lang
            and (not q.pages or _cited(q, o))
            and key_facts_present(q.key_facts, o.answer)
            for q, o in pairs
        )
        metrics[f"{set_name}_computed-{lang}_accuracy"] = round(correct / len(pairs), 4)
        # What the player got, whatever path answered: the key facts, the page and the language (and, for a claim,
        # the verdict). A computed question answered from the rulebook text with its value counts here, not above.
        facts = [_fact_right(q, o) for q, o in pairs]
        metrics[f"{set_name}_computed-{lang}_fact_right"] = round(sum(facts) / len(pairs), 4)
        # Confidently wrong: an answer (not "I don't know", not a question back) whose key fact or verdict is wrong.
        metrics[f"{set_name}_computed-{lang}_confidently_wrong"] = round(
            sum(o.kind != "unknown" and not right for (q, o), right in zip(pairs, facts, strict=True)) / len(pairs), 4)
        metrics[f"{set_name}_computed-{lang}_count"] = float(len(pairs))
    return metrics


def run_queries(bot, queries: list[Query], game: str) -> list[Outcome]:
    """Ask every query through the full pipeline (language detection, retrieval, abstention, answer)."""
    from rulesbot.lang import detect_lang

    outcomes = []
    for query in queries:
        result = bot.retriever.search(query.text, game, query_lang=detect_lang(query.text, bot.settings.default_lang))
        answer = bot.ask(query.text, game=game, context=list(query.context) or None)
        outcomes.append(
            Outcome(
                concepts=result.concepts(),
                kind=answer.kind,
                answer=answer.answer,
                primary=_primary(answer),
                lang=answer.lang,
                pages=[citation.page for citation in answer.citations],
                top_score=result.top_score,
                verdict=answer.verdict,
            )
        )
    return outcomes


def run_cross_lingual(bot, queries: list[Query], game: str) -> list[Outcome]:
    """Each question against the records of the *other* language only (a one-language user rulebook)."""
    from rulesbot.answer import citations_for

    outcomes = []
    calibration = bot.retriever.calibration
    pack = bot.packs[game]
    for query in queries:
        other = "en" if query.lang == "fr" else "fr"
        result = bot.retriever.search(query.text, game, query_lang=query.lang, langs={other})
        # Against one-language knowledge there is no lexical evidence: decide on similarity alone (as a
        # one-language user pack would, see Retriever.coverage).
        weight = calibration.coverage_weight
        if weight:
            result.top_score -= weight * bot.retriever.coverage(query.text, game, query.lang) - weight
        answered = bool(result.records) and result.top_score >= calibration.threshold
        floor = max((item.score for item in result.records), default=0.0) - calibration.cite_margin
        close = [item for item in result.records if item.score >= floor]
        pages = [citation.page for citation in citations_for(close, pack, other)]
        outcomes.append(
            Outcome(
                concepts=result.concepts(),
                kind="rule" if answered else "unknown",
                lang=query.lang,
                pages=pages,
                top_score=result.top_score,
            )
        )
    return outcomes


def suggest_threshold(queries: list[Query], outcomes: list[Outcome], max_false_abstention: float = 0.03) -> float:
    """The highest abstention threshold whose false-abstention rate on rule queries stays within the budget."""
    rule_scores = sorted(o.top_score for q, o in zip(queries, outcomes, strict=True) if q.kind == "rule")
    if not rule_scores:
        return 0.0
    allowed = int(max_false_abstention * len(rule_scores))
    # Abstaining below rule_scores[allowed] abstains on exactly `allowed` rule questions (ties aside).
    return round(rule_scores[allowed] - 1e-4, 4)


def evaluate(bot, eval_dir: Path, game: str, set_name: str | None = None) -> dict:
    """Every metric for one loaded bot over `eval_dir` (queries, cross-lingual, computed if present)."""
    set_name = set_name or game
    eval_dir = Path(eval_dir)
    queries = load_queries(eval_dir / "queries.jsonl")
    outcomes = run_queries(bot, queries, game)
    metrics = score_outcomes(queries, outcomes, set_name)
    metrics.update(score_hijacks(queries, outcomes, set_name))
    metrics.update(score_cross_lingual(queries, run_cross_lingual(bot, queries, game), set_name))
    computed_path = eval_dir / "computed.jsonl"
    if computed_path.exists():
        computed = load_queries(computed_path)
        metrics.update(score_computed(computed, run_queries(bot, computed, game), set_name))
    metrics[f"{set_name}_suggested_threshold"] = suggest_threshold(queries, outcomes)
    failures = [
        {"id": q.id, "lang": q.lang, "text": q.text, "kind": q.kind, "got": o.kind, "top": o.concepts[:3], "gold": list(q.concepts),
         "score": round(o.top_score, 4), "pages": o.pages[:3], "gold_pages": list(q.pages),
         "answer_ok": key_facts_present(q.key_facts, o.answer)}
        for q, o in zip(queries, outcomes, strict=True)
        if (q.kind == "rule" and (o.kind == "unknown" or not _cited(q, o) or not key_facts_present(q.key_facts, o.answer)))
        or (q.kind == "unknown" and o.kind != "unknown")
    ]
    return {"metrics": metrics, "failures": failures}


def _fact_right(query: Query, outcome: Outcome) -> bool:
    """The answer holds the key facts in the question's language, cites a gold page, and gets a claim's verdict."""
    return (outcome.lang == query.lang and (not query.pages or _cited(query, outcome))
            and key_facts_present(query.key_facts, outcome.answer)
            and (query.kind != "claim" or outcome.verdict == query.verdict))


def _primary(answer) -> str | None:
    # The did-you-mean lines follow the answer, one line each (rulesbot.answer.rule_answer).
    if not getattr(answer, "alternatives", None):
        return None
    return answer.answer.split("\n", 1)[0]


def _right(query: Query, outcome: Outcome) -> bool:
    return key_facts_present(query.key_facts, outcome.answer if outcome.primary is None else outcome.primary)


def _answered(outcome: Outcome) -> bool:
    return outcome.kind != "unknown"


def _cited(query: Query, outcome: Outcome) -> bool:
    return bool(set(outcome.pages[:CITATION_DEPTH]) & set(query.pages))
