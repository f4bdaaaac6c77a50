"""Reads first: who is serving requests, so that a worker sharing their CPU lets them go first.

In one process, :class:`Traffic` counts the requests doing compute work and the embedded worker
waits for a lull in them. Across processes of one host, each API process's :class:`Beacon` marks
the host as serving in the Redis queue, and a ``memlane worker`` there waits on :class:`HostTraffic`.
Either way a job waits at most ``MEMLANE_WORKER_MAX_DEFER`` seconds (docs/service.md).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Protocol

from memlane.errors import StoreUnavailable

if TYPE_CHECKING:
    from memlane.service.queue.redis import RedisJobQueue

log = logging.getLogger("memlane.worker")


class Traffic:
    """Requests doing compute work in this process (search, context and the others that take a
    compute slot), so that a worker sharing the CPU can let them go first.

    The embedded service answers requests and works the queue on the same two cores and the same
    embedding models; a write-back job (about 60 ms of CPU) started while reads are waiting makes
    them wait longer. :meth:`wait_for_lull` holds the next job until no such request is in flight,
    but never longer than ``max_wait`` seconds, so that under sustained load the queue still moves.
    Cheap requests (queueing a write, a job's status, health) do not count: a client polling its
    jobs must not hold them up.
    """

    def __init__(self) -> None:
        self._in_flight = 0
        self._started = 0
        self._changed = threading.Condition()

    def begin(self) -> None:
        with self._changed:
            self._in_flight += 1
            self._started += 1

    def end(self) -> None:
        with self._changed:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._changed.notify_all()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def started(self) -> int:
        """Requests begun since this process started."""
        return self._started

    def wait_for_lull(self, max_wait: float) -> bool:
        """Wait until no request is in flight; False if ``max_wait`` seconds passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._in_flight == 0, timeout=max_wait)


class Lull(Protocol):
    """Where a worker learns that the requests it shares the CPU with have stopped for a moment."""

    def wait_for_lull(self, max_wait: float) -> bool:
        """Wait until no request is being served; False if ``max_wait`` seconds passed first."""
        ...


class Beacon:
    """Tells the workers on this host, through the Redis queue, that its API process is serving
    requests: the server deployment's side of "reads first".

    A ``memlane worker`` process on the same machine as the API shares its cores (and, with them,
    their caches and memory bandwidth): a write-back job run while reads are in flight slows them
    down, nice value or not. Every ``every`` seconds in which a request began or was in flight, the
    beacon marks the host as serving for ``3 * every`` seconds (:meth:`RedisJobQueue.mark_serving`);
    :class:`HostTraffic` is what the workers see. Hosts are told apart by name: a worker on another
    machine, or in another container, never waits for this one.
    """

    def __init__(self, queue: RedisJobQueue, traffic: Traffic, host: str, every: float = 0.1) -> None:
        self.queue, self.traffic, self.host, self.every = queue, traffic, host, every

    def run(self, stop: threading.Event) -> None:
        """Mark the host while requests come, until ``stop`` is set."""
        seen = self.traffic.started
        while not stop.wait(self.every):
            started = self.traffic.started
            if started == seen and not self.traffic.in_flight:
                continue
            seen = started
            try:
                self.queue.mark_serving(self.host, 3 * self.every)
            except StoreUnavailable:  # the requests themselves report the outage
                log.debug("could not mark %s as serving", self.host, exc_info=True)


class HostTraffic:
    """The requests of the API processes on this host, as their :class:`Beacon` tells them: the
    ``memlane worker`` side of "reads first". Polls the queue every ``poll`` seconds while it waits;
    when the queue cannot be reached it does not wait (claiming the next job will report that)."""

    def __init__(self, queue: RedisJobQueue, host: str, poll: float = 0.02) -> None:
        self.queue, self.host, self.poll = queue, host, poll

    def wait_for_lull(self, max_wait: float) -> bool:
        """Wait until the host's API processes stopped saying they serve; False if ``max_wait``
        seconds passed first."""
        deadline = time.monotonic() + max_wait
        while True:
            try:
                if not self.queue.serving(self.host):
                    return True
            except StoreUnavailable:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(self.poll)
