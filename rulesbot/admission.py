"""Admission control and a time budget for the core calls of the HTTP API (issue 9: nothing lost, nothing stalls).

    worker = AnswerWorker(max_queue=16, budget_seconds=2.0, work_limiter=limiter)
    answer = await worker.call(client, bot.ask, question)   # in the event loop

One thread per process runs the core's calls one at a time: the core keeps per-process state (stemmers, the
embedder's OpenMP pool) that is not thread-safe, and parallel embeddings only fight over the cores. Around it:

- admission: at most `max_queue` calls wait, and fewer when the recent service time says the calls ahead would
  use up a newcomer's budget; one more is refused at once with 503 and a Retry-After estimated from the
  service time, so the latency of admitted calls stays bounded (no unbounded queue);
- a time budget per request, waiting included: a call still waiting at its deadline is dropped, a call still
  running is stopped by an exception raised in the worker thread (`BudgetExceeded`, a BaseException so that
  the core's `except Exception` does not swallow it), and the request gets 503;
- cost-weighted rate limiting: each call's computing time is charged to its client's work bucket; a client in
  debt is refused (429) until the bucket refills, so a client asking costly questions gets fewer of them.

Nothing else runs in this thread: /healthz, the widget, the demo page and cached answers never wait for it.
"""

import asyncio
import ctypes
import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rulesbot.errors import RulesbotError

logger = logging.getLogger("rulesbot.api")

# The first Retry-After estimates assume a new question's usual cost (an embedding, here about 20-50 ms).
INITIAL_SERVICE_SECONDS = 0.05
# How fast the service-time estimate follows the recent calls (exponentially weighted mean).
SERVICE_SMOOTHING = 0.2
# Retry-After never says more than this (a client should come back, not give up).
MAX_RETRY_AFTER_SECONDS = 60
# An interrupt can be lost (raised inside a finalizer that runs in the worker thread, Python only prints it):
# it is sent again at this interval while the call runs, this many times at most.
INTERRUPT_RETRY_SECONDS = 0.05
INTERRUPT_TRIES = 100


class RetryLater(RulesbotError):
    """A refusal that tells the client when to come back (the API sends `retry_after` as Retry-After)."""

    status = 503

    def __init__(self, message: str, *, code: str, status: int, retry_after: float):
        super().__init__(message, code=code, status=status)
        self.retry_after = int(min(MAX_RETRY_AFTER_SECONDS, max(1, math.ceil(retry_after))))


class BudgetExceeded(BaseException):
    """Raised inside the worker thread to stop a computation that outlived its request's budget."""


class WorkLimiter(Protocol):
    """What the worker needs of a rate limiter: a check without spending, and a charge after the fact."""

    def take(self, client: str, cost: float = 1.0) -> float:
        """Spend `cost`: 0 if allowed, else the seconds to wait."""

    def charge(self, client: str, amount: float) -> None:
        """Spend `amount` whatever the balance (the bucket may go into debt)."""


@dataclass(eq=False)
class _Job:
    client: str
    function: Callable[..., Any]
    args: tuple
    kwargs: dict
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future
    deadline: float
    started: float | None = None
    thread_id: int | None = None
    cancelled: bool = False
    finished: bool = False
    elapsed: float = field(default=0.0)


