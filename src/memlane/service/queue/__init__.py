"""The job queue behind ``POST /v1/messages``: a port, its value objects, and :func:`open_queue`.

A write is queued as a :class:`Job` and the API answers 202 at once; workers (:mod:`memlane.service.worker`)
claim jobs, run them and record the result. Two adapters implement :class:`JobQueue`:

==========================================  ========================================================
``open_queue(url, ...)``                    queue
==========================================  ========================================================
None, ``sqlite:///path`` or a plain path    a ``jobs`` table in a SQLite file of its own
                                            (:class:`~memlane.service.queue.sqlite.SQLiteJobQueue`),
                                            worked by a thread of the API process
``redis://`` (``rediss://``, ``unix://``)   a Redis stream with a consumer group
                                            (:class:`~memlane.service.queue.redis.RedisJobQueue`),
                                            worked by ``memlane worker`` processes
==========================================  ========================================================

Delivery is at least once: a job is leased to one worker for ``lease_seconds``; if the worker dies the
lease runs out and the job is delivered again, so a handler must be idempotent. A job that keeps
failing (or keeps killing its worker) is retried until ``max_attempts`` deliveries and then *parked*
as ``"failed"`` with its last error, listed by :meth:`JobQueue.failed` until someone retries it.
Jobs belong to a tenant: another tenant's job id reads exactly like an unknown one (None).

A job also names the user it writes for, so that forgetting the user (:meth:`JobQueue.forget`)
removes every job of theirs, queued, running, parked or done, with its payload and result: a job
queued before the forget is never applied after it. A finished job keeps its result, never its
payload. Idempotency keys are kept as digests, never as the key the client sent.

::

    queue = open_queue(None, "/var/lib/memlane/memlane.db.jobs.db")
    state, created = queue.submit("acme", {"user_id": "u1", "messages": [...]}, now, idempotency_key="k1")
    job = queue.claim("worker-1", now)
    queue.complete(job, {"decisions": []}, now)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from memlane.errors import InvalidInput
from memlane.store.open import sqlite_path, url_scheme

__all__ = ["Job", "JobQueue", "JobState", "JobStatus", "QueueStats", "key_digest", "open_queue"]

JobStatus = Literal["queued", "running", "done", "failed"]

DEFAULT_LEASE_SECONDS = 60.0
DEFAULT_MAX_ATTEMPTS = 5
DEFAULT_KEEP_SECONDS = 7 * 24 * 3600.0  # finished jobs and idempotency keys are kept a week

_REDIS = ("redis", "rediss", "unix")


@dataclass(frozen=True)
class Job:
    """One delivery of a job to a worker."""

    id: str
    tenant: str
    payload: dict[str, Any]  # JSON-ready; opaque to the queue
    attempts: int  # deliveries so far, including this one
    created_at: datetime


@dataclass(frozen=True)
class JobState:
    """What the API reports about a job (``GET /v1/jobs/{id}``)."""

    id: str
    tenant: str
    status: JobStatus
    attempts: int
    created_at: datetime
    updated_at: datetime
    result: dict[str, Any] | None = None
    error: str | None = None  # the last error; for "failed", the reason it was parked


@dataclass(frozen=True)
class QueueStats:
    """The queue at a glance, for health checks and metrics."""

    depth: int  # queued + running
    failed: int  # parked, all tenants
    oldest_age_seconds: float  # since the oldest queued or running job was queued (0 when empty): the lag


class JobQueue(Protocol):
    """A durable, at-least-once job queue shared by the API processes and the workers.

    Every time is the caller's ``now`` (timezone-aware UTC); the queue never reads the clock, except
    that Redis measures leases with its own clock (see :mod:`memlane.service.queue.redis`).
    """

    lease_seconds: float
    max_attempts: int

    def submit(
        self,
        tenant: str,
        payload: dict[str, Any],
        now: datetime,
        idempotency_key: str | None = None,
        *,
        user_id: str | None = None,
    ) -> tuple[JobState, bool]:
        """Queue a job durably (it is on disk / in Redis when this returns) and return it and True;
        with a key this tenant already used, return that job's state and False instead. ``user_id``
        names whose data the job writes (:meth:`forget` finds it by that)."""
        ...

    def claim(self, consumer: str, now: datetime) -> Job | None:
        """The next job to work on, leased for ``lease_seconds``; a running job whose lease ran out
        (its worker died) is delivered again. None when nothing is due."""
        ...

    def complete(self, job: Job, result: dict[str, Any], now: datetime) -> bool:
        """Record the job as done with its JSON-ready ``result`` and drop its payload (a no-op when it
        already is done). False when the job is gone: its user was forgotten while it ran, and what
        it wrote must be withdrawn."""
        ...

    def fail(self, job: Job, error: str, now: datetime, *, permanent: bool = False) -> JobState:
        """Back to queued (with its error) unless attempts reached ``max_attempts`` or ``permanent``,
        then parked as "failed". A failure from a delivery that was superseded changes nothing."""
        ...

    def renew(self, job: Job, now: datetime) -> bool:
        """Extend this delivery's lease by ``lease_seconds`` from ``now`` (a worker does so while it
        works, so that a job slower than its lease, waiting out an outage say, is not delivered to a
        second worker meanwhile). False when the delivery no longer holds the job."""
        ...

    def release(self, job: Job, error: str, now: datetime) -> JobState:
        """Back to queued without counting this delivery: the job was not at fault (the memory store
        is down), so an outage of any length consumes none of its attempts. A release from a
        delivery that was superseded changes nothing; :class:`~memlane.errors.NotFound` when the job
        is gone (forgotten)."""
        ...

    def forget(self, tenant: str, user_id: str) -> int:
        """Remove every job of the tenant's user, whatever its status, with its payload and result;
        returns how many. A worker holding one finds it gone when it completes (:meth:`complete`)."""
        ...

    def get(self, tenant: str, job_id: str) -> JobState | None:
        """The job's state; None for unknown ids and for other tenants' jobs."""
        ...

    def failed(self, tenant: str, limit: int = 100) -> list[JobState]:
        """The tenant's parked jobs, most recently parked first."""
        ...

    def retry(self, tenant: str, job_id: str, now: datetime) -> JobState | None:
        """Put a parked job back in the queue with a fresh set of attempts; None when this tenant has
        no parked job of that id (unknown, another tenant's, or not parked: nothing changes)."""
        ...

    def stats(self, now: datetime) -> QueueStats:
        """Depth, parked count and lag at ``now``."""
        ...

    def ping(self) -> None:
        """Raise :class:`~memlane.errors.StoreUnavailable` when the queue cannot be reached."""
        ...

    def close(self) -> None:
        """Release connections; the queue's contents stay."""
        ...


