"""Load and fault tests of the HTTP server (issue 9), on 127.0.0.1 only, bounded in count and time.

Two kinds of server:
- the real `rulesbot serve` in a subprocess (hash backend, fixture pack) for what uvicorn's side decides:
  header and keep-alive timeouts, the connection cap, the JSON 400, X-Forwarded-For, a busy port;
- uvicorn in a thread around the app with a fake bot that blocks or spins on purpose, for what the app decides
  under load: /healthz while answers are saturated, admission (503 + Retry-After), the time budget.
"""

import asyncio
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from fakes import FakeRulesbot
from servers import wait_for_serve

from rulesbot.api import create_app
from rulesbot.settings import Settings

FIXTURE_PACKS = Path(__file__).parent / "fixtures" / "knowledge"
SERVE = [sys.executable, "-c", "from rulesbot.cli import main; main()", "serve"]
READY_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve_env(data_dir: Path, **settings: str) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RULESBOT_")}
    env.update(
        RULESBOT_DATA_DIR=str(data_dir),
        RULESBOT_KNOWLEDGE_DIR=str(FIXTURE_PACKS),
        RULESBOT_BACKEND="hash",
        RULESBOT_THREADS="1",
    )
    env.update({f"RULESBOT_{name.upper()}": value for name, value in settings.items()})
    return env


