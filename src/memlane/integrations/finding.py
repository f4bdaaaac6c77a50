"""Finding items: the two ways :meth:`Items.search <memlane.integrations.items.Items.search>` answers.

- **Within one user, no filter** (the common case: the prefix names the user). A query runs
  memlane's hybrid search over the prefix's memories, and one query by tag fetches the records of
  the memories it found (each record is tagged with its memories' ids); the newest other items fill
  the page after them, unscored. Without a query, the newest items are read a page at a time. The
  work does not grow with the number of items under the prefix.
- **A filter, or a prefix spanning users.** Every record under the prefix is read and filtered; with
  a query, each user's hits score the records they found.

Either way, an item found by memlane ranks by its best hit (on one of its memories, or on its own
text), and one put with ``index=False`` is never ranked.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from memlane.domain import Hit, Kind, MemoryItem
from memlane.integrations.namespaces import TAG, memory_tag, passes, prefix_tag
from memlane.integrations.records import live
from memlane.memory import Memory
from memlane.vocabulary import MemoryQuery

Found = list[tuple[MemoryItem, float | None]]
"""Records with their scores (None: not found by the query), best or newest first."""

_PAGE = 50  # records read at a time while filling a page with the newest items


class Finder:
    """Searches the records of one :class:`~memlane.Memory` for :class:`~memlane.integrations.items.Items`."""

    def __init__(self, memory: Memory, caller: str) -> None:
        self.memory = memory
        self.caller = caller

    def within(
        self, uid: str, prefix: tuple[str, ...], query: str | None, wanted: int, now: datetime
    ) -> Found:
        """The first ``wanted`` items of one user under ``prefix``, ranked by ``query`` if given."""
        scored: dict[str, tuple[MemoryItem, float]] = {}
        if query is not None:
            hits = self._hits(uid, prefix, query, wanted, now)
            best = _best(hits)
            tags = tuple(memory_tag(m) for m in best)
            found = (
                self.memory.stores.records.query(uid, MemoryQuery(kinds=(Kind.LOG,), tags=tags))
                if tags
                else []
            )
            found += [h.memory for h in hits if h.memory.kind is Kind.LOG]
            for record in found:
                score = _score(record, best)
                if score is not None and _under(record, prefix) and live(record, now):
                    scored[record.id] = (record, score)
        ranked: Found = [(r, s) for r, s in sorted(scored.values(), key=lambda pair: -pair[1])]
        if len(ranked) < wanted:  # the newest other items fill the page, unscored
            for record in self._newest(uid, prefix, now):
                if record.id not in scored:
                    ranked.append((record, None))
                    if len(ranked) >= wanted:
                        break
        return ranked

    def scan(
        self,
        users: Sequence[str],
        prefix: tuple[str, ...],
        query: str | None,
        conditions: Mapping[str, Any] | None,
        wanted: int,
        now: datetime,
    ) -> Found:
        """Every item under ``prefix`` (of every user given) that passes ``conditions``, ranked."""
        candidates = [
            (uid, r)
            for uid in users
            for r in self.under(uid, prefix)
            if live(r, now) and passes(r.value["value"], conditions)
        ]
        candidates.sort(key=lambda c: c[1].updated_at or now, reverse=True)
        scores: dict[str, float] = {}
        if query is not None:
            for uid in dict.fromkeys(u for u, _ in candidates):
                mine = [r for u, r in candidates if u == uid]
                best = _best(self._hits(uid, prefix, query, max(wanted, len(mine)), now))
                for record in mine:
                    score = _score(record, best)
                    if score is not None:
                        scores[record.id] = score
            candidates.sort(key=lambda c: -scores.get(c[1].id, -1.0))
        return [(r, scores.get(r.id)) for _, r in candidates]

    def under(self, uid: str, prefix: Sequence[str]) -> list[MemoryItem]:
        """Every record of the user under ``prefix``, newest first (expired ones too)."""
        q = MemoryQuery(kinds=(Kind.LOG,), tags=(prefix_tag(prefix),))
        return [r for r in self.memory.stores.records.query(uid, q) if _is_record(r)]

    def _newest(self, uid: str, prefix: tuple[str, ...], now: datetime) -> Iterator[MemoryItem]:
        """The user's live records under ``prefix``, most recently written first, read a page at a time."""
        offset = 0
        while True:
            q = MemoryQuery(kinds=(Kind.LOG,), tags=(prefix_tag(prefix),), limit=_PAGE, offset=offset)
            page = self.memory.stores.records.query(uid, q)
            yield from (r for r in page if _is_record(r) and live(r, now))
            if len(page) < _PAGE:
                return
            offset += _PAGE

    def _hits(self, uid: str, prefix: tuple[str, ...], query: str, wanted: int, now: datetime) -> list[Hit]:
        return self.memory.search(
            query,
            user_id=uid,
            limit=min(1000, max(20, 2 * wanted)),
            tags=[prefix_tag(prefix)],
            min_score=0.0,
            now=now,
            caller=self.caller,
        )


def _best(hits: list[Hit]) -> dict[str, float]:
    best: dict[str, float] = {}
    for hit in hits:
        best[hit.memory.id] = max(best.get(hit.memory.id, 0.0), round(hit.score, 6))
    return best


def _score(record: MemoryItem, best: dict[str, float]) -> float | None:
    """A record's best hit: on one of its memories, or on its own text (maintenance gives log rows
    vectors); None when it was not found, and always for an item put with ``index=False``."""
    if not record.value.get("texts"):
        return None
    found = [best[m] for m in [record.id, *record.value.get("memories", [])] if m in best]
    return max(found) if found else None


def _is_record(row: MemoryItem) -> bool:
    return bool(row.slot and row.slot.startswith(TAG) and isinstance(row.value, dict))


def _under(record: MemoryItem, prefix: tuple[str, ...]) -> bool:
    return _is_record(record) and tuple(record.value["namespace"][: len(prefix)]) == prefix
