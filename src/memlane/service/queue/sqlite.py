"""The job queue in a SQLite file: the embedded default, worked by a thread of the API process.

One ``jobs`` table in a file of its own (``<store>.jobs.db``), so queue traffic never waits on the
memory store's writes or migrations. The file is in WAL mode with ``synchronous=FULL``: a submitted
job is on disk when :meth:`~SQLiteJobQueue.submit` returns. Every change runs in ``BEGIN IMMEDIATE``,
which takes the file's write lock before reading, so two processes can never claim the same job.

Leases are measured on the caller's clock: a ``running`` row whose ``lease_until`` is at or before
``now`` is due again. Done jobs are deleted ``keep_seconds`` after they finished (their idempotency
keys with them); parked jobs stay until retried.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from memlane.clock import aware, from_epoch
from memlane.domain import new_id
from memlane.errors import InvalidInput, NotFound, StoreUnavailable
from memlane.service.queue import (
    DEFAULT_KEEP_SECONDS,
    DEFAULT_LEASE_SECONDS,
    DEFAULT_MAX_ATTEMPTS,
    Job,
    JobState,
    JobStatus,
    QueueStats,
    key_digest,
    to_json,
)
from memlane.store.files import private_file

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id          TEXT PRIMARY KEY,
    tenant      TEXT NOT NULL,
    idem_key    TEXT,
    payload     TEXT NOT NULL,
    status      TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL,
    queued_at   REAL NOT NULL,   -- submitted or retried: the lag counts from here
    line        INTEGER NOT NULL, -- place in line, like a stream entry id: a failure goes to the back
    lease_until REAL,
    consumer    TEXT,
    result      TEXT,
    error       TEXT,
    user_id     TEXT              -- whose data the job writes: forget() finds the user's jobs by it
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_idem ON jobs (tenant, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_line ON jobs (status, line);
CREATE INDEX IF NOT EXISTS jobs_parked ON jobs (tenant, status, updated_at);
CREATE INDEX IF NOT EXISTS jobs_finished ON jobs (status, updated_at);
"""
# made after the schema, and after the column is added to a file an older memlane made
_USER_INDEX = "CREATE INDEX IF NOT EXISTS jobs_user ON jobs (tenant, user_id)"

_COLUMNS = "id, tenant, status, attempts, created_at, updated_at, result, error"
_CLAIMED = "id, tenant, payload, status, attempts, created_at, error"
# the back of the line; only the order among queued jobs matters, so the max over them will do
_BACK = "(SELECT COALESCE(MAX(line), 0) + 1 FROM jobs WHERE status = 'queued')"


