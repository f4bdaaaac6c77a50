"""The job queue on Redis Streams: server mode, worked by ``memlane worker`` processes.

::

    queue = RedisJobQueue("redis://cache:6379/0?key_prefix=app1:")

Keys, under memlane's key prefix (``?key_prefix=``, default ``memlane:``) and one Redis Cluster hash
tag, so that the scripts (:mod:`.redis_scripts`), which touch several of them atomically, stay in
one slot:

=================================  ===================================================================
``<prefix>{jobs}:stream``          the stream, one entry per delivery due; consumer group ``workers``
``<prefix>{jobs}:job:<id>``        the job (hash): tenant, payload, status, attempts, result, error,
                                   the stream entry currently carrying it, its user's token and its
                                   idempotency key's name
``<prefix>{jobs}:pending``         queued and running job ids by the time they were queued: depth, lag
``<prefix>{jobs}:parked``          parked job ids by the time they were parked, all tenants
``<prefix>{jobs}:parked:<tenant>`` the same, one tenant's (what ``failed()`` lists)
``<prefix>{jobs}:idem:<t>:<key>``  idempotency key → job id (``<t>``: a hash of the tenant, ``<key>``
                                   the key's SHA-256: the key itself is never stored)
``<prefix>{jobs}:user:<u>``        the unfinished (queued, running, parked) job ids of one tenant's user
                                   (``<u>``: a hash of ``tenant/user``), for ``forget``
``<prefix>{jobs}:done:<u>``        that user's finished job ids by the time they finished (expires
                                   with them)
``<prefix>{jobs}:serving:<host>``  present while the API processes of ``<host>`` serve requests (a
                                   co-located worker lets them go first, :mod:`memlane.service.worker`)
=================================  ===================================================================

Delivery. :meth:`~RedisJobQueue.claim` first takes over, with ``XAUTOCLAIM``, an entry that another
consumer has held for longer than ``lease_seconds`` (its worker died), then reads a new one with
``XREADGROUP``; it does not block unless ``block_seconds`` is set, so the worker's poll interval sets
the latency. Leases are therefore measured on the Redis server's clock, not on the caller's ``now``.
A requeued or retried job gets a new entry at the end of the stream; the old one is acknowledged and
deleted, as is an entry whose job finished, so the stream holds only the work that is due.

Done jobs (their result; the payload is dropped when they finish) and idempotency keys expire
``keep_seconds`` (a week) after they were written; queued and parked jobs never expire.
:meth:`~RedisJobQueue.forget` removes a user's jobs of every status at once. The queue is as
durable as the Redis behind it: run it with AOF.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from memlane.clock import aware, from_epoch
from memlane.domain import new_id
from memlane.errors import ConfigurationError, InvalidInput, NotFound, StoreUnavailable
from memlane.extras import optional
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
from memlane.service.queue import redis_scripts as scripts
from memlane.store.codec import scope_token

with optional("a Redis job queue"):
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from memlane.store.redis import RedisURL  # the Redis client, too


class RedisJobQueue:
    """The :class:`~memlane.service.queue.JobQueue` port on a Redis stream and consumer group."""

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str | None = None,
        group: str = "workers",
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        keep_seconds: float = DEFAULT_KEEP_SECONDS,
        block_seconds: float = 0.0,
        timeout: float = 2.0,
        client: redis.Redis | None = None,
    ) -> None:
        if lease_seconds <= 0 or max_attempts < 1:
            raise InvalidInput("lease_seconds must be positive and max_attempts at least 1")
        parsed = RedisURL.parse(url, prefix)
        self.prefix, self.url = parsed.prefix, parsed.shown
        self.group = group
        self.lease_seconds = lease_seconds
        self.max_attempts = max_attempts
        self.keep_ms = int(keep_seconds * 1000)
        self.block_ms = int(block_seconds * 1000)
        self._ns = f"{self.prefix}{{jobs}}:"
        self._stream = self._ns + "stream"
        self._pending = self._ns + "pending"
        self._parked = self._ns + "parked"
        try:
            self._redis = client or redis.Redis.from_url(
                parsed.address,
                decode_responses=True,
                socket_connect_timeout=timeout,
                socket_timeout=timeout + block_seconds,  # a blocking read must not time out
                retry=Retry(NoBackoff(), 1),  # one quick retry covers a connection dropped by a restart
            )
        except ValueError as exc:
            raise ConfigurationError(f"bad Redis URL: {exc}") from exc
        self._scripts = {
            name: self._redis.register_script(scripts.COMMON + body)
            for name, body in (
                ("submit", scripts.SUBMIT),
                ("start", scripts.START),
                ("complete", scripts.COMPLETE),
                ("fail", scripts.FAIL),
                ("release", scripts.RELEASE),
                ("renew", scripts.RENEW),
                ("retry", scripts.RETRY),
                ("forget", scripts.FORGET),
            )
        }
        self._group_ready = False  # created on first claim, so that constructing never connects

    @contextmanager
    def _translate(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as exc:
            raise StoreUnavailable(f"Redis job queue at {self.url} failed: {exc}") from exc

    def _run(self, script: str, job_id: str, args: Sequence[Any], *extra_keys: str | None) -> Any:
        keys = [self._stream, self._ns + "job:" + job_id, self._pending, self._parked]
        keys += [k for k in extra_keys if k is not None]
        with self._translate():
            return self._scripts[script](keys=keys, args=[self.group, self._ns, *args])

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
        """Queue a job (in Redis when this returns); with a key this tenant already used, that job."""
        body = to_json(payload, "payload")
        idem = None
        if idempotency_key is not None:
            idem = f"{self._ns}idem:{scope_token(tenant)}:{key_digest(idempotency_key)}"
        job_id = new_id()
        user = _user_token(tenant, user_id) if user_id is not None else ""
        args = [_epoch(now), job_id, tenant, body, self.keep_ms, user]
        created, fields = self._run("submit", job_id, args, idem)
        return _state(_pairs(fields)), bool(created)

    def claim(self, consumer: str, now: datetime) -> Job | None:
        """An entry whose lease ran out, else a new one; None when nothing is due."""
        try:
            return self._claim(consumer, now)
        except StoreUnavailable as exc:
            if "NOGROUP" not in str(exc):
                raise
            self._group_ready = False  # the stream was deleted under us: start it again
            return self._claim(consumer, now)

    def _claim(self, consumer: str, now: datetime) -> Job | None:
        self._ensure_group()
        while True:
            delivery = self._reclaim(consumer) or self._read_new(consumer)
            if delivery is None:
                return None
            entry, job_id = delivery
            args = [_epoch(now), entry, consumer, self.max_attempts]
            fields = self._run("start", job_id, args)
            if fields:  # else the entry was stale (its job finished, or was requeued) and is gone
                found = _pairs(fields)
                return Job(
                    id=found["id"],
                    tenant=found["tenant"],
                    payload=json.loads(found["payload"]),
                    attempts=int(found["attempts"]),
                    created_at=_time(found["created_at"]),
                )

    def _ensure_group(self) -> None:
        if self._group_ready:
            return
        with self._translate():
            try:
                self._redis.xgroup_create(self._stream, self.group, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise
        self._group_ready = True

    def _reclaim(self, consumer: str) -> tuple[str, str] | None:
        """An entry another consumer has held past the lease, now ours; the PEL is scanned to its end."""
        start = "0-0"
        with self._translate():
            while True:
                reply = self._redis.xautoclaim(
                    self._stream, self.group, consumer, int(self.lease_seconds * 1000), start, count=1
                )
                start, entries = reply[0], reply[1]
                for entry, fields in entries:
                    if fields and "job" in fields:
                        return str(entry), str(fields["job"])
                    self._redis.xack(self._stream, self.group, entry)  # deleted under us: nothing to do
                if start == "0-0":
                    return None

    def _read_new(self, consumer: str) -> tuple[str, str] | None:
        with self._translate():
            reply = cast(
                "list[tuple[str, list[tuple[str, dict[str, str]]]]] | None",
                self._redis.xreadgroup(
                    self.group, consumer, {self._stream: ">"}, count=1, block=self.block_ms or None
                ),
            )
        for _stream, entries in reply or []:
            for entry, fields in entries:
                return str(entry), str(fields.get("job", ""))
        return None

    def complete(self, job: Job, result: dict[str, Any], now: datetime) -> bool:
        """Record the job as done (kept ``keep_seconds``) and drop its payload; a no-op when it
        already is. False when the job is gone (its user was forgotten)."""
        recorded = self._run("complete", job.id, [_epoch(now), to_json(result, "result"), self.keep_ms])
        return int(recorded) >= 0

    def renew(self, job: Job, now: datetime) -> bool:
        """Claim the job's entry again for the consumer holding it: its idle time starts over, so
        no other consumer's XAUTOCLAIM takes it (leases are on the Redis clock, not ``now``)."""
        return bool(self._run("renew", job.id, [_epoch(now), job.attempts]))

    def release(self, job: Job, error: str, now: datetime) -> JobState:
        """Queue the job again at the end of the stream without counting this delivery."""
        fields = self._run("release", job.id, [_epoch(now), job.attempts, error])
        if not fields:
            raise NotFound(f"no job {job.id}")
        return _state(_pairs(fields))

    def forget(self, tenant: str, user_id: str) -> int:
        """Remove every job of the tenant's user, with its stream entry, payload and result."""
        user = _user_token(tenant, user_id)
        keys = (self._ns + "user:" + user, self._ns + "done:" + user)
        return int(self._run("forget", "", ["0", tenant], *keys))  # "0": no time is recorded

    def fail(self, job: Job, error: str, now: datetime, *, permanent: bool = False) -> JobState:
        """Requeue the job at the end of the stream with its error, or park it."""
        park = permanent or job.attempts >= self.max_attempts
        fields = self._run("fail", job.id, [_epoch(now), job.attempts, error, "1" if park else "0"])
        if not fields:
            raise NotFound(f"no job {job.id}")
        return _state(_pairs(fields))

    def get(self, tenant: str, job_id: str) -> JobState | None:
        """The job's state; None for unknown ids and other tenants' jobs."""
        with self._translate():
            fields = cast(dict[str, str], self._redis.hgetall(self._ns + "job:" + job_id))
        return _state(fields) if fields and fields.get("tenant") == tenant else None

    def failed(self, tenant: str, limit: int = 100) -> list[JobState]:
        """The tenant's parked jobs, most recently parked first."""
        with self._translate():
            ids = cast(list[str], self._redis.zrevrange(self._ns + "parked:" + tenant, 0, limit - 1))
            pipe = self._redis.pipeline(transaction=False)
            for job_id in ids:
                pipe.hgetall(self._ns + "job:" + job_id)
            found = cast(list[dict[str, str]], pipe.execute()) if ids else []
        return [_state(f) for f in found if f and f.get("tenant") == tenant]

    def retry(self, tenant: str, job_id: str, now: datetime) -> JobState | None:
        """Queue a parked job again with fresh attempts; None when the tenant has no such parked job."""
        fields = self._run("retry", job_id, [_epoch(now), tenant], self._ns + "parked:" + tenant)
        return _state(_pairs(fields)) if fields else None

    def stats(self, now: datetime) -> QueueStats:
        """Depth, parked count and lag at ``now``."""
        with self._translate():
            pipe = self._redis.pipeline(transaction=True)
            pipe.zcard(self._pending)
            pipe.zrange(self._pending, 0, 0, withscores=True)
            pipe.zcard(self._parked)
            depth, oldest, parked = pipe.execute()
        lag = max(0.0, aware(now).timestamp() - float(oldest[0][1])) if oldest else 0.0
        return QueueStats(depth=int(depth), failed=int(parked), oldest_age_seconds=lag)

    def mark_serving(self, host: str, seconds: float) -> None:
        """Say, for the next ``seconds``, that the API processes of ``host`` are serving requests."""
        with self._translate():
            self._redis.set(self._ns + f"serving:{host}", 1, px=max(1, round(seconds * 1000)))

    def serving(self, host: str) -> bool:
        """Whether an API process of ``host`` said so (:meth:`mark_serving`) and the time has not run out."""
        with self._translate():
            return bool(self._redis.exists(self._ns + f"serving:{host}"))

    def ping(self) -> None:
        """Raise StoreUnavailable when Redis does not answer."""
        with self._translate():
            self._redis.ping()

    def close(self) -> None:
        """Close the connection pool."""
        self._redis.close()


def _user_token(tenant: str, user_id: str) -> str:
    """A tenant's user as a key part: a hash, so that no user id appears in a key name."""
    return scope_token(f"{tenant}/{user_id}")


def _epoch(now: datetime) -> str:
    return repr(aware(now).timestamp())


def _time(epoch: str) -> datetime:
    return cast(datetime, from_epoch(float(epoch)))


def _pairs(flat: Sequence[Any]) -> dict[str, str]:
    """A hash as HGETALL returns it from a script: a flat list of fields and values."""
    return {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat), 2)}


def _state(fields: dict[str, str]) -> JobState:
    return JobState(
        id=fields["id"],
        tenant=fields["tenant"],
        status=cast(JobStatus, fields["status"]),
        attempts=int(fields["attempts"]),
        created_at=_time(fields["created_at"]),
        updated_at=_time(fields["updated_at"]),
        result=json.loads(fields["result"]) if "result" in fields else None,
        error=fields.get("error"),
    )
