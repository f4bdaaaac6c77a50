"""The storage ports: one small protocol per role, bundled as :class:`Stores` for the facade.

=============  =================================================================================
role           what it holds
=============  =================================================================================
``records``    memories and log turns: put, get, query, count, delete, recall counts, users
``search``     the keyword and vector indexes over the records
``history``    the append-only history of every change
``profile``    versioned profile slots
``audit``      the append-only audit log
``consent``    each user's consent settings
``sealed``     encrypted originals of memories (ciphertext only)
``sessions``   short-term sessions under a TTL
=============  =================================================================================

Every method takes the ``user_id`` it works for and never reads or changes another user's rows: user
isolation is enforced here, below the API, and a tenant's :class:`~memlane.store.scope.Scope` is
applied by the implementations where they build their queries. Optional abilities (``kind_counts``,
``analyze``, ``compact``, ``sealed_under``, ``within``) are runtime-checkable protocols: ask with
``isinstance(stores.records, KindCounts)``.

Adapters: ``sqlite`` (the embedded default, every role), ``postgres`` (the server store, every role),
``redis`` (sessions); the SQL roles are written once over a dialect (``sql``, ``sql_records``,
``sql_roles``), and ``open`` picks adapters from URLs::

    stores = open_sqlite("memlane.db", dim=384)
    stores.records.query("u1", MemoryQuery(limit=5))

:func:`memlane.testing.memory_stores` holds every role in process, for tests, and
:mod:`memlane.testing.contract` is what every adapter must do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol, Self, TypeVar, cast, runtime_checkable

import numpy as np
import numpy.typing as npt

from memlane.domain import HistoryRecord, MemoryItem, Session, SlotVersion
from memlane.errors import ConfigurationError
from memlane.store.scope import Scope
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, ScoredId, SealedText

__all__ = [
    "Analyzable",
    "Audit",
    "Closeable",
    "Compactable",
    "Consent",
    "History",
    "KindCounts",
    "MemoryQuery",
    "Profile",
    "Records",
    "Scopable",
    "ScoredId",
    "Sealed",
    "SealedText",
    "SealedUnderKey",
    "Search",
    "Sessions",
    "Stores",
    "Vector",
]

Vector = npt.NDArray[np.float32]

_Role = TypeVar("_Role")


class Records(Protocol):
    """Long-term records of every user: memories, summaries and the raw log."""

    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """Run a read-modify-write for one user atomically (every role of the bundle joins it),
        serialised with other writers for that user."""

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Insert or replace ``item`` (by id) with its keyword tokens and embedding."""

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record, or None when it does not exist in this user's scope."""

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist, in the order of ``ids``; ``embeddings=False`` may leave vectors out."""

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records matching the filters, newest first unless asked otherwise."""

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records match the filters (limit and offset ignored)."""

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove records (and their encrypted originals) from every index; returns how many went."""

    def owner(self, memory_id: str) -> str | None:
        """The user a record belongs to (for single-tenant callers that only hold an id)."""

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: bump access counts and last-accessed times."""

    def speakers(self, user_id: str) -> list[str]:
        """The names the user's log turns were said under (their ``speaker:`` tags), in name order."""

    def users(self) -> Iterator[str]:
        """Every user id that has records or sessions (for maintenance)."""

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user in every role on this store (a session store of its
        own is asked separately); returns how many memories went."""


class Search(Protocol):
    """The indexes over the records."""

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """Active records matching any token, best first (BM25-like scores, higher is better)."""

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Active records nearest to ``vector`` by cosine similarity, best first."""

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Give records stored without a vector their vector (a record that has one keeps it); returns
        how many took one."""


class History(Protocol):
    """The append-only history of changes to a user's records and slots."""

    def add(self, record: HistoryRecord) -> None:
        """Append a history record."""

    def of(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """History of one target, or of the whole user, oldest first."""

    def owner(self, target_id: str) -> str | None:
        """The user whose history names ``target_id`` (it may have been deleted since)."""

    def scrub(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history: deleted text leaves no copy."""


class Profile(Protocol):
    """Versioned profile slots."""

    def put(self, version: SlotVersion) -> None:
        """Store a new slot version and make it the current one."""

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """Current slot values (or every version), by slot then version."""

    def delete(self, user_id: str, slot: str | None = None) -> int:
        """Remove a slot's versions (or all of the user's)."""


class Audit(Protocol):
    """The append-only audit log."""

    def add(self, entry: AuditEntry) -> None:
        """Append an audit entry (entries are never changed; only ``delete_user`` removes them)."""

    def entries(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's audit entries at or after ``since``, the latest recorded first."""


class Consent(Protocol):
    """Each user's consent settings."""

    def put(self, consent: ConsentSettings) -> None:
        """Store the user's consent settings, replacing earlier ones."""

    def get(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, or None when the user never set any."""


class Sealed(Protocol):
    """Encrypted originals of memories."""

    def put(self, sealed: SealedText) -> None:
        """Store (or replace) the encrypted original of a memory of the user's."""

    def get(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The encrypted originals of those memories that have one, by memory id."""

    def any(self, user_id: str) -> bool:
        """Whether any memory of the user has an encrypted original."""

    def delete(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the encrypted originals of these memories (the memories stay)."""


class Sessions(Protocol):
    """Short-term memory: sessions with recent turns, summary and temporary slots, under a TTL."""

    def get_session(self, user_id: str, session_id: str, now: datetime) -> Session | None:
        """The session, or None when it never existed, belongs to someone else or has expired."""

    def save_session(self, session: Session) -> bool:
        """Insert or replace the session; it lives until ``session.expires_at``. False when the store
        could not keep it (a session store in degraded mode), so a caller can say nothing was kept.
        """

    def list_sessions(self, user_id: str, now: datetime | None) -> list[Session]:
        """The user's sessions live at ``now`` (all that are still held when None), most recent first."""

    def delete_session(self, user_id: str, session_id: str) -> bool:
        """Remove one session; False when there was none."""

    def delete_sessions(self, user_id: str) -> int:
        """Remove all of the user's sessions."""

    def purge_sessions(self, now: datetime) -> int:
        """Remove every session whose TTL has passed."""


# -- optional abilities ---------------------------------------------------------------------------


@runtime_checkable
class KindCounts(Protocol):
    """Records that can count every user's active records by kind (operators' dashboards)."""

    def kind_counts(self) -> dict[str, int]:
        """Active records of every user by kind."""


@runtime_checkable
class Analyzable(Protocol):
    """Records whose query planner can be told to refresh its statistics (after a bulk load)."""

    def analyze(self) -> None:
        """Refresh the planner's statistics."""


@runtime_checkable
class Compactable(Protocol):
    """Records whose deleted rows can be made unrecoverable from the database files."""

    def compact(self) -> None:
        """Make deleted rows unrecoverable (see docs/privacy.md)."""


@runtime_checkable
class SealedUnderKey(Protocol):
    """Encrypted originals that can be listed by the key that sealed them (key rotation)."""

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """Originals sealed by ``key_id`` (of every user in scope), by memory id after ``after``."""


@runtime_checkable
class Scopable(Protocol):
    """A role that can serve one tenant's users only."""

    def within(self, scope: Scope) -> Self:
        """The same role seeing only ``scope``'s users, under their own ids."""


@runtime_checkable
class Closeable(Protocol):
    """Something holding connections."""

    def close(self) -> None:
        """Release connections."""


@dataclass(frozen=True)
class Stores:
    """One object per role: what ``Memory`` and the service use. ``owned`` is what :meth:`close`
    releases (the connections the roles share); a bundle made by :meth:`within` owns nothing."""

    records: Records
    search: Search
    history: History
    profile: Profile
    audit: Audit
    consent: Consent
    sealed: Sealed
    sessions: Sessions
    owned: tuple[Closeable, ...] = ()

    def with_sessions(self, sessions: Sessions, *, owned: bool = True) -> Stores:
        """The same bundle keeping sessions in ``sessions`` (closed with it when ``owned``)."""
        extra = (sessions,) if owned and isinstance(sessions, Closeable) else ()
        return replace(self, sessions=sessions, owned=self.owned + extra)

    def within(self, scope: Scope) -> Stores:
        """Every role seeing only ``scope``'s users; the connections stay the caller's to close."""

        def scoped(role: _Role) -> _Role:
            if not isinstance(role, Scopable):
                raise ConfigurationError(f"{type(role).__name__} cannot serve tenants (it has no within())")
            return cast(_Role, role.within(scope))

        return Stores(
            records=scoped(self.records),
            search=scoped(self.search),
            history=scoped(self.history),
            profile=scoped(self.profile),
            audit=scoped(self.audit),
            consent=scoped(self.consent),
            sealed=scoped(self.sealed),
            sessions=scoped(self.sessions),
        )

    def close(self) -> None:
        """Release the connections this bundle owns; closing again does nothing more."""
        for resource in self.owned:
            resource.close()
