"""`rulesbot score`: score a painting with the game's rules engine (human form, or the JSON-lines contract).

`rulesbot score --jsonl` reads one JSON request per stdin line and writes one JSON line per request, in order;
the game's GameSpec (rulesbot.games) gives the line entry point and the readable form, so the HTTP API and the CLI
share the engine's contract (for Canvas, `rulesbot.engine.canvas.score_request`).
Only Typer is imported at module level so `rulesbot --help` stays fast.
"""

from typing import Annotated

import typer


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
    game: Annotated[str | None, typer.Option(help="Game id (default: the default_game setting).")] = None,
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
        raise typer.Exit(_score_json_lines(_spec(game)))
    _score_human(_spec(game), cards or [], scoring)


def _spec(game: str | None):
    """The GameSpec of the game to score (default: the default_game setting); exit 2 when it has no engine."""
    from rulesbot.commands._common import fail, load_settings
    from rulesbot.core import load_catalog
    from rulesbot.errors import BadInput, RulesbotError
    from rulesbot.games import spec_for_pack
    from rulesbot.knowledge import get_pack

    settings = load_settings()
    try:
        pack = get_pack(load_catalog(settings), game or settings.default_game)
    except RulesbotError as error:
        fail(error)
    spec = spec_for_pack(pack)
    if spec is None or spec.score_line is None:
        fail(BadInput(f"{pack.manifest.title} has no rules engine: nothing to score"))
    return spec


def _score_json_lines(spec) -> int:
    """Score each non-blank stdin line; return exit status 2 if any line failed, else 0."""
    import json
    import sys

    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue  # blank lines carry no request (e.g. a trailing newline); skipping keeps the output aligned
        result = spec.score_line(line)
        failed = failed or "error" in result
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 2 if failed else 0


def _score_human(spec, cards: list[str], scoring_option: str | None) -> None:
    if spec.score_view is None:
        _fail("this game has no readable score form: use --jsonl")
    try:
        spec.score_view(cards, scoring_option)
    except ValueError as error:
        _fail(str(error))


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
