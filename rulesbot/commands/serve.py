"""`rulesbot serve`: placeholder until the ask issue lands."""

import typer


def serve() -> None:
    """Serve the HTTP API."""
    raise typer.Exit(3)
