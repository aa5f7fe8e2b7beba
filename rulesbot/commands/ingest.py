"""`rulesbot ingest`: add a user's rulebook (Markdown/text or PDF) to a game, list the ingested ones, remove one.

    rulesbot ingest FILE --game ID --lang en|fr [--title T] [--source NAME]
    rulesbot ingest --list
    rulesbot ingest --remove SOURCE --game ID

The store and its guarantees (one source per file, all-or-nothing changes under the data dir lock) are in
rulesbot.userpacks; reading and cutting a rulebook, and its limits, in rulesbot.ingest.
"""

from pathlib import Path
from typing import Annotated

import typer


def ingest(
    file: Annotated[
        Path | None, typer.Argument(help="Rulebook: PDF, or Markdown/text with page markers such as <!-- page 3 -->.")
    ] = None,
    game: Annotated[str | None, typer.Option(help="Game id (lower-case letters, digits, dashes).")] = None,
    lang: Annotated[str | None, typer.Option(help="Language of the rulebook: en or fr.")] = None,
    title: Annotated[str | None, typer.Option(help="Game title (default: the game id).")] = None,
    source: Annotated[
        str | None, typer.Option(help="Name of this rulebook within the game (default: from the file name).")
    ] = None,
    list_sources: Annotated[
        bool, typer.Option("--list", help="List the ingested rulebooks (every game, or --game's).")
    ] = False,
    remove: Annotated[
        str | None, typer.Option("--remove", metavar="SOURCE", help="Remove one ingested rulebook of --game.")
    ] = None,
) -> None:
    """Add a rulebook to a game (then rebuild the index), list the ingested ones, or remove one.

    A rulebook is a PDF, or Markdown/text whose pages are marked on lines of their own: <!-- page 3 --> (or \\[page 3], or --- page 3 ---; a form feed also starts a page). Text before the first marker is page 1, and a # Heading names the section of the text under it. Answers cite these page numbers.

    Each file is its own source within the game, named after the file (rules.pdf is "rules"): another file adds to the game, and ingesting the same file again replaces only its source. A rulebook past a limit (RULESBOT_INGEST_MAX_FILE_MB, _PAGES, _TEXT_CHARS, _PASSAGES) is refused and nothing is changed.

    Example: a file rules.md holding

    <!-- page 3 -->
    # Scoring
    Each lantern card you hold at the end scores one point.

    rulesbot ingest rules.md --game lanterns --lang en

    rulesbot ingest --list

    rulesbot ingest --remove rules --game lanterns
    """
    from rulesbot.commands._common import fail, load_settings
    from rulesbot.errors import RulesbotError

    settings = load_settings()
    try:
        if list_sources:
            _no_extras(file=file, lang=lang, title=title, source=source, remove=remove, what="--list")
            _print_sources(settings, game)
        elif remove is not None:
            _no_extras(file=file, lang=lang, title=title, source=source, what="--remove")
            _remove(settings, game, remove)
        else:
            _ingest(settings, file, game, lang, title, source)
    except RulesbotError as error:
        fail(error)


def _ingest(settings, file: Path | None, game: str | None, lang: str | None, title, source) -> None:
    from rulesbot.core import Rulesbot, load_base_packs
    from rulesbot.ingest import Limits
    from rulesbot.locking import data_dir_lock
    from rulesbot.userpacks import ingest_file

    if file is None:
        _usage("give a rulebook FILE to ingest (or --list, or --remove SOURCE --game ID)")
    if game is None or lang is None:
        _usage("ingesting needs --game ID and --lang en|fr")
    # The lock covers the commit and the index rebuild, so another ingest can't slip in between.
    with data_dir_lock(settings.data_dir, settings.lock_timeout, _stderr):
        result = ingest_file(
            file,
            game=game,
            lang=lang,
            title=title,
            source=source,
            data_dir=settings.data_dir,
            limits=Limits.from_settings(settings),
            lock_timeout=settings.lock_timeout,
            shipped=load_base_packs(settings),
        )
        plural = "" if result.passages == 1 else "s"
        replaced = "" if result.replaced is None else f", replacing its {result.replaced} earlier ones"
        typer.echo(
            f'ingested {result.passages} passage{plural} from {Path(file).name} into {result.game} as source '
            f'"{result.source}"{replaced}'
        )
        Rulesbot.load(settings, notify=_stderr, warn=_warning)
    typer.echo(f'ask with: rulesbot ask "..." --game {game}')


def _remove(settings, game: str | None, source: str) -> None:
    from rulesbot.core import Rulesbot
    from rulesbot.locking import data_dir_lock
    from rulesbot.userpacks import remove_source

    if game is None:
        _usage("--remove SOURCE needs --game ID")
    with data_dir_lock(settings.data_dir, settings.lock_timeout, _stderr):
        removed = remove_source(game, source, data_dir=settings.data_dir, lock_timeout=settings.lock_timeout)
        typer.echo(f'removed source "{source}" ({removed} passage{"" if removed == 1 else "s"}) from {game}')
        Rulesbot.load(settings, notify=_stderr, warn=_warning)


def _print_sources(settings, game: str | None) -> None:
    from rulesbot.userpacks import list_sources, packs_dir

    sources = [info for info in list_sources(settings.data_dir) if game is None or info.game == game]
    if not sources:
        typer.echo(f"no ingested rulebooks{f' for {game}' if game else ''} in {packs_dir(settings.data_dir)}")
        return
    rows = [("game", "source", "lang", "passages", "pages", "file")]
    for info in sources:
        pages = f"{info.first_page}-{info.last_page}" if info.first_page != info.last_page else str(info.first_page)
        file = info.file + (f"  ({info.problem})" if info.problem else "")
        rows.append((info.game, info.source, info.lang, str(info.passages), pages, file))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    for row in rows:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[-1])


def _no_extras(*, what: str, **given) -> None:
    extra = [f"--{name}" if name != "file" else "FILE" for name, value in given.items() if value is not None]
    if extra:
        _usage(f"{what} takes no {', '.join(extra)}")


def _usage(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _stderr(message: str) -> None:
    typer.echo(message, err=True)


def _warning(message: str) -> None:
    typer.echo(f"warning: {message}", err=True)
