"""Short-term memory on Redis: each session one JSON document under a TTL, found through a per-user
sorted set.

::

    sessions = RedisSessionStore("redis://cache:6379/0")
    Memory(store="postgresql://db/memlane", sessions="redis://cache:6379/0?key_prefix=app1:")

Keys carry the user's scope token as a Redis Cluster hash tag, so one user's keys share a slot and the
scripts below stay atomic on a cluster: ``<prefix>{<scope>}:session:<id>`` (the session) and
``<prefix>{<scope>}:sessions`` (session id → expiry, for listing and purging).

Time. The core never reads the clock, and a session's ``expires_at`` comes from the caller's ``at``; so
expiry is checked against the caller's ``now`` exactly as the SQL stores do, while Redis's TTL, set
to the session's own idle window (``expires_at - updated_at``), only reclaims memory.

When Redis is down (degraded mode): the conversation path carries on without short-term memory and
the privacy path fails loudly. ``get_session`` answers None, ``save_session`` skips the write and
``purge_sessions`` answers 0, each with one logged warning per outage, so ``Memory.add``, ``search``
and ``context`` keep working on long-term memory and lose nothing already stored there; listing and
deleting sessions (export, forget) raise :class:`~memlane.errors.StoreUnavailable`, because an export
that leaves sessions out, or a "forget" that keeps them, must not look like success.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Self, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from memlane.clock import aware, to_epoch
from memlane.domain import Session
from memlane.errors import ConfigurationError, StoreUnavailable
from memlane.store.codec import scope_token, session_from_json, session_to_json
from memlane.store.scope import UNSCOPED, Scope

log = logging.getLogger(__name__)

T = TypeVar("T")

_DOWN = (redis.ConnectionError, redis.TimeoutError)

# KEYS: session, index. ARGV: body, session id, expiry score ("+inf" for none), TTL in ms ("" for none).
# The index lives as long as its longest-lived session.
_SAVE = """
if ARGV[4] == '' then
    redis.call('SET', KEYS[1], ARGV[1])
else
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
if redis.call('ZCOUNT', KEYS[2], '+inf', '+inf') > 0 then
    redis.call('PERSIST', KEYS[2])
else
    local ttl = redis.call('PTTL', KEYS[2])
    if ttl < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
end
"""

# KEYS: index. ARGV: highest expiry score to drop ("+inf" for all), session key prefix, and "entries"
# to count index entries (a session whose TTL passed counts even if Redis already evicted it) rather
# than the keys deleted. Every session key shares the index's hash tag, hence its cluster slot.
_DROP = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = 0
for _, id in ipairs(ids) do
    local deleted = redis.call('DEL', ARGV[2] .. id)
    if ARGV[3] == 'entries' then n = n + 1 else n = n + deleted end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return n
"""
_GLOB = str.maketrans({c: "\\" + c for c in "*?[]\\"})


@dataclass(frozen=True)
class RedisURL:
    """A Redis URL as memlane reads it: the address to connect to (without memlane's ``key_prefix``
    query parameter), the key prefix, and the address as messages may show it (no password).

    >>> RedisURL.parse("redis://:pw@cache:6379/0?key_prefix=app1:")
    RedisURL(address='redis://:pw@cache:6379/0', prefix='app1:', shown='redis://cache:6379/0')
    """

    address: str
    prefix: str
    shown: str

    @classmethod
    def parse(cls, url: str, prefix: str | None = None) -> RedisURL:
        """Read ``url``; ``prefix``, when given, replaces the URL's own (default ``memlane:``)."""
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        given = next((v for k, v in query if k == "key_prefix"), "memlane:")
        chosen = prefix if prefix is not None else given
        if "{" in chosen or "}" in chosen:
            raise ConfigurationError("the Redis key prefix must not contain braces (they mark hash tags)")
        rest = urlencode([(k, v) for k, v in query if k != "key_prefix"])
        address = urlunsplit(parts._replace(query=rest))
        shown = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2], query=""))
        return cls(address=address, prefix=chosen, shown=shown)


