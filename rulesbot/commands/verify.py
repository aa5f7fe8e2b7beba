"""`rulesbot verify`: placeholder until the ask issue lands."""

import typer


def verify() -> None:
    """Verify the rulebook examples."""
    raise typer.Exit(3)
