"""The server store: PostgreSQL with pgvector holds memories, the log, profile, history and (unless
Redis does) sessions, for any number of application processes.

::

    stores = open_postgres("postgresql://memlane@db/memlane")
    Memory(store="postgresql://memlane@db/memlane")          # the same, through the facade

The roles' statements are shared with SQLite (:mod:`memlane.store.sql_records`,
:mod:`memlane.store.sql_roles`); this module is the database they run on, :mod:`.search` its searches.

- Connections come from a ``psycopg_pool.ConnectionPool``; each statement outside a transaction runs
  in autocommit on whichever connection is free.
- ``transaction(user_id)`` pins one connection to the calling thread and takes
  ``pg_advisory_xact_lock`` on the user, so concurrent read-modify-writes for one user (the
  write path's reconcile step) run one after another, in any number of processes, while different
  users proceed in parallel.
- Every driver error is translated at this boundary into :class:`~memlane.errors.StoreUnavailable`;
  a transaction that fails is rolled back whole.
- The pool checks a connection before handing it out (a round trip on a connection idle for
  more than a few seconds), so that after a PostgreSQL restart the first requests get new
  connections instead of failing on the dead ones.
"""

from __future__ import annotations

import contextlib
import struct
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Any, TypeVar

import numpy as np

from memlane.errors import ConfigurationError, StoreUnavailable
from memlane.extras import optional

with optional("the PostgreSQL store (memlane.store.postgres)"):
    import psycopg
    from psycopg.adapt import Buffer, Dumper, Loader
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from psycopg.pq import Format
    from psycopg.rows import dict_row
    from psycopg.types import TypeInfo
    from psycopg.types.string import TextLoader
    from psycopg_pool import ConnectionPool, PoolTimeout

from memlane.store import Stores
from memlane.store.codec import Row
from memlane.store.postgres.migrations import migrate
from memlane.store.sql import POSTGRES
from memlane.store.sql_roles import sql_stores

T = TypeVar("T")

# first key of the per-user transaction locks (pg_advisory_xact_lock(int, int)): keeps them apart from
# other applications' advisory locks in the same database
_USER_LOCKS = 0x6D6C
# HNSW candidate list: above the read path's 50 candidates per index, so one pass usually suffices
_EF_SEARCH = 100

_Errors = (psycopg.Error, PoolTimeout)
# the tables compact() rewrites: every one that can hold a user's text or its traces
_COMPACTED = (
    "memories",
    "keyword_terms",
    "speakers",
    "history",
    "profile_slots",
    "sessions",
    "audit",
    "user_settings",
    "sealed",
)

# -- adapters: float32 arrays to and from pgvector's vector, jsonb read back as its text, so that rows
# come back in the shape memlane.store.codec reads for SQLite too ---------------------------------------

_HEADER = struct.Struct(">HH")  # vector's binary form: dimensions, unused, then big-endian float4s


class _VectorBinaryDumper(Dumper):
    """A float32 numpy array as a ``vector`` parameter, in pgvector's binary wire format."""

    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer:
        values = np.asarray(obj, dtype=">f4").ravel()
        return _HEADER.pack(len(values), 0) + values.tobytes()


class _VectorTextLoader(Loader):
    """A ``vector`` result (``[0.1,0.2,...]``) as native float32 bytes, as SQLite stores embeddings."""

    def load(self, data: Buffer) -> bytes:
        text = bytes(data)[1:-1].decode("ascii")
        return np.array(text.split(","), dtype=np.float32).tobytes()


class _VectorBinaryLoader(Loader):
    """The same from the binary form, which the store asks for: no text to parse."""

    format = Format.BINARY

    def load(self, data: Buffer) -> bytes:
        return np.frombuffer(bytes(data), dtype=">f4", offset=_HEADER.size).astype(np.float32).tobytes()


class _JsonbBinaryTextLoader(Loader):
    """A binary ``jsonb`` result as its JSON text (the binary form is a version byte, then the text)."""

    format = Format.BINARY

    def load(self, data: Buffer) -> str:
        return bytes(data)[1:].decode("utf-8")