class RedisSessionStore:
    """The session port on Redis (or a Redis Cluster through a cluster-aware ``client``)."""

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str | None = None,
        client: redis.Redis | None = None,
        timeout: float = 2.0,
    ) -> None:
        parsed = RedisURL.parse(url, prefix)
        self.prefix, self.url = parsed.prefix, parsed.shown
        try:
            self._redis = client or redis.Redis.from_url(
                parsed.address,
                decode_responses=True,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
                # one quick retry covers a connection dropped by a restart; more would stall every
                # call for seconds during an outage, which degraded mode is there to avoid
                retry=Retry(NoBackoff(), 1),
            )
        except ValueError as exc:
            raise ConfigurationError(f"bad Redis URL: {exc}") from exc
        self._save = self._redis.register_script(_SAVE)
        self._drop = self._redis.register_script(_DROP)
        self._down = False
        self.scope = UNSCOPED

    def within(self, scope: Scope) -> Self:
        """The same store (and connection pool) limited to ``scope``'s users."""
        scoped = copy.copy(self)
        scoped.scope = scope
        return scoped

    # -- keys -------------------------------------------------------------------------------------

    def _tag(self, user_id: str) -> str:
        return f"{self.prefix}{{{scope_token(user_id)}}}"

    def _key(self, user_id: str, session_id: str) -> str:
        return f"{self._tag(user_id)}:session:{session_id}"

    def _index(self, user_id: str) -> str:
        return f"{self._tag(user_id)}:sessions"

    # -- failure handling -------------------------------------------------------------------------

    def _degrade(self, what: str, exc: Exception, fallback: T) -> T:
        if not self._down:
            log.warning("Redis at %s is unreachable (%s): %s until it returns", self.url, exc, what)
            self._down = True
        return fallback

    def _up(self) -> None:
        if self._down:
            log.warning("Redis at %s is reachable again: sessions are read and saved", self.url)
            self._down = False

    def _fail(self, exc: redis.RedisError) -> StoreUnavailable:
        return StoreUnavailable(f"Redis session store at {self.url} failed: {exc}")

    # -- the port ---------------------------------------------------------------------------------

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The live session, or None (also when Redis is down: the turn goes on without it)."""
        uid = self.scope.inward(user_id)
        try:
            body = self._redis.get(self._key(uid, session_id))
        except _DOWN as exc:
            return self._degrade("sessions read as empty", exc, None)
        except redis.RedisError as exc:
            raise self._fail(exc) from exc
        self._up()
        if body is None:
            return None
        session = session_from_json(str(body))
        if session.user_id != uid or not _live(session, now):
            return None
        return self.scope.got(session)

    def save_session(self, session: Session) -> bool:
        """Store the session until ``expires_at``; False (with a warning) when Redis is down."""
        session = self.scope.put(session)
        expires = to_epoch(session.expires_at)
        ttl = ""
        if expires is not None:
            window = expires - (to_epoch(session.updated_at) or expires)
            ttl = str(max(1000, int(window * 1000)))
        args: list[Any] = [session_to_json(session), session.id, "+inf" if expires is None else expires, ttl]
        try:
            self._save(keys=[self._key(session.user_id, session.id), self._index(session.user_id)], args=args)
        except _DOWN as exc:
            self._degrade("sessions are not saved", exc, None)
            return False
        except redis.RedisError as exc:
            raise self._fail(exc) from exc
        self._up()
        return True

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The user's sessions live at ``now`` (all still held when None), most recent first."""
        uid = self.scope.inward(user_id)
        try:
            ids = [str(i) for i in self._redis.zrange(self._index(uid), 0, -1)]
            bodies = self._redis.mget([self._key(uid, i) for i in ids]) if ids else []
        except redis.RedisError as exc:
            raise self._fail(exc) from exc
        self._up()
        found = [session_from_json(str(b)) for b in bodies if b is not None]
        live = [self.scope.got(s) for s in found if s.user_id == uid and (now is None or _live(s, now))]
        return sorted(live, key=lambda s: s.updated_at, reverse=True)

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session; False when there was none."""
        uid = self.scope.inward(user_id)
        try:
            pipe = self._redis.pipeline(transaction=True)
            pipe.delete(self._key(uid, session_id))
            pipe.zrem(self._index(uid), session_id)
            deleted, _ = pipe.execute()
        except redis.RedisError as exc:
            raise self._fail(exc) from exc
        return bool(deleted)

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions."""
        uid = self.scope.inward(user_id)
        try:
            return int(self._drop(keys=[self._index(uid)], args=["+inf", self._key(uid, ""), "keys"]))
        except redis.RedisError as exc:
            raise self._fail(exc) from exc

    def purge_sessions(self, now: datetime) -> int:
        """Remove every session (of every tenant) whose expiry has passed at ``now``; returns how many."""
        cutoff = aware(now).timestamp()
        gone = 0
        try:
            pattern = f"{self.prefix.translate(_GLOB)}{{*}}:sessions"
            for index in self._redis.scan_iter(match=pattern, count=500):
                session_prefix = str(index).removesuffix(":sessions") + ":session:"
                gone += int(self._drop(keys=[index], args=[cutoff, session_prefix, "entries"]))
        except _DOWN as exc:
            return self._degrade("expired sessions are left to Redis's TTL", exc, gone)
        except redis.RedisError as exc:
            raise self._fail(exc) from exc
        self._up()
        return gone

    def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless Redis answers: readiness checks must see an outage
        that the session calls themselves ride out in degraded mode.
        """
        try:
            self._redis.ping()
        except redis.RedisError as exc:
            raise self._fail(exc) from exc

    def close(self) -> None:
        """Close the connection pool."""
        self._redis.close()


def _live(session: Session, now: datetime) -> bool:
    return session.expires_at is None or session.expires_at > now
