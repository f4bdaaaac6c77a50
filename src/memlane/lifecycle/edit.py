"""Corrections, deletion and export: the user's control over what is remembered about them.

Deleting a memory also deletes the log turns it came from, blanks its text from history (a tombstone
remains), and removes profile values it supported, so that no copy of the deleted text is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memlane.domain import Actor, Kind, MemoryItem, Source, Status
from memlane.embed import Embedder
from memlane.errors import InvalidInput, NotFound
from memlane.lifecycle.history import record
from memlane.privacy import sensitive
from memlane.settings import Settings
from memlane.store import MemoryQuery, MemoryStore, SessionStore
from memlane.store.tokens import tokens_for

_ALL = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED, Status.ARCHIVED, Status.DELETED)


class Editor:
    """User-facing edits on one store."""

    def __init__(
        self, store: MemoryStore, sessions: SessionStore, embedder: Embedder, settings: Settings
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.embedder = embedder
        self.settings = settings

    def update(self, user_id: str, memory_id: str, text: str, at: datetime) -> MemoryItem:
        """Replace a memory's text with the user's correction."""
        item = self._get(user_id, memory_id)
        findings = sensitive.scan(text)
        blocked = sorted({f.kind for f in findings} & sensitive.NEVER_STORE)
        if blocked:
            raise InvalidInput(
                f"the new text contains sensitive data ({', '.join(blocked)}); it is never stored"
            )
        before = item.text
        item.text = sensitive.redact(text, findings) if findings else text
        item.embedding = self.embedder.embed_passages([item.text])[0].tolist()
        item.source = Source.EXPLICIT
        item.confidence = 1.0
        item.updated_at = at
        item.last_verified_at = at
        with self.store.transaction(user_id):
            self.store.put(item, tokens_for(item))
            record(
                self.store,
                user_id,
                memory_id,
                "update",
                at,
                "corrected by the user",
                actor=Actor.USER,
                before=before,
                after=item.text,
            )
        return item

    def delete(self, user_id: str, ids: Sequence[str], at: datetime, reason: str) -> int:
        """Delete memories, the log turns they came from, and every copy of their text."""
        items = self.store.get_many(user_id, ids)
        if len(items) < len(set(ids)):
            missing = sorted(set(ids) - {m.id for m in items})
            raise NotFound(f"no memory {missing[0]!r}")
        sources = {p for m in items for p in m.provenance}
        logs = [
            m.id
            for source in sorted(sources)
            for m in self.store.query(
                user_id, MemoryQuery(kinds=(Kind.LOG,), statuses=_ALL, provenance=source)
            )
        ]
        gone = [*(m.id for m in items), *logs]
        with self.store.transaction(user_id):
            count = self.store.delete(user_id, gone)
            self.store.scrub_history(user_id, gone)
            for item in items:
                record(self.store, user_id, item.id, "delete", at, reason, actor=Actor.USER)
            self._drop_slot_values(user_id, {m.id for m in items})
        return count

    def forget_messages(
        self, user_id: str, message_ids: Sequence[str], at: datetime, reason: str
    ) -> set[str]:
        """Withdraw messages: what came only from them is deleted (with their log turns), what also
        came from other messages loses them as a source, and what a deleted memory had superseded is
        active again. Returns the texts of the deleted memories.
        """
        if not message_ids:
            return set()
        gone_ids = set(message_ids)
        found = {
            m.id: m
            for mid in message_ids
            for m in self.store.query(user_id, MemoryQuery(provenance=mid, statuses=_ALL))
        }
        whole = [m for m in found.values() if set(m.provenance) <= gone_ids]
        with self.store.transaction(user_id):
            for m in found.values():
                if m in whole:
                    continue
                m.provenance = [p for p in m.provenance if p not in gone_ids]
                m.updated_at = at
                self.store.put(m, tokens_for(m))
                record(
                    self.store,
                    user_id,
                    m.id,
                    "update",
                    at,
                    f"{reason}: one source withdrawn",
                    actor=Actor.USER,
                )
            self.store.delete(user_id, [m.id for m in whole])
            self.store.scrub_history(user_id, [m.id for m in whole])
            memories = [m for m in whole if m.kind is not Kind.LOG]
            for m in memories:
                record(self.store, user_id, m.id, "delete", at, reason, actor=Actor.USER)
                self._restore_superseded(m, at, reason)
            self._drop_slot_values(user_id, {m.id for m in memories})
        return {m.text for m in memories}

    def _restore_superseded(self, deleted: MemoryItem, at: datetime, reason: str) -> None:
        old = self.store.get(deleted.user_id, deleted.supersedes) if deleted.supersedes else None
        if old is None or old.status is not Status.SUPERSEDED or old.superseded_by != deleted.id:
            return
        old.status, old.superseded_by, old.valid_to, old.updated_at = Status.ACTIVE, None, None, at
        self.store.put(old, tokens_for(old))
        record(
            self.store,
            deleted.user_id,
            old.id,
            "restore",
            at,
            f"{reason}: what replaced it was withdrawn",
            actor=Actor.USER,
        )

    def forget_tags(self, user_id: str, tags: list[str], at: datetime) -> int:
        """Delete every memory carrying any of ``tags``."""
        items = self.store.query(user_id, MemoryQuery(tags=tuple(tags), statuses=_ALL))
        if not items:
            return 0
        return self.delete(user_id, [m.id for m in items], at, f"forgotten by tag: {', '.join(tags)}")

    def forget_user(self, user_id: str) -> int:
        """Delete everything held about the user."""
        count = self.store.delete_user(user_id)
        self.sessions.delete_sessions(user_id)
        return count

    # -- helpers ----------------------------------------------------------------------------------

    def _get(self, user_id: str, memory_id: str) -> MemoryItem:
        item = self.store.get(user_id, memory_id)
        if item is None or item.kind is Kind.LOG:
            raise NotFound(f"no memory {memory_id!r}")
        return item

    def _drop_slot_values(self, user_id: str, memory_ids: set[str]) -> None:
        """Remove slot versions backed by deleted memories; the newest surviving version becomes current."""
        versions = self.store.slots(user_id, current_only=False)
        touched = {v.slot for v in versions if v.memory_id in memory_ids}
        for slot in touched:
            keep = [v for v in versions if v.slot == slot and v.memory_id not in memory_ids]
            self.store.delete_slots(user_id, slot)
            for v in keep:
                v.current = False
            for i, v in enumerate(keep):
                v.current = i == len(keep) - 1
                self.store.put_slot(v)
