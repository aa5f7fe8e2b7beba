"""`rulesbot score`: score a Canvas painting with the rules engine (human form, or the JSON-lines contract).

`rulesbot score --jsonl` reads one JSON request per stdin line and writes one JSON line per request, in order;
the contract itself lives in `rulesbot.engine.canvas.score_request` so the HTTP API shares it.
Only Typer is imported at module level so `rulesbot --help` stays fast.
"""

from typing import Annotated

import typer

_SWATCH_STYLES = ("red", "yellow", "green", "blue", "magenta")


def score(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="3 Art Cards, bottom to top: titles (case-insensitive) or ids 1-60."),
    ] = None,
    scoring: Annotated[
        str | None,
        typer.Option(
            help="A scenario (e.g. first-time-playing) or comma-separated Scoring Cards; default all 12."
        ),
    ] = None,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl", help="Read JSON Lines requests on stdin; write one JSON result line per request."
        ),
    ] = False,
) -> None:
    """Score a painting: visible swatches, title, ribbons per Scoring Card, silver ribbons and points.

    Examples:

    rulesbot score Chosen View Game --scoring first-time-playing

    rulesbot score 5 46 31 --scoring variety,repetition,emphasis,composition

    echo '{"cards": ["Chosen", "View", "Game"]}' | rulesbot score --jsonl
    """
    if jsonl:
        if cards or scoring:
            _fail(
                '--jsonl reads its requests on stdin: give no cards and no --scoring (use the "scoring" field)'
            )
        raise typer.Exit(_score_json_lines())
    _score_human(cards or [], scoring)


def _score_json_lines() -> int:
    """Score each non-blank stdin line; return exit status 2 if any line failed, else 0."""
    import json
    import sys

    from rulesbot.engine.canvas import score_line

    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue  # blank lines carry no request (e.g. a trailing newline); skipping keeps the output aligned
        result = score_line(line)
        failed = failed or "error" in result
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 2 if failed else 0


def _score_human(cards: list[str], scoring_option: str | None) -> None:
    from rich.console import Console
    from rich.table import Table

    from rulesbot.engine import canvas

    try:
        slugs = _resolve_scoring(canvas, scoring_option)
        request = {"cards": [int(name) if name.isdigit() else name for name in cards], "scoring": list(slugs)}
        result = canvas.score_request(request)
    except (canvas.ScoreInputError, ValueError) as error:
        _fail(str(error))
    painting = canvas.Painting.from_cards(request["cards"])
    console = Console()
    titles = [canvas.card(card_id).title for card_id in painting.cards]
    console.print(f"[bold]{result['title']}[/bold]  (bottom to top: {', '.join(titles)})")
    swatches = Table(show_header=True, header_style="bold")
    swatches.add_column("")
    for number, style in enumerate(_SWATCH_STYLES, start=1):
        swatches.add_column(f"[{style}]{number} {canvas.SWATCH_COLOURS[number - 1]}[/{style}]")
    swatches.add_row("icons", *[" ".join(icons) or "-" for icons in result["visible"]])
    swatches.add_row(
        "shown by", *[canvas.card(card_id).title if card_id else "-" for card_id in painting.shown_by]
    )
    console.print(swatches)
    earned = Table(show_header=True, header_style="bold")
    for column in ("Scoring Card", "Carte de score", "ribbons", "points (alone)"):
        earned.add_column(column)
    for slug, ribbons in result["ribbons"].items():
        entry = canvas.scoring_card(slug)
        earned.add_row(entry.name_en, entry.name_fr, str(ribbons), str(canvas.points_for(slug, ribbons)))
    earned.add_row(
        "Silver (bonus)", "Argent (bonus)", str(result["bonus"]), str(canvas.SILVER_POINTS * result["bonus"])
    )
    console.print(earned)
    total = canvas.score_painting(painting, slugs).points()
    console.print(f"Worth [bold]{total}[/bold] points as a player's only painting ({canvas.RULES_VERSION}).")


def _resolve_scoring(canvas, option: str | None) -> tuple[str, ...]:
    """A scenario name, or comma-separated Scoring Card names; None means all 12."""
    if option is None:
        return canvas.SCORING_SLUGS
    try:
        chosen = canvas.scenario(option)
    except canvas.UnknownScenario:
        slugs = tuple(canvas.scoring_card(name).slug for name in option.split(",") if name.strip())
        if not slugs:
            # An empty option is a slip, not a request to score against no card (which silently gives 0 ribbons).
            raise ValueError("--scoring names no Scoring Card: give a scenario or comma-separated card names") from None
        return slugs
    if chosen.random_cards:
        raise ValueError(f"scenario {chosen.slug!r} draws random Scoring Cards: name the cards instead")
    return chosen.cards


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
