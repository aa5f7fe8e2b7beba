"""`rulesbot score`: placeholder until the ask issue lands."""

import typer


def score() -> None:
    """Score a painting."""
    raise typer.Exit(3)