class AnswerWorker:
    """One thread running core calls in turn, behind a bounded queue, each within its request's time budget."""

    def __init__(
        self,
        *,
        max_queue: int,
        budget_seconds: float,
        work_limiter: WorkLimiter | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.max_queue = max_queue
        self.budget_seconds = budget_seconds
        self.work_limiter = work_limiter
        self.clock = clock
        self.service_seconds = INITIAL_SERVICE_SECONDS
        # Each worker thread has its own queue: a thread being closed finishes its own jobs, never a newer one's.
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        # Guards the counters and `_current`; an interrupt is only ever sent while holding it.
        self._state = threading.Lock()
        self._waiting = 0
        self._current: _Job | None = None
        self._thread: threading.Thread | None = None

    @property
    def pending(self) -> int:
        """Calls waiting or running."""
        with self._state:
            return self._waiting + (self._current is not None)

    async def call(self, client: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run `function(*args, **kwargs)` in the worker thread; RetryLater when refused or over budget."""
        if self.work_limiter is not None:
            wait = self.work_limiter.take(client, 0.0)
            if wait > 0:
                raise RetryLater(
                    "too much computation asked: slow down", code="rate_limited", status=429, retry_after=wait
                )
        loop = asyncio.get_running_loop()
        now = self.clock()
        with self._state:
            queued = self._waiting + (self._current is not None)
            # Refused too when the calls ahead would use up its budget: it would only wait to fail.
            expected_wait = (self._waiting + 1) * self.service_seconds
            if queued > self.max_queue or (self._waiting > 0 and expected_wait > self.budget_seconds):
                raise RetryLater(
                    "the server is busy: try again shortly",
                    code="overloaded",
                    status=503,
                    retry_after=(self._waiting + 1) * self.service_seconds,
                )
            job = _Job(client, function, args, kwargs, loop, loop.create_future(), now + self.budget_seconds)
            self._waiting += 1
            if self._thread is None or not self._thread.is_alive():
                self._jobs = queue.SimpleQueue()
                self._thread = threading.Thread(
                    target=self._work, args=(self._jobs,), name="rulesbot-answer", daemon=True
                )
                self._thread.start()
            jobs = self._jobs
        jobs.put(job)
        try:
            # shield: a timeout must not cancel the future the worker thread will resolve.
            return await asyncio.wait_for(asyncio.shield(job.future), max(0.0, job.deadline - now))
        except TimeoutError:
            self._stop(job)
            raise RetryLater(
                f"the question took more than the {self.budget_seconds:g} s a request may use",
                code="over_budget",
                status=503,
                retry_after=self.budget_seconds,
            ) from None
        except asyncio.CancelledError:  # the request was abandoned (client gone, server stopping)
            self._stop(job)
            raise

    def close(self) -> None:
        """Let the worker thread end once the calls already queued are done (a later call starts a new one)."""
        with self._state:
            thread, self._thread = self._thread, None
            if thread is not None:
                self._jobs.put(None)

    def _stop(self, job: _Job, tries: int = INTERRUPT_TRIES) -> None:
        # Called in the event loop: nobody will read the future any more (and an exception set on it later
        # would be logged as never retrieved).
        job.future.cancel()
        with self._state:
            job.cancelled = True
            running = self._current is job and job.thread_id is not None
            if running:
                # The only way to stop Python code in another thread; the exception is raised at its next
                # bytecode (a long C call, such as an embedding, ends first). Sent under the lock, and only
                # while this job runs, so it cannot land in another job.
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(job.thread_id), ctypes.py_object(BudgetExceeded)
                )
        if running and tries > 1:
            job.loop.call_later(INTERRUPT_RETRY_SECONDS, self._stop, job, tries - 1)

    def _work(self, jobs: queue.SimpleQueue) -> None:
        job: _Job | None = None
        while True:
            try:
                job = jobs.get()
                if job is None:
                    return
                self._run(job)
            except BudgetExceeded:
                # Delivered between the end of the job's function and its bookkeeping: finish it now.
                if job is not None:
                    self._finish(job, None, _over_budget(self.budget_seconds))
            except BaseException:  # never let the worker die: every later call would wait for nothing
                logger.exception("the answer worker failed")
                if job is not None:
                    self._finish(job, None, RuntimeError("the answer worker failed"))

    def _run(self, job: _Job) -> None:
        with self._state:
            self._waiting -= 1
            if job.cancelled or self.clock() >= job.deadline:
                job.finished = True  # nobody waits for it any more (its request already got its answer)
                return
            self._current = job
            job.thread_id = threading.get_ident()
            job.started = self.clock()
        result: Any = None
        error: BaseException | None = None
        try:
            result = job.function(*job.args, **job.kwargs)
        except BudgetExceeded:
            error = _over_budget(self.budget_seconds)
        except BaseException as exception:  # handed to the request, which maps it (BadInput -> 422, ...)
            error = exception
        self._finish(job, result, error)

    def _finish(self, job: _Job, result: Any, error: BaseException | None) -> None:
        with self._state:
            if self._current is job:
                self._current = None
                # Clear an interrupt sent too late to stop the job, so it cannot hit the next one.
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)
            if job.finished:
                return
            job.finished = True
            job.elapsed = self.clock() - job.started if job.started is not None else 0.0
            self.service_seconds += SERVICE_SMOOTHING * (job.elapsed - self.service_seconds)
        if self.work_limiter is not None:
            self.work_limiter.charge(job.client, job.elapsed)
        try:
            job.loop.call_soon_threadsafe(_resolve, job.future, result, error)
        except RuntimeError:  # the event loop is closed: nobody is waiting
            pass


def _resolve(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():  # the request already timed out or went away
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _over_budget(budget_seconds: float) -> RetryLater:
    return RetryLater(
        f"the question took more than the {budget_seconds:g} s a request may use",
        code="over_budget",
        status=503,
        retry_after=budget_seconds,
    )
