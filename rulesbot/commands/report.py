"""`rulesbot report`: what players asked, for a rules-site owner (needs RULESBOT_ANALYTICS=true while serving).

    rulesbot report                   rich tables: totals, most asked, unanswered, low confidence, down-voted
    rulesbot report --since 7d --lang fr --json

Reads the analytics database (RULESBOT_DATABASE_URL, default a SQLite file in the data dir). Exit 2 for a bad
option, 1 when the database can't be read; an empty or missing database is an empty report, not an error.
"""

import re
from typing import Annotated

import typer

_RELATIVE = re.compile(r"^(\d+)\s*([hdw])$")
_UNIT_SECONDS = {"h": 3600, "d": 86400, "w": 7 * 86400}


def report(
    since: Annotated[
        str | None,
        typer.Option(help="Only questions since then: a duration (24h, 7d, 2w) or a date (2026-11-01)."),
    ] = None,
    lang: Annotated[str | None, typer.Option(help="Only questions answered in this language: fr or en.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="Rows per table.")] = 10,
    json_output: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Report the most asked questions, the unanswered ("I don't know"), low-confidence and down-voted ones."""
    import json
    import time

    from rulesbot.commands._common import fail, load_settings

    if lang is not None and lang not in ("fr", "en"):
        typer.echo(f"error: --lang must be fr or en, got {lang!r}", err=True)
        raise typer.Exit(2)
    try:
        cutoff = parse_since(since, now=time.time())
    except ValueError as error:
        typer.echo(f"error: --since: {error}", err=True)
        raise typer.Exit(2) from None
    settings = load_settings()

    from rulesbot.analytics import Analytics, AnalyticsError
    from rulesbot.settings import analytics_url

    try:
        store = Analytics.open(analytics_url(settings), retention_days=settings.analytics_retention_days)
        try:
            data = store.report(since=cutoff, lang=lang, limit=limit)
        finally:
            store.close()
    except AnalyticsError as error:
        fail(error)
    if json_output:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    _print_report(data, since)


def parse_since(text: str | None, *, now: float) -> float | None:
    """A cutoff timestamp from "7d"-style durations or an ISO date; None for no cutoff."""
    from datetime import UTC, datetime

    if text is None or not text.strip():
        return None
    match = _RELATIVE.match(text.strip().lower())
    if match:
        return now - int(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"expected a duration such as 24h, 7d or 2w, or a date such as 2026-11-01, got {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _print_report(data: dict, since: str | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    totals = data["totals"]
    votes = totals["votes"]
    scope = f" since {since}" if since else ""
    console.print(
        f"{totals['questions']} questions{scope} "
        f"({', '.join(f'{lang}: {count}' for lang, count in sorted(totals['by_lang'].items())) or 'none'}); "
        f"kinds: {', '.join(f'{kind} {count}' for kind, count in sorted(totals['by_kind'].items())) or 'none'}; "
        f"votes: {votes['up']} up, {votes['down']} down"
    )
    sections = [
        ("Most asked", data["most_asked"], ("count", "confidence")),
        ('Unanswered ("I don\'t know")', data["unanswered"], ("count",)),
        ("Low confidence", data["low_confidence"], ("count", "confidence")),
        ("Down-voted", data["down_voted"], ("down_votes", "comment")),
    ]
    for title, rows, columns in sections:
        table = Table(title=title, title_justify="left")
        table.add_column("question")
        table.add_column("lang")
        for column in columns:
            table.add_column(column.replace("_", " "), justify="left" if column == "comment" else "right")
        for row in rows:
            table.add_row(row["question"], row["lang"], *[_cell(row.get(column)) for column in columns])
        if not rows:
            table.add_row("(none)", "", *["" for _ in columns])
        console.print(table)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
