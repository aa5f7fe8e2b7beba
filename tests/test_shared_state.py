"""Issue 13: with RULESBOT_REDIS_URL, the rate limit and the answer cache are shared by every app (worker process,
replica) through a REAL redis-server (Debian package) started per test on 127.0.0.1, a free port, no persistence;
Redis killed mid-run degrades to per-process state without a single 5xx, and is used again once it is back."""

import logging
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fakes import FakeRulesbot
from fastapi.testclient import TestClient
from servers import RedisServer, free_port, wait_for_serve

from rulesbot import shared_state
from rulesbot.api import create_app
from rulesbot.settings import Settings

FIXTURE_PACKS = Path(__file__).parent / "fixtures" / "knowledge"


@pytest.fixture
def redis_server(tmp_path):
    """A fresh redis-server for one test, killed at teardown."""
    server = RedisServer(tmp_path).start()
    yield server
    server.kill()


def _settings(url: str, **overrides) -> Settings:
    return Settings(**{"rate_limit_per_minute": 10_000, "redis_url": url, **overrides})


def test_two_apps_share_one_rate_limit(redis_server):
    settings = _settings(redis_server.url, rate_limit_per_minute=6)
    with TestClient(create_app(settings, bot=FakeRulesbot())) as first, TestClient(
        create_app(settings, bot=FakeRulesbot())
    ) as second:
        statuses = [(first if number % 2 else second).get("/v1/games").status_code for number in range(12)]
    # One bucket of 6 for the client, whichever app it reaches (per process it would be 6 each: 12 answers).
    assert statuses.count(200) == 6 and statuses.count(429) == 6
    assert statuses[:6] == [200] * 6


def test_two_apps_share_one_answer_cache(redis_server):
    first_bot, second_bot = FakeRulesbot(), FakeRulesbot()
    settings = _settings(redis_server.url)
    with TestClient(create_app(settings, bot=first_bot)) as first, TestClient(
        create_app(settings, bot=second_bot)
    ) as second:
        answer = first.post("/v1/ask", json={"question": "How many cards in hand?"}).json()
        again = second.post("/v1/ask", json={"question": "how many cards in hand"}).json()
    assert first_bot.calls["ask"] == 1 and second_bot.calls["ask"] == 0
    assert again["id"] == answer["id"] and again["answer"] == answer["answer"]
    assert again["question"] == "how many cards in hand"
    assert len(redis_server.client().keys("rulesbot:answer:*")) == 1


def test_the_shared_bucket_keeps_the_cost_weighted_semantics(redis_server):
    link = shared_state.RedisLink.from_url(redis_server.url)
    limiter = shared_state.SharedTokenBucketLimiter(link, "work", 6.0)  # 6 s a minute: 0.1 s back per second
    assert limiter.take("a", 0) == 0
    limiter.charge("a", 7.0)  # one call took more than the whole bucket: 1 s of debt, 10 s to pay back
    assert limiter.take("a", 0) == pytest.approx(10.0, abs=0.5)
    assert limiter.take("b", 0) == 0  # another client has its own bucket
    limiter.charge("a", 1000.0)  # a debt is bounded by a bucket's worth
    assert limiter.take("a", 0) == pytest.approx(60.0, abs=0.5)
    requests = shared_state.SharedTokenBucketLimiter(link, "requests", 60)
    assert all(requests.take("c") == 0 for _ in range(60))
    assert requests.take("c") == pytest.approx(1.0, abs=0.2)
    ttl = redis_server.client().ttl("rulesbot:limit:requests:c")
    assert 0 < ttl <= 60 + shared_state.BUCKET_TTL_MARGIN_SECONDS  # idle buckets are forgotten
    link.close()


def test_a_cache_entry_of_other_knowledge_is_a_miss(redis_server):
    from rulesbot.api import AnswerCache

    link = shared_state.RedisLink.from_url(redis_server.url)
    old = shared_state.SharedAnswerCache(link, local=AnswerCache(8), namespace=lambda _game: "0.1.0:old-knowledge")
    new = shared_state.SharedAnswerCache(link, local=AnswerCache(8), namespace=lambda _game: "0.1.0:new-knowledge")
    old.put(("q", "", "canvas", ""), {"question": "q", "answer": "old"})
    assert new.get(("q", "", "canvas", "")) is None
    fresh = shared_state.SharedAnswerCache(link, local=AnswerCache(8), namespace=lambda _game: "0.1.0:old-knowledge")
    assert fresh.get(("q", "", "canvas", "")) == {"question": "q", "answer": "old"}
    link.close()