def register_types(conn: psycopg.Connection[Any]) -> None:
    """Teach ``conn`` the vector type (the extension must exist) and to read jsonb as text."""
    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        raise StoreUnavailable("the pgvector extension is not installed in this database")
    dumper = type("VectorBinaryDumper", (_VectorBinaryDumper,), {"oid": info.oid})
    conn.adapters.register_dumper(np.ndarray, dumper)
    conn.adapters.register_loader(info.oid, _VectorTextLoader)
    conn.adapters.register_loader(info.oid, _VectorBinaryLoader)
    conn.adapters.register_loader("jsonb", TextLoader)
    conn.adapters.register_loader("jsonb", _JsonbBinaryTextLoader)


def safe_url(url: str) -> str:
    """The connection string without its password, for messages and logs."""
    try:
        params = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "<unparseable PostgreSQL URL>"
    params.pop("password", None)
    return make_conninfo("", **params)


_CHECK_AFTER_IDLE = 2.0  # seconds: a connection returned more recently than this is taken to be alive


def open_postgres(url: str, dim: int = 384, *, pool_size: int = 10, timeout: float = 10.0) -> Stores:
    """Every role on the PostgreSQL database at ``url`` (migrated to the current schema first)."""
    from memlane.store.postgres.search import PostgresSearch

    db = PostgresDatabase(url, dim, pool_size=pool_size, timeout=timeout)
    return sql_stores(db, PostgresSearch(db))


