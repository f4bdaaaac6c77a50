"""The user's memories as one write plan sees them: the store with the plan's own changes over it.

The statements of one message reconcile with each other too ("我最近开始喝冷萃了，不喝美式了"): the
second sees the first as if it were stored already.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memlane.domain import Kind, MemoryItem, Status
from memlane.store import Stores
from memlane.text.lang import normalize
from memlane.vocabulary import MemoryQuery

_NEAR = 8  # stored neighbours a new item is compared with


def _matches(item: MemoryItem, q: MemoryQuery) -> bool:
    """Whether a pending item passes the filters a pool query uses."""
    return (
        (not q.kinds or item.kind in q.kinds)
        and (not q.statuses or item.status in q.statuses)
        and (not q.categories or item.category.value in q.categories)
        and (q.slot is None or item.slot == q.slot)
        and (q.norm is None or normalize(item.text) == q.norm)
        and (not q.entities or bool(set(q.entities) & set(item.entities)))
        and (q.provenance is None or q.provenance in item.provenance)
        and (not q.provenances or bool(set(q.provenances) & set(item.provenance)))
    )


@dataclass
class Pool:
    """One user's active memories as a write plan sees them: the stores, with ``pending`` (the plan's
    new items and changed memories, by id) laid over it."""

    stores: Stores
    user_id: str
    pending: dict[str, MemoryItem] = field(default_factory=dict)

    def _overlay(self, found: Sequence[MemoryItem], q: MemoryQuery) -> list[MemoryItem]:
        held = [self.pending.get(m.id, m) for m in found]
        seen = {m.id for m in held}
        extra = [m for m in self.pending.values() if m.id not in seen and _matches(m, q)]
        return [m for m in [*extra, *held] if m.status is Status.ACTIVE and m.kind is not Kind.LOG]

    def query(self, q: MemoryQuery) -> list[MemoryItem]:
        """Active memories (never log turns) matching ``q``, the plan's newest first."""
        return self._overlay(self.stores.records.query(self.user_id, q), q)

    def near(self, vector: list[float], kind: Kind, limit: int = _NEAR) -> list[tuple[float, MemoryItem]]:
        """Active memories of ``kind`` closest to ``vector``, with their cosine similarity, best first."""
        v = np.asarray(vector, dtype=np.float32)
        q = MemoryQuery(kinds=(kind,))
        hits = self.stores.search.vector_search(self.user_id, v, q, limit)
        rows = {m.id: m for m in self.stores.records.get_many(self.user_id, [h.id for h in hits])}
        scored = [(h.score, self.pending.get(h.id, rows[h.id])) for h in hits if h.id in rows]
        scored += [
            (float(np.dot(np.asarray(m.embedding, dtype=np.float32), v)), m)
            for m in self.pending.values()
            if m.embedding is not None and _matches(m, q) and m.id not in rows
        ]
        live = [(s, m) for s, m in scored if m.status is Status.ACTIVE and m.kind is not Kind.LOG]
        return sorted(live, key=lambda pair: pair[0], reverse=True)[:limit]
