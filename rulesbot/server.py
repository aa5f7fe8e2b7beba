"""The uvicorn side of `rulesbot serve`: the listening socket, the HTTP protocol and the server options.

    sock = bind("127.0.0.1", 8000)            # OSError when the port is busy: nothing printed, nothing started
    run(sock, settings, workers=1)

uvicorn alone leaves holes that this module closes (issue 9):
- a connection that never completes its request headers is never closed: uvicorn arms its keep-alive timer
  only after an answer, and any byte received cancels it. `GuardedH11Protocol` gives every request
  `header_timeout_seconds` to arrive, counted from the connection's opening or its previous answer
  (slowloris-style clients trickling header bytes are closed too);
- connections are not capped: beyond `max_connections` (at most the open-file limit less a reserve), the
  connection idle the longest (no request being answered) is closed, so idle sockets cannot use up the
  process's files and lock /healthz out;
- a request h11 cannot parse (a malformed Content-Length, oversized headers) gets uvicorn's plain-text 400;
  here it is the API's JSON error shape;
- uvicorn trusts X-Forwarded-For from 127.0.0.1 by default; it is turned off here, and the API trusts it only
  from RULESBOT_TRUSTED_PROXIES (rulesbot.api.client_address).
"""

import json
import resource
import socket
import sys

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol
from uvicorn.supervisors import Multiprocess

from rulesbot.settings import Settings

# Files the process needs besides its connections (model, index, logs, pipes, the listening socket).
RESERVED_FILES = 64
# Requests in flight are finished within this on shutdown; past it they are cut.
GRACEFUL_SHUTDOWN_SECONDS = 5
# How long the answer worker may hold the GIL while the event loop waits for it (CPython's default: 5 ms).
# The loop takes the GIL back after each socket call, so a request costs several waits while the worker runs
# Python code (retrieval, the engine): measured here, /healthz p95 went from 40 ms to 13 ms at 1 ms.
SWITCH_INTERVAL_SECONDS = 0.001


class RulesbotConfig(uvicorn.Config):
    """uvicorn's Config plus what `GuardedH11Protocol` reads (a module-level class: workers unpickle it)."""

    def __init__(self, app, *, header_timeout_seconds: float = 10.0, max_connections: int = 1000, **options):
        super().__init__(app, **options)
        self.header_timeout_seconds = header_timeout_seconds
        self.max_connections = max_connections

    def load(self) -> None:
        """Load the app, in each serving process (with --workers, in each worker), and make the GIL hand-off
        quick there."""
        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
        super().load()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout, a connection cap and JSON errors for unparsable requests."""

    def __init__(self, config, server_state, app_state, _loop=None):
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout_seconds = getattr(config, "header_timeout_seconds", 10.0)
        self.max_connections = getattr(config, "max_connections", None)
        self.idle_since = self.loop.time()
        self._header_timer = None

    def connection_made(self, transport) -> None:
        """No Nagle delay, start the header clock, then keep the connection count under the cap."""
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # asyncio sets TCP_NODELAY only on sockets created with proto IPPROTO_TCP, which a socket handed to
            # uvicorn (ours, or its own for --workers) is not: without it, every keep-alive answer after the
            # first waits ~40 ms for the client's delayed ACK (headers and body are two writes).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._arm_header_timer()
        if self.max_connections is not None and len(self.connections) > self.max_connections:
            idle = [
                other
                for other in self.connections
                if other is not self
                and isinstance(other, GuardedH11Protocol)
                and other.is_idle()
                and not other.transport.is_closing()  # closed already, and not yet forgotten by uvicorn
            ]
            # The longest idle goes (a new connection is about to send its request); with none idle, the new one.
            victim = min(idle, key=lambda other: other.idle_since) if idle else self
            victim.close_idle()

    def connection_lost(self, exc) -> None:
        """Stop the header clock."""
        self._cancel_header_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        """The next request's headers have `header_timeout_seconds` from now."""
        self.idle_since = self.loop.time()
        self._arm_header_timer()
        super().on_response_complete()

    def is_idle(self) -> bool:
        """No request is being answered (the connection is new, between requests, or sending headers)."""
        return self.cycle is None or self.cycle.response_complete

    def close_idle(self) -> None:
        """Close the connection if no request is being answered on it."""
        if self.is_idle() and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, _message: str) -> None:
        """The answer to a request h11 cannot parse, in the API's JSON error shape (uvicorn's is plain text)."""
        # Called by uvicorn while handling h11's RemoteProtocolError: that error says what was wrong.
        error = sys.exc_info()[1]
        status = getattr(error, "error_status_hint", 400)
        if status == 431:
            code, message = "headers_too_large", "the request headers are too large"
        elif "content-length" in str(error).lower():
            # h11's own text may quote the request's bytes: never echo them back.
            code, message = "bad_request", "invalid Content-Length"
        else:
            status, code, message = 400, "bad_request", "invalid HTTP request"
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=status, headers=headers, reason=STATUS_PHRASES[status]),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_seconds, self.close_idle)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (OSError when it cannot be had, e.g. the port is busy)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        # As uvicorn does: a restarted server can listen again at once, while the old sockets drain.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)  # worker processes serve the same socket
    return sock


def connection_cap(settings: Settings) -> int:
    """`max_connections`, lowered to fit the open-file limit (less what the process needs besides)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(1, min(settings.max_connections, soft - RESERVED_FILES))


def build_config(app, settings: Settings, *, workers: int = 1, **options) -> RulesbotConfig:
    """The uvicorn configuration `rulesbot serve` runs with (tests run the same one in a thread)."""
    return RulesbotConfig(
        app,
        http=GuardedH11Protocol,
        workers=workers,
        header_timeout_seconds=settings.header_timeout_seconds,
        max_connections=connection_cap(settings),
        timeout_keep_alive=settings.keep_alive_seconds,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        # X-Forwarded-For is the API's business, from trusted proxies only.
        proxy_headers=False,
        # The access log costs more than a cached answer; errors are still logged.
        access_log=False,
        log_level="warning",
        lifespan="on",
        **options,
    )


def run(sock: socket.socket, settings: Settings, *, workers: int = 1) -> None:
    """Serve the API on an already listening socket until interrupted."""
    if workers == 1:
        from rulesbot.api import create_app

        config = build_config(create_app(settings), settings)
        uvicorn.Server(config).run(sockets=[sock])
    else:
        # Several processes need an import string; each worker builds its own app from the environment.
        config = build_config("rulesbot.api:create_app", settings, workers=workers, factory=True)
        Multiprocess(config, sockets=[sock]).run()
