"""`rulesbot eval`: placeholder until the ask issue lands."""

import typer


def eval_command() -> None:
    """Evaluate."""
    raise typer.Exit(3)
