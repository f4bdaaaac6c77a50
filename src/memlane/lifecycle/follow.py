"""The profile follows a corrected memory: when a user rewrites the sentence behind a profile slot
("我叫阿白" → "我叫小白"), the slot takes the value the new sentence states, as a new version, so the
profile and the memory never disagree.

The value is read from the corrected sentence by the rule extractor (the same one that found it
first). A correction that no longer states the slot at all ("我叫阿白" → "我没有昵称") withdraws the
values this memory backed: the newest version backed by another memory becomes current again, or
the slot goes. A memory that backs no slot version (a preference keyed by subject, an event) leaves
the profile alone::

    follow = ProfileFollower(store, RuleExtractor())
    follow(item, at)    # after Editor.update() stored the corrected text
"""

from __future__ import annotations

from datetime import datetime

from memlane.domain import Actor, MemoryItem, Message, SlotVersion
from memlane.lifecycle.history import record
from memlane.store import MemoryStore
from memlane.store.tokens import tokens_for
from memlane.write.extract import Extractor

_REASON = "corrected by the user"


class ProfileFollower:
    """Brings a user's profile in line with a memory they corrected."""

    def __init__(self, store: MemoryStore, extractor: Extractor) -> None:
        self.store = store
        self.extractor = extractor

    def __call__(self, item: MemoryItem, at: datetime) -> SlotVersion | None:
        """Update the slot ``item`` backs from its (corrected) text; returns the slot's current
        version afterwards, or None when ``item`` backs no slot or the slot is gone."""
        if item.slot is None:
            return None
        uid, slot = item.user_id, item.slot
        versions = self.store.slots(uid, slot, current_only=False)
        if not any(v.memory_id == item.id for v in versions):
            return None  # a subject key, not a profile value
        stated = next(
            (
                c.value
                for c in self.extractor.extract(Message(role="user", content=item.text, at=at))
                if c.slot == slot and c.value is not None
            ),
            None,
        )
        current = next((v for v in reversed(versions) if v.current), None)
        with self.store.transaction(uid):
            if stated is None:
                return self._withdraw(item, versions, current, at)
            if current is not None and current.value == stated and current.memory_id == item.id:
                return current
            version = SlotVersion(
                user_id=uid,
                slot=slot,
                value=stated,
                version=max(v.version for v in versions) + 1,
                created_at=at,
                memory_id=item.id,
                message_ids=list(item.provenance),
                reason=_REASON,
            )
            self.store.put_slot(version)
            item.value = stated
            self.store.put(item, tokens_for(item))
            before = repr(current.value) if current is not None else None
            record(
                self.store,
                uid,
                f"profile:{slot}",
                "update",
                at,
                _REASON,
                actor=Actor.USER,
                before=before,
                after=repr(stated),
            )
            return version

    def _withdraw(
        self, item: MemoryItem, versions: list[SlotVersion], current: SlotVersion | None, at: datetime
    ) -> SlotVersion | None:
        """The corrected sentence states no value: drop the versions ``item`` backed; the newest one
        left becomes current."""
        keep = [v for v in versions if v.memory_id != item.id]
        self.store.delete_slots(item.user_id, item.slot)
        for i, v in enumerate(keep):
            v.current = i == len(keep) - 1
            self.store.put_slot(v)
        now = keep[-1] if keep else None
        record(
            self.store,
            item.user_id,
            f"profile:{item.slot}",
            "update" if now is not None else "delete",
            at,
            f"{_REASON}: the sentence no longer states it",
            actor=Actor.USER,
            before=repr(current.value) if current is not None else None,
            after=repr(now.value) if now is not None else None,
        )
        return now
