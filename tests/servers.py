"""Real database servers for tests, from the Debian packages: a throwaway redis-server and PostgreSQL, each on
127.0.0.1 and a free port, with no persistence (Redis) or in a temp dir (PostgreSQL), stopped at teardown.

When a server's binaries are missing the test is skipped with the reason, except in CI (`CI=true`), where .ci/run
installs them and a missing one is a failure, not a silent skip.
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from glob import glob
from pathlib import Path

import pytest

START_SECONDS = 30


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _missing(what: str) -> None:
    message = f"{what} is not installed (Debian package; .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class RedisServer:
    """One redis-server process: `start()`, `kill()` (SIGKILL, as a crash), `start()` again on the same port."""

    def __init__(self, directory: Path) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            _missing("redis-server")
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The redis:// URL of this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        """Start it and wait until it answers PING."""
        import redis

        command = [
            self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
            "--dir", str(self.directory), "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning",
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert self.process.poll() is None, "redis-server exited"
            try:
                if client.ping():
                    client.close()
                    return self
            except redis.exceptions.RedisError:
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def client(self):
        """A new client to this server."""
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, decode_responses=True)

    def kill(self) -> None:
        """Stop it at once (SIGKILL), as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None


class PostgresServer:
    """A throwaway PostgreSQL cluster (initdb + pg_ctl) in a temp dir, as a non-root user when run as root."""

    def __init__(self) -> None:
        binaries = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
        if not binaries:
            _missing("PostgreSQL (/usr/lib/postgresql/*/bin/initdb)")
        self.bin = Path(binaries[-1]).parent
        # Its own temp dir, not pytest's (which only root may enter): the server runs as another user.
        self.directory = Path(tempfile.mkdtemp(prefix="rulesbot-pg-"))
        self.data = self.directory / "data"
        self.port = free_port()
        self.user = None
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: run it as the package's own user, else as nobody.
            self.user = "postgres" if _user_exists("postgres") else "nobody"
            shutil.chown(self.directory, user=self.user)

    def _run(self, *command: str) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        return subprocess.run(
            [*prefix, *command], capture_output=True, text=True, timeout=120, cwd=self.directory, check=False
        )

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the `postgres` database (psycopg 3 driver, trust auth on loopback)."""
        return f"postgresql+psycopg://rulesbot@127.0.0.1:{self.port}/postgres"

    def start(self) -> "PostgresServer":
        """initdb, then pg_ctl start on 127.0.0.1 and a free port, waiting until it accepts connections."""
        done = self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "rulesbot", "--auth=trust", "-E", "UTF8",
            "--no-instructions",
        )
        assert done.returncode == 0, done.stderr
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.directory}"
        done = self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.directory / "log"),
            "-w", "-t", str(START_SECONDS), "start",
        )
        assert done.returncode == 0, done.stderr + done.stdout
        return self

    def stop(self) -> None:
        """pg_ctl stop (fast), then remove its directory."""
        if self.data.exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def wait_for_serve(server: subprocess.Popen, base: str, seconds: float = 60) -> None:
    """Wait until a `rulesbot serve` subprocess at `base` says ready on /healthz (it must not exit meanwhile)."""
    import httpx

    deadline = time.monotonic() + seconds
    while True:
        assert server.poll() is None, "rulesbot serve exited"
        assert time.monotonic() < deadline, "rulesbot serve did not become ready"
        try:
            if httpx.get(base + "/healthz", timeout=2).json()["status"] == "ready":
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
