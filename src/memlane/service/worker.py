"""The worker: claims jobs from a :class:`~memlane.service.queue.JobQueue`, runs a handler, records the
outcome. ``memlane worker`` runs one per process in server mode; the embedded service runs one in a
thread of the API process (:func:`start_thread`).

::

    worker = Worker(queue, handler, consumer="api-1")
    thread, stop = start_thread(worker)
    ...
    stop.set(); thread.join()

What happens to a job:

- the handler returns a JSON-ready dict: the job is done, with that result;
- it raises :class:`~memlane.errors.InvalidInput` (the job can never succeed), or returns something
  that is not JSON-ready: the job is parked at once;
- it raises :class:`~memlane.errors.StoreUnavailable` (the memory store is down): the job is queued
  again *without counting the delivery* (:meth:`~memlane.service.queue.JobQueue.release`) and the
  loop backs off as if the queue were down, so an outage of any length parks nothing;
- it raises anything else: the job is failed with ``"<ExceptionType>: <message>"`` and queued again,
  until the queue's ``max_attempts``, when it is parked;
- the worker dies mid-job: the job's lease runs out and another worker gets it (at least once);
- the job is gone when its outcome is recorded (its user was forgotten while it ran): ``withdraw``
  takes back what it wrote, so a job queued before a forget is never applied after it.

The queue being unreachable (:class:`~memlane.errors.StoreUnavailable`) does not stop the loop: it
logs once per outage and tries again, waiting a little longer each time, up to ``max_backoff``.
This loop is the one place that reads the wall clock.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, TypeVar

from memlane.clock import utcnow
from memlane.errors import InvalidInput, NotFound, StoreUnavailable
from memlane.service.config import ServiceSettings
from memlane.service.queue import Job, JobQueue, JobState
from memlane.service.traffic import Lull

log = logging.getLogger("memlane.worker")

T = TypeVar("T")
Handler = Callable[[Job], dict[str, Any]]
Withdraw = Callable[[Job, dict[str, Any] | None], None]


class Worker:
    """One consumer of the queue: ``run_once`` for one job, ``run`` until told to stop.

    With ``traffic``, each job waits for a lull in the requests it shares the CPU with, at most
    ``max_defer`` seconds: the embedded service's own or those of the API processes on the worker's
    host (:mod:`memlane.service.traffic`). Once the queue's oldest job was queued
    ``max_lag`` seconds ago or more, jobs no longer wait: under reads that never pause, the
    write-back falls about that far behind at most, instead of moving one job a second.

    ``withdraw(job, result)`` is called when a job turns out to be gone as its outcome is recorded
    (the user was forgotten meanwhile), with the handler's result if it had one: it must take back
    whatever the job wrote.
    """

    def __init__(
        self,
        queue: JobQueue,
        handler: Handler,
        consumer: str,
        *,
        poll_seconds: float = 0.5,
        max_backoff: float = 10.0,
        traffic: Lull | None = None,
        max_defer: float = 1.0,
        max_lag: float = 60.0,
        withdraw: Withdraw | None = None,
    ) -> None:
        self.queue = queue
        self.withdraw = withdraw
        self.handler = handler
        self.consumer = consumer
        self.poll_seconds = poll_seconds
        self.max_backoff = max_backoff
        self.traffic = traffic
        self.max_defer = max_defer
        self.max_lag = max_lag

    @classmethod
    def for_service(
        cls,
        queue: JobQueue,
        handler: Handler,
        consumer: str,
        config: ServiceSettings,
        traffic: Lull | None,
        withdraw: Withdraw | None = None,
    ) -> Worker:
        """A worker that lets ``traffic`` go first as the service's settings say
        (``MEMLANE_WORKER_MAX_DEFER``, ``MEMLANE_WORKER_MAX_LAG``)."""
        return cls(
            queue,
            handler,
            consumer,
            traffic=traffic,
            max_defer=config.worker_max_defer,
            max_lag=config.worker_max_lag,
            withdraw=withdraw,
        )

    def run_once(self, now: datetime) -> bool:
        """Claim one job at ``now`` and handle it; False when none was due.

        The outcome is recorded at ``now`` plus the time the handler took, so a caller-driven clock
        stays consistent. Errors of the queue itself propagate; the handler's never do.
        """
        job = self.queue.claim(self.consumer, now)
        if job is None:
            return False
        started = time.monotonic()

        def finished() -> datetime:
            return now + timedelta(seconds=time.monotonic() - started)

        try:
            with self._keeping_lease(job, finished):
                result = self.handler(job)
        except InvalidInput as exc:
            log.warning("job %s (attempt %d) cannot succeed, parked: %s", job.id, job.attempts, exc)
            self._fail(job, _describe(exc), finished(), permanent=True)
            return True
        except StoreUnavailable as exc:
            # the memory store is down, not the job at fault: requeue it without counting this
            # delivery and let run() back off, so an outage of any length burns no attempts
            try:
                self.queue.release(job, _describe(exc), finished())
            except NotFound:
                self._withdraw(job, None)
            raise
        except Exception as exc:
            log.exception("job %s (attempt %d) failed", job.id, job.attempts)
            state = self._fail(job, _describe(exc), finished())
            if state is not None and state.status == "failed":
                log.error("job %s parked after %d attempts: %s", job.id, state.attempts, state.error)
            return True
        try:
            if not self.queue.complete(job, result, finished()):
                self._withdraw(job, result)
        except InvalidInput as exc:  # the handler's result cannot be stored: retrying would not help
            log.error("job %s returned a result that cannot be stored, parked: %s", job.id, exc)
            self._fail(job, _describe(exc), finished(), permanent=True)
        return True

    @contextmanager
    def _keeping_lease(self, job: Job, clock: Callable[[], datetime]) -> Iterator[None]:
        """Renew the job's lease every third of it while the handler works: a job slower than its
        lease (one waiting out a store outage) must not be delivered to another worker meanwhile, or
        both would write it. A worker that dies stops renewing, and the lease runs out as before."""
        done = threading.Event()

        def renew() -> None:
            while not done.wait(self.queue.lease_seconds / 3):
                try:
                    if not self.queue.renew(job, clock()):
                        return  # no longer ours (forgotten, or delivered again)
                except StoreUnavailable:
                    log.debug("could not renew the lease of job %s", job.id, exc_info=True)

        thread = threading.Thread(target=renew, name=f"memlane-lease-{job.id[:8]}", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    def _fail(self, job: Job, error: str, now: datetime, *, permanent: bool = False) -> JobState | None:
        """Record a failure; a job found gone meanwhile (forgotten) is withdrawn instead."""
        try:
            return self.queue.fail(job, error, now, permanent=permanent)
        except NotFound:
            self._withdraw(job, None)
            return None

    def _withdraw(self, job: Job, result: dict[str, Any] | None) -> None:
        log.warning("job %s was forgotten while it ran: what it wrote is withdrawn", job.id)
        if self.withdraw is not None:
            self.withdraw(job, result)

    def run(self, stop: threading.Event) -> None:
        """Handle jobs until ``stop`` is set, waiting ``poll_seconds`` whenever the queue is empty."""
        failures = 0  # in a row, for the backoff
        outage = False
        while not stop.is_set():
            try:
                self._defer(stop)
                if stop.is_set():  # told to stop while it waited: take no new job
                    break
                busy = self.run_once(utcnow())
            except StoreUnavailable as exc:
                failures += 1
                if not outage:
                    log.warning(
                        "job queue or memory store unreachable, %s retrying until it returns: %s",
                        self.consumer,
                        exc,
                    )
                    outage = True
                stop.wait(self._backoff(failures))
                continue
            except Exception:
                # a bug must not end the worker silently; a job it held is delivered again after its lease
                failures += 1
                log.exception("worker %s: unexpected error", self.consumer)
                stop.wait(self._backoff(failures))
                continue
            if outage:
                log.warning("job queue and memory store reachable again, %s carries on", self.consumer)
                outage = False
            failures = 0
            if not busy:
                stop.wait(self.poll_seconds)

    def _defer(self, stop: threading.Event) -> None:
        """Let the requests go first: wait for a lull, at most ``max_defer`` seconds, and no longer
        once ``stop`` is set (a worker told to stop finishes the job in hand without sitting out the
        rest of its wait)."""
        if self.traffic is None or self.max_defer <= 0 or self.traffic.wait_for_lull(0):
            return  # nothing to let go first: the queue's stats are not read either
        # before claiming: a waiting job stays queued, for a worker elsewhere to take meanwhile
        stats = self.queue.stats(utcnow())
        if stats.depth == 0 or stats.oldest_age_seconds >= self.max_lag:
            return
        deadline = time.monotonic() + self.max_defer
        while not stop.is_set():
            left = deadline - time.monotonic()
            if self.traffic.wait_for_lull(max(0.0, min(left, 0.1))) or left <= 0.1:
                return

    def _backoff(self, failures: int) -> float:
        return float(min(self.max_backoff, self.poll_seconds * 2 ** min(failures - 1, 16)))


def lower_priority(niceness: int = 10) -> None:
    """Make the calling thread, and the threads it starts from now on, yield the CPU to others:
    write-back must not slow down reads.

    On Linux a thread has its own nice value (``setpriority`` on its thread id); elsewhere this is
    a no-op.
    """
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)
    except (AttributeError, OSError):  # not Linux, or not allowed: run at normal priority
        log.debug("could not lower the worker thread's priority")


def wait_for(
    open_it: Callable[[], T], what: str, consumer: str, stop: threading.Event, max_backoff: float = 10.0
) -> T | None:
    """``open_it()``, tried again (0.5 s, then twice as long each time, up to ``max_backoff``) for
    as long as it raises :class:`~memlane.errors.StoreUnavailable`; None if ``stop`` is set first.
    Logs once when it starts waiting and once when it is done."""
    delay, waited = 0.5, False
    while not stop.is_set():
        try:
            opened = open_it()
        except StoreUnavailable as exc:
            if not waited:
                log.warning("%s unreachable, %s waits for it: %s", what, consumer, exc)
                waited = True
            stop.wait(delay)
            delay = min(max_backoff, delay * 2)
            continue
        if waited:
            log.warning("%s reachable, %s starts", what, consumer)
        return opened
    return None


def start_thread(
    worker: Worker, stop: threading.Event | None = None
) -> tuple[threading.Thread, threading.Event]:
    """Run ``worker`` in a daemon thread at low CPU priority (the API's requests come first); set the
    event (``stop``, or a new one) to stop it after the job in hand, then join.
    """
    stop = stop or threading.Event()

    def run() -> None:
        lower_priority()
        worker.run(stop)

    thread = threading.Thread(target=run, name=f"memlane-worker-{worker.consumer}")
    thread.daemon = True  # a job cut short by exit is delivered again: nothing is lost
    thread.start()
    return thread, stop


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
