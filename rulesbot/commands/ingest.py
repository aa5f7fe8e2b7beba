"""`rulesbot ingest`: placeholder until the ask issue lands."""

import typer


def ingest() -> None:
    """Ingest a rulebook."""
    raise typer.Exit(3)
