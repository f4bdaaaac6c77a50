"""The history, profile, audit, consent, sealed and session roles on a SQL database, each a small
class over the shared :class:`~memlane.store.sql.Database`, and :func:`sql_stores` that bundles them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memlane.clock import from_epoch, to_epoch
from memlane.domain import Actor, HistoryRecord, Session, SlotVersion
from memlane.store import Search, Stores
from memlane.store.codec import Row, session_from_json, session_to_json
from memlane.store.sql import (
    AUDIT_COLUMNS,
    CONSENT_COLUMNS,
    HISTORY_COLUMNS,
    SEALED_COLUMNS,
    SESSION_COLUMNS,
    SLOT_COLUMNS,
    Database,
    SQLRole,
    bump_seq,
    insert_audit,
    insert_history,
    upsert,
)
from memlane.store.sql_records import SQLRecords
from memlane.vocabulary import AuditEntry, ConsentSettings, SealedText


class SQLHistory(SQLRole):
    """The ``history`` table."""

    def add(self, record: HistoryRecord) -> None:
        """Append a history record, numbered by the change feed so that history reads in write order."""
        uid = self.scope.inward(record.user_id)
        values = (
            record.id,
            uid,
            record.target_id,
            record.op,
            to_epoch(record.at),
            record.actor.value,
            record.reason,
            record.before,
            record.after,
        )
        with self.db.transaction(uid):
            bump_seq(self.db)
            self.db.write(insert_history(self.db.dialect), values)

    def of(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """History of one target, or of the whole user, oldest first."""
        m = self.db.dialect.mark
        sql = f"SELECT {', '.join(HISTORY_COLUMNS)} FROM history WHERE user_id = {m}"
        params: list[Any] = [self.scope.inward(user_id)]
        if target_id is not None:
            sql += f" AND target_id = {m}"
            params.append(target_id)
        return [
            HistoryRecord(
                id=r["id"],
                user_id=user_id,
                target_id=r["target_id"],
                op=r["op"],
                at=from_epoch(r["at"]) or datetime.min,
                actor=Actor(r["actor"]),
                reason=r["reason"],
                before=r["before"],
                after=r["after"],
            )
            for r in self.db.rows(sql + " ORDER BY seq", params)
        ]

    def owner(self, target_id: str) -> str | None:
        """The user in scope whose history names ``target_id``."""
        sql = f"SELECT user_id FROM history WHERE target_id = {self.db.dialect.mark} LIMIT 1"
        rows = self.db.rows(sql, (target_id,))
        return self.scope.owner(str(rows[0]["user_id"])) if rows else None

    def scrub(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history, leaving no readable copy."""
        if not target_ids:
            return
        d, uid = self.db.dialect, self.scope.inward(user_id)
        with self.db.erasing(uid, memories=False):
            self.db.write(
                f"UPDATE history SET before = NULL, after = NULL "
                f"WHERE user_id = {d.mark} AND target_id IN ({d.marks(len(target_ids))})",
                (uid, *target_ids),
            )


class SQLProfile(SQLRole):
    """The ``profile_slots`` table."""

    def put(self, version: SlotVersion) -> None:
        """Store a new slot version and make it the current one."""
        d, uid = self.db.dialect, self.scope.inward(version.user_id)
        values = (
            uid,
            version.slot,
            version.version,
            json.dumps(version.value, ensure_ascii=False),
            to_epoch(version.created_at),
            version.memory_id,
            json.dumps(version.message_ids),
            version.current,
            version.reason,
        )
        with self.db.transaction(uid):
            self.db.write(
                f"UPDATE profile_slots SET current = {d.mark} WHERE user_id = {d.mark} AND slot = {d.mark}",
                (False, uid, version.slot),
            )
            self.db.write(upsert(d, "profile_slots", SLOT_COLUMNS, ("user_id", "slot", "version")), values)

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """Current slot values (or every version), by slot then version."""
        m = self.db.dialect.mark
        sql = f"SELECT {', '.join(SLOT_COLUMNS)} FROM profile_slots WHERE user_id = {m}"
        params: list[Any] = [self.scope.inward(user_id)]
        if slot is not None:
            sql += f" AND slot = {m}"
            params.append(slot)
        if current_only:
            sql += f" AND current = {m}"
            params.append(True)
        return [
            SlotVersion(
                user_id=user_id,
                slot=r["slot"],
                value=json.loads(r["value"]),
                version=r["version"],
                created_at=from_epoch(r["created_at"]) or datetime.min,
                memory_id=r["memory_id"],
                message_ids=json.loads(r["message_ids"]),
                current=bool(r["current"]),
                reason=r["reason"],
            )
            for r in self.db.rows(sql + " ORDER BY slot, version", params)
        ]

    def delete(self, user_id: str, slot: str | None = None) -> int:
        """Remove a slot's versions (or all of the user's)."""
        m, uid = self.db.dialect.mark, self.scope.inward(user_id)
        sql = f"DELETE FROM profile_slots WHERE user_id = {m}"
        params: list[Any] = [uid]
        if slot is not None:
            sql += f" AND slot = {m}"
            params.append(slot)
        with self.db.transaction(uid):
            return self.db.write(sql, params)


