"""Corrections and deletion: the user's control over what is remembered about them.

Deleting a memory also deletes the log turns it came from, blanks its text from history (a tombstone
remains), removes profile values it supported and the turns of live sessions that said it, and
removes what was built from it: a digest or trend that compressed it goes (its other sources become
active again, to be compressed afresh by the next maintenance), so does a session summary that
recounts it, and the user summary is rebuilt. So no copy of the deleted text is left. Every change
made here is recorded in the user's audit log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memlane import profile
from memlane.domain import Actor, Candidate, Kind, MemoryItem, Message, Source, Status
from memlane.embed import Embedder
from memlane.errors import InvalidInput, NotFound
from memlane.lifecycle import copies
from memlane.lifecycle.copies import EVERY_STATUS, derived
from memlane.lifecycle.history import record
from memlane.privacy import audit, sensitive
from memlane.privacy.policy import SensitivePolicy
from memlane.profile import holds, spec
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import SPEAKER, indexed, tokens_for
from memlane.vocabulary import MemoryQuery
from memlane.write.extract import RuleExtractor
from memlane.write.turns import mark_outdated


class Editor:
    """User-facing edits on one store."""

    def __init__(self, stores: Stores, embedder: Embedder, settings: Settings) -> None:
        self.extractor = RuleExtractor()  # an edit is read by the rules: it costs no LLM call
        self.stores = stores
        self.embedder = embedder
        self.settings = settings
        self.policy = SensitivePolicy.from_settings(settings)

    def update(
        self, user_id: str, memory_id: str, text: str, at: datetime, caller: str | None = None
    ) -> MemoryItem:
        """Replace a memory's text with the user's correction (masked as the privacy policy says)."""
        item = self._get(user_id, memory_id)
        findings = sensitive.scan(text)
        blocked = sorted({f.kind for f in findings if self.policy.of(f.kind) == "drop"})
        if blocked:
            raise InvalidInput(
                f"the new text contains {sensitive.described(blocked)}; the privacy policy drops it"
            )
        before = item.text
        said = replace(item)  # as it was: the log turns it came from say that, and are outdated now
        slots = {item.slot} if item.slot else set()
        item.text = sensitive.redact(text, findings) if findings else text
        item.source = Source.EXPLICIT
        item.confidence = 1.0
        item.updated_at = at
        item.last_verified_at = at
        self._restate(item, at, before)
        item.embedding = self.embedder.embed_passages([indexed(item)])[0].tolist()
        with self.stores.records.transaction(user_id):
            self.stores.records.put(item, tokens_for(item))
            mark_outdated(self.stores, [said])
            self.stores.sealed.delete(user_id, [memory_id])  # the sealed original said the old text
            slots |= {s for m in self._retire_others(item, at) for s in (m.slot,) if s}
            if item.supersedes and item.slot not in slots:
                # what it had replaced on a slot it no longer states is current again
                back = copies.restore_superseded(self.stores, item, at, "corrected by the user")
                slots |= profile.slots_of([back] if back else [])
            profile.sync(
                self.stores, user_id, {*slots, item.slot or ""}, at, "corrected by the user", actor=Actor.USER
            )
            record(
                self.stores,
                user_id,
                memory_id,
                "update",
                at,
                "corrected by the user",
                actor=Actor.USER,
                before=before,
                after=item.text,
            )
            audit.record(
                self.stores, user_id, "update", at, [memory_id], caller=caller, detail="text corrected"
            )
        return item

    def _restate(self, item: MemoryItem, at: datetime, before: str) -> None:
        """Read the corrected text as the write path reads a message: the slot it states now (or none),
        so the profile follows the correction ("我住在上海" → "我住在杭州" moves home_city), and an
        episode's day ("我周二去北京出差" → "我周三…": it moves by as much as the day the words name,
        both read as of when the memory was first said)."""
        said = self.extractor.extract(Message("user", item.text, item.created_at or at))
        new, old = _day(said), _day(self.extractor.extract(Message("user", before, item.created_at or at)))
        moved = new - old if new is not None and old is not None else None
        if item.kind is Kind.EPISODIC and moved and item.valid_from is not None:
            item.valid_from += moved
            if item.expires_at is not None:
                item.expires_at += moved  # a plan still expires as long after its day
        found = [c for c in said if c.slot]
        stated = [c for c in found if holds(c.slot or "", c.value) and c.value is not None]
        same = [c for c in stated if c.slot == item.slot]
        chosen = next(iter(same or [c for c in stated if spec(c.slot or "").profile]), None)
        if chosen is None:
            if item.kind is Kind.PROFILE or (item.slot and item.value is not None):
                item.slot, item.value = None, None  # the correction no longer states the slot's value
                item.kind = Kind.SEMANTIC if item.kind is Kind.PROFILE else item.kind
            return
        item.slot, item.value, item.polarity = chosen.slot, chosen.value, chosen.polarity
        item.category = chosen.category
        if spec(chosen.slot or "").profile:
            item.kind = Kind.PROFILE
        elif item.kind is Kind.PROFILE:
            item.kind = Kind.SEMANTIC

    def _retire_others(self, item: MemoryItem, at: datetime) -> list[MemoryItem]:
        """The user's correction stands alone: other memories that state another value of its one-value
        slot (or the same value of a slot it excludes) are superseded by it."""
        if not item.slot or item.value is None:
            return []
        rules = spec(item.slot)
        others = [
            m
            for m in self.stores.records.query(item.user_id, MemoryQuery(slot=item.slot))
            if m.id != item.id
            and m.kind is not Kind.LOG
            and m.value is not None
            and rules.changes(m.value, item.value)
        ]
        for slot in rules.exclusive:
            others += [
                m
                for m in self.stores.records.query(item.user_id, MemoryQuery(slot=slot))
                if m.value == item.value
            ]
        for old in others:
            old.status, old.superseded_by, old.valid_to, old.updated_at = Status.SUPERSEDED, item.id, at, at
            self.stores.records.put(old, tokens_for(old))
            record(
                self.stores,
                item.user_id,
                old.id,
                "supersede",
                at,
                "the user's correction of another memory says otherwise",
                actor=Actor.USER,
                before=old.text,
                after=item.text,
            )
        return others

    def delete(
        self,
        user_id: str,
        ids: Sequence[str],
        at: datetime,
        reason: str,
        op: str = "delete",
        caller: str | None = None,
    ) -> int:
        """Delete memories, the log turns they came from, what was built from them, and every copy of
        their text. ``op`` is how the audit log names it (``delete``, or ``forget`` for a tag).
        """
        items = self.stores.records.get_many(user_id, ids)
        if len(items) < len(set(ids)):
            missing = sorted(set(ids) - {m.id for m in items})
            raise NotFound(f"no memory {missing[0]!r}")
        sources = {p for m in items for p in m.provenance}
        turns = [
            m
            for source in sorted(sources)
            for m in self.stores.records.query(
                user_id, MemoryQuery(kinds=(Kind.LOG,), statuses=EVERY_STATUS, provenance=source)
            )
        ]
        logs = [m.id for m in turns]
        gone = [*(m.id for m in items), *logs]
        with self.stores.records.transaction(user_id):
            count = self.stores.records.delete(user_id, gone)
            copies.reindex_after(
                self.stores,
                self.embedder,
                user_id,
                [*turns, *(m for m in items if m.kind is Kind.LOG)],
                set(gone),
            )
            self.stores.history.scrub(user_id, gone)
            for item in items:
                record(self.stores, user_id, item.id, "delete", at, reason, actor=Actor.USER)
                copies.restore_superseded(self.stores, item, at, reason)
            copies.drop_slot_values(self.stores, user_id, items, at, reason)
            built = copies.drop_derived(
                self.stores, self.embedder, user_id, {m.id for m in items}, sources, at
            )
            copies.scrub_sessions(self.stores, user_id, sources, {m.text for m in items})
            detail = f"{len(items)} memories, {len(logs)} log turns, {len(built)} derived items: {reason}"
            audit.record(self.stores, user_id, op, at, [*gone, *built], caller=caller, detail=detail)
        return count

    def forget_messages(
        self, user_id: str, message_ids: Sequence[str], at: datetime, reason: str
    ) -> set[str]:
        """Withdraw messages: what came only from them is deleted (with their log turns), what also
        came from other messages loses them as a source, what was built from them (summaries,
        digests, trends) is removed, and what a deleted memory had superseded is active again.
        Returns the texts of the deleted memories.
        """
        return {m.text for m in self._forget_messages(user_id, message_ids, at, reason)}

    def forget_memories(self, user_id: str, memory_ids: Sequence[str], at: datetime, reason: str) -> set[str]:
        """Delete the memories of ``memory_ids`` still held, as :meth:`delete` does (with their log
        turns, what was built from them and every copy); returns their texts."""
        items = self.stores.records.get_many(user_id, list(memory_ids))
        if not items:
            return set()
        self.delete(user_id, [m.id for m in items], at, reason, op="forget")
        return {m.text for m in items}

    def _forget_messages(
        self,
        user_id: str,
        message_ids: Sequence[str],
        at: datetime,
        reason: str,
        always: bool = False,
        caller: str | None = None,
    ) -> list[MemoryItem]:
        """:meth:`forget_messages`, returning the deleted memories; ``always`` audits even when
        nothing was stored from the messages.
        """
        if not message_ids and not always:
            return []
        gone_ids = set(message_ids)
        found = {
            m.id: m
            for mid in message_ids
            for m in self.stores.records.query(user_id, MemoryQuery(provenance=mid, statuses=EVERY_STATUS))
            if not derived(m)
        }
        whole = [m for m in found.values() if set(m.provenance) <= gone_ids]
        with self.stores.records.transaction(user_id):
            for m in found.values():
                if m in whole:
                    continue
                m.provenance = [p for p in m.provenance if p not in gone_ids]
                m.updated_at = at
                self.stores.records.put(m, tokens_for(m))
                record(
                    self.stores,
                    user_id,
                    m.id,
                    "update",
                    at,
                    f"{reason}: one source withdrawn",
                    actor=Actor.USER,
                )
            self.stores.records.delete(user_id, [m.id for m in whole])
            self.stores.history.scrub(user_id, [m.id for m in whole])
            copies.reindex_after(
                self.stores,
                self.embedder,
                user_id,
                [m for m in whole if m.kind is Kind.LOG],
                {m.id for m in whole},
            )
            memories = [m for m in whole if m.kind is not Kind.LOG]
            for m in memories:
                record(self.stores, user_id, m.id, "delete", at, reason, actor=Actor.USER)
                copies.restore_superseded(self.stores, m, at, reason)
            copies.drop_slot_values(self.stores, user_id, memories, at, reason)
            built = copies.drop_derived(
                self.stores, self.embedder, user_id, {m.id for m in memories}, gone_ids, at
            )
            if whole or built or always:
                ids = [*(m.id for m in whole), *built]
                audit.record(self.stores, user_id, "forget", at, ids, caller=caller, detail=reason)
        return memories

    def forget_tags(self, user_id: str, tags: list[str], at: datetime, caller: str | None = None) -> int:
        """Delete every memory carrying any of ``tags``, and with a log turn carrying one (a
        ``speaker:`` tag) what was learned only from that turn: forgetting what Bob said forgets the
        memories and the profile values drawn from his words, not just the turns."""
        items = self.stores.records.query(user_id, MemoryQuery(tags=tuple(tags), statuses=EVERY_STATUS))
        if not items:
            return 0
        turns = sorted({p for m in items if m.kind is Kind.LOG for p in m.provenance})
        speakers = {t for t in tags if t.startswith(SPEAKER)}

        def also_said(m: MemoryItem) -> bool:
            """Whether another speaker said ``m`` too, and only a speaker's tag named it: it stays,
            without that speaker's turns as sources and without their tag."""
            said_by = {t for t in m.tags if t.startswith(SPEAKER)}
            return bool(said_by - speakers) and set(tags) & set(m.tags) <= speakers

        with self.stores.records.transaction(user_id):
            learned = self._forget_messages(user_id, turns, at, "forgotten by tag", caller=caller)
            copies.scrub_sessions(self.stores, user_id, set(turns), {m.text for m in learned})
            gone = {m.id for m in learned} | {m.id for m in items if m.kind is Kind.LOG}
            kept = [m.id for m in items if m.id not in gone and also_said(m)]
            rest = [m.id for m in items if m.id not in gone and m.id not in kept]
            for m in self.stores.records.get_many(user_id, kept) if kept else []:
                m.tags = [t for t in m.tags if t not in speakers]  # the name goes with what they said
                m.updated_at = at
                self.stores.records.put(m, tokens_for(m))
            # the tombstone names no tag: a tag is a word of the text that was deleted
            count = (
                self.delete(user_id, rest, at, "forgotten by tag", op="forget", caller=caller) if rest else 0
            )
        return count + len(learned) + sum(1 for m in items if m.kind is Kind.LOG)

    def forget_session(self, user_id: str, session_id: str, at: datetime, caller: str | None = None) -> int:
        """Delete one conversation: its short-term memory, its log turns, and what was learned only
        from it (with everything built from that). Returns how many memories went (log turns aside).
        """
        session = next(
            (s for s in self.stores.sessions.list_sessions(user_id, None) if s.id == session_id), None
        )
        said = self.stores.records.query(user_id, MemoryQuery(session_id=session_id, statuses=EVERY_STATUS))
        messages = {t.message_id for t in session.turns} if session is not None else set()
        messages |= {p for m in said if m.kind is Kind.LOG or not derived(m) for p in m.provenance}
        if session is None and not said:
            raise NotFound(f"no session {session_id!r}")
        with self.stores.records.transaction(user_id):
            gone = self._forget_messages(
                user_id, sorted(messages), at, "a conversation deleted", always=True, caller=caller
            )
            self.stores.sessions.delete_session(user_id, session_id)
        return len(gone)

    def forget_user(self, user_id: str) -> int:
        """Delete everything held about the user (the audit log and consent settings too)."""
        count = self.stores.records.delete_user(user_id)
        self.stores.sessions.delete_sessions(user_id)
        return count

    def _get(self, user_id: str, memory_id: str) -> MemoryItem:
        item = self.stores.records.get(user_id, memory_id)
        if item is None or item.kind is Kind.LOG:
            raise NotFound(f"no memory {memory_id!r}")
        return item


def _day(found: list[Candidate]) -> datetime | None:
    """The first day the candidates name."""
    return next((c.event_time for c in found if c.event_time is not None), None)
