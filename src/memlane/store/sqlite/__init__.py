"""The embedded store: one SQLite file (WAL) holding memories, the log, FTS5, vectors, profile,
history and sessions. No SQLite extension is needed; vectors are searched in-process.

Deletion leaves no readable copy in the file: ``secure_delete`` zeroes freed content, and a
transaction that deleted anything ends by checkpointing the WAL into the main file, truncating the
WAL (which would otherwise keep the old pages until it is reused); one that deleted or changed
memories also rebuilds the keyword index (FTS5 keeps a deleted row's tokens in its older segments).
It is rebuilt from the memories, not merged: on SQLite 3.40 merging this index ('optimize', or
'merge') could corrupt it after about a thousand writes ("database disk image is malformed" on the
next write; `memlane eval changes` replayed all its 600 pairs in one store to find it).

The file is created ``0600`` in a directory created ``0700`` (:mod:`memlane.store.files`). A file
another process holds locked fails a write after ``busy_seconds`` (5) with a message that says so,
rather than after half a minute; after :meth:`~SQLiteDatabase.close` every call fails the same way.

Safe for several threads and several processes (WAL, ``BEGIN IMMEDIATE`` for read-modify-write, and
a change feed that keeps each process's vector cache fresh). Writes and transactions go through one
connection, one thread at a time; reads outside a transaction go through a small pool of read-only
connections, so a search never waits for a write-back job's transaction (WAL lets readers see the
last commit while a write is open).
The roles' statements, shared with the PostgreSQL adapter, live in :mod:`memlane.store.sql_records` and
:mod:`memlane.store.sql_roles`; this module is the database they run on and :mod:`.search` its two
searches::

    stores = open_sqlite("memlane.db", dim=384)
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from memlane.errors import StoreUnavailable
from memlane.store import Stores
from memlane.store.codec import Row
from memlane.store.files import private_file
from memlane.store.sql import SQLITE
from memlane.store.sql_roles import sql_stores
from memlane.store.sqlite.migrations import migrate
from memlane.store.vectors import VectorIndex

log = logging.getLogger(__name__)

# read-only connections at most (each keeps its own page cache); more readers wait for one
_READERS = 4
# how long a write waits for another process's lock on the file: a write-back transaction takes
# milliseconds, so this is only ever reached when something holds the file (a crashed tool, a
# `sqlite3` shell inside BEGIN EXCLUSIVE), and a caller should hear of it soon
BUSY_SECONDS = 5.0


def _connect(path: str, busy_seconds: float = BUSY_SECONDS) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=busy_seconds, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    return db


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch the file to WAL. SQLite answers "database is locked" at once, without waiting, while
    another connection is making the same switch on a new file, so wait for it here.
    """
    for attempt in range(100):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 99:
                raise
            time.sleep(0.01 * min(attempt + 1, 10))


def open_sqlite(path: str | Path, dim: int = 384, *, busy_seconds: float = BUSY_SECONDS) -> Stores:
    """Every role on the SQLite file at ``path`` (created if need be; ``":memory:"`` for none)."""
    from memlane.store.sqlite.search import SQLiteSearch

    db = SQLiteDatabase(path, dim, busy_seconds=busy_seconds)
    return sql_stores(db, SQLiteSearch(db))


