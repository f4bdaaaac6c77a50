"""Tenant isolation below the API: a store seen through one tenant's eyes.

The REST service serves many tenants from one database. Tenant ``acme``'s user ``u1`` and tenant
``globex``'s user ``u1`` are different people, so every user id is stored as the scope
``"acme/u1"``. :class:`TenantStore` and :class:`TenantSessions` wrap the real stores and add the
prefix on the way in and strip it on the way out, so a ``Memory`` built on them cannot name, read,
change or even detect another tenant's rows, whatever its callers pass::

    store = TenantStore(SQLiteStore("memlane.db", dim=384), "acme")
    mem = Memory(store=store, sessions=TenantSessions(store.inner, "acme"))

Tenant names are ``[a-z0-9][a-z0-9_-]*`` and never contain ``/``, so a scope splits back into its
tenant and user id in exactly one way, whatever the user id holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from memlane.domain import HistoryRecord, MemoryItem, Session, SlotVersion
from memlane.errors import InvalidInput
from memlane.store import MemoryStore, SessionStore, Vector
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, ScoredId, SealedText

TENANT_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")

_Owned = TypeVar("_Owned", MemoryItem, HistoryRecord, SlotVersion, Session)


def check_tenant(name: str) -> str:
    """``name`` if it is a valid tenant name, else :class:`InvalidInput`."""
    if not TENANT_PATTERN.fullmatch(name):
        raise InvalidInput(
            f"tenant {name!r} must be 1-63 characters of a-z, 0-9, '_' and '-', "
            "starting with a letter or digit"
        )
    return name


class _Scope:
    """The mapping between a tenant's user ids and the store's scoped ones."""

    def __init__(self, tenant: str) -> None:
        self.tenant = check_tenant(tenant)
        self.prefix = f"{tenant}/"

    def inward(self, user_id: str) -> str:
        return self.prefix + user_id

    def outward(self, scoped: str) -> str:
        return scoped.removeprefix(self.prefix)

    def mine(self, scoped: str | None) -> bool:
        return scoped is not None and scoped.startswith(self.prefix)

    def put(self, obj: _Owned) -> _Owned:
        return replace(obj, user_id=self.inward(obj.user_id))

    def get(self, obj: _Owned) -> _Owned:
        return replace(obj, user_id=self.outward(obj.user_id))


class TenantStore:
    """A :class:`~memlane.store.MemoryStore` limited to one tenant's users."""

    def __init__(self, inner: MemoryStore, tenant: str) -> None:
        self.inner = inner
        self._s = _Scope(tenant)

    @property
    def tenant(self) -> str:
        """The tenant this view belongs to."""
        return self._s.tenant

    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """The inner store's per-user transaction, for the scoped user."""
        return self.inner.transaction(self._s.inward(user_id))

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Store ``item`` under its scoped user id (the caller's object keeps its own id)."""
        scoped = self._s.put(item)
        self.inner.put(scoped, tokens)

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Vectors for the scoped user's records that have none."""
        return self.inner.put_vectors(self._s.inward(user_id), vectors)

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record in this tenant's user scope, or None."""
        item = self.inner.get(self._s.inward(user_id), memory_id)
        return self._s.get(item) if item is not None else None

    def owner(self, memory_id: str) -> str | None:
        """The owning user, only when that user belongs to this tenant."""
        owner = self.inner.owner(memory_id)
        return self._s.outward(owner) if owner is not None and self._s.mine(owner) else None

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist in this user's scope, in the order of ``ids``."""
        found = self.inner.get_many(self._s.inward(user_id), ids, embeddings=embeddings)
        return [self._s.get(m) for m in found]

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records of the scoped user matching ``q``."""
        return [self._s.get(m) for m in self.inner.query(self._s.inward(user_id), q)]

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records of the scoped user match ``q``."""
        return self.inner.count(self._s.inward(user_id), q)

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove the scoped user's records with these ids."""
        return self.inner.delete(self._s.inward(user_id), ids)

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """Keyword search in the scoped user's records."""
        return self.inner.keyword_search(self._s.inward(user_id), tokens, q, limit)

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Vector search in the scoped user's records."""
        return self.inner.vector_search(self._s.inward(user_id), vector, q, limit)

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall of the scoped user's records."""
        self.inner.touch(self._s.inward(user_id), ids, at)

    def add_history(self, record: HistoryRecord) -> None:
        """Append a history record under the scoped user."""
        self.inner.add_history(self._s.put(record))

    def history(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """The scoped user's history."""
        return [self._s.get(r) for r in self.inner.history(self._s.inward(user_id), target_id)]

    def history_owner(self, target_id: str) -> str | None:
        """The user whose history names ``target_id``, only within this tenant."""
        owner = self.inner.history_owner(target_id)
        return self._s.outward(owner) if owner is not None and self._s.mine(owner) else None

    def scrub_history(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the scoped user's history texts for these targets."""
        self.inner.scrub_history(self._s.inward(user_id), target_ids)

    def put_slot(self, version: SlotVersion) -> None:
        """Store a slot version under the scoped user."""
        self.inner.put_slot(self._s.put(version))

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """The scoped user's slot versions."""
        found = self.inner.slots(self._s.inward(user_id), slot, current_only)
        return [self._s.get(v) for v in found]

    def delete_slots(self, user_id: str, slot: str | None = None) -> int:
        """Remove the scoped user's slot versions."""
        return self.inner.delete_slots(self._s.inward(user_id), slot)

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the scoped user."""
        return self.inner.delete_user(self._s.inward(user_id))

    def users(self) -> Iterator[str]:
        """This tenant's users (by their own ids)."""
        return (self._s.outward(u) for u in self.inner.users() if self._s.mine(u))

    def add_audit(self, entry: AuditEntry) -> None:
        """Append an audit entry under the scoped user."""
        self.inner.add_audit(replace(entry, user_id=self._s.inward(entry.user_id)))

    def audit(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The scoped user's audit entries, newest first."""
        found = self.inner.audit(self._s.inward(user_id), since, limit)
        return [replace(e, user_id=self._s.outward(e.user_id)) for e in found]

    def put_consent(self, consent: ConsentSettings) -> None:
        """Store the scoped user's consent settings."""
        self.inner.put_consent(replace(consent, user_id=self._s.inward(consent.user_id)))

    def consent(self, user_id: str) -> ConsentSettings | None:
        """The scoped user's consent settings, or None."""
        found = self.inner.consent(self._s.inward(user_id))
        return replace(found, user_id=user_id) if found is not None else None

    def put_sealed(self, sealed: SealedText) -> None:
        """Store an encrypted original under the scoped user."""
        self.inner.put_sealed(replace(sealed, user_id=self._s.inward(sealed.user_id)))

    def sealed(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The scoped user's encrypted originals of these memories."""
        found = self.inner.sealed(self._s.inward(user_id), memory_ids)
        return {i: replace(s, user_id=user_id) for i, s in found.items()}

    def has_sealed(self, user_id: str) -> bool:
        """Whether the scoped user has any encrypted original."""
        return self.inner.has_sealed(self._s.inward(user_id))

    def speakers(self, user_id: str) -> list[str]:
        """The names the scoped user's log turns were said under."""
        return self.inner.speakers(self._s.inward(user_id))

    def delete_sealed(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the scoped user's encrypted originals of these memories."""
        self.inner.delete_sealed(self._s.inward(user_id), memory_ids)

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """This tenant's encrypted originals sealed by ``key_id`` (other tenants' are skipped)."""
        out: list[SealedText] = []
        while len(out) < limit:
            page = self.inner.sealed_under(key_id, after, limit)
            out += [replace(s, user_id=self._s.outward(s.user_id)) for s in page if self._s.mine(s.user_id)]
            if len(page) < limit:
                break
            after = page[-1].memory_id
        return out[:limit]

    def compact(self) -> None:
        """The shared store's compaction (it covers every tenant)."""
        self.inner.compact()

    def close(self) -> None:
        """Nothing to release: the inner store is shared and closed by whoever opened it."""


class TenantSessions:
    """A :class:`~memlane.store.SessionStore` limited to one tenant's users."""

    def __init__(self, inner: SessionStore, tenant: str) -> None:
        self.inner = inner
        self._s = _Scope(tenant)

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The scoped user's session, or None."""
        found = self.inner.get_session(self._s.inward(user_id), session_id, now)
        return self._s.get(found) if found is not None else None

    def save_session(self, session: Session) -> bool:
        """Save the session under its scoped user id."""
        return self.inner.save_session(self._s.put(session))

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The scoped user's sessions."""
        return [self._s.get(s) for s in self.inner.list_sessions(self._s.inward(user_id), now)]

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one of the scoped user's sessions."""
        return self.inner.delete_session(self._s.inward(user_id), session_id)

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the scoped user's sessions."""
        return self.inner.delete_sessions(self._s.inward(user_id))

    def purge_sessions(self, now: datetime) -> int:
        """Expired sessions of every tenant go: expiry is not a tenant's secret."""
        return self.inner.purge_sessions(now)

    def close(self) -> None:
        """Nothing to release: the inner store is shared."""
