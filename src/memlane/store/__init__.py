"""The storage ports: long-term memories (with profile, history and indexes) and short-term sessions.

Every method takes the ``user_id`` it works for and never reads or changes another user's rows: user
isolation is enforced here, below the API. Adapters live one per module or sub-package:
``sqlite`` is the embedded default (both ports), ``postgres`` the server store (both ports) and
``redis`` a session store; the two SQL adapters share their statements (``relational``, ``sql``), and
``open`` picks adapters from URLs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from memlane.domain import HistoryRecord, MemoryItem, Session, SlotVersion
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, ScoredId, SealedText

__all__ = ["MemoryQuery", "MemoryStore", "ScoredId", "SealedText", "SessionStore", "Vector"]

Vector = npt.NDArray[np.float32]


class MemoryStore(Protocol):
    """Long-term records of every user: memories, the raw log, profile slots and history."""

    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """Run a read-modify-write for one user atomically, serialised with other writers for that user."""

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Insert or replace ``item`` (by id) with its keyword tokens and embedding."""

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Give records stored without a vector their vector (a record that has one keeps it); returns
        how many took one.
        """

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record, or None when it does not exist in this user's scope."""

    def owner(self, memory_id: str) -> str | None:
        """The user a record belongs to (for single-tenant callers that only hold an id)."""

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist, in the order of ``ids``; ``embeddings=False`` may leave vectors out."""

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records matching the filters, newest first unless asked otherwise."""

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records match the filters (limit and offset ignored)."""

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove records from every table and index; returns how many were removed."""

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """Active records matching any token, best first (BM25-like scores, higher is better)."""

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Active records nearest to ``vector`` by cosine similarity, best first."""

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: bump access counts and last-accessed times."""

    def add_history(self, record: HistoryRecord) -> None:
        """Append a history record."""

    def history(self, user_id: str, target_id: str | None = None) -> list[HistoryRecord]:
        """History of one target, or of the whole user, oldest first."""

    def history_owner(self, target_id: str) -> str | None:
        """The user whose history names ``target_id`` (it may have been deleted since)."""

    def scrub_history(self, user_id: str, target_ids: Sequence[str]) -> None:
        """Blank the before/after texts of these targets' history: deleted text leaves no copy."""

    def put_slot(self, version: SlotVersion) -> None:
        """Store a new slot version and make it the current one."""

    def slots(self, user_id: str, slot: str | None = None, current_only: bool = True) -> list[SlotVersion]:
        """Current slot values (or every version), by slot then version."""

    def delete_slots(self, user_id: str, slot: str | None = None) -> int:
        """Remove a slot's versions (or all of the user's)."""

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user; returns how many memories went."""

    def users(self) -> Iterator[str]:
        """Every user id that has records (for maintenance)."""

    def add_audit(self, entry: AuditEntry) -> None:
        """Append an audit entry (entries are never changed; only ``delete_user`` removes them)."""

    def audit(self, user_id: str, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's audit entries at or after ``since``, the latest recorded first."""

    def put_consent(self, consent: ConsentSettings) -> None:
        """Store the user's consent settings, replacing earlier ones."""

    def consent(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, or None when the user never set any."""

    def put_sealed(self, sealed: SealedText) -> None:
        """Store (or replace) the encrypted original of a memory of the user's."""

    def sealed(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, SealedText]:
        """The encrypted originals of those memories that have one, by memory id."""

    def has_sealed(self, user_id: str) -> bool:
        """Whether any memory of the user has an encrypted original."""

    def speakers(self, user_id: str) -> list[str]:
        """The names the user's log turns were said under (their ``speaker:`` tags), in name order."""

    def delete_sealed(self, user_id: str, memory_ids: Sequence[str]) -> None:
        """Remove the encrypted originals of these memories (the memories stay)."""

    def sealed_under(self, key_id: str, after: str = "", limit: int = 500) -> list[SealedText]:
        """Encrypted originals sealed by ``key_id`` (of every user), by memory id after ``after``."""

    def compact(self) -> None:
        """Make deleted rows unrecoverable from the database files (see docs/privacy.md)."""

    def close(self) -> None:
        """Release connections."""


class SessionStore(Protocol):
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

    def close(self) -> None:
        """Release connections."""
