"""Every store role in process, for users' own tests: :func:`memory_stores` gives a
:class:`~memlane.store.Stores` bundle that behaves as the SQL stores do (the contract suite in
:mod:`memlane.testing.contract` runs on it), held in dictionaries and gone when dropped::

    from memlane import Memory
    from memlane.testing import HashingEmbedder, memory_stores

    mem = Memory(store=memory_stores(), embedder=HashingEmbedder())

A transaction is serialised by one lock and rolled back whole on an error, like the databases'.
Keyword search scores with the same BM25 as the SQL stores, vector search is exact cosine.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Self

import numpy as np

from memlane.clock import to_epoch
from memlane.domain import HistoryRecord, Kind, MemoryItem, Session, SlotVersion, Status
from memlane.store import Vector
from memlane.store.bm25 import KeywordStats, score_keywords
from memlane.store.scope import UNSCOPED, Scope
from memlane.store.tokens import SPEAKER
from memlane.text.lang import normalize
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, ScoredId, SealedText


@dataclass
class _Record:
    item: MemoryItem  # under its stored user id
    tokens: str
    seq: int


@dataclass
class _Tables:
    memories: dict[str, _Record] = field(default_factory=dict)
    history: list[tuple[int, HistoryRecord]] = field(default_factory=list)
    slots: dict[tuple[str, str, int], SlotVersion] = field(default_factory=dict)
    audit: list[tuple[int, AuditEntry]] = field(default_factory=list)
    consent: dict[str, ConsentSettings] = field(default_factory=dict)
    sealed: dict[str, SealedText] = field(default_factory=dict)
    sessions: dict[tuple[str, str], Session] = field(default_factory=dict)
    seq: int = 0


class _State:
    """The tables every role of one bundle shares, and the lock that makes a transaction."""

    def __init__(self) -> None:
        self.tables = _Tables()
        self.lock = threading.RLock()
        self._depth = 0

    def next_seq(self) -> int:
        self.tables.seq += 1
        return self.tables.seq

    @contextmanager
    def transaction(self) -> Iterator[_Tables]:
        with self.lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.tables
                finally:
                    self._depth -= 1
                return
            saved = copy.deepcopy(self.tables)
            self._depth = 1
            try:
                yield self.tables
            except BaseException:
                self.tables = saved
                raise
            finally:
                self._depth = 0


def _time(item: MemoryItem) -> float:
    return to_epoch(item.valid_from or item.created_at) or 0.0


def _matches(item: MemoryItem, q: MemoryQuery, sealed: Mapping[str, SealedText]) -> bool:
    checks = (
        not q.kinds or item.kind in q.kinds,
        not q.statuses or item.status in q.statuses,
        not q.categories or str(item.category) in q.categories,
        not q.tags or any(t in item.tags for t in q.tags),
        not q.entities or any(e in item.entities for e in q.entities),
        q.slot is None or item.slot == q.slot,
        q.norm is None or normalize(item.text) == q.norm,
        q.session_id is None or item.session_id == q.session_id,
        q.since is None or _time(item) >= (to_epoch(q.since) or 0.0),
        q.until is None or _time(item) < (to_epoch(q.until) or 0.0),
        q.expires_before is None
        or (
            item.expires_at is not None
            and (to_epoch(item.expires_at) or 0.0) <= (to_epoch(q.expires_before) or 0.0)
        ),
        q.provenance is None or q.provenance in item.provenance,
        not q.provenances or any(p in item.provenance for p in q.provenances),
        q.sealed is None or (item.id in sealed) == q.sealed,
        q.embedded is None or (item.embedding is not None) == q.embedded,
    )
    return all(checks)


@dataclass
class _Role:
    state: _State
    scope: Scope = UNSCOPED

    def within(self, scope: Scope) -> Self:
        """The same role over the same tables, limited to ``scope``'s users."""
        return replace(self, scope=scope)

    def _out(self, item: MemoryItem) -> MemoryItem:
        return self.scope.got(copy.deepcopy(item))

    def _mine(self, user_id: str, q: MemoryQuery) -> list[_Record]:
        uid, t = self.scope.inward(user_id), self.state.tables
        found = [r for r in t.memories.values() if r.item.user_id == uid and _matches(r.item, q, t.sealed)]
        found.sort(key=lambda r: (_time(r.item), r.seq), reverse=q.newest_first)
        return found


