"""Feedback on a recalled memory: helpful strengthens it, outdated expires it, wrong supersedes it
(what it had replaced is current again) and lowers trust in the other memories that came from the
same message. The profile follows: a slot a memory marked wrong or outdated set is retracted, or
falls back to the memory that is current again.
"""

from __future__ import annotations

from datetime import datetime

from memlane import profile
from memlane.domain import Actor, Kind, MemoryItem, Status
from memlane.errors import InvalidInput, NotFound
from memlane.lifecycle.history import record
from memlane.privacy import audit
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.vocabulary import MemoryQuery
from memlane.write.turns import mark_outdated

VERDICTS = ("helpful", "wrong", "outdated")
_TRUST_PENALTY = 0.8


class Feedback:
    """Applies a user's or an application's verdict on one memory."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores

    def apply(
        self,
        user_id: str,
        memory_id: str,
        verdict: str,
        note: str | None,
        at: datetime,
        caller: str | None = None,
    ) -> MemoryItem:
        """Record the verdict and change the memory accordingly; returns the memory as it now is."""
        if verdict not in VERDICTS:
            raise InvalidInput(f"feedback must be one of {', '.join(VERDICTS)}, not {verdict!r}")
        item = self.stores.records.get(user_id, memory_id)
        if item is None or item.kind is Kind.LOG:
            raise NotFound(f"no memory {memory_id!r}")
        reason = f"feedback: {verdict}" + (f" ({note})" if note else "")
        with self.stores.records.transaction(user_id):
            if verdict == "helpful":
                item.importance = round(min(1.0, item.importance + 0.1), 3)
                item.confidence = round(min(1.0, item.confidence + 0.05), 3)
                item.last_verified_at = at
            elif verdict == "outdated":
                item.status = Status.EXPIRED
                item.valid_to = at
            else:
                item.status = Status.SUPERSEDED
                item.confidence = 0.0
                item.valid_to = at
                self._distrust_siblings(item, at)
            item.updated_at = at
            self.stores.records.put(item, tokens_for(item))
            record(self.stores, user_id, item.id, "feedback", at, reason, actor=Actor.USER)
            if verdict != "helpful":
                restored = self._restore_replaced(item, at, reason) if verdict == "wrong" else None
                mark_outdated(self.stores, [item])
                slots = profile.slots_of([item, *([restored] if restored else [])])
                profile.sync(self.stores, user_id, slots, at, reason, actor=Actor.USER)
            audit.record(self.stores, user_id, "feedback", at, [item.id], caller=caller, detail=verdict)
        return item

    def _restore_replaced(self, wrong: MemoryItem, at: datetime, reason: str) -> MemoryItem | None:
        """What a wrong memory had superseded is current again: the change it recorded did not happen."""
        old = self.stores.records.get(wrong.user_id, wrong.supersedes) if wrong.supersedes else None
        if old is None or old.status is not Status.SUPERSEDED or old.superseded_by != wrong.id:
            return None
        old.status, old.superseded_by, old.valid_to, old.updated_at = Status.ACTIVE, None, None, at
        self.stores.records.put(old, tokens_for(old))
        record(self.stores, wrong.user_id, old.id, "restore", at, f"{reason}: what replaced it was wrong")
        return old

    def _distrust_siblings(self, wrong: MemoryItem, at: datetime) -> None:
        """Memories extracted from the same message as a wrong one are less certain too."""
        for source in wrong.provenance:
            for sibling in self.stores.records.query(wrong.user_id, MemoryQuery(provenance=source)):
                if sibling.id == wrong.id or sibling.kind is Kind.LOG:
                    continue
                sibling.confidence = round(sibling.confidence * _TRUST_PENALTY, 3)
                sibling.updated_at = at
                self.stores.records.put(sibling, tokens_for(sibling))
