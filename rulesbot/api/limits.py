"""Limits and CORS: the guard middleware (HEAD as GET, the per-client rate limit, the bounded body, security
headers), the token buckets it and the answer worker spend, the client's address, and CORS in the error envelope.

The client is the peer address, or the X-Forwarded-For address when the peer is a configured trusted proxy.
"""

import asyncio
import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse

from rulesbot.api.errors import send_error

# Request bodies are tiny (a question is at most 2000 characters); anything bigger is refused before parsing.
MAX_BODY_BYTES = 16 * 1024
# A client that announces a body and then stalls must not hold a worker forever.
BODY_READ_TIMEOUT_SECONDS = 10.0
# The rate limiter forgets the least recently seen clients beyond this, so memory stays bounded.
RATE_LIMIT_MAX_CLIENTS = 10_000
RATE_LIMITED_PREFIX = "/v1/"
# JSON and scripts never need to load anything.
API_CSP = "default-src 'none'; frame-ancestors 'none'"


class TokenBucketLimiter:
    """Per-client token buckets: `per_minute` tokens a minute, bursts up to a minute's worth.

    A token is a request (`take()`), or a second of computation (`take(client, 0)` checks that the client is
    not in debt, `charge` spends what a call took, after the fact)."""

    def __init__(self, per_minute: float, *, clock: Callable[[], float] = time.monotonic):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, cost: float = 1.0) -> float:
        """Spend `cost` tokens: 0 if allowed, else the seconds until there are enough."""
        with self._lock:
            tokens = self._refilled(client)
            wait = 0.0
            if tokens >= cost:
                tokens -= cost
            else:
                wait = (cost - tokens) / self.rate
            self._store(client, tokens)
            return wait

    def charge(self, client: str, amount: float) -> None:
        """Spend `amount` tokens whatever is left: a debt (at most a bucket's worth) is paid back by waiting."""
        with self._lock:
            self._store(client, max(-self.capacity, self._refilled(client) - amount))

    def _refilled(self, client: str) -> float:
        now = self.clock()
        tokens, last = self._buckets.pop(client, (self.capacity, now))
        return min(self.capacity, tokens + (now - last) * self.rate)

    def _store(self, client: str, tokens: float) -> None:
        self._buckets[client] = (tokens, self.clock())
        while len(self._buckets) > RATE_LIMIT_MAX_CLIENTS:
            self._buckets.popitem(last=False)


class GuardMiddleware:
    """Pure ASGI: HEAD as GET without the body, rate limit, bounded body (announced and streamed size, read
    timeout), security headers."""

    def __init__(self, app, *, limiter: TokenBucketLimiter, max_body: int, trusted: tuple = ()):
        self.app = app
        self.limiter = limiter
        self.max_body = max_body
        self.trusted = trusted

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        send = _with_security_headers(send)
        if scope["method"] == "HEAD":
            # Every GET answers HEAD too (HTTP says it must): the same status and headers, no body.
            scope = {**scope, "method": "GET"}
            send = _without_body(send)
        if path.startswith(RATE_LIMITED_PREFIX):
            wait = self.limiter.take(client_address(scope, self.trusted))
            if wait > 0:
                retry = str(max(1, math.ceil(wait)))
                await send_error(
                    send, 429, "rate_limited", "too many requests: slow down", {"Retry-After": retry}
                )
                return
        headers = dict(scope.get("headers") or [])
        if (
            scope["method"] in ("POST", "PUT", "PATCH")
            or b"content-length" in headers
            or b"transfer-encoding" in headers
        ):
            announced = headers.get(b"content-length")
            if announced is not None:
                if not announced.strip().isdigit():
                    await send_error(send, 400, "bad_request", "invalid Content-Length")
                    return
                if int(announced) > self.max_body:
                    await send_error(
                        send, 413, "payload_too_large", f"the body exceeds {self.max_body} bytes"
                    )
                    return
            # Read the whole (small) body here, counting what actually arrives: a chunked body or a lying
            # Content-Length cannot get past the limit.
            try:
                async with asyncio.timeout(BODY_READ_TIMEOUT_SECONDS):
                    body = await _read_body(receive, self.max_body)
            except TimeoutError:
                await send_error(send, 408, "request_timeout", "the request body took too long")
                return
            if body is None:  # the client went away
                return
            if len(body) > self.max_body:
                await send_error(send, 413, "payload_too_large", f"the body exceeds {self.max_body} bytes")
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)


class JsonCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, with refused preflights answered in the one JSON error shape."""

    def preflight_response(self, request_headers):
        """Starlette's preflight answer, re-shaped into the error envelope when the origin is refused."""
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        headers = {
            k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")
        }
        message = bytes(response.body).decode("utf-8", "replace")
        return JSONResponse(
            {"error": {"code": "cors_denied", "message": message}},
            status_code=response.status_code,
            headers=headers,
        )


# The longest client key kept (a forwarded address from a trusted proxy is short; anything else is cut).
MAX_CLIENT_KEY_CHARS = 64


def client_address(scope: dict, trusted: tuple) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the right-most address of
    X-Forwarded-For that is not itself a trusted proxy (the one that connected to the outermost trusted proxy;
    anything left of it was written by the client and could be anything)."""
    peer = scope.get("client")
    address = peer[0] if peer else "unknown"
    if not trusted or not _is_trusted(address, trusted):
        return address
    values = [value for name, value in scope.get("headers") or [] if name == b"x-forwarded-for"]
    hops = [hop.strip() for hop in b",".join(values).decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop[:MAX_CLIENT_KEY_CHARS]
    return hops[0][:MAX_CLIENT_KEY_CHARS] if hops else address


def _is_trusted(address: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def _with_security_headers(send):
    extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]

    async def wrapped(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {name.lower() for name, _ in headers}
            headers += [item for item in extra if item[0] not in names]
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", API_CSP.encode()))
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


def _without_body(send):
    async def wrapped(message):
        if message["type"] == "http.response.body" and message.get("body"):
            message = {**message, "body": b""}
        await send(message)

    return wrapped


async def _read_body(receive, limit: int) -> bytes | None:
    """The request body, stopping as soon as it exceeds `limit`; None if the client disconnected."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > limit or not message.get("more_body", False):
            return bytes(body)


def _replay(body: bytes, receive):
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        # Afterwards, pass through so the app still sees the client's disconnect.
        return await receive()

    return replayed
