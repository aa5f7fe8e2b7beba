"""`rulesbot serve`: the HTTP API and the widget (rulesbot.api) under uvicorn.

uvicorn and FastAPI are imported inside the command, so `rulesbot --help` stays fast.
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

    import uvicorn

    from rulesbot.settings import get_settings

    get_settings.cache_clear()
    settings = get_settings()
    shown_host = f"[{host}]" if ":" in host else host
    typer.echo(
        f"rulesbot: serving http://{shown_host}:{port}/ (API docs at /docs) with {workers} worker(s), "
        f"{settings.threads} embedding thread(s) each; /healthz says ready once the index is loaded."
    )
    # The access log costs more than a cached answer; errors are still logged.
    options = {"host": host, "port": port, "access_log": False, "log_level": "warning"}
    if workers == 1:
        from rulesbot.api import create_app

        uvicorn.run(create_app(settings), **options)
    else:
        # Several processes need an import string; each worker builds its own app from the environment.
        uvicorn.run("rulesbot.api:create_app", factory=True, workers=workers, **options)
