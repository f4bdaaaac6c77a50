"""The records role on a SQL database, written once for every dialect (see :mod:`memlane.store.sql`).

Every user id is mapped through the role's :class:`~memlane.store.scope.Scope` where a statement is
built, and back where a row is read, so a tenant's role never names another tenant's rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import numpy as np

from memlane.clock import to_epoch
from memlane.domain import MemoryItem
from memlane.store import Vector
from memlane.store.codec import COLUMNS, from_row, scope_token, to_row
from memlane.store.sql import (
    SELECT_MEMORIES,
    SELECT_MEMORIES_TEXT,
    Database,
    SQLRole,
    bump_seq,
    order_and_page,
    upsert_memory,
    where,
)
from memlane.vocabulary import MemoryQuery

# everything else held about a user, removed with the user (the audit log too: forgetting a user
# entirely leaves no trace of them, docs/privacy.md)
USER_TABLES = (
    "profile_slots",
    "history",
    "sessions",
    "audit",
    "user_settings",
    "sealed",
    "keyword_stats",
    "speakers",
)


def memory_params(db: Database, item: MemoryItem, tokens: str, user_id: str) -> list[Any]:
    """The values of :data:`COLUMNS` for ``item`` stored under ``user_id``, the vector as ``db`` takes it."""
    row = to_row(item, tokens)
    if user_id != item.user_id:
        row["user_id"], row["scope"] = user_id, scope_token(user_id)
    if item.embedding is not None:
        row["embedding"] = db.vector_param(np.asarray(item.embedding, dtype=np.float32))
    return [row[c] for c in COLUMNS]


def put_vectors(db: Database, user_id: str, vectors: Mapping[str, Vector]) -> int:
    """Give records of the (stored) ``user_id`` stored without a vector their vector; a record that has
    one keeps it (it may have been edited and embedded again since). Each write is a change in the
    change feed.
    """
    d = db.dialect
    sql = (
        f"UPDATE memories SET embedding = {d.mark}, seq = {d.next_seq} "
        f"WHERE user_id = {d.mark} AND id = {d.mark} AND embedding IS NULL"
    )
    written = 0
    with db.transaction(user_id):
        for memory_id, vector in vectors.items():
            bump_seq(db)
            written += db.write(sql, (db.vector_param(vector), user_id, memory_id))
    return written


class SQLRecords(SQLRole):
    """Memories, summaries and log turns in the ``memories`` table."""

    def _got(self, item: MemoryItem) -> MemoryItem:
        return self.scope.got(item)

    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """The database's transaction for the scoped user: every role on this database joins it."""
        return self.db.transaction(self.scope.inward(user_id))

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Insert or replace ``item`` (by id) with its keyword tokens and embedding."""
        uid = self.scope.inward(item.user_id)
        params = memory_params(self.db, item, tokens, uid)
        with self.db.transaction(uid):
            bump_seq(self.db)
            self.db.write(upsert_memory(self.db.dialect), params)

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record, or None when it does not exist in this user's scope."""
        m = self.db.dialect.mark
        sql = f"{SELECT_MEMORIES} WHERE user_id = {m} AND id = {m}"
        rows = self.db.rows(sql, (self.scope.inward(user_id), memory_id))
        return self._got(from_row(rows[0])) if rows else None

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist, in the order of ``ids`` (without their vectors unless ``embeddings``)."""
        if not ids:
            return []
        d = self.db.dialect
        select = SELECT_MEMORIES if embeddings else SELECT_MEMORIES_TEXT
        owner = d.owner_of_ids.format(mark=d.mark)
        sql = f"{select} WHERE {owner} AND id IN ({d.marks(len(ids))})"
        found = {r["id"]: from_row(r) for r in self.db.rows(sql, (self.scope.inward(user_id), *ids))}
        return [self._got(found[i]) for i in ids if i in found]

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records matching the filters, newest first unless asked otherwise."""
        cond, params = where(self.db.dialect, self.scope.inward(user_id), q)
        order, page = order_and_page(self.db.dialect, q)
        rows = self.db.rows(f"{SELECT_MEMORIES} WHERE {cond}{order}", params + page)
        return [self._got(from_row(r)) for r in rows]

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records match the filters (limit and offset ignored)."""
        cond, params = where(self.db.dialect, self.scope.inward(user_id), q)
        return int(self.db.rows(f"SELECT count(*) AS n FROM memories WHERE {cond}", params)[0]["n"])

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove records and their encrypted originals, leaving no readable copy; returns how many."""
        if not ids:
            return 0
        d, uid = self.db.dialect, self.scope.inward(user_id)
        marks = d.marks(len(ids))
        with self.db.erasing(uid):
            self.db.write(
                f"DELETE FROM sealed WHERE user_id = {d.mark} AND memory_id IN ({marks})", (uid, *ids)
            )
            owner = d.owner_of_ids.format(mark=d.mark)
            return self.db.write(f"DELETE FROM memories WHERE {owner} AND id IN ({marks})", (uid, *ids))

    def owner(self, memory_id: str) -> str | None:
        """The user a record belongs to, when that user is in this scope."""
        rows = self.db.rows(f"SELECT user_id FROM memories WHERE id = {self.db.dialect.mark}", (memory_id,))
        return self.scope.owner(str(rows[0]["user_id"])) if rows else None

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: bump access counts and last-accessed times."""
        if not ids:
            return
        d = self.db.dialect
        # no seq bump: a recall changes nothing that an index or another process's cache holds; and
        # no wait for the disk (or another writer) where the database allows it: a crash may lose a
        # recall count, no more
        self.db.write_later(
            f"UPDATE memories SET access_count = access_count + 1, last_accessed_at = {d.mark} "
            f"{d.relaxed_commit} WHERE {d.owner_of_ids.format(mark=d.mark)} AND id IN ({d.marks(len(ids))})",
            (to_epoch(at), self.scope.inward(user_id), *ids),
        )

    def speakers(self, user_id: str) -> list[str]:
        """The names the user's log turns were said under (counted by triggers), in name order."""
        sql = f"SELECT name FROM speakers WHERE user_id = {self.db.dialect.mark} ORDER BY name"
        return [str(r["name"]) for r in self.db.rows(sql, (self.scope.inward(user_id),))]

    def users(self) -> Iterator[str]:
        """Every user id in scope that has records or sessions."""
        rows = self.db.rows(
            "SELECT DISTINCT user_id FROM memories UNION SELECT DISTINCT user_id FROM sessions"
        )
        return (self.scope.outward(u) for u in (str(r["user_id"]) for r in rows) if self.scope.mine(u))

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user; returns how many memories went."""
        m, uid = self.db.dialect.mark, self.scope.inward(user_id)
        with self.db.erasing(uid):
            gone = self.db.write(f"DELETE FROM memories WHERE user_id = {m}", (uid,))
            for table in USER_TABLES:
                self.db.write(f"DELETE FROM {table} WHERE user_id = {m}", (uid,))
        self.db.forget(uid)
        return gone

    def kind_counts(self) -> dict[str, int]:
        """Active records of every user (of every tenant) by kind, for operators' dashboards."""
        rows = self.db.rows("SELECT kind, COUNT(*) AS n FROM memories WHERE status = 'active' GROUP BY kind")
        return {str(r["kind"]): int(r["n"]) for r in rows}

    def compact(self) -> None:
        """Make deleted rows unrecoverable from the database files (it covers every tenant)."""
        self.db.compact()

    def analyze(self) -> None:
        """Refresh the query planner's statistics (worth doing after a bulk load)."""
        self.db.write("ANALYZE")