class SQLiteJobQueue:
    """The :class:`~memlane.service.queue.JobQueue` port on a SQLite file.

    One connection serves every thread of the process behind a lock (queue operations are short);
    other processes open their own and meet at the file's write lock.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        keep_seconds: float = DEFAULT_KEEP_SECONDS,
        busy_timeout: float = 30.0,
    ) -> None:
        if lease_seconds <= 0 or max_attempts < 1:
            raise InvalidInput("lease_seconds must be positive and max_attempts at least 1")
        self.path = private_file(path, "job queue")
        self.lease_seconds = lease_seconds
        self.max_attempts = max_attempts
        self.keep_seconds = keep_seconds
        self._lock = threading.Lock()
        try:
            # autocommit mode: transactions are opened explicitly, as BEGIN IMMEDIATE
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA secure_delete=ON")  # a dropped payload leaves no bytes behind
            with self._write() as db:
                # statement by statement: executescript() would commit the open transaction
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                columns = {row[1] for row in db.execute("PRAGMA table_info(jobs)")}
                if "user_id" not in columns:
                    db.execute("ALTER TABLE jobs ADD COLUMN user_id TEXT")
                db.execute(_USER_INDEX)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"job queue at {self.path} could not be opened: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding the file's write lock from its first statement."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                finally:
                    # after any error (a failed COMMIT too), so that the next BEGIN finds no transaction open
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                raise StoreUnavailable(f"job queue at {self.path} failed: {exc}") from exc

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreUnavailable(f"job queue at {self.path} failed: {exc}") from exc

    def _empty_log(self) -> None:
        """Copy the write-ahead log into the file and truncate it, so that what a finished or
        forgotten job said (masked, but still the user's words) is not left in old WAL frames;
        secure_delete has zeroed it in the file. Best effort: a reader in another process may hold
        an old snapshot, and the next one tries again."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    # -- the port ---------------------------------------------------------------------------------

    def submit(
        self,
        tenant: str,
        payload: dict[str, Any],
        now: datetime,
        idempotency_key: str | None = None,
        *,
        user_id: str | None = None,
    ) -> tuple[JobState, bool]:
        """Queue a job durably; with a key this tenant already used, that job's state and False."""
        body = to_json(payload, "payload")
        at = aware(now).timestamp()
        idem = key_digest(idempotency_key) if idempotency_key is not None else None
        with self._write() as db:
            if idem is not None:
                row = db.execute(
                    f"SELECT {_COLUMNS} FROM jobs WHERE tenant = ? AND idem_key = ?", (tenant, idem)
                ).fetchone()
                if row is not None:
                    return _state(row), False
            job_id = new_id()
            db.execute(
                "INSERT INTO jobs (id, tenant, idem_key, payload, status, created_at, updated_at, queued_at,"
                f" line, user_id) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, {_BACK}, ?)",
                (job_id, tenant, idem, body, at, at, at, user_id),
            )
            row = db.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _state(row), True

    def claim(self, consumer: str, now: datetime) -> Job | None:
        """The oldest due job, leased to ``consumer`` until ``now + lease_seconds``."""
        at = aware(now).timestamp()
        with self._write() as db:
            while True:
                # a job whose worker died comes first (as XAUTOCLAIM does), then the head of the line;
                # two queries, so that each walks the (status, line) index over its few rows
                row = (
                    db.execute(
                        f"SELECT {_CLAIMED} FROM jobs WHERE status = 'running' AND lease_until <= ?"
                        " ORDER BY line LIMIT 1",
                        (at,),
                    ).fetchone()
                    or db.execute(
                        f"SELECT {_CLAIMED} FROM jobs WHERE status = 'queued' ORDER BY line LIMIT 1"
                    ).fetchone()
                )
                if row is None:
                    return None
                job_id, tenant, payload, status, attempts, created_at, error = row
                if status == "running" and attempts >= self.max_attempts:
                    # its worker died on every delivery (a job that kills its worker is poison too)
                    _park(db, job_id, _lost(attempts, error), at)
                    continue
                db.execute(
                    "UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?,"
                    " consumer = ?, updated_at = ? WHERE id = ?",
                    (at + self.lease_seconds, consumer, at, job_id),
                )
                return Job(
                    id=job_id,
                    tenant=tenant,
                    payload=json.loads(payload),
                    attempts=attempts + 1,
                    created_at=_time(created_at),
                )

    def complete(self, job: Job, result: dict[str, Any], now: datetime) -> bool:
        """Record the job as done and drop its payload; a no-op when it already is. False when the
        job is gone (its user was forgotten)."""
        body = to_json(result, "result")
        at = aware(now).timestamp()
        with self._write() as db:
            if db.execute("SELECT 1 FROM jobs WHERE id = ?", (job.id,)).fetchone() is None:
                return False
            db.execute(
                "UPDATE jobs SET status = 'done', result = ?, payload = '', error = NULL, lease_until = NULL,"
                " updated_at = ? WHERE id = ? AND status != 'done'",
                (body, at, job.id),
            )
            # finished jobs older than the keep window go, with their idempotency keys
            db.execute("DELETE FROM jobs WHERE status = 'done' AND updated_at < ?", (at - self.keep_seconds,))
        self._empty_log()  # the dropped payload must not live on in the write-ahead log
        return True

    def fail(self, job: Job, error: str, now: datetime, *, permanent: bool = False) -> JobState:
        """Requeue the job with its error, or park it after ``max_attempts`` or when ``permanent``."""
        at = aware(now).timestamp()
        with self._write() as db:
            row = db.execute("SELECT status, attempts FROM jobs WHERE id = ?", (job.id,)).fetchone()
            if row is None:
                raise NotFound(f"no job {job.id}")
            # only the current delivery may decide; a late failure of a superseded one is dropped
            if row == ("running", job.attempts):
                if permanent or job.attempts >= self.max_attempts:
                    _park(db, job.id, error, at)
                else:
                    db.execute(
                        "UPDATE jobs SET status = 'queued', error = ?, lease_until = NULL, updated_at = ?,"
                        f" line = {_BACK} WHERE id = ?",
                        (error, at, job.id),
                    )
            state = db.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job.id,)).fetchone()
        return _state(state)

    def renew(self, job: Job, now: datetime) -> bool:
        """Move the lease to ``now + lease_seconds`` while this delivery holds the job."""
        at = aware(now).timestamp()
        with self._write() as db:
            renewed = db.execute(
                "UPDATE jobs SET lease_until = ? WHERE id = ? AND status = 'running' AND attempts = ?",
                (at + self.lease_seconds, job.id, job.attempts),
            )
            return bool(renewed.rowcount)

    def release(self, job: Job, error: str, now: datetime) -> JobState:
        """Back to the front of the line without counting this delivery (the store is down)."""
        at = aware(now).timestamp()
        with self._write() as db:
            row = db.execute("SELECT status, attempts FROM jobs WHERE id = ?", (job.id,)).fetchone()
            if row is None:
                raise NotFound(f"no job {job.id}")
            if row == ("running", job.attempts):
                # its place in line is kept: the outage is nobody's fault, the order still holds
                db.execute(
                    "UPDATE jobs SET status = 'queued', attempts = attempts - 1, error = ?,"
                    " lease_until = NULL, consumer = NULL, updated_at = ? WHERE id = ?",
                    (error, at, job.id),
                )
            state = db.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job.id,)).fetchone()
        return _state(state)

    def forget(self, tenant: str, user_id: str) -> int:
        """Delete every job of the tenant's user, with its payload and result."""
        with self._write() as db:
            gone = db.execute("DELETE FROM jobs WHERE tenant = ? AND user_id = ?", (tenant, user_id)).rowcount
        if gone:
            self._empty_log()
        return int(gone)

    def get(self, tenant: str, job_id: str) -> JobState | None:
        """The job's state; None for unknown ids and other tenants' jobs."""
        rows = self._read(f"SELECT {_COLUMNS} FROM jobs WHERE id = ? AND tenant = ?", (job_id, tenant))
        return _state(rows[0]) if rows else None

    def failed(self, tenant: str, limit: int = 100) -> list[JobState]:
        """The tenant's parked jobs, most recently parked first."""
        rows = self._read(
            f"SELECT {_COLUMNS} FROM jobs WHERE tenant = ? AND status = 'failed'"
            " ORDER BY updated_at DESC, rowid DESC LIMIT ?",
            (tenant, limit),
        )
        return [_state(r) for r in rows]

    def retry(self, tenant: str, job_id: str, now: datetime) -> JobState | None:
        """Queue a parked job again with fresh attempts; None when the tenant has no such parked job."""
        at = aware(now).timestamp()
        with self._write() as db:
            retried = db.execute(
                "UPDATE jobs SET status = 'queued', attempts = 0, lease_until = NULL, consumer = NULL,"
                f" queued_at = ?, line = {_BACK}, updated_at = ?"
                " WHERE id = ? AND tenant = ? AND status = 'failed'",
                (at, at, job_id, tenant),
            )
            if not retried.rowcount:
                return None
            row = db.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _state(row)

    def stats(self, now: datetime) -> QueueStats:
        """Depth, parked count and lag at ``now``."""
        # by the status index: done jobs, kept for a week, are not scanned
        (depth, oldest, parked), *_ = self._read(
            "SELECT (SELECT COUNT(*) FROM jobs WHERE status IN ('queued', 'running')),"
            " (SELECT MIN(queued_at) FROM jobs WHERE status IN ('queued', 'running')),"
            " (SELECT COUNT(*) FROM jobs WHERE status = 'failed')",
            (),
        )
        lag = max(0.0, aware(now).timestamp() - oldest) if oldest is not None else 0.0
        return QueueStats(depth=int(depth or 0), failed=int(parked or 0), oldest_age_seconds=lag)

    def ping(self) -> None:
        """Raise StoreUnavailable when the file cannot be read."""
        self._read("SELECT 1 FROM jobs LIMIT 1", ())

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()


def _park(db: sqlite3.Connection, job_id: str, error: str, at: float) -> None:
    db.execute(
        "UPDATE jobs SET status = 'failed', error = ?, lease_until = NULL, updated_at = ? WHERE id = ?",
        (error, at, job_id),
    )


def _lost(attempts: int, error: str | None) -> str:
    """Why a job whose worker kept dying was parked (its last handler error, if any, kept)."""
    reason = f"lease expired {attempts} times: the worker stopped mid-job"
    return f"{reason}; last error: {error}" if error else reason


def _time(epoch: float) -> datetime:
    return cast(datetime, from_epoch(epoch))


def _state(row: tuple[Any, ...]) -> JobState:
    job_id, tenant, status, attempts, created_at, updated_at, result, error = row
    return JobState(
        id=job_id,
        tenant=tenant,
        status=cast(JobStatus, status),
        attempts=attempts,
        created_at=_time(created_at),
        updated_at=_time(updated_at),
        result=json.loads(result) if result is not None else None,
        error=error,
    )