def test_redis_killed_mid_run_degrades_without_a_5xx_and_recovers(redis_server, monkeypatch, caplog):
    monkeypatch.setattr(shared_state, "RETRY_SECONDS", 0.2)
    bot = FakeRulesbot()
    statuses = []
    with caplog.at_level(logging.WARNING, logger="rulesbot.shared_state"):
        with TestClient(create_app(_settings(redis_server.url), bot=bot)) as client:
            statuses.append(client.post("/v1/ask", json={"question": "How many cards?"}).status_code)
            redis_server.kill()
            for number in range(20):
                statuses.append(client.post("/v1/ask", json={"question": f"How many cards, {number}?"}).status_code)
                statuses.append(client.get("/v1/games").status_code)
            # Cached in-process while Redis was down: answered without the core.
            calls = bot.calls["ask"]
            statuses.append(client.post("/v1/ask", json={"question": "How many cards, 3?"}).status_code)
            assert bot.calls["ask"] == calls
            redis_server.start()  # same port
            time.sleep(0.3)  # past the retry period
            statuses.append(client.post("/v1/ask", json={"question": "A question after the outage?"}).status_code)
            statuses.append(client.get("/v1/games").status_code)
    assert statuses == [200] * len(statuses)
    messages = [record.getMessage() for record in caplog.records]
    assert len([message for message in messages if "unreachable" in message]) == 1
    assert any("is back" in message for message in messages)
    # Shared again: the limit bucket and the new answer are in the restarted Redis.
    keys = redis_server.client().keys("rulesbot:*")
    assert any(key.startswith("rulesbot:limit:requests:") for key in keys)
    assert len([key for key in keys if key.startswith("rulesbot:answer:")]) == 1


def test_an_unreachable_redis_at_start_up_still_answers(caplog):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="rulesbot.shared_state"):
        with TestClient(create_app(_settings(url, rate_limit_per_minute=3), bot=FakeRulesbot())) as client:
            statuses = [client.get("/v1/games").status_code for _ in range(5)]
    # The in-process limit still holds while Redis is away.
    assert statuses == [200, 200, 200, 429, 429]
    assert len([record for record in caplog.records if "unreachable" in record.getMessage()]) == 1


@contextmanager
def _serve(data_dir: Path, port: int, redis_url: str, **settings: str):
    env = {key: value for key, value in os.environ.items() if not key.startswith("RULESBOT_")}
    env.update(
        RULESBOT_DATA_DIR=str(data_dir),
        RULESBOT_KNOWLEDGE_DIR=str(FIXTURE_PACKS),
        RULESBOT_BACKEND="hash",
        RULESBOT_THREADS="1",
        RULESBOT_REDIS_URL=redis_url,
        **{f"RULESBOT_{name.upper()}": value for name, value in settings.items()},
    )
    command = [sys.executable, "-c", "from rulesbot.cli import main; main()", "serve", "--port", str(port)]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        yield server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def test_two_rulesbot_serve_processes_share_one_limit_and_one_cache(redis_server, tmp_path):
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    with _serve(tmp_path / "a", ports[0], redis_server.url, rate_limit_per_minute="8") as first, _serve(
        tmp_path / "b", ports[1], redis_server.url, rate_limit_per_minute="8"
    ) as second:
        wait_for_serve(first, bases[0])
        wait_for_serve(second, bases[1])
        redis = redis_server.client()
        redis.config_resetstat()
        answer = httpx.post(bases[0] + "/v1/ask", json={"question": "How many cards in hand?"}, timeout=30)
        again = httpx.post(bases[1] + "/v1/ask", json={"question": "How many cards in hand?"}, timeout=30)
        assert answer.status_code == again.status_code == 200
        assert again.json() == answer.json()
        stats = redis.info("commandstats")
        # The first process computed and stored the answer once; the second only read it.
        assert stats["cmdstat_set"]["calls"] == 1 and stats["cmdstat_get"]["calls"] == 2
        statuses = [httpx.get(bases[number % 2] + "/v1/games", timeout=10).status_code for number in range(10)]
    # 8 a minute for this client across both processes, 2 spent on the asks above: 6 left (7 if a slow machine took
    # over 7.5 s and the bucket refilled one). Per process it would be 7 each: all 10 answered.
    assert statuses.count(200) in (6, 7) and statuses.count(200) + statuses.count(429) == 10, statuses


def test_each_game_has_its_own_knowledge_namespace_and_an_unloaded_game_is_not_shared():
    """Editing one game's pack must not leave another game's shared answers stale, nor theirs stale it."""
    from types import SimpleNamespace

    from rulesbot.api.cache import AnswerCache

    bot = SimpleNamespace(
        index_manifests={"alpha": SimpleNamespace(knowledge_hash="h-alpha"), "beta": SimpleNamespace(knowledge_hash="h-beta")}
    )
    alpha, beta = shared_state.knowledge_namespace(bot, "alpha"), shared_state.knowledge_namespace(bot, "beta")
    assert alpha != beta and alpha.endswith("h-alpha") and beta.endswith("h-beta")
    assert shared_state.knowledge_namespace(bot, "gamma") is None  # not loaded in this process yet

    class RecordingLink:
        def __init__(self):
            self.calls = 0

        def run(self, _call, fallback):
            self.calls += 1
            return fallback()

    link = RecordingLink()
    cache = shared_state.SharedAnswerCache(
        link, local=AnswerCache(8), namespace=lambda game: shared_state.knowledge_namespace(bot, game)
    )
    cache.put(("q", "en", "gamma", ()), {"answer": "x"})
    assert cache.get(("other", "en", "gamma", ())) is None
    assert link.calls == 0  # nothing sent to Redis without the game's namespace
    cache.put(("q", "en", "alpha", ()), {"answer": "y"})
    assert link.calls == 1
