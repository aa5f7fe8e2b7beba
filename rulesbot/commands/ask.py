"""`rulesbot ask`: placeholder until the ask issue lands."""

import typer


def ask(question: str = typer.Argument(None, help="The rules question.")) -> None:
    """Answer a rules question (FR/EN) with the rulebook page(s) it rests on."""
    raise typer.Exit(3)
