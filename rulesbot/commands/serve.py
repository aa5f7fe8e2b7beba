"""`rulesbot serve`: the HTTP API and the widget (rulesbot.api) under uvicorn (rulesbot.server).

uvicorn and FastAPI are imported inside the command, so `rulesbot --help` stays fast. The settings are read
and the port bound before anything is printed: a bad setting or a busy port is one line and a non-zero exit.
"""

import os
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Worker processes; each loads the model and index once.")
    ] = 1,
) -> None:
    """Serve the HTTP API (/v1/ask, /v1/score, /v1/search, /v1/games, /healthz, /docs), the widget and a demo page."""
    cpus = os.cpu_count() or 1
    threads = max(1, cpus // workers)
    # Every worker runs its own OpenMP pool: split the cores between them instead of oversubscribing.
    # Set before the embedding libraries load (workers inherit the environment); an explicit setting wins.
    os.environ.setdefault("RULESBOT_THREADS", str(threads))
    os.environ.setdefault("OMP_NUM_THREADS", os.environ["RULESBOT_THREADS"])
    # Idle OpenMP threads must sleep, not spin: spinning threads fight the request threads and other
    # processes for the cores (measured here on a busy 2-core machine: 2.5 s per query spinning, 45 ms passive).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

    from rulesbot import server
    from rulesbot.commands._common import load_settings

    settings = load_settings()  # a bad setting is one line naming it, before anything starts
    shown_host = f"[{host}]" if ":" in host else host
    try:
        sock = server.bind(host, port)
    except OSError as error:
        typer.echo(f"error: cannot listen on {shown_host}:{port}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    # Printed once the socket listens: connections made from now on wait for the server, none is refused.
    typer.echo(
        f"rulesbot: serving http://{shown_host}:{port}/ (API docs at /docs) with {workers} worker(s), "
        f"{settings.threads} embedding thread(s) each; /healthz says ready once the index is loaded.",
    )
    server.run(sock, settings, workers=workers)