@contextmanager
def rulesbot_serve(data_dir: Path, *, open_files: int | None = None, **settings: str):
    """`rulesbot serve` on a free loopback port, ready; yields (base URL, port); stopped on exit."""
    port = _free_port()

    def limit_files():  # in the child only: the test process keeps its own limit
        if open_files is not None:
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    server = subprocess.Popen(
        [*SERVE, "--host", "127.0.0.1", "--port", str(port)],
        env=_serve_env(data_dir, **settings),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=limit_files,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_serve(server, base, READY_SECONDS)
        yield base, port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One `rulesbot serve` with short header and keep-alive timeouts, shared by the protocol tests."""
    data_dir = tmp_path_factory.mktemp("served")
    with rulesbot_serve(
        data_dir, header_timeout_seconds="1", keep_alive_seconds="1", rate_limit_per_minute="100000"
    ) as (base, port):
        yield base, port


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (reading and discarding anything it sends)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if sock.recv(65536) == b"":
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


def _raw_response(port: int, request: bytes) -> tuple[int, dict, bytes]:
    """Send raw bytes, read until the server closes: (status, headers, body)."""
    with _connect(port) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {key.lower(): value for key, value in headers.items()}, body


# --- connections that never send a complete request ---------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed(served):
    _base, port = served
    with _connect(port) as sock:
        assert _closed_within(sock, 8)


def test_slowloris_partial_headers_are_closed(served):
    """Header bytes trickling in (one every 0.2 s, which resets no timer) do not keep a connection open."""
    _base, port = served
    with _connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = False
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and not closed:
            try:
                sock.sendall(b"X")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            closed = _closed_within(sock, 0.2)
        assert closed


def test_partial_headers_after_a_keep_alive_answer_are_closed(served):
    """uvicorn's keep-alive timer is cancelled by any byte; the header timeout is not."""
    _base, port = served
    with _connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in sock.recv(65536)
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed = False
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and not closed:
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            closed = _closed_within(sock, 0.2)
        assert closed


def test_an_idle_keep_alive_connection_is_closed(served):
    _base, port = served
    with _connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in sock.recv(65536)
        assert _closed_within(sock, 8)


def test_idle_sockets_beyond_the_file_limit_do_not_lock_healthz_out(tmp_path):
    """150 idle connections against a 128-file limit (a long header timeout, so only the cap can help):
    the longest idle are closed and /healthz still answers."""
    with rulesbot_serve(tmp_path, open_files=128, header_timeout_seconds="120") as (base, port):
        idle = []
        try:
            for _ in range(150):
                idle.append(_connect(port))
            response = httpx.get(base + "/healthz", timeout=10)
            assert response.status_code == 200 and response.json()["status"] == "ready"
            closed = sum(_closed_within(sock, 0.01) for sock in idle)
            assert closed >= 150 - 128
        finally:
            for sock in idle:
                sock.close()


# --- what uvicorn would answer in plain text -----------------------------------------------------------


@pytest.mark.parametrize("value", [b"abc", b"-1", b"1, 2"], ids=["letters", "negative", "list"])
def test_a_malformed_content_length_gets_the_json_error_shape(served, value):
    _base, port = served
    request = b"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    request += b"Content-Length: " + value + b"\r\n\r\n{}"
    status, headers, body = _raw_response(port, request)
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": {"code": "bad_request", "message": "invalid Content-Length"}}


def test_head_is_answered_by_the_real_server(served):
    base, _port = served
    for path in ("/healthz", "/", "/widget.js", "/v1/games"):
        head = httpx.head(base + path, timeout=10)
        assert head.status_code == 200, path
        assert head.content == b""
        assert int(head.headers["content-length"]) == len(httpx.get(base + path, timeout=10).content)


# --- X-Forwarded-For ------------------------------------------------------------------------------------


def test_a_spoofed_x_forwarded_for_does_not_escape_the_rate_limit(tmp_path):
    """Nobody is a trusted proxy by default, not even 127.0.0.1 (uvicorn's default): the header is ignored."""
    with rulesbot_serve(tmp_path, rate_limit_per_minute="3") as (base, _port):
        statuses = [
            httpx.get(base + "/v1/games", headers={"X-Forwarded-For": f"198.51.100.{index}"}, timeout=10).status_code
            for index in range(5)
        ]
    assert statuses[:3] == [200, 200, 200]
    assert statuses[3:] == [429, 429]


# --- start-up ---------------------------------------------------------------------------------------------


def test_a_busy_port_is_one_line_and_a_non_zero_exit(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = subprocess.run(
            [*SERVE, "--port", str(port)], env=_serve_env(tmp_path), capture_output=True, text=True, timeout=60
        )
    assert result.returncode != 0
    assert "serving" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(port) in lines[0] and "in use" in lines[0], result.stderr


def test_a_comma_separated_cors_setting_is_accepted_by_serve(tmp_path):
    with rulesbot_serve(tmp_path, cors_origins="https://a.example/, https://b.example") as (base, _port):
        for origin in ("https://a.example", "https://b.example"):
            response = httpx.get(base + "/v1/games", headers={"Origin": origin}, timeout=10)
            assert response.headers.get("access-control-allow-origin") == origin


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CORS_ORIGINS", "rules.example"),
        ("CORS_ORIGINS", '["https://a.example"'),
        ("TRUSTED_PROXIES", "10.0.0.0/33"),
        ("MAX_QUEUE", "-1"),
        ("REQUEST_BUDGET_SECONDS", "soon"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(tmp_path, name, value):
    result = subprocess.run(
        [*SERVE, "--port", str(_free_port())],
        env=_serve_env(tmp_path, **{name.lower(): value}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"RULESBOT_{name}" in lines[0], result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


# --- the app under load: uvicorn in a thread, a fake bot that blocks or spins --------------------------


class GatedBot(FakeRulesbot):
    """Blocks every new question until `release` is set (bounded: 30 s)."""

    def __init__(self):
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def ask(self, question, lang=None, game=None):
        self.entered.set()
        self.release.wait(30)
        return super().ask(question, lang, game)


@contextmanager
def threaded_server(app):
    """uvicorn serving `app` on a free loopback port, in a thread; yields the base URL."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def _gated_app(bot, **settings):
    values = {"rate_limit_per_minute": 100_000, "request_budget_seconds": 60, **settings}
    return create_app(Settings(**values), bot=bot)


def test_healthz_answers_while_every_answer_waits(tmp_path):
    """60 new questions behind one that is blocked on purpose (more than the 40 threads of the pool that
    /healthz used to share): /healthz, /v1/games, the widget and the demo page still answer at once."""
    bot = GatedBot()

    async def scenario(base):
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
            asks = [
                asyncio.create_task(client.post("/v1/ask", json={"question": f"question {index}?"}))
                for index in range(60)
            ]
            assert await asyncio.to_thread(bot.entered.wait, 10)
            await asyncio.sleep(0.5)  # the others arrive and wait
            cheap = [await client.get(path, timeout=5) for path in ("/healthz", "/v1/games", "/widget.js", "/")]
            still_blocked = not bot.release.is_set()
            bot.release.set()
            await asyncio.gather(*asks, return_exceptions=True)
            return cheap, still_blocked

    try:
        with threaded_server(_gated_app(bot)) as base:
            cheap, still_blocked = asyncio.run(scenario(base))
    finally:
        bot.release.set()
    assert still_blocked
    assert [response.status_code for response in cheap] == [200, 200, 200, 200]
    assert cheap[0].json()["status"] == "ready"


def test_admission_answers_503_with_retry_after_when_the_queue_is_full():
    """max_queue 2: one question runs (blocked), two wait, the others are refused at once, before any ends."""
    bot = GatedBot()

    async def scenario(base):
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=20)) as client:
            first = asyncio.create_task(client.post("/v1/ask", json={"question": "first?"}))
            assert await asyncio.to_thread(bot.entered.wait, 10)
            waiting = [
                asyncio.create_task(client.post("/v1/ask", json={"question": f"waiting {index}?"}))
                for index in range(2)
            ]
            await asyncio.sleep(0.3)
            refused = await asyncio.wait_for(
                asyncio.gather(*(client.post("/v1/ask", json={"question": f"more {i}?"}) for i in range(6))), 10
            )
            health_meanwhile = await client.get("/healthz", timeout=5)
            still_blocked = not bot.release.is_set()
            bot.release.set()
            admitted = await asyncio.gather(first, *waiting)
            return refused, admitted, still_blocked, health_meanwhile

    try:
        with threaded_server(_gated_app(bot, max_queue=2)) as base:
            refused, admitted, still_blocked, health = asyncio.run(scenario(base))
    finally:
        bot.release.set()
    assert still_blocked and health.status_code == 200
    for response in refused:
        assert response.status_code == 503
        assert response.json() == {
            "error": {"code": "overloaded", "message": "the server is busy: try again shortly"}
        }
        assert int(response.headers["retry-after"]) >= 1
    assert [response.status_code for response in admitted] == [200, 200, 200]
    assert bot.calls["ask"] == 3


class SpinningBot(FakeRulesbot):
    """Questions with "spin" compute in pure Python for up to 30 s (a search the rules did not bound)."""

    def __init__(self):
        super().__init__()
        self.stopped = threading.Event()

    def ask(self, question, lang=None, game=None):
        if "spin" in question:
            deadline = time.monotonic() + 30
            try:
                while time.monotonic() < deadline:
                    sum(range(1000))
            finally:
                self.stopped.set()
        return super().ask(question, lang, game)


def test_a_question_over_its_time_budget_is_stopped_and_the_worker_goes_on():
    bot = SpinningBot()
    with threaded_server(_gated_app(bot, request_budget_seconds=0.5)) as base:
        started = time.monotonic()
        response = httpx.post(base + "/v1/ask", json={"question": "spin forever?"}, timeout=10)
        elapsed = time.monotonic() - started
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "over_budget"
        assert int(response.headers["retry-after"]) >= 1
        assert elapsed < 10
        # The computation itself was stopped (not left running, holding the worker for 30 s).
        assert bot.stopped.wait(5)
        statuses = [
            httpx.post(base + "/v1/ask", json={"question": f"hand limit {index}?"}, timeout=10).status_code
            for index in range(20)
        ]
        assert statuses == [200] * 20


def test_connections_get_tcp_nodelay_even_on_a_socket_handed_to_uvicorn():
    """asyncio sets TCP_NODELAY only on sockets made with proto IPPROTO_TCP; a pre-bound socket (ours, and
    uvicorn's own for --workers) is not, and every keep-alive answer then waited ~40 ms for a delayed ACK."""
    from uvicorn.server import ServerState

    from rulesbot.server import GuardedH11Protocol, build_config

    class Transport:
        def __init__(self, sock):
            self.sock = sock

        def get_extra_info(self, name, default=None):
            return self.sock if name == "socket" else default

        def is_closing(self):
            return False

        def close(self):
            pass

    async def scenario():
        config = build_config(create_app(Settings(), bot=FakeRulesbot()), Settings())
        protocol = GuardedH11Protocol(config, ServerState(), {})
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0) as sock:  # proto 0, as handed over
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
            protocol.connection_made(Transport(sock))
            nodelay = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            protocol.connection_lost(None)
            return nodelay

    assert asyncio.run(scenario()) != 0
