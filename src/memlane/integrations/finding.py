"""Finding items: the two ways :meth:`Items.search <memlane.integrations.items.Items.search>` answers.

- **Within one user, no filter** (the common case: the prefix names the user). A query runs
  memlane's hybrid search over the prefix's memories, and the records of the memories it found are
  read by id (each memory made from an item is tagged with its record's id); the newest other items
  fill the page after them, unscored. Without a query, the newest items are read a page at a time. The
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
from memlane.integrations.namespaces import TAG, passes, prefix_tag, tagged_items
from memlane.integrations.records import live
from memlane.memory import Memory
from memlane.vocabulary import MemoryQuery

Found = list[tuple[MemoryItem, float | None]]
"""Records with their scores (None: not found by the query), best or newest first."""

_PAGE = 50  # the most records read at a time while filling a page with the newest items


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
            scored = self._found(uid, prefix, self._hits(uid, prefix, query, wanted, now), wanted, now)
        ranked: Found = [(r, s) for r, s in sorted(scored.values(), key=lambda pair: -pair[1])]
        if len(ranked) < wanted:  # the newest other items fill the page, unscored
            # at most len(scored) of the newest are skipped: one read of ``wanted`` rows nearly always does
            for record in self._newest(uid, prefix, now, min(_PAGE, wanted)):
                if record.id not in scored:
                    ranked.append((record, None))
                    if len(ranked) >= wanted:
                        break
        return ranked

    def _found(
        self, uid: str, prefix: tuple[str, ...], hits: list[Hit], wanted: int, now: datetime
    ) -> dict[str, tuple[MemoryItem, float]]:
        """The records the hits name, with their scores: at least the ``wanted`` best, read by id a
        page at a time, best first.

        A record scores its best hit, so the order in which the hits (best first) first name the
        records is the order of their scores, and reading can stop once ``wanted`` records read
        score at least what the next one could. A record a memory names no longer (its item was
        put again with other text) scores by the memories it still names.
        """
        best = _best(hits)
        order: dict[str, float] = {}  # record id → the score of the first hit naming it
        held: dict[str, MemoryItem] = {}  # records that are hits themselves (log rows)
        for hit in sorted(hits, key=lambda h: -h.score):
            if hit.memory.kind is Kind.LOG:
                held[hit.memory.id] = hit.memory
            for record_id in (
                [hit.memory.id] if hit.memory.kind is Kind.LOG else tagged_items(hit.memory.tags)
            ):
                order.setdefault(record_id, round(hit.score, 6))
        pending = list(order)
        scored: dict[str, tuple[MemoryItem, float]] = {}
        while pending:
            if sum(score >= order[pending[0]] for _, score in scored.values()) >= wanted:
                break
            page, pending = pending[:wanted], pending[wanted:]
            unread = [i for i in page if i not in held]
            read = {r.id: r for r in self.memory.stores.records.get_many(uid, unread, embeddings=False)}
            for record_id in page:
                record = held.get(record_id) or read.get(record_id)
                score = _score(record, best) if record is not None else None
                if record is not None and score is not None and _under(record, prefix) and live(record, now):
                    scored[record_id] = (record, score)
        return scored

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

    def _newest(self, uid: str, prefix: tuple[str, ...], now: datetime, size: int) -> Iterator[MemoryItem]:
        """The user's live records under ``prefix``, most recently written first, read ``size`` at a time."""
        offset = 0
        while True:
            q = MemoryQuery(kinds=(Kind.LOG,), tags=(prefix_tag(prefix),), limit=size, offset=offset)
            page = self.memory.stores.records.query(uid, q)
            yield from (r for r in page if _is_record(r) and live(r, now))
            if len(page) < size:
                return
            offset += size

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