class MemoryRecords(_Role):
    """The records role in process."""

    def transaction(self, user_id: str) -> Any:
        """One lock for every user; everything written inside is undone on an error."""
        return self.state.transaction()

    def put(self, item: MemoryItem, tokens: str) -> None:
        """Insert or replace ``item`` by id; never take over another user's record."""
        stored = copy.deepcopy(self.scope.put(item))
        with self.state.transaction() as t:
            held = t.memories.get(item.id)
            if held is None or held.item.user_id == stored.user_id:
                t.memories[item.id] = _Record(stored, tokens, self.state.next_seq())

    def get(self, user_id: str, memory_id: str) -> MemoryItem | None:
        """The record in this user's scope, or None."""
        with self.state.lock:
            r = self.state.tables.memories.get(memory_id)
            return (
                self._out(r.item) if r is not None and r.item.user_id == self.scope.inward(user_id) else None
            )

    def get_many(self, user_id: str, ids: Sequence[str], *, embeddings: bool = True) -> list[MemoryItem]:
        """The records that exist, in the order of ``ids``."""
        return [m for m in (self.get(user_id, i) for i in ids) if m is not None]

    def query(self, user_id: str, q: MemoryQuery) -> list[MemoryItem]:
        """Records matching ``q``, newest first unless asked otherwise."""
        with self.state.lock:
            found = self._mine(user_id, q)[q.offset :]
            return [self._out(r.item) for r in (found if q.limit is None else found[: q.limit])]

    def count(self, user_id: str, q: MemoryQuery) -> int:
        """How many records match ``q`` (limit and offset ignored)."""
        with self.state.lock:
            return len(self._mine(user_id, q))

    def delete(self, user_id: str, ids: Sequence[str]) -> int:
        """Remove the user's records with these ids and their encrypted originals."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            gone = [i for i in dict.fromkeys(ids) if i in t.memories and t.memories[i].item.user_id == uid]
            for i in gone:
                del t.memories[i]
                if i in t.sealed and t.sealed[i].user_id == uid:
                    del t.sealed[i]
            return len(gone)

    def owner(self, memory_id: str) -> str | None:
        """The owner of a record, when in scope."""
        r = self.state.tables.memories.get(memory_id)
        return self.scope.owner(r.item.user_id) if r is not None else None

    def touch(self, user_id: str, ids: Sequence[str], at: datetime) -> None:
        """Count a recall."""
        uid = self.scope.inward(user_id)
        with self.state.lock:
            for i in ids:
                r = self.state.tables.memories.get(i)
                if r is not None and r.item.user_id == uid:
                    r.item.access_count += 1
                    r.item.last_accessed_at = at

    def speakers(self, user_id: str) -> list[str]:
        """The names the user's log turns were said under."""
        with self.state.lock:
            turns = self._mine(user_id, MemoryQuery(kinds=(Kind.LOG,), statuses=()))
            return sorted({t[len(SPEAKER) :] for r in turns for t in r.item.tags if t.startswith(SPEAKER)})

    def users(self) -> Iterator[str]:
        """Every user in scope with records or sessions."""
        t = self.state.tables
        held = {r.item.user_id for r in t.memories.values()} | {u for u, _ in t.sessions}
        return iter([self.scope.outward(u) for u in sorted(held) if self.scope.mine(u)])

    def delete_user(self, user_id: str) -> int:
        """Remove everything held about the user."""
        uid = self.scope.inward(user_id)
        with self.state.transaction() as t:
            gone = [i for i, r in t.memories.items() if r.item.user_id == uid]
            for i in gone:
                del t.memories[i]
            t.history = [(s, h) for s, h in t.history if h.user_id != uid]
            t.slots = {k: v for k, v in t.slots.items() if k[0] != uid}
            t.audit = [(s, a) for s, a in t.audit if a.user_id != uid]
            t.consent.pop(uid, None)
            t.sealed = {k: v for k, v in t.sealed.items() if v.user_id != uid}
            t.sessions = {k: v for k, v in t.sessions.items() if k[0] != uid}
            return len(gone)

    def kind_counts(self) -> dict[str, int]:
        """Active records of every user by kind."""
        counts: dict[str, int] = {}
        for r in self.state.tables.memories.values():
            if r.item.status is Status.ACTIVE:
                counts[r.item.kind.value] = counts.get(r.item.kind.value, 0) + 1
        return counts


class MemorySearch(_Role):
    """Keyword (the SQL stores' BM25) and exact vector search in process."""

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """Records matching ``q`` holding any token, best first."""
        terms = list(dict.fromkeys(t for t in tokens if t.strip()))
        with self.state.lock:
            every = self._mine(user_id, MemoryQuery(statuses=()))
            docs = [r.tokens.split() for r in every if r.tokens]
            stats = KeywordStats(
                docs=len(docs),
                tokens=sum(len(d) for d in docs),
                df=[sum(t in d for d in docs) for t in terms],
            )
            rows = [{"id": r.item.id, "tokens": r.tokens} for r in self._mine(user_id, q)]
        held = set(terms)
        rows = [row for row in rows if held & set(row["tokens"].split())]
        return score_keywords(terms, terms, stats, rows, limit)

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Records matching ``q`` nearest to ``vector`` by cosine, best first."""
        v = np.asarray(vector, dtype=np.float32)
        with self.state.lock:
            found = [
                (r.item.id, r.item.embedding) for r in self._mine(user_id, q) if r.item.embedding is not None
            ]
        scored = []
        for memory_id, embedding in found:
            e = np.asarray(embedding, dtype=np.float32)
            scale = float(np.linalg.norm(e) * np.linalg.norm(v)) or 1.0
            scored.append(ScoredId(memory_id, float(np.dot(e, v)) / scale))
        scored.sort(key=lambda s: s.score, reverse=True)
        return scored[:limit]

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Vectors for the user's records that have none."""
        uid, written = self.scope.inward(user_id), 0
        with self.state.transaction() as t:
            for memory_id, vector in vectors.items():
                r = t.memories.get(memory_id)
                if r is not None and r.item.user_id == uid and r.item.embedding is None:
                    r.item.embedding = np.asarray(vector, dtype=np.float32).tolist()
                    r.seq = self.state.next_seq()
                    written += 1
        return written
