"""The embedded store: one SQLite file (WAL) holding memories, the log, FTS5, vectors, profile,
history and sessions. No SQLite extension is needed; vectors are searched in-process.

Deletion leaves no readable copy in the file: ``secure_delete`` zeroes freed content, and a
transaction that deleted anything ends by merging the keyword index (FTS5 keeps a deleted row's
tokens in its older segments until they are merged) and checkpointing the WAL into the main file,
truncating the WAL (which would otherwise keep the old pages until it is reused).

The file is created ``0600`` in a directory created ``0700`` (:mod:`memlane.store.files`). A file
another process holds locked fails a write after ``busy_seconds`` (5) with a message that says so,
rather than after half a minute; after :meth:`~SQLiteStore.close` every call fails the same way.

Safe for several threads and several processes (WAL, ``BEGIN IMMEDIATE`` for read-modify-write, and
a change feed that keeps each process's vector cache fresh). Writes and transactions go through one
connection, one thread at a time; reads outside a transaction go through a small pool of read-only
connections, so a search never waits for a write-back job's transaction (WAL lets readers see the
last commit while a write is open).
The statements it shares with the PostgreSQL adapter live in :mod:`memlane.store.relational`.
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
from datetime import datetime
from pathlib import Path
from typing import Any

from memlane.domain import Status
from memlane.errors import StoreUnavailable
from memlane.store import Vector
from memlane.store.bm25 import KeywordStats, score_keywords
from memlane.store.codec import Row, scope_token
from memlane.store.files import private_file
from memlane.store.relational import SQLStore
from memlane.store.sql import SQLITE, filters_beyond_kind, rarest_within, where
from memlane.store.sqlite.migrations import migrate
from memlane.store.vectors import Change, VectorIndex
from memlane.vocabulary import MemoryQuery, ScoredId

log = logging.getLogger(__name__)

# how many more vector candidates to take when filters the in-process index cannot apply are set
_OVERFETCH = 4
# keyword search: rows BM25-ranked inside the index before the filters are applied
_PRE_RANK = 4
_MIN_PRE_RANK = 200
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


class SQLiteStore(SQLStore):
    """Both storage ports on one SQLite database; ``path`` may be ``":memory:"``."""

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
        self._recalls: deque[tuple[str, list[str], datetime]] = deque()  # counts waiting for the writer
        self._vectors = VectorIndex(dim)

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

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
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

    def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
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
                if self._erased:
                    self._merge_keywords()
            except BaseException:
                self._depth = 0
                self._owner = None
                self._erased = False
                self._run("ROLLBACK")
                raise
            self._depth = 0
            self._owner = None
            self._run("COMMIT")
            if self._erased:
                self._erased = False
                self._checkpoint()
            self._count_recalls(quietly=True)

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall without waiting for another thread's transaction: while the writer is busy,
        the count waits in memory and is written when that transaction ends. A search under load no
        longer waits for a write-back job to commit before it answers; as with the relaxed commit of
        a recall, a crash may lose a count, no more.
        """
        if not ids:
            return
        self._recalls.append((user_id, list(ids), at))  # deque.append is atomic
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
                user_id, ids, at = self._recalls.popleft()
                try:
                    super().touch(user_id, ids, at)
                except StoreUnavailable:
                    if not quietly:
                        raise
                    log.warning("a recall count was not written: the database failed", exc_info=True)

    # -- deletion that leaves no copy -------------------------------------------------------------

    @contextmanager
    def _erasing(self, user_id: str) -> Iterator[None]:
        """A transaction that deletes: it ends with the keyword index merged and the WAL emptied."""
        with self.transaction(user_id):
            self._erased = True
            yield

    def _merge_keywords(self) -> None:
        # one segment again: the tokens of deleted rows leave the index, and secure_delete zeroes them
        self._run("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")

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
        """Merge the keyword index and empty the WAL into the main file (deletions already do so)."""
        with self._erasing(""):
            pass

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove records from every table and index, leaving no copy in the file."""
        if not ids:
            return 0
        with self._erasing(user_id):
            return super().delete(user_id, ids)

    def scrub_history(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history, leaving no copy in the file."""
        if not target_ids:
            return
        with self._erasing(user_id):
            super().scrub_history(user_id, target_ids)

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session, leaving no copy in the file."""
        with self._erasing(user_id):
            return super().delete_session(user_id, session_id)

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions, leaving no copy in the file."""
        with self._erasing(user_id):
            return super().delete_sessions(user_id)

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user, and the user's cached vectors."""
        with self._erasing(user_id):
            gone = super().delete_user(user_id)
        self._vectors.forget(user_id)
        return gone

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

    # -- the two searches -------------------------------------------------------------------------

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """FTS5 match within the user's scope, scored with BM25 on the user's own statistics.

        The rarest words are matched, within a budget of index postings (:func:`rarest_within`,
        counted over the whole index by ``fts5vocab``, since that is what a match reads); every query
        word still counts towards ``matched_terms``. FTS5 ranks the matches inside the index (with its
        statistics of every user's documents), and the best few hundred are read and scored again with
        the user's own (:mod:`memlane.store.bm25`, kept by triggers), so that no other user's memories
        weigh in a score.
        """
        terms = [t.replace('"', "") for t in tokens if t.replace('"', "")]
        if not terms:
            return []
        wanted = self._affordable(terms)
        any_term = " OR ".join(f'"{t}"' for t in wanted)
        match = f'scope:"{scope_token(user_id)}" AND tokens:({any_term})'
        cap = max(limit * _PRE_RANK, _MIN_PRE_RANK)
        best = self._rows(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? "
            "ORDER BY bm25(memories_fts, 0.0, 1.0) LIMIT ?",
            (match, cap),
        )
        if not best:
            return []
        cond, params = where(self.dialect, user_id, q)
        marks = self.dialect.marks(len(best))
        rows = self._rows(
            f"SELECT id, tokens FROM memories WHERE rowid IN ({marks}) AND {cond}",
            [*(r["rowid"] for r in best), *params],
        )
        if len(best) == cap and len(rows) < limit:
            # the filters removed most of the best rows: pre-rank the matches that pass them instead
            rows = self._rows(
                f"""
                SELECT memories.id, memories.tokens
                FROM memories_fts JOIN memories ON memories.rowid = memories_fts.rowid
                WHERE memories_fts MATCH ? AND {cond} ORDER BY bm25(memories_fts, 0.0, 1.0) LIMIT ?
                """,
                [match, *params, cap],
            )
        return score_keywords(wanted, terms, self._keyword_stats(user_id, wanted), rows, limit)

    def _keyword_stats(self, user_id: str, terms: list[str]) -> KeywordStats:
        """The user's document count and length, and how many of the user's documents hold each term."""
        rows = self._rows(
            "SELECT s.docs, s.tokens, k.term, k.docs AS df FROM keyword_stats s "
            "LEFT JOIN keyword_terms k "
            f"ON k.user_id = s.user_id AND k.term IN ({self.dialect.marks(len(terms))}) WHERE s.user_id = ?",
            [*terms, user_id],
        )
        if not rows:
            return KeywordStats(docs=0, tokens=0, df=[0] * len(terms))
        df = {r["term"]: int(r["df"]) for r in rows if r["term"] is not None}
        return KeywordStats(
            docs=int(rows[0]["docs"]), tokens=int(rows[0]["tokens"]), df=[df.get(t, 0) for t in terms]
        )

    def _affordable(self, terms: list[str]) -> list[str]:
        if len(terms) == 1:
            return terms
        marks = self.dialect.marks(len(terms))
        sql = f"SELECT term, doc FROM memories_vocab WHERE col = 'tokens' AND term IN ({marks})"
        return rarest_within(terms, {r["term"]: float(r["doc"]) for r in self._rows(sql, terms)})

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Cosine over the in-process matrix of the user's active vectors, refreshed from the change feed.

        Filters other than kind apply in SQL to the nearest few times ``limit``; when too few of those
        pass, every record that passes is ranked instead, so the result is exact either way.
        """
        scope = scope_token(user_id)

        def changes(since: int) -> list[Change]:
            rows = self._rows(
                "SELECT id, kind, status, embedding, seq FROM memories WHERE user_id = ? AND seq > ? "
                "UNION ALL SELECT memory_id, '', 'deleted', NULL, seq FROM memory_deletions "
                "WHERE scope = ? AND seq > ?",
                (user_id, since, scope, since),
            )
            active = Status.ACTIVE.value
            return [(r["id"], r["kind"], r["status"] == active, r["embedding"], r["seq"]) for r in rows]

        kinds = [k.value for k in q.kinds]
        if not filters_beyond_kind(q):
            return [ScoredId(i, s) for i, s in self._vectors.search(user_id, vector, kinds, limit, changes)]
        # the index knows kinds only: take more candidates, then apply the other filters in SQL
        found = self._vectors.search(user_id, vector, kinds, limit * _OVERFETCH, changes)
        if not found:
            return []
        cond, params = where(self.dialect, user_id, q)
        marks = self.dialect.marks(len(found))
        sql = f"SELECT id FROM memories WHERE {cond} AND id IN ({marks})"
        ok = {r["id"] for r in self._rows(sql, [*params, *(i for i, _ in found)])}
        passed = [(i, s) for i, s in found if i in ok]
        if len(passed) >= limit or len(found) < limit * _OVERFETCH:
            return [ScoredId(i, s) for i, s in passed[:limit]]
        # too few of the nearest pass (a narrow period, a rare tag): rank every record that does
        among = [r["id"] for r in self._rows(f"SELECT id FROM memories WHERE {cond}", params)]
        return [
            ScoredId(i, s) for i, s in self._vectors.search(user_id, vector, kinds, limit, changes, among)
        ]
