"""API keys: each bound to one tenant (or to one user of it), stored only as a hash, revocable.

A key reads ``mlk_<key id>_<secret>``. The database keeps the key id, the tenant and the SHA-256 of the
whole key (a fast hash is right for 256-bit random secrets: there is nothing to brute-force), so a
leaked database does not leak usable keys. The same SQL serves SQLite and PostgreSQL; only the
placeholder differs. What a process has checked is kept in a bounded :class:`KeyCache`, which also
keeps already-verified keys working while the database is down (:mod:`memlane.service.keycache`);
a connection that went stale (the database restarted) is replaced and the statement run again::

    keys = open_keys("memlane.keys.db")
    created = keys.create("acme", name="chat backend", now=utcnow())
    keys.tenant_of(created.secret)  # "acme"
    alice = keys.create("acme", name="alice's desktop", user="alice", now=utcnow())
    keys.grant_of(alice.secret)  # Grant(tenant="acme", user="alice")

A **user-scoped key** reaches one user of its tenant and no other: the service builds that user's
memory on a :class:`~memlane.store.scope.Scope` of the tenant and the user, so every store role refuses
any other user id, whatever header, path or argument a request carries (docs/mcp.md).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from memlane.clock import from_epoch, to_epoch
from memlane.errors import ConfigurationError, InvalidInput, NotFound, StoreUnavailable
from memlane.extras import optional
from memlane.service.keycache import FRESH_SECONDS, Grant, KeyCache
from memlane.store.files import private_file
from memlane.store.open import sqlite_path, url_scheme
from memlane.store.scope import check_tenant

log = logging.getLogger("memlane.service")
T = TypeVar("T")

_PREFIX = "mlk"
_RETRY_DOWN_SECONDS = 2.0  # after a failure the database is asked again this long after, not at once
_CACHE_SECONDS = FRESH_SECONDS  # how long a key id's tenant is trusted before it is read again
_MAX_IDS = 10_000

_SCHEMA = """CREATE TABLE IF NOT EXISTS memlane_api_keys (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    revoked_at DOUBLE PRECISION,
    user_id TEXT
)"""
_COLUMNS = "id, tenant, name, created_at, revoked_at, user_id"
_MAX_USER_CHARS = 256


@dataclass(frozen=True)
class ApiKey:
    """A key as listed: never its secret."""

    id: str
    tenant: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None
    user: str | None = None  # the one user a user-scoped key reaches


@dataclass(frozen=True)
class CreatedKey:
    """A new key; ``secret`` is shown once and cannot be recovered."""

    key: ApiKey
    secret: str


def _time(epoch: float) -> datetime:
    at = from_epoch(epoch)
    assert at is not None
    return at


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _well_formed(secret: str) -> bool:
    parts = secret.split("_")
    return len(parts) >= 3 and parts[0] == _PREFIX


class KeyStore:
    """API keys in a SQL database; ``connect`` yields a DB-API connection, ``mark`` is its placeholder."""

    def __init__(
        self,
        connect: Callable[[], Any],
        mark: str,
        errors: tuple[type[Exception], ...],
        cache: KeyCache | None = None,
    ) -> None:
        self._connect = connect
        self._mark = mark
        self._errors = errors
        self._lock = threading.Lock()
        self._conn: Any = None
        self._cache = cache or KeyCache()
        self._ids: dict[str, tuple[str | None, float]] = {}  # key id → (tenant, until), for page sessions
        self._down_until = 0.0  # monotonic time before which the database is not asked again
        self._run(lambda cur: cur.execute(_SCHEMA))
        self._run(_add_user_column)

    def run(self, work: Callable[[Any], T]) -> T:
        """``work(cursor)`` in a transaction on the key database (:class:`StoreUnavailable` when it
        cannot be reached). The link store (``memlane.service.web.links``) keeps its tables here too,
        beside the keys."""
        return self._run(work)

    def sql(self, text: str) -> str:
        """``text`` with this database's placeholder in place of each ``?``."""
        return self._sql(text)

    def _run(self, work: Callable[[Any], T]) -> T:
        """``work(cursor)`` in a transaction; a connection found broken (the database restarted since
        it was opened) is replaced once and the work run again on the new one."""
        with self._lock:
            for attempt in (1, 2):
                reused = self._conn is not None
                try:
                    if self._conn is None:
                        self._conn = self._connect()
                    cur = self._conn.cursor()
                    try:
                        done = work(cur)
                        self._conn.commit()
                        return done
                    finally:
                        cur.close()
                except self._errors as exc:
                    self._drop()
                    if reused and attempt == 1:
                        continue  # a stale connection: the database may well be back
                    self._down_until = time.monotonic() + _RETRY_DOWN_SECONDS
                    raise StoreUnavailable(
                        f"the API key database is unavailable: {_first_line(exc)}"
                    ) from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _drop(self) -> None:
        try:
            if self._conn is not None:
                self._conn.close()
        except self._errors:
            pass
        self._conn = None

    def _sql(self, text: str) -> str:
        return text.replace("?", self._mark)

    def create(self, tenant: str, *, name: str = "", user: str | None = None, now: datetime) -> CreatedKey:
        """A new key for ``tenant`` (the tenant exists from its first key on); with ``user``, a key
        that reaches only that user of the tenant."""
        check_tenant(tenant)
        if user is not None:
            _check_user(user)
        key_id = secrets.token_hex(6)
        secret = f"{_PREFIX}_{key_id}_{secrets.token_urlsafe(32)}"
        columns = "id, tenant, name, hash, created_at, user_id"
        sql = self._sql(f"INSERT INTO memlane_api_keys ({columns}) VALUES (?, ?, ?, ?, ?, ?)")
        row = (key_id, tenant, name, _digest(secret), to_epoch(now), user)
        self._run(lambda cur: cur.execute(sql, row))
        return CreatedKey(ApiKey(key_id, tenant, name, now, user=user), secret)

    def keys(self, tenant: str | None = None) -> list[ApiKey]:
        """Every key (of one tenant), oldest first; revoked keys included."""
        where, params = (" WHERE tenant = ?", (tenant,)) if tenant else ("", ())
        sql = self._sql(f"SELECT {_COLUMNS} FROM memlane_api_keys{where} ORDER BY created_at")
        rows = self._run(lambda cur: cur.execute(sql, params).fetchall())
        return [ApiKey(r[0], r[1], r[2], _time(r[3]), from_epoch(r[4]), r[5]) for r in rows]

    def revoke(self, key_id: str, *, now: datetime) -> ApiKey:
        """Revoke a key by its id; requests with it get 401 from then on."""
        sql = self._sql("UPDATE memlane_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
        self._run(lambda cur: cur.execute(sql, (to_epoch(now), key_id)))
        self._cache.clear()
        with self._lock:  # a revocation here takes effect here at once
            self._ids.clear()
        found = [k for k in self.keys() if k.id == key_id]
        if not found:
            raise NotFound(f"no API key {key_id!r}")
        return found[0]

    def known(self, secret: str) -> tuple[bool, Grant | None]:
        """What :meth:`grant_of` would say without asking the database: ``(True, grant or None)``
        for a malformed key, one looked up in the last few seconds, or a verified one while the
        database is down; ``(False, None)`` otherwise."""
        if not _well_formed(secret):
            return True, None
        verdict = self._cache.lookup(_digest(secret))
        if verdict is not None and (verdict.fresh or time.monotonic() < self._down_until):
            return True, verdict.grant
        return False, None

    def verified_before(self, secret: str) -> bool:
        """Whether the database said this key is live within the cache's grace period (a key being
        checked again, not a guess)."""
        verdict = self._cache.lookup(_digest(secret)) if _well_formed(secret) else None
        return verdict is not None and verdict.grant is not None

    def tenant_of(self, secret: str) -> str | None:
        """The tenant of a live key, or None for a malformed, unknown or revoked one (as
        :meth:`grant_of`)."""
        grant = self.grant_of(secret)
        return grant.tenant if grant is not None else None

    def grant_of(self, secret: str) -> Grant | None:
        """What a live key reaches (its tenant, and its user if it is user-scoped), or None for a
        malformed, unknown or revoked one.

        While the database cannot be reached, a key it verified within the cache's grace period is
        still taken for its grant; any other key raises :class:`StoreUnavailable`.
        """
        known, grant = self.known(secret)
        if known:
            return grant
        digest = _digest(secret)
        sql = self._sql("SELECT tenant, hash, revoked_at, user_id FROM memlane_api_keys WHERE id = ?")
        try:
            row = self._run(lambda cur: cur.execute(sql, (secret.split("_")[1],)).fetchone())
        except StoreUnavailable:
            stale = self._cache.lookup(digest)
            if stale is not None and stale.grant is not None:
                log.warning("the API key database is down: a key verified earlier is accepted meanwhile")
                return stale.grant
            raise
        ok = row is not None and row[2] is None and hmac.compare_digest(row[1], digest)
        if ok and row is not None:
            found = Grant(str(row[0]), str(row[3]) if row[3] is not None else None)
            self._cache.verified(digest, found)
            return found
        self._cache.refused(digest)
        return None

    def tenant_of_id(self, key_id: str) -> str | None:
        """The tenant of the live key with this id, or None when it is unknown or revoked (cached for
        a few seconds: a revocation elsewhere takes effect within seconds). A staff session of the web
        page keeps its key's id, never its secret, and asks this on each request."""
        with self._lock:
            cached = self._ids.get(key_id)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        sql = self._sql("SELECT tenant FROM memlane_api_keys WHERE id = ? AND revoked_at IS NULL")
        row = self._run(lambda cur: cur.execute(sql, (key_id,)).fetchone())
        tenant = str(row[0]) if row is not None else None
        with self._lock:
            if len(self._ids) >= _MAX_IDS:  # bounded: a flood of made-up ids cannot grow it
                self._ids.clear()
            self._ids[key_id] = (tenant, time.monotonic() + _CACHE_SECONDS)
        return tenant

    def tenants(self) -> list[str]:
        """Tenants with at least one live key."""
        sql = "SELECT DISTINCT tenant FROM memlane_api_keys WHERE revoked_at IS NULL ORDER BY 1"
        return [str(r[0]) for r in self._run(lambda cur: cur.execute(sql).fetchall())]

    def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless the database answers."""
        self._run(lambda cur: cur.execute("SELECT 1").fetchall())

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._drop()


def _add_user_column(cur: Any) -> None:
    """Give a key table made before user-scoped keys existed its ``user_id`` column (NULL: the
    whole tenant, which is what those keys reached)."""
    cur.execute("SELECT * FROM memlane_api_keys WHERE 1 = 0")
    if "user_id" not in [d[0] for d in cur.description]:
        cur.execute("ALTER TABLE memlane_api_keys ADD COLUMN user_id TEXT")


def _check_user(user: object) -> None:
    if not isinstance(user, str) or not user.strip():
        raise InvalidInput("a user-scoped key needs a user id: a non-empty string")
    if len(user) > _MAX_USER_CHARS or not user.isprintable():
        raise InvalidInput(f"the key's user id must be printable and at most {_MAX_USER_CHARS} characters")


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def open_keys(url: str, cache: KeyCache | None = None) -> KeyStore:
    """The key store at ``url``: ``postgresql://...`` or a SQLite file (``sqlite:///path`` or a path)."""
    scheme = url_scheme(url) or "sqlite"
    if scheme in ("postgresql", "postgres"):
        with optional("API keys in PostgreSQL"):
            import psycopg

        return KeyStore(lambda: psycopg.connect(url, connect_timeout=5), "%s", (psycopg.Error,), cache)
    if scheme == "sqlite":
        path = sqlite_path(url)
        if path in ("", ":memory:"):
            raise ConfigurationError("API keys need a database file, not :memory:")
        path = private_file(path, "API key database")  # a fresh home has no data directory yet
        return KeyStore(
            lambda: sqlite3.connect(path, check_same_thread=False, timeout=10), "?", (sqlite3.Error,), cache
        )
    raise ConfigurationError(f"unsupported key store {url!r}; use a SQLite file or postgresql://")