class PostgresDatabase:
    """One PostgreSQL + pgvector database as the store roles share it (``pool_size`` connections at most)."""

    dialect = POSTGRES

    def __init__(self, url: str, dim: int = 384, *, pool_size: int = 10, timeout: float = 10.0) -> None:
        self.url = safe_url(url)
        self._local = threading.local()
        self._last_returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = (
            weakref.WeakKeyDictionary()
        )
        # the planner's estimates of common keyword terms, and when they were read (by the search)
        self.estimates: tuple[float, dict[str, float]] | None = None
        wait = max(1, int(timeout))
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=wait) as conn:
                migrate(conn, dim)
                self._check_dim(conn, dim)
        except _Errors as exc:
            raise StoreUnavailable(f"cannot open PostgreSQL store at {self.url}: {exc}") from exc
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=timeout,
            open=False,
            name="memlane",
            kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": wait},
            configure=self._configure,
            check=self._check_if_idle,
            reset=self._returned,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except _Errors as exc:
            self._pool.close()
            raise StoreUnavailable(f"cannot open PostgreSQL store at {self.url}: {exc}") from exc

    @staticmethod
    def _check_dim(conn: psycopg.Connection[Any], dim: int) -> None:
        sql = "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = %s"
        row = conn.execute(sql, ("embedding",)).fetchone()
        if row is not None and row[0] != dim:
            raise ConfigurationError(
                f"the store holds {row[0]}-dimensional vectors; the embedder makes {dim}"
            )

    def _recheck(self) -> None:
        """Check every idle connection of the pool now (one round trip each), replacing the dead."""
        with contextlib.suppress(*_Errors):
            self._pool.check()

    def _returned(self, conn: psycopg.Connection[Any]) -> None:
        """The pool's reset callback: note when the connection came back."""
        self._last_returned[conn] = time.monotonic()

    def _check_if_idle(self, conn: psycopg.Connection[Any]) -> None:
        """The pool's check before it hands a connection out: one empty round trip, skipped for a
        connection returned moments ago (a busy pool would pay it on every statement). A connection
        the server dropped (a restart) fails it and the pool replaces it with a new one."""
        returned = self._last_returned.get(conn)
        if returned is not None and time.monotonic() - returned < _CHECK_AFTER_IDLE and not conn.broken:
            return
        ConnectionPool.check_connection(conn)

    @staticmethod
    def _configure(conn: psycopg.Connection[Any]) -> None:
        register_types(conn)
        # relaxed_order: a filtered HNSW scan keeps going until LIMIT rows pass the filters (pgvector
        # 0.8), instead of returning fewer; the store re-sorts the few rows that come out of order
        conn.execute(f"SET hnsw.ef_search = {_EF_SEARCH}")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        # psycopg prepares a statement run often; PostgreSQL would then switch to a generic plan, made
        # for an average user, and one user holding most rows gets a plan that reads all of them
        # (get_many: 7 ms instead of 2 at 100k rows). A plan for the actual values costs far less.
        conn.execute("SET plan_cache_mode = force_custom_plan")

    # -- plumbing ---------------------------------------------------------------------------------

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        pinned = getattr(self._local, "conn", None)
        if pinned is not None:
            yield pinned
            return
        with self._pool.connection() as conn:
            yield conn

    def _once_more(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work(conn)`` on a connection of the pool (or the thread's transaction), tried once more
        on another connection when the first one turns out dead: a connection the server dropped
        (a restart) fails on its first statement, which therefore never ran. The pool's other idle
        connections are checked first, since they died with it."""
        for attempt in (1, 2):
            if attempt == 2:
                self._recheck()
            try:
                with self._connection() as conn:
                    try:
                        return work(conn)
                    except psycopg.OperationalError:
                        if attempt == 1 and conn.broken and getattr(self._local, "conn", None) is None:
                            continue  # the pool discards the broken connection as it takes it back
                        raise
            except _Errors as exc:
                raise StoreUnavailable(f"PostgreSQL error ({self.url}): {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return its rows."""
        # binary results: embeddings arrive as floats, not as text to parse
        rows: list[Row] = self._once_more(lambda conn: conn.execute(sql, params, binary=True).fetchall())
        return rows

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement (in the thread's transaction, if one is open); returns the rows it changed."""
        return self._once_more(lambda conn: conn.execute(sql, params).rowcount)

    @contextmanager
    def transaction(self, user_id: str) -> Iterator[None]:
        """One transaction on one connection, holding the user's advisory lock until it ends."""
        pinned = getattr(self._local, "conn", None)
        if pinned is not None:
            if user_id not in self._local.users:
                self._lock_user(pinned, user_id)
            yield
            return
        stack, conn = self._begin(user_id)
        try:
            with stack:
                self._local.conn, self._local.users = conn, {user_id}
                try:
                    yield
                finally:
                    self._local.conn = None
        except _Errors as exc:
            raise StoreUnavailable(f"PostgreSQL transaction failed ({self.url}): {exc}") from exc

    def _begin(self, user_id: str) -> tuple[ExitStack, psycopg.Connection[Any]]:
        """A connection in a transaction holding the user's lock, as an exit stack that ends both; a
        connection found dead on BEGIN (the server restarted) is replaced once, since nothing ran."""
        for attempt in (1, 2):
            stack, conn = ExitStack(), None
            try:
                conn = stack.enter_context(self._pool.connection())
                stack.enter_context(conn.transaction())
                conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_USER_LOCKS, user_id))
                return stack, conn
            except _Errors as exc:
                broken = conn is not None and conn.broken
                with contextlib.suppress(*_Errors):
                    stack.__exit__(type(exc), exc, exc.__traceback__)
                if attempt == 1 and broken:
                    self._recheck()
                    continue
                raise StoreUnavailable(f"PostgreSQL transaction failed ({self.url}): {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _lock_user(self, conn: psycopg.Connection[Any], user_id: str) -> None:
        try:
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_USER_LOCKS, user_id))
        except _Errors as exc:
            raise StoreUnavailable(f"PostgreSQL error ({self.url}): {exc}") from exc
        self._local.users.add(user_id)

    def erasing(self, user_id: str, *, memories: bool = True) -> AbstractContextManager[None]:
        """A deleting transaction is a plain one: :meth:`compact` rewrites the files when asked."""
        return self.transaction(user_id)

    def write_later(self, sql: str, params: Sequence[Any]) -> None:
        """Run at once: the statement's own relaxed commit is what makes it cheap here."""
        self.write(sql, params)

    def vector_param(self, vector: Any) -> Any:
        """A float32 array, which the registered dumper sends as pgvector's binary form."""
        return np.asarray(vector, dtype=np.float32)

    def forget(self, user_id: str) -> None:
        """Nothing is cached per user in this process."""

    def compact(self) -> None:
        """Rewrite memlane's tables and their indexes (``VACUUM FULL``), so that the bytes of deleted
        rows leave the relation files: a plain VACUUM only marks their space free, and a GIN index
        keeps a word's entry after its last row is gone. It locks each table while it runs: schedule
        it off-peak (docs/privacy.md).
        """
        for table in _COMPACTED:
            self.write(f"VACUUM FULL {table}")

    def close(self) -> None:
        """Close every pooled connection."""
        self._pool.close()
