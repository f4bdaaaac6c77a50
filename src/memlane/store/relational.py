"""The storage ports on a SQL database, written once for every dialect.

:class:`SQLStore` implements everything in :class:`~memlane.store.MemoryStore` and
:class:`~memlane.store.SessionStore` whose SQL is the same in SQLite and PostgreSQL (with the
differences as :class:`~memlane.store.sql.Dialect` fields). An adapter supplies the plumbing (run a
statement, a per-user transaction) and the two searches, which use each database's own indexes.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import numpy as np

from memlane.clock import from_epoch, to_epoch
from memlane.domain import Actor, HistoryRecord, MemoryItem, Session, SlotVersion
from memlane.store import Vector
from memlane.store.codec import COLUMNS, Row, from_row, session_from_json, session_to_json, to_row
from memlane.store.sql import (
    AUDIT_COLUMNS,
    CONSENT_COLUMNS,
    HISTORY_COLUMNS,
    SEALED_COLUMNS,
    SELECT_MEMORIES,
    SELECT_MEMORIES_TEXT,
    SESSION_COLUMNS,
    SLOT_COLUMNS,
    Dialect,
    insert_audit,
    insert_history,
    order_and_page,
    upsert,
    upsert_memory,
    where,
)
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, ScoredId, SealedText

# everything else held about a user, removed with the user (the audit log too: forgetting a user
# entirely leaves no trace of them, docs/privacy.md)
_USER_TABLES = (
    "profile_slots",
    "history",
    "sessions",
    "audit",
    "user_settings",
    "sealed",
    "keyword_stats",
    "speakers",
)


class SQLStore(ABC):
    """Both storage ports over SQL; subclasses provide the connection and the two searches."""

    dialect: Dialect

    # -- what an adapter provides -----------------------------------------------------------------

    @abstractmethod
    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return its rows."""

    @abstractmethod
    def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement and return how many rows it changed."""

    @abstractmethod
    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """Run a read-modify-write for one user atomically, serialised with other writers for that user."""

    @abstractmethod
    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """Active records matching any token, best first (BM25-like scores, higher is better)."""

    @abstractmethod
    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Active records nearest to ``vector`` by cosine similarity, best first."""

    @abstractmethod
    def compact(self) -> None:
        """Make deleted rows unrecoverable from the database files; each database has its own way."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""

    def _memory_params(self, item: MemoryItem, tokens: str) -> list[Any]:
        """The values of :data:`COLUMNS` for ``item``, the embedding as :meth:`_vector_param` gives it."""
        row = to_row(item, tokens)
        if item.embedding is not None:
            row["embedding"] = self._vector_param(np.asarray(item.embedding, dtype=np.float32))
        return [row[c] for c in COLUMNS]

    def _vector_param(self, vector: Vector) -> Any:
        """A vector as the embedding column's parameter: float32 bytes, unless an adapter says otherwise."""
        return np.asarray(vector, dtype=np.float32).tobytes()

    def _seq(self) -> None:
        if self.dialect.bump_seq:
            self._write(self.dialect.bump_seq)

    def analyze(self) -> None:
        """Refresh the query planner's statistics (worth doing after a bulk load)."""
        self._write("ANALYZE")

    # -- memories ---------------------------------------------------------------------------------

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Insert or replace ``item`` (by id) with its keyword tokens and embedding."""
        params = self._memory_params(item, tokens)
        with self.transaction(item.user_id):
            self._seq()
            self._write(upsert_memory(self.dialect), params)

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Give records stored without a vector their vector; a record that has one keeps it (it may
        have been edited and embedded again since). Each write is a change in the change feed.
        """
        d = self.dialect
        sql = (
            f"UPDATE memories SET embedding = {d.mark}, seq = {d.next_seq} "
            f"WHERE user_id = {d.mark} AND id = {d.mark} AND embedding IS NULL"
        )
        written = 0
        with self.transaction(user_id):
            for memory_id, vector in vectors.items():
                self._seq()
                written += self._write(sql, (self._vector_param(vector), user_id, memory_id))
        return written

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record, or None when it does not exist in this user's scope."""
        m = self.dialect.mark
        rows = self._rows(f"{SELECT_MEMORIES} WHERE user_id = {m} AND id = {m}", (user_id, memory_id))
        return from_row(rows[0]) if rows else None

    def owner(self, memory_id: str) -> str | None:
        """The user a record belongs to."""
        rows = self._rows(f"SELECT user_id FROM memories WHERE id = {self.dialect.mark}", (memory_id,))
        return str(rows[0]["user_id"]) if rows else None

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist, in the order of ``ids`` (without their vectors unless ``embeddings``)."""
        if not ids:
            return []
        d = self.dialect
        select = SELECT_MEMORIES if embeddings else SELECT_MEMORIES_TEXT
        sql = f"{select} WHERE user_id = {d.mark} AND id IN ({d.marks(len(ids))})"
        found = {row["id"]: from_row(row) for row in self._rows(sql, (user_id, *ids))}
        return [found[i] for i in ids if i in found]

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records matching the filters, newest first unless asked otherwise."""
        cond, params = where(self.dialect, user_id, q)
        order, page = order_and_page(self.dialect, q)
        return [from_row(r) for r in self._rows(f"{SELECT_MEMORIES} WHERE {cond}{order}", params + page)]

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records match the filters (limit and offset ignored)."""
        cond, params = where(self.dialect, user_id, q)
        return int(self._rows(f"SELECT count(*) AS n FROM memories WHERE {cond}", params)[0]["n"])

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove records from every table and index; returns how many were removed."""
        if not ids:
            return 0
        d = self.dialect
        with self.transaction(user_id):
            self.delete_sealed(user_id, ids)
            return self._write(
                f"DELETE FROM memories WHERE user_id = {d.mark} AND id IN ({d.marks(len(ids))})",
                (user_id, *ids),
            )

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: bump access counts and last-accessed times."""
        if not ids:
            return
        d = self.dialect
        # no seq bump: a recall changes nothing that an index or another process's cache holds; and
        # no wait for the disk where the database allows it: a crash may lose a recall count, no more
        self._write(
            f"UPDATE memories SET access_count = access_count + 1, last_accessed_at = {d.mark} "
            f"{d.relaxed_commit} WHERE user_id = {d.mark} AND id IN ({d.marks(len(ids))})",
            (to_epoch(at), user_id, *ids),
        )

    # -- history ----------------------------------------------------------------------------------

    def add_history(self, record: HistoryRecord) -> None:
        """Append a history record."""
        values = (
            record.id,
            record.user_id,
            record.target_id,
            record.op,
            to_epoch(record.at),
            record.actor.value,
            record.reason,
            record.before,
            record.after,
        )
        with self.transaction(record.user_id):
            self._seq()
            self._write(insert_history(self.dialect), values)

    def history(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """History of one target, or of the whole user, oldest first."""
        m = self.dialect.mark
        sql = f"SELECT {', '.join(HISTORY_COLUMNS)} FROM history WHERE user_id = {m}"
        params: list[Any] = [user_id]
        if target_id is not None:
            sql += f" AND target_id = {m}"
            params.append(target_id)
        return [
            HistoryRecord(
                id=r["id"],
                user_id=r["user_id"],
                target_id=r["target_id"],
                op=r["op"],
                at=from_epoch(r["at"]) or datetime.min,
                actor=Actor(r["actor"]),
                reason=r["reason"],
                before=r["before"],
                after=r["after"],
            )
            for r in self._rows(sql + " ORDER BY seq", params)
        ]

    def history_owner(self, target_id: str) -> str | None:
        """The user whose history names ``target_id``."""
        sql = f"SELECT user_id FROM history WHERE target_id = {self.dialect.mark} LIMIT 1"
        rows = self._rows(sql, (target_id,))
        return str(rows[0]["user_id"]) if rows else None

    def scrub_history(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history."""
        if not target_ids:
            return
        d = self.dialect
        self._write(
            f"UPDATE history SET before = NULL, after = NULL "
            f"WHERE user_id = {d.mark} AND target_id IN ({d.marks(len(target_ids))})",
            (user_id, *target_ids),
        )

    # -- profile ----------------------------------------------------------------------------------

    def put_slot(self, version: SlotVersion) -> None:
        """Store a new slot version and make it the current one."""
        d = self.dialect
        values = (
            version.user_id,
            version.slot,
            version.version,
            json.dumps(version.value, ensure_ascii=False),
            to_epoch(version.created_at),
            version.memory_id,
            json.dumps(version.message_ids),
            version.current,
            version.reason,
        )
        with self.transaction(version.user_id):
            self._write(
                f"UPDATE profile_slots SET current = {d.mark} WHERE user_id = {d.mark} AND slot = {d.mark}",
                (False, version.user_id, version.slot),
            )
            self._write(upsert(d, "profile_slots", SLOT_COLUMNS, ("user_id", "slot", "version")), values)

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """Current slot values (or every version), by slot then version."""
        m = self.dialect.mark
        sql = f"SELECT {', '.join(SLOT_COLUMNS)} FROM profile_slots WHERE user_id = {m}"
        params: list[Any] = [user_id]
        if slot is not None:
            sql += f" AND slot = {m}"
            params.append(slot)
        if current_only:
            sql += f" AND current = {m}"
            params.append(True)
        return [
            SlotVersion(
                user_id=r["user_id"],
                slot=r["slot"],
                value=json.loads(r["value"]),
                version=r["version"],
                created_at=from_epoch(r["created_at"]) or datetime.min,
                memory_id=r["memory_id"],
                message_ids=json.loads(r["message_ids"]),
                current=bool(r["current"]),
                reason=r["reason"],
            )
            for r in self._rows(sql + " ORDER BY slot, version", params)
        ]

    def delete_slots(self, user_id: str, slot: str | None = None) -> int:
        """Remove a slot's versions (or all of the user's)."""
        m = self.dialect.mark
        sql = f"DELETE FROM profile_slots WHERE user_id = {m}"
        params: list[Any] = [user_id]
        if slot is not None:
            sql += f" AND slot = {m}"
            params.append(slot)
        with self.transaction(user_id):
            return self._write(sql, params)

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user; returns how many memories went."""
        m = self.dialect.mark
        with self.transaction(user_id):
            gone = self._write(f"DELETE FROM memories WHERE user_id = {m}", (user_id,))
            for table in _USER_TABLES:
                self._write(f"DELETE FROM {table} WHERE user_id = {m}", (user_id,))
        return gone

    def users(self) -> Iterator[str]:
        """Every user id that has records."""
        rows = self._rows("SELECT DISTINCT user_id FROM memories UNION SELECT DISTINCT user_id FROM sessions")
        yield from (str(r["user_id"]) for r in rows)

    def speakers(self, user_id: str) -> list[str]:
        """The names the user's log turns were said under (counted by triggers), in name order."""
        m = self.dialect.mark
        return [
            str(r["name"])
            for r in self._rows(f"SELECT name FROM speakers WHERE user_id = {m} ORDER BY name", (user_id,))
        ]

    def kind_counts(self) -> dict[str, int]:
        """Active records of every user by kind (for operators' dashboards, not for any one user)."""
        rows = self._rows("SELECT kind, COUNT(*) AS n FROM memories WHERE status = 'active' GROUP BY kind")
        return {str(r["kind"]): int(r["n"]) for r in rows}

    # -- audit log --------------------------------------------------------------------------------

    def add_audit(self, entry: AuditEntry) -> None:
        """Append an audit entry (entries are never changed; only ``delete_user`` removes them).

        One statement, committed on its own (or with the transaction it is part of): an append needs
        neither the user's lock nor a change mark, since no cache holds audit entries. On PostgreSQL a
        read's entry therefore never waits for a write-back transaction of the same user (SQLite
        has one writer at a time: there it still waits for the transaction in progress).
        """
        values = (
            entry.id,
            entry.user_id,
            to_epoch(entry.at),
            entry.op,
            entry.actor.value,
            entry.caller,
            json.dumps(entry.memory_ids),
            entry.detail,
        )
        self._write(insert_audit(self.dialect), values)

    def audit(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's audit entries at or after ``since``, the latest recorded first."""
        m = self.dialect.mark
        sql = f"SELECT {', '.join(AUDIT_COLUMNS)} FROM audit WHERE user_id = {m}"
        params: list[Any] = [user_id]
        if since is not None:
            sql += f" AND at >= {m}"
            params.append(to_epoch(since))
        params.append(limit)
        return [
            AuditEntry(
                id=r["id"],
                user_id=r["user_id"],
                at=from_epoch(r["at"]) or datetime.min,
                op=r["op"],
                actor=Actor(r["actor"]),
                caller=r["caller"],
                memory_ids=json.loads(r["memory_ids"]),
                detail=r["detail"],
            )
            for r in self._rows(sql + f" ORDER BY seq DESC LIMIT {m}", params)
        ]

    # -- consent ----------------------------------------------------------------------------------

    def put_consent(self, consent: ConsentSettings) -> None:
        """Store the user's consent settings, replacing earlier ones."""
        categories = None if consent.categories is None else json.dumps(list(consent.categories))
        values = (consent.user_id, consent.enabled, categories, to_epoch(consent.updated_at))
        self._write(upsert(self.dialect, "user_settings", CONSENT_COLUMNS, ("user_id",)), values)

    def consent(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, or None when the user never set any."""
        sql = f"SELECT {', '.join(CONSENT_COLUMNS)} FROM user_settings WHERE user_id = {self.dialect.mark}"
        rows = self._rows(sql, (user_id,))
        if not rows:
            return None
        r = rows[0]
        return ConsentSettings(
            user_id=r["user_id"],
            enabled=bool(r["enabled"]),
            categories=None if r["categories"] is None else tuple(json.loads(r["categories"])),
            updated_at=from_epoch(r["updated_at"]),
        )

    # -- encrypted originals ----------------------------------------------------------------------

    def put_sealed(self, sealed: SealedText) -> None:
        """Store (or replace) the encrypted original of a memory of the user's."""
        values = (sealed.memory_id, sealed.user_id, sealed.key_id, sealed.body)
        # the guard keeps a foreign memory id from taking over another user's row
        guard = "WHERE sealed.user_id = excluded.user_id"
        self._write(upsert(self.dialect, "sealed", SEALED_COLUMNS, ("memory_id",), tail=guard), values)

    def sealed(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The encrypted originals of those memories that have one, by memory id."""
        if not memory_ids:
            return {}
        d = self.dialect
        sql = (
            f"SELECT {', '.join(SEALED_COLUMNS)} FROM sealed "
            f"WHERE user_id = {d.mark} AND memory_id IN ({d.marks(len(memory_ids))})"
        )
        return {r["memory_id"]: _sealed(r) for r in self._rows(sql, (user_id, *memory_ids))}

    def has_sealed(self, user_id: str) -> bool:
        """Whether any memory of the user has an encrypted original."""
        sql = f"SELECT 1 AS one FROM sealed WHERE user_id = {self.dialect.mark} LIMIT 1"
        return bool(self._rows(sql, (user_id,)))

    def delete_sealed(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the encrypted originals of these memories (the memories stay)."""
        if not memory_ids:
            return
        d = self.dialect
        self._write(
            f"DELETE FROM sealed WHERE user_id = {d.mark} AND memory_id IN ({d.marks(len(memory_ids))})",
            (user_id, *memory_ids),
        )

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """Encrypted originals sealed by ``key_id`` (of every user), by memory id after ``after``."""
        m = self.dialect.mark
        sql = (
            f"SELECT {', '.join(SEALED_COLUMNS)} FROM sealed WHERE key_id = {m} AND memory_id > {m} "
            f"ORDER BY memory_id LIMIT {m}"
        )
        return [_sealed(r) for r in self._rows(sql, (key_id, after, limit))]

    # -- sessions ---------------------------------------------------------------------------------

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The session, or None when it never existed, belongs to someone else or has expired."""
        m = self.dialect.mark
        rows = self._rows(
            f"SELECT body FROM sessions WHERE user_id = {m} AND id = {m} "
            f"AND (expires_at IS NULL OR expires_at > {m})",
            (user_id, session_id, to_epoch(now)),
        )
        return session_from_json(rows[0]["body"]) if rows else None

    def save_session(self, session: Session) -> bool:
        """Insert or replace the session; it lives until ``session.expires_at``."""
        values = (
            session.user_id,
            session.id,
            session_to_json(session),
            to_epoch(session.updated_at),
            to_epoch(session.expires_at),
        )
        self._write(upsert(self.dialect, "sessions", SESSION_COLUMNS, ("user_id", "id")), values)
        return True

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The user's sessions live at ``now`` (all that are still held when None), most recent first."""
        m = self.dialect.mark
        sql = f"SELECT body FROM sessions WHERE user_id = {m}"
        params: list[Any] = [user_id]
        if now is not None:
            sql += f" AND (expires_at IS NULL OR expires_at > {m})"
            params.append(to_epoch(now))
        return [session_from_json(r["body"]) for r in self._rows(sql + " ORDER BY updated_at DESC", params)]

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session; False when there was none."""
        m = self.dialect.mark
        sql = f"DELETE FROM sessions WHERE user_id = {m} AND id = {m}"
        return self._write(sql, (user_id, session_id)) > 0

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions."""
        return self._write(f"DELETE FROM sessions WHERE user_id = {self.dialect.mark}", (user_id,))

    def purge_sessions(self, now: datetime) -> int:
        """Remove every session whose TTL has passed."""
        sql = f"DELETE FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= {self.dialect.mark}"
        return self._write(sql, (to_epoch(now),))


def _sealed(row: Row) -> SealedText:
    return SealedText(
        user_id=row["user_id"], memory_id=row["memory_id"], key_id=row["key_id"], body=row["body"]
    )