class SQLiteDatabase:
    """One SQLite database as the store roles share it; ``path`` may be ``":memory:"``."""

    dialect = SQLITE

    def __init__(self, path: str | Path, dim: int = 384, *, busy_seconds: float = BUSY_SECONDS) -> None:
        self.path = str(path)
        self.busy_seconds = busy_seconds
        self._closed = False
        if self.path != ":memory:":
            self.path = private_file(self.path, "memory database")
        try:
            self._db = _connect(self.path, busy_seconds)
            _use_wal(self._db)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA secure_delete=ON")
            self._db.execute("PRAGMA foreign_keys=ON")
            migrate(self._db)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot open SQLite database {self.path!r}: {exc}") from exc
        self._lock = threading.RLock()
        self._owner: int | None = None  # the thread whose transaction is open
        # an in-memory database exists only on its own connection: there, every read takes the one
        self._max_readers = 0 if self.path == ":memory:" else _READERS
        self._readers: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._opened: list[sqlite3.Connection] = []
        self._opening = threading.Lock()  # held to open a reader, and by a checkpoint taking them all
        self._depth = 0
        self._erased = False  # something was deleted in the open transaction
        self._reindex = False  # …of the memories: the keyword index is rebuilt before it commits
        self._recalls: deque[tuple[str, Sequence[Any]]] = deque()  # counts waiting for the writer
        self.vectors = VectorIndex(dim)  # the search's cache of every user's vectors

    # -- plumbing ---------------------------------------------------------------------------------

    def _error(self, exc: sqlite3.Error) -> StoreUnavailable:
        """The driver's error as the port's, saying plainly when the file is locked or closed."""
        text = str(exc)
        if "locked" in text or "busy" in text:
            return StoreUnavailable(
                f"the SQLite database {self.path!r} is locked by another process or connection "
                f"(waited {self.busy_seconds:g} s); retry, or stop whatever holds it"
            )
        if self._closed:
            return StoreUnavailable("the store is closed")
        return StoreUnavailable(f"SQLite error: {text}")

    def _open(self) -> None:
        if self._closed:
            raise StoreUnavailable("the store is closed")

    def _run(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        self._open()
        try:
            with self._lock:
                return self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise self._error(exc) from exc

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._open()
        rows: list[Row]
        if not self._max_readers or self._owner == threading.get_ident():
            # inside its own transaction a thread reads what it has written so far
            with self._lock:
                rows = self._run(sql, params).fetchall()
            return rows
        db = self._reader()
        try:
            rows = db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            self._readers.put(db)
        return rows

    def _reader(self) -> sqlite3.Connection:
        """A read-only connection of the pool, opened on first need, waited for when all are busy."""
        with self._opening:
            try:
                return self._readers.get_nowait()
            except queue.Empty:
                if len(self._opened) < self._max_readers:
                    try:
                        db = _connect(self.path, self.busy_seconds)
                        db.execute("PRAGMA query_only=ON")
                    except sqlite3.Error as exc:
                        raise StoreUnavailable(f"cannot open SQLite database {self.path!r}: {exc}") from exc
                    self._opened.append(db)
                    return db
        return self._readers.get()

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement on the writer connection; returns how many rows it changed."""
        with self._lock:
            return self._run(sql, params).rowcount

    @contextmanager
    def transaction(self, user_id: str) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` takes the file's write lock, so concurrent writers queue up here."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._run("BEGIN IMMEDIATE")
            self._depth = 1
            self._owner = threading.get_ident()
            try:
                yield
                if self._reindex:
                    self._rebuild_keywords()
            except BaseException:
                self._depth = 0
                self._owner = None
                self._erased = self._reindex = False
                self._run("ROLLBACK")
                raise
            self._depth = 0
            self._owner = None
            self._run("COMMIT")
            if self._erased:
                self._erased = self._reindex = False
                self._checkpoint()
            self._count_recalls(quietly=True)

    def write_later(self, sql: str, params: Sequence[Any]) -> None:
        """A write a crash may lose (recall counts), without waiting for another thread's transaction:
        while the writer is busy, the statement waits in memory and runs when that transaction ends.
        A search under load no longer waits for a write-back job to commit before it answers.
        """
        self._recalls.append((sql, params))  # deque.append is atomic
        if self._lock.acquire(blocking=False):
            try:
                self._count_recalls()
            finally:
                self._lock.release()

    def _count_recalls(self, *, quietly: bool = False) -> None:
        """Write the waiting recall counts; after another thread's commit (``quietly``), a failure is
        logged rather than raised to a writer whose own work is done."""
        with self._lock:
            while self._recalls:
                sql, params = self._recalls.popleft()
                try:
                    self.write(sql, params)
                except StoreUnavailable:
                    if not quietly:
                        raise
                    log.warning("a recall count was not written: the database failed", exc_info=True)

    # -- deletion that leaves no copy -------------------------------------------------------------

    @contextmanager
    def erasing(self, user_id: str, *, memories: bool = True) -> Iterator[None]:
        """A transaction that deletes: it ends with the WAL emptied and, when it deleted or changed
        ``memories``, the keyword index rebuilt."""
        with self.transaction(user_id):
            self._erased = True
            self._reindex = self._reindex or memories
            yield

    def _rebuild_keywords(self) -> None:
        # the tokens of deleted rows leave the index, and secure_delete zeroes the pages they held
        self._run("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")

    def _checkpoint(self) -> None:
        # best effort: a reader in another process may hold old pages; the next deletion tries again.
        # This process's readers are all taken first, so that none is reading while the WAL is emptied
        with self._every_reader() as held:
            try:
                self._run("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                for db in held:
                    self._readers.put(db)

    @contextmanager
    def _every_reader(self) -> Iterator[list[sqlite3.Connection]]:
        """Every reader this store opened, each waited for until it is free; no new one opens meanwhile."""
        with self._opening:
            yield [self._readers.get() for _ in self._opened]

    def compact(self) -> None:
        """Rebuild the keyword index and empty the WAL into the main file (deletions already do so)."""
        with self.erasing(""):
            pass

    def vector_param(self, vector: Any) -> Any:
        """A vector as float32 bytes, the embedding column's form."""
        return np.asarray(vector, dtype=np.float32).tobytes()

    def forget(self, user_id: str) -> None:
        """Drop the deleted user's cached vectors."""
        self.vectors.forget(user_id)

    def close(self) -> None:
        """Close the database file (the readers when they are next free); closing again does nothing."""
        if self._closed:
            return
        self._count_recalls(quietly=True)
        self._closed = True
        with self._lock, self._every_reader() as held:
            for db in held:
                db.close()
            self._opened.clear()
            self._db.close()
