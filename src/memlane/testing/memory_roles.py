"""The history, profile, audit, consent, sealed and session roles in process, and
:func:`memory_stores`, the bundle of every role (see :mod:`memlane.testing.memory_store`)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memlane.domain import HistoryRecord, Session, SlotVersion
from memlane.store import Stores
from memlane.testing.memory_store import MemoryRecords, MemorySearch, _Role, _State
from memlane.vocabulary import AuditEntry, ConsentSettings, SealedText


class MemoryHistory(_Role):
    """History records in write order."""

    def add(self, record: HistoryRecord) -> None:
        """Append a history record."""
        with self.state.transaction() as t:
            t.history.append((self.state.next_seq(), copy.deepcopy(self.scope.put(record))))

    def of(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """History of one target, or of the whole user, oldest first."""
        uid = self.scope.inward(user_id)
        with self.state.lock:
            found = [h for _, h in self.state.tables.history if h.user_id == uid]
        return [
            self.scope.got(copy.deepcopy(h)) for h in found if target_id is None or h.target_id == target_id
        ]

    def owner(self, target_id: str) -> str | None:
        """The user in scope whose history names ``target_id``."""
        found = next((h.user_id for _, h in self.state.tables.history if h.target_id == target_id), None)
        return self.scope.owner(found)

    def scrub(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            t.history = [
                (
                    s,
                    replace(h, before=None, after=None)
                    if h.user_id == uid and h.target_id in target_ids
                    else h,
                )
                for s, h in t.history
            ]


class MemoryProfile(_Role):
    """Versioned profile slots."""

    def put(self, version: SlotVersion) -> None:
        """Store a new slot version and make it the current one."""
        stored = copy.deepcopy(self.scope.put(version))
        with self.state.transaction() as t:
            for key, held in t.slots.items():
                if key[0] == stored.user_id and key[1] == stored.slot:
                    t.slots[key] = replace(held, current=False)
            t.slots[(stored.user_id, stored.slot, stored.version)] = stored

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """Current slot values (or every version), by slot then version."""
        uid = self.scope.inward(user_id)
        with self.state.lock:
            found = [
                v
                for (u, s, _), v in sorted(self.state.tables.slots.items())
                if u == uid and (slot is None or s == slot) and (v.current or not current_only)
            ]
        return [self.scope.got(copy.deepcopy(v)) for v in found]

    def delete(self, user_id: str, slot: str | None = None) -> int:
        """Remove a slot's versions (or all of the user's)."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            gone = [k for k in t.slots if k[0] == uid and (slot is None or k[1] == slot)]
            for k in gone:
                del t.slots[k]
            return len(gone)


class MemoryAudit(_Role):
    """The audit log, newest first when read."""

    def add(self, entry: AuditEntry) -> None:
        """Append an audit entry."""
        with self.state.transaction() as t:
            t.audit.append((self.state.next_seq(), copy.deepcopy(self.scope.put(entry))))

    def entries(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's entries at or after ``since``, the latest recorded first."""
        uid = self.scope.inward(user_id)
        with self.state.lock:
            found = [a for _, a in reversed(self.state.tables.audit) if a.user_id == uid]
        found = [a for a in found if since is None or a.at >= since][:limit]
        return [self.scope.got(copy.deepcopy(a)) for a in found]


class MemoryConsent(_Role):
    """Each user's consent settings."""

    def put(self, consent: ConsentSettings) -> None:
        """Store the user's consent settings, replacing earlier ones."""
        stored = self.scope.put(consent)
        with self.state.transaction() as t:
            t.consent[stored.user_id] = stored

    def get(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, or None."""
        found = self.state.tables.consent.get(self.scope.inward(user_id))
        return self.scope.got(found) if found is not None else None


class MemorySealed(_Role):
    """Encrypted originals by memory id."""

    def put(self, sealed: SealedText) -> None:
        """Store (or replace) the encrypted original of a memory of the user's."""
        stored = self.scope.put(sealed)
        with self.state.transaction() as t:
            held = t.sealed.get(stored.memory_id)
            if held is None or held.user_id == stored.user_id:
                t.sealed[stored.memory_id] = stored

    def get(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The encrypted originals of those memories that have one."""
        uid, held = self.scope.inward(user_id), self.state.tables.sealed
        return {i: self.scope.got(held[i]) for i in memory_ids if i in held and held[i].user_id == uid}

    def any(self, user_id: str) -> bool:
        """Whether any memory of the user has an encrypted original."""
        uid = self.scope.inward(user_id)
        return any(s.user_id == uid for s in list(self.state.tables.sealed.values()))

    def delete(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the encrypted originals of these memories."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            for i in memory_ids:
                if i in t.sealed and t.sealed[i].user_id == uid:
                    del t.sealed[i]

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """Originals sealed by ``key_id`` of every user in scope, by memory id after ``after``."""
        with self.state.lock:
            found = sorted(self.state.tables.sealed.values(), key=lambda s: s.memory_id)
        chosen = [
            s for s in found if s.key_id == key_id and s.memory_id > after and self.scope.mine(s.user_id)
        ]
        return [self.scope.got(s) for s in chosen[:limit]]


class MemorySessions(_Role):
    """Sessions under the caller's clock."""

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The live session, or None."""
        found = self.state.tables.sessions.get((self.scope.inward(user_id), session_id))
        if found is None or (found.expires_at is not None and found.expires_at <= now):
            return None
        return self.scope.got(copy.deepcopy(found))

    def save_session(self, session: Session) -> bool:
        """Insert or replace the session."""
        stored = copy.deepcopy(self.scope.put(session))
        with self.state.transaction() as t:
            t.sessions[(stored.user_id, stored.id)] = stored
        return True

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The user's sessions live at ``now`` (all when None), most recent first."""
        uid = self.scope.inward(user_id)
        with self.state.lock:
            found = [s for (u, _), s in self.state.tables.sessions.items() if u == uid]
        live = [s for s in found if now is None or s.expires_at is None or s.expires_at > now]
        live.sort(key=lambda s: s.updated_at, reverse=True)
        return [self.scope.got(copy.deepcopy(s)) for s in live]

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session; False when there was none."""
        with self.state.transaction() as t:
            return t.sessions.pop((self.scope.inward(user_id), session_id), None) is not None

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            gone = [k for k in t.sessions if k[0] == uid]
            for k in gone:
                del t.sessions[k]
            return len(gone)

    def purge_sessions(self, now: datetime) -> int:
        """Remove every session whose TTL has passed."""
        with self.state.transaction() as t:
            gone = [k for k, s in t.sessions.items() if s.expires_at is not None and s.expires_at <= now]
            for k in gone:
                del t.sessions[k]
            return len(gone)


def memory_stores() -> Stores:
    """A new, empty bundle of every role held in process."""
    state = _State()
    return Stores(
        records=MemoryRecords(state),
        search=MemorySearch(state),
        history=MemoryHistory(state),
        profile=MemoryProfile(state),
        audit=MemoryAudit(state),
        consent=MemoryConsent(state),
        sealed=MemorySealed(state),
        sessions=MemorySessions(state),
    )
