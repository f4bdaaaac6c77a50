"""The embedded store: one SQLite file (WAL) holding memories, the log, FTS5, vectors, profile,
history and sessions. No SQLite extension is needed; vectors are searched in-process.

Safe for several threads (one connection, serialised) and several processes (WAL, ``BEGIN
IMMEDIATE`` for read-modify-write, and a change feed that keeps each process's vector cache fresh).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from memlane.clock import from_epoch, to_epoch
from memlane.domain import Actor, HistoryRecord, MemoryItem, Session, SlotVersion, Status
from memlane.errors import StoreUnavailable
from memlane.store import MemoryQuery, ScoredId, Vector
from memlane.store.codec import COLUMNS, from_row, scope_token, session_from_json, session_to_json, to_row
from memlane.store.sqlite.migrations import migrate
from memlane.store.vectors import Change, VectorIndex

_SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM memories"


class SQLiteStore:
    """Both storage ports on one SQLite database; ``path`` may be ``":memory:"``."""

    def __init__(self, path: str | Path, dim: int = 384) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA secure_delete=ON")
            self._db.execute("PRAGMA foreign_keys=ON")
            migrate(self._db)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot open SQLite database {self.path!r}: {exc}") from exc
        self._lock = threading.RLock()
        self._depth = 0
        self._vectors = VectorIndex(dim)

    # -- plumbing ---------------------------------------------------------------------------------

    def _run(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        try:
            with self._lock:
                return self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"SQLite error: {exc}") from exc

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
            try:
                yield
            except BaseException:
                self._depth = 0
                self._run("ROLLBACK")
                raise
            self._depth = 0
            self._run("COMMIT")

    def _next_seq(self) -> int:
        row = self._run("UPDATE counters SET value = value + 1 WHERE name = 'seq' RETURNING value").fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- memories ---------------------------------------------------------------------------------

    def put(self, item: MemoryItem, tokens: str) -> None:
        row = to_row(item, tokens)
        with self.transaction(item.user_id):
            row["seq"] = self._next_seq()
            names = [*COLUMNS, "seq"]
            updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != "id")
            self._run(
                f"INSERT INTO memories ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)}) "
                f"ON CONFLICT(id) DO UPDATE SET {updates} WHERE memories.user_id = excluded.user_id",
                row,
            )

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        row = self._run(f"{_SELECT} WHERE user_id = ? AND id = ?", (user_id, memory_id)).fetchone()
        return from_row(row) if row else None

    def owner(self, memory_id: str) -> str | None:
        row = self._run("SELECT user_id FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return str(row[0]) if row else None

    def get_many(self, user_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._run(f"{_SELECT} WHERE user_id = ? AND id IN ({marks})", (user_id, *ids)).fetchall()
        found = {row["id"]: from_row(row) for row in rows}
        return [found[i] for i in ids if i in found]

    def _where(self, user_id: str, q: MemoryQuery) -> tuple[str, list[Any]]:
        clauses = ["user_id = ?"]
        params: list[Any] = [user_id]

        def any_of(column: str, values: Sequence[str]) -> None:
            clauses.append(f"{column} IN ({','.join('?' * len(values))})")
            params.extend(values)

        if q.kinds:
            any_of("kind", [k.value for k in q.kinds])
        if q.statuses:
            any_of("status", [s.value for s in q.statuses])
        if q.categories:
            any_of("category", list(q.categories))
        if q.tags:
            clauses.append(
                "EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE json_each.value IN "
                f"({','.join('?' * len(q.tags))}))"
            )
            params.extend(q.tags)
        for column, value in (("slot", q.slot), ("norm", q.norm), ("session_id", q.session_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if q.since is not None:
            clauses.append("COALESCE(valid_from, created_at) >= ?")
            params.append(to_epoch(q.since))
        if q.until is not None:
            clauses.append("COALESCE(valid_from, created_at) < ?")
            params.append(to_epoch(q.until))
        if q.expires_before is not None:
            clauses.append("expires_at IS NOT NULL AND expires_at <= ?")
            params.append(to_epoch(q.expires_before))
        if q.provenance is not None:
            clauses.append("EXISTS (SELECT 1 FROM json_each(memories.provenance) WHERE json_each.value = ?)")
            params.append(q.provenance)
        return " AND ".join(clauses), params

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        where, params = self._where(user_id, q)
        order = "DESC" if q.newest_first else "ASC"
        sql = f"{_SELECT} WHERE {where} ORDER BY COALESCE(valid_from, created_at) {order}, seq {order}"
        if q.limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [q.limit, q.offset]
        return [from_row(row) for row in self._run(sql, params).fetchall()]

    def count(self, user_id: str, q: MemoryQuery) -> int:
        where, params = self._where(user_id, q)
        return int(self._run(f"SELECT count(*) FROM memories WHERE {where}", params).fetchone()[0])

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        with self.transaction(user_id):
            cur = self._run(f"DELETE FROM memories WHERE user_id = ? AND id IN ({marks})", (user_id, *ids))
        self._vectors.forget(user_id)
        return cur.rowcount

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        terms = [t.replace('"', "") for t in tokens if t.replace('"', "")]
        if not terms:
            return []
        any_term = " OR ".join(f'"{t}"' for t in terms)
        match = f'scope:"{scope_token(user_id)}" AND tokens:({any_term})'
        where, params = self._where(user_id, q)
        rows = self._run(
            f"""
            SELECT memories.id, memories.tokens, bm25(memories_fts, 0.0, 1.0) AS rank
            FROM memories_fts JOIN memories ON memories.rowid = memories_fts.rowid
            WHERE memories_fts MATCH ? AND {where}
            ORDER BY rank LIMIT ?
            """,
            [match, *params, limit],
        ).fetchall()
        out = []
        for row in rows:
            have = set(row["tokens"].split())
            out.append(ScoredId(row["id"], -float(row["rank"]), [t for t in terms if t in have]))
        return out

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        def changes(since: int) -> list[Change]:
            rows = self._run(
                "SELECT id, kind, status, embedding, seq FROM memories WHERE user_id = ? AND seq > ?",
                (user_id, since),
            ).fetchall()
            return [(r[0], r[1], r[2] == Status.ACTIVE.value, r[3], r[4]) for r in rows]

        def active() -> int:
            sql = "SELECT count(*) FROM memories WHERE user_id = ? AND status = ? AND embedding IS NOT NULL"
            return int(self._run(sql, (user_id, Status.ACTIVE.value)).fetchone()[0])

        kinds = [k.value for k in q.kinds]
        # ask for more than needed when other filters apply, then filter precisely in SQL
        extra = q.categories or q.tags or q.since or q.until or q.session_id
        found = self._vectors.search(user_id, vector, kinds, limit * 4 if extra else limit, changes, active)
        if extra and found:
            where, params = self._where(user_id, q)
            marks = ",".join("?" * len(found))
            ok = {
                r[0]
                for r in self._run(
                    f"SELECT id FROM memories WHERE {where} AND id IN ({marks})",
                    [*params, *(i for i, _ in found)],
                )
            }
            found = [(i, s) for i, s in found if i in ok]
        return [ScoredId(i, s) for i, s in found[:limit]]

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        # no seq bump: a recall changes nothing that an index or another process's cache holds
        self._run(
            f"UPDATE memories SET access_count = access_count + 1, last_accessed_at = ? "
            f"WHERE user_id = ? AND id IN ({marks})",
            (to_epoch(at), user_id, *ids),
        )

    # -- history ----------------------------------------------------------------------------------

    def add_history(self, record: HistoryRecord) -> None:
        with self.transaction(record.user_id):
            self._run(
                "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.user_id,
                    record.target_id,
                    record.op,
                    to_epoch(record.at),
                    record.actor.value,
                    record.reason,
                    record.before,
                    record.after,
                    self._next_seq(),
                ),
            )

    def history(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        sql = "SELECT * FROM history WHERE user_id = ?"
        params: list[Any] = [user_id]
        if target_id is not None:
            sql += " AND target_id = ?"
            params.append(target_id)
        rows = self._run(sql + " ORDER BY seq", params).fetchall()
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
            for r in rows
        ]

    def history_owner(self, target_id: str) -> str | None:
        row = self._run("SELECT user_id FROM history WHERE target_id = ? LIMIT 1", (target_id,)).fetchone()
        return str(row[0]) if row else None

    def scrub_history(self, user_id: str, target_ids: Sequence[str]) -> None:
        if not target_ids:
            return
        marks = ",".join("?" * len(target_ids))
        self._run(
            f"UPDATE history SET before = NULL, after = NULL WHERE user_id = ? AND target_id IN ({marks})",
            (user_id, *target_ids),
        )

    # -- profile ----------------------------------------------------------------------------------

    def put_slot(self, version: SlotVersion) -> None:
        with self.transaction(version.user_id):
            self._run(
                "UPDATE profile_slots SET current = 0 WHERE user_id = ? AND slot = ?",
                (version.user_id, version.slot),
            )
            self._run(
                "INSERT OR REPLACE INTO profile_slots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    version.user_id,
                    version.slot,
                    version.version,
                    json.dumps(version.value, ensure_ascii=False),
                    to_epoch(version.created_at),
                    version.memory_id,
                    json.dumps(version.message_ids),
                    1 if version.current else 0,
                    version.reason,
                ),
            )

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        sql = "SELECT * FROM profile_slots WHERE user_id = ?"
        params: list[Any] = [user_id]
        if slot is not None:
            sql += " AND slot = ?"
            params.append(slot)
        if current_only:
            sql += " AND current = 1"
        rows = self._run(sql + " ORDER BY slot, version", params).fetchall()
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
            for r in rows
        ]

    def delete_slots(self, user_id: str, slot: str | None = None) -> int:
        sql = "DELETE FROM profile_slots WHERE user_id = ?"
        params: list[Any] = [user_id]
        if slot is not None:
            sql += " AND slot = ?"
            params.append(slot)
        with self.transaction(user_id):
            return self._run(sql, params).rowcount

    def delete_user(self, user_id: str) -> int:
        with self.transaction(user_id):
            gone = self._run("DELETE FROM memories WHERE user_id = ?", (user_id,)).rowcount
            for table in ("profile_slots", "history", "sessions"):
                self._run(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        self._vectors.forget(user_id)
        return gone

    def users(self) -> Iterator[str]:
        rows = self._run("SELECT DISTINCT user_id FROM memories UNION SELECT DISTINCT user_id FROM sessions")
        yield from (r[0] for r in rows.fetchall())

    # -- sessions ---------------------------------------------------------------------------------

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        row = self._run(
            "SELECT body FROM sessions WHERE user_id = ? AND id = ? "
            "AND (expires_at IS NULL OR expires_at > ?)",
            (user_id, session_id, to_epoch(now)),
        ).fetchone()
        return session_from_json(row[0]) if row else None

    def save_session(self, session: Session) -> None:
        self._run(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?)",
            (
                session.user_id,
                session.id,
                session_to_json(session),
                to_epoch(session.updated_at),
                to_epoch(session.expires_at),
            ),
        )

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        rows = self._run(
            "SELECT body FROM sessions WHERE user_id = ? "
            "AND (? IS NULL OR expires_at IS NULL OR expires_at > ?) ORDER BY updated_at DESC",
            (user_id, to_epoch(now), to_epoch(now)),
        ).fetchall()
        return [session_from_json(r[0]) for r in rows]

    def delete_session(self, user_id: str, session_id: str) -> bool:
        cur = self._run("DELETE FROM sessions WHERE user_id = ? AND id = ?", (user_id, session_id))
        return cur.rowcount > 0

    def delete_sessions(self, user_id: str) -> int:
        return self._run("DELETE FROM sessions WHERE user_id = ?", (user_id,)).rowcount

    def purge_sessions(self, now: datetime) -> int:
        sql = "DELETE FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= ?"
        return self._run(sql, (to_epoch(now),)).rowcount
