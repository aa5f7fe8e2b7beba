"""`rulesbot index`: placeholder until the ask issue lands."""

import typer

app = typer.Typer(help="Build and inspect the search index.", no_args_is_help=True)


@app.command("build")
def build() -> None:
    """Build the index."""
    raise typer.Exit(3)
