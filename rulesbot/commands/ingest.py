"""`rulesbot ingest FILE --game ID --lang en|fr`: add a user's rulebook (Markdown/text or PDF) as a pack."""

from pathlib import Path
from typing import Annotated

import typer


def ingest(
    file: Annotated[Path, typer.Argument(help="Rulebook: PDF, or Markdown/text with page markers.")],
    game: Annotated[str, typer.Option(help="Game id for the pack (lower-case, digits, dashes).")],
    lang: Annotated[str, typer.Option(help="Language of the rulebook: en or fr.")],
    title: Annotated[str | None, typer.Option(help="Game title (default: the game id).")] = None,
) -> None:
    """Ingest a rulebook as a user pack, then rebuild the index to include it."""
    from rulesbot.commands._common import fail, load_settings
    from rulesbot.core import Rulesbot, user_packs_dir
    from rulesbot.errors import RulesbotError
    from rulesbot.ingest import ingest_file

    settings = load_settings()
    try:
        folder, count = ingest_file(file, game=game, lang=lang, title=title, packs_dir=user_packs_dir(settings))
        typer.echo(f"ingested {count} passages into {folder}")
        Rulesbot.load(settings, notify=lambda message: typer.echo(message, err=True))
    except RulesbotError as error:
        fail(error)
    typer.echo(f'ask with: rulesbot ask "..." --game {game}')
