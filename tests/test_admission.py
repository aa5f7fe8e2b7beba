"""The answer worker (rulesbot.admission) on its own: admission, the time budget, charging the work bucket.

Each test runs one event loop for a few seconds at most; the functions it runs block on events or spin in
Python on purpose, bounded in time.
"""

import asyncio
import threading
import time

import pytest

from rulesbot.admission import AnswerWorker, RetryLater
from rulesbot.api import TokenBucketLimiter


def _gate():
    """A function that blocks until released (at most 10 s), and the events to drive it."""
    entered, release = threading.Event(), threading.Event()

    def blocked(value):
        entered.set()
        release.wait(10)
        return value

    return blocked, entered, release


def test_calls_run_in_turn_and_return_their_values():
    worker = AnswerWorker(max_queue=4, budget_seconds=5)
    seen_threads = set()

    def job(value):
        seen_threads.add(threading.get_ident())
        return value * 2

    async def scenario():
        return await asyncio.gather(*(worker.call("a", job, value) for value in range(5)))

    assert asyncio.run(scenario()) == [0, 2, 4, 6, 8]
    assert len(seen_threads) == 1 and threading.get_ident() not in seen_threads
    worker.close()


def test_errors_reach_the_caller():
    worker = AnswerWorker(max_queue=4, budget_seconds=5)

    def broken():
        raise ValueError("expected 3 cards, got 2")

    with pytest.raises(ValueError, match="expected 3 cards"):
        asyncio.run(worker.call("a", broken))
    worker.close()


def test_the_queue_bound_refuses_at_once():
    blocked, entered, release = _gate()
    worker = AnswerWorker(max_queue=1, budget_seconds=5)

    async def scenario():
        running = asyncio.create_task(worker.call("a", blocked, "running"))
        assert await asyncio.to_thread(entered.wait, 5)
        waiting = asyncio.create_task(worker.call("a", blocked, "waiting"))
        await asyncio.sleep(0)
        started = time.monotonic()
        with pytest.raises(RetryLater) as refused:
            await worker.call("a", blocked, "refused")
        refused_after = time.monotonic() - started
        release.set()
        return await asyncio.gather(running, waiting), refused.value, refused_after

    try:
        results, refused, refused_after = asyncio.run(scenario())
    finally:
        release.set()
    assert results == ["running", "waiting"]
    assert (refused.status, refused.code, refused.retry_after) == (503, "overloaded", 1)
    assert refused_after < 1.0  # refused, not queued (generous bound: it does not wait for the gate)
    worker.close()


def test_a_newcomer_is_refused_when_the_calls_ahead_would_use_up_its_budget():
    blocked, entered, release = _gate()
    worker = AnswerWorker(max_queue=100, budget_seconds=2.5)
    worker.service_seconds = 1.0  # recent calls took a second each

    async def scenario():
        tasks = [asyncio.create_task(worker.call("a", blocked, "running"))]
        assert await asyncio.to_thread(entered.wait, 5)
        # 0 waiting: admitted; 1 waiting: 2 s expected, admitted; 2 waiting: 3 s > 2.5 s, refused.
        tasks.append(asyncio.create_task(worker.call("a", blocked, 1)))
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(worker.call("a", blocked, 2)))
        await asyncio.sleep(0)
        with pytest.raises(RetryLater) as refused:
            await worker.call("a", blocked, 3)
        release.set()
        return await asyncio.gather(*tasks), refused.value

    try:
        results, refused = asyncio.run(scenario())
    finally:
        release.set()
    assert results == ["running", 1, 2]
    assert refused.code == "overloaded" and refused.retry_after == 3
    worker.close()


def test_a_call_that_waited_past_its_budget_is_never_run():
    blocked, entered, release = _gate()
    worker = AnswerWorker(max_queue=4, budget_seconds=0.3)
    ran = []

    async def scenario():
        first = asyncio.create_task(worker.call("a", blocked, "first"))
        assert await asyncio.to_thread(entered.wait, 5)
        with pytest.raises(RetryLater) as late:
            await worker.call("a", ran.append, "late")
        release.set()
        with pytest.raises(RetryLater):  # the first one went over its budget too (blocked in C, not stopped)
            await first
        return late.value

    try:
        late = asyncio.run(scenario())
    finally:
        release.set()
    assert late.code == "over_budget" and late.status == 503
    time.sleep(0.2)  # the worker thread drops the late call when it gets to it
    assert ran == []
    worker.close()


def test_a_spinning_call_is_stopped_and_charged_to_its_client():
    now = [0.0]
    limiter = TokenBucketLimiter(1.0, clock=lambda: now[0])  # 1 s of computation a minute
    worker = AnswerWorker(max_queue=4, budget_seconds=0.3, work_limiter=limiter)
    stopped = threading.Event()

    def spin():
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline:
                sum(range(100))
        finally:
            stopped.set()

    async def scenario():
        with pytest.raises(RetryLater) as over:
            await worker.call("spinner", spin)
        return over.value

    over = asyncio.run(scenario())
    assert over.code == "over_budget"
    assert stopped.wait(5)
    time.sleep(0.1)  # the worker charges the client once the call has ended
    # About 0.3 s of the 1 s bucket is spent (a refused take spends nothing); others are untouched.
    assert limiter.take("spinner", 0.75) > 0
    assert limiter.take("spinner", 0.0) == 0
    assert limiter.take("someone else", 1.0) == 0
    # The worker goes on: the interrupt did not leak into the next calls.
    assert asyncio.run(_many(worker)) == list(range(50))
    worker.close()


async def _many(worker: AnswerWorker) -> list[int]:
    return [await worker.call("a", int, value) for value in range(50)]


def test_a_client_in_debt_is_refused_with_429():
    limiter = TokenBucketLimiter(6.0)
    limiter.charge("costly", 7.0)
    worker = AnswerWorker(max_queue=4, budget_seconds=5, work_limiter=limiter)
    with pytest.raises(RetryLater) as refused:
        asyncio.run(worker.call("costly", int, 1))
    assert (refused.value.status, refused.value.code) == (429, "rate_limited")
    assert 9 <= refused.value.retry_after <= 11
    assert asyncio.run(worker.call("cheap", int, 1)) == 1
    worker.close()