class SQLAudit(SQLRole):
    """The ``audit`` table."""

    def add(self, entry: AuditEntry) -> None:
        """Append an audit entry (entries are never changed; only ``delete_user`` removes them).

        One statement, committed on its own (or with the transaction it is part of): an append needs
        neither the user's lock nor a change mark, since no cache holds audit entries. On PostgreSQL a
        read's entry therefore never waits for a write-back transaction of the same user (SQLite
        has one writer at a time: there it still waits for the transaction in progress).
        """
        values = (
            entry.id,
            self.scope.inward(entry.user_id),
            to_epoch(entry.at),
            entry.op,
            entry.actor.value,
            entry.caller,
            json.dumps(entry.memory_ids),
            entry.detail,
        )
        self.db.write(insert_audit(self.db.dialect), values)

    def entries(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's audit entries at or after ``since``, the latest recorded first."""
        m = self.db.dialect.mark
        sql = f"SELECT {', '.join(AUDIT_COLUMNS)} FROM audit WHERE user_id = {m}"
        params: list[Any] = [self.scope.inward(user_id)]
        if since is not None:
            sql += f" AND at >= {m}"
            params.append(to_epoch(since))
        params.append(limit)
        return [
            AuditEntry(
                id=r["id"],
                user_id=user_id,
                at=from_epoch(r["at"]) or datetime.min,
                op=r["op"],
                actor=Actor(r["actor"]),
                caller=r["caller"],
                memory_ids=json.loads(r["memory_ids"]),
                detail=r["detail"],
            )
            for r in self.db.rows(sql + f" ORDER BY seq DESC LIMIT {m}", params)
        ]


class SQLConsent(SQLRole):
    """The ``user_settings`` table."""

    def put(self, consent: ConsentSettings) -> None:
        """Store the user's consent settings, replacing earlier ones."""
        categories = None if consent.categories is None else json.dumps(list(consent.categories))
        uid = self.scope.inward(consent.user_id)
        values = (uid, consent.enabled, categories, to_epoch(consent.updated_at))
        self.db.write(upsert(self.db.dialect, "user_settings", CONSENT_COLUMNS, ("user_id",)), values)

    def get(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, or None when the user never set any."""
        sql = f"SELECT {', '.join(CONSENT_COLUMNS)} FROM user_settings WHERE user_id = {self.db.dialect.mark}"
        rows = self.db.rows(sql, (self.scope.inward(user_id),))
        if not rows:
            return None
        r = rows[0]
        return ConsentSettings(
            user_id=user_id,
            enabled=bool(r["enabled"]),
            categories=None if r["categories"] is None else tuple(json.loads(r["categories"])),
            updated_at=from_epoch(r["updated_at"]),
        )


class SQLSealed(SQLRole):
    """The ``sealed`` table of encrypted originals."""

    def _sealed(self, row: Row) -> SealedText:
        return SealedText(
            user_id=self.scope.outward(row["user_id"]),
            memory_id=row["memory_id"],
            key_id=row["key_id"],
            body=row["body"],
        )

    def put(self, sealed: SealedText) -> None:
        """Store (or replace) the encrypted original of a memory of the user's."""
        values = (sealed.memory_id, self.scope.inward(sealed.user_id), sealed.key_id, sealed.body)
        # the guard keeps a foreign memory id from taking over another user's row
        guard = "WHERE sealed.user_id = excluded.user_id"
        self.db.write(upsert(self.db.dialect, "sealed", SEALED_COLUMNS, ("memory_id",), tail=guard), values)

    def get(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The encrypted originals of those memories that have one, by memory id."""
        if not memory_ids:
            return {}
        d = self.db.dialect
        sql = (
            f"SELECT {', '.join(SEALED_COLUMNS)} FROM sealed "
            f"WHERE user_id = {d.mark} AND memory_id IN ({d.marks(len(memory_ids))})"
        )
        rows = self.db.rows(sql, (self.scope.inward(user_id), *memory_ids))
        return {r["memory_id"]: self._sealed(r) for r in rows}

    def any(self, user_id: str) -> bool:
        """Whether any memory of the user has an encrypted original."""
        sql = f"SELECT 1 AS one FROM sealed WHERE user_id = {self.db.dialect.mark} LIMIT 1"
        return bool(self.db.rows(sql, (self.scope.inward(user_id),)))

    def delete(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the encrypted originals of these memories (the memories stay)."""
        if not memory_ids:
            return
        d = self.db.dialect
        self.db.write(
            f"DELETE FROM sealed WHERE user_id = {d.mark} AND memory_id IN ({d.marks(len(memory_ids))})",
            (self.scope.inward(user_id), *memory_ids),
        )

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """Encrypted originals sealed by ``key_id`` (of every user in scope), by memory id after ``after``."""
        m = self.db.dialect.mark
        whose: tuple[str, ...]
        scoped, whose = "", ()  # no condition: every user's
        if self.scope.user is not None:  # one user's scope: that user's originals only
            scoped, whose = f"AND user_id = {m} ", (self.scope.inward(self.scope.user),)
        elif self.scope.tenant is not None:
            # a tenant's prefix is [a-z0-9_-]* and "/": escape "_" so that LIKE matches it literally
            scoped, whose = f"AND user_id LIKE {m} ", (self.scope.prefix.replace("_", "\\_") + "%",)
        sql = (
            f"SELECT {', '.join(SEALED_COLUMNS)} FROM sealed WHERE key_id = {m} AND memory_id > {m} "
            + scoped
            + f"ORDER BY memory_id LIMIT {m}"
        )
        return [self._sealed(r) for r in self.db.rows(sql, (key_id, after, *whose, limit))]


class SQLSessions(SQLRole):
    """The ``sessions`` table (when no session store of its own is named)."""

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The session, or None when it never existed, belongs to someone else or has expired."""
        m = self.db.dialect.mark
        rows = self.db.rows(
            f"SELECT body FROM sessions WHERE user_id = {m} AND id = {m} "
            f"AND (expires_at IS NULL OR expires_at > {m})",
            (self.scope.inward(user_id), session_id, to_epoch(now)),
        )
        return self.scope.got(session_from_json(rows[0]["body"])) if rows else None

    def save_session(self, session: Session) -> bool:
        """Insert or replace the session; it lives until ``session.expires_at``."""
        stored = self.scope.put(session)
        values = (
            stored.user_id,
            stored.id,
            session_to_json(stored),
            to_epoch(stored.updated_at),
            to_epoch(stored.expires_at),
        )
        self.db.write(upsert(self.db.dialect, "sessions", SESSION_COLUMNS, ("user_id", "id")), values)
        return True

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The user's sessions live at ``now`` (all that are still held when None), most recent first."""
        m = self.db.dialect.mark
        sql = f"SELECT body FROM sessions WHERE user_id = {m}"
        params: list[Any] = [self.scope.inward(user_id)]
        if now is not None:
            sql += f" AND (expires_at IS NULL OR expires_at > {m})"
            params.append(to_epoch(now))
        rows = self.db.rows(sql + " ORDER BY updated_at DESC", params)
        return [self.scope.got(session_from_json(r["body"])) for r in rows]

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session, leaving no readable copy; False when there was none."""
        m, uid = self.db.dialect.mark, self.scope.inward(user_id)
        with self.db.erasing(uid, memories=False):
            return (
                self.db.write(f"DELETE FROM sessions WHERE user_id = {m} AND id = {m}", (uid, session_id)) > 0
            )

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions, leaving no readable copy."""
        uid = self.scope.inward(user_id)
        with self.db.erasing(uid, memories=False):
            return self.db.write(f"DELETE FROM sessions WHERE user_id = {self.db.dialect.mark}", (uid,))

    def purge_sessions(self, now: datetime) -> int:
        """Remove every session whose TTL has passed (of every tenant: expiry is not a tenant's secret)."""
        sql = f"DELETE FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= {self.db.dialect.mark}"
        return self.db.write(sql, (to_epoch(now),))


def sql_stores(db: Database, search: Search) -> Stores:
    """Every role on ``db`` (sessions in its own table), with the engine's ``search``; closing the
    bundle closes ``db``."""
    return Stores(
        records=SQLRecords(db),
        search=search,
        history=SQLHistory(db),
        profile=SQLProfile(db),
        audit=SQLAudit(db),
        consent=SQLConsent(db),
        sealed=SQLSealed(db),
        sessions=SQLSessions(db),
        owned=(db,),
    )