def to_json(value: dict[str, Any], what: str) -> str:
    """``value`` as compact JSON for an adapter to store; :class:`~memlane.errors.InvalidInput` when it
    is not JSON-ready (a job that cannot be stored must fail at submit, not in a worker)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"the job {what} must be JSON-ready: {exc}") from exc


def key_digest(idempotency_key: str) -> str:
    """What a queue keeps of an idempotency key: its SHA-256, so that a key holding something
    personal (a client's message id, an email) is never stored as sent."""
    return hashlib.sha256(idempotency_key.encode("utf-8", "surrogatepass")).hexdigest()


def open_queue(
    url: str | None,
    default_sqlite_path: str,
    *,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    keep_seconds: float = DEFAULT_KEEP_SECONDS,
) -> JobQueue:
    """The queue at ``url``: None means SQLite at ``default_sqlite_path``.

    ``sqlite:///`` URLs are read as :func:`memlane.store.open.open_store` reads them. An in-memory
    SQLite database is refused, because the worker may be another process; pass a file instead.
    """
    scheme = url_scheme(url) if url else ""
    knobs: dict[str, Any] = {
        "lease_seconds": lease_seconds,
        "max_attempts": max_attempts,
        "keep_seconds": keep_seconds,
    }
    if scheme in _REDIS:
        from memlane.service.queue.redis import RedisJobQueue

        return RedisJobQueue(url or "", **knobs)
    if scheme not in ("", "sqlite"):
        raise InvalidInput(f"unsupported job queue URL scheme {scheme!r}; use redis://, sqlite:/// or a path")
    path = sqlite_path(url) if url else default_sqlite_path
    if not path or path == ":memory:" or path.startswith("file::memory:"):
        raise InvalidInput("the job queue needs a SQLite file that workers in other processes can open")
    from memlane.service.queue.sqlite import SQLiteJobQueue

    return SQLiteJobQueue(path, **knobs)
