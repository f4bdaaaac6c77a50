"""Corrections and deletion: the user's control over what is remembered about them.

Deleting a memory also deletes the log turns it came from, blanks its text from history (a tombstone
remains), removes profile values it supported and the turns of live sessions that said it, and
removes what was built from it: a digest or trend that compressed it goes (its other sources become
active again, to be compressed afresh by the next maintenance), so does a session summary that
recounts it, and the user summary is rebuilt. So no copy of the deleted text is left. Every change
made here is recorded in the user's audit log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from memlane import profile
from memlane.domain import Actor, Flag, Kind, MemoryItem, Message, Source, Status
from memlane.embed import Embedder
from memlane.errors import InvalidInput, NotFound
from memlane.lifecycle.history import record
from memlane.lifecycle.portrait import SLOT, Portrait
from memlane.privacy import audit, sensitive
from memlane.privacy.policy import SensitivePolicy
from memlane.profile import holds, spec
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import indexed, tokens_for
from memlane.vocabulary import MemoryQuery
from memlane.write.extract import RuleExtractor

_ALL = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED, Status.ARCHIVED, Status.DELETED)


def _derived(item: MemoryItem) -> bool:
    """Whether ``item`` was built from other memories (a summary, digest, trend or portrait)."""
    return item.kind is Kind.SUMMARY or Flag.DERIVED in item.flags


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
        slots = {item.slot} if item.slot else set()
        item.text = sensitive.redact(text, findings) if findings else text
        item.source = Source.EXPLICIT
        item.confidence = 1.0
        item.updated_at = at
        item.last_verified_at = at
        self._restate(item, at)
        item.embedding = self.embedder.embed_passages([indexed(item)])[0].tolist()
        with self.stores.records.transaction(user_id):
            self.stores.records.put(item, tokens_for(item))
            self.stores.sealed.delete(user_id, [memory_id])  # the sealed original said the old text
            slots |= {s for m in self._retire_others(item, at) for s in (m.slot,) if s}
            if item.supersedes and item.slot not in slots:
                # what it had replaced on a slot it no longer states is current again
                back = self._restore_superseded(item, at, "corrected by the user")
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

    def _restate(self, item: MemoryItem, at: datetime) -> None:
        """Read the corrected text as the write path reads a message: the slot it states now (or none),
        so the profile follows the correction ("我住在上海" → "我住在杭州" moves home_city)."""
        found = [c for c in self.extractor.extract(Message("user", item.text, at)) if c.slot]
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
                user_id, MemoryQuery(kinds=(Kind.LOG,), statuses=_ALL, provenance=source)
            )
        ]
        logs = [m.id for m in turns]
        gone = [*(m.id for m in items), *logs]
        with self.stores.records.transaction(user_id):
            count = self.stores.records.delete(user_id, gone)
            self._reindex_after(user_id, [*turns, *(m for m in items if m.kind is Kind.LOG)], set(gone))
            self.stores.history.scrub(user_id, gone)
            for item in items:
                record(self.stores, user_id, item.id, "delete", at, reason, actor=Actor.USER)
                self._restore_superseded(item, at, reason)
            self._drop_slot_values(user_id, items, at, reason)
            derived = self._drop_derived(user_id, {m.id for m in items}, sources, at)
            self._scrub_sessions(user_id, sources, {m.text for m in items})
            detail = f"{len(items)} memories, {len(logs)} log turns, {len(derived)} derived items: {reason}"
            audit.record(self.stores, user_id, op, at, [*gone, *derived], caller=caller, detail=detail)
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
            for m in self.stores.records.query(user_id, MemoryQuery(provenance=mid, statuses=_ALL))
            if not _derived(m)
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
            self._reindex_after(user_id, [m for m in whole if m.kind is Kind.LOG], {m.id for m in whole})
            memories = [m for m in whole if m.kind is not Kind.LOG]
            for m in memories:
                record(self.stores, user_id, m.id, "delete", at, reason, actor=Actor.USER)
                self._restore_superseded(m, at, reason)
            self._drop_slot_values(user_id, memories, at, reason)
            derived = self._drop_derived(user_id, {m.id for m in memories}, gone_ids, at)
            if whole or derived or always:
                ids = [*(m.id for m in whole), *derived]
                audit.record(self.stores, user_id, "forget", at, ids, caller=caller, detail=reason)
        return memories

    def _restore_superseded(self, deleted: MemoryItem, at: datetime, reason: str) -> MemoryItem | None:
        """What ``deleted`` had superseded, active again (None when there is nothing to restore)."""
        old = self.stores.records.get(deleted.user_id, deleted.supersedes) if deleted.supersedes else None
        if old is None or old.status is not Status.SUPERSEDED or old.superseded_by != deleted.id:
            return None
        old.status, old.superseded_by, old.valid_to, old.updated_at = Status.ACTIVE, None, None, at
        self.stores.records.put(old, tokens_for(old))
        record(
            self.stores,
            deleted.user_id,
            old.id,
            "restore",
            at,
            f"{reason}: what replaced it was withdrawn",
            actor=Actor.USER,
        )
        return old

    def forget_tags(self, user_id: str, tags: list[str], at: datetime, caller: str | None = None) -> int:
        """Delete every memory carrying any of ``tags``."""
        items = self.stores.records.query(user_id, MemoryQuery(tags=tuple(tags), statuses=_ALL))
        if not items:
            return 0
        # the tombstone names no tag: a tag is a word of the text that was deleted
        return self.delete(user_id, [m.id for m in items], at, "forgotten by tag", op="forget", caller=caller)

    def forget_session(self, user_id: str, session_id: str, at: datetime, caller: str | None = None) -> int:
        """Delete one conversation: its short-term memory, its log turns, and what was learned only
        from it (with everything built from that). Returns how many memories went (log turns aside).
        """
        session = next(
            (s for s in self.stores.sessions.list_sessions(user_id, None) if s.id == session_id), None
        )
        said = self.stores.records.query(user_id, MemoryQuery(session_id=session_id, statuses=_ALL))
        messages = {t.message_id for t in session.turns} if session is not None else set()
        messages |= {p for m in said if m.kind is Kind.LOG or not _derived(m) for p in m.provenance}
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

    # -- helpers ----------------------------------------------------------------------------------

    def _get(self, user_id: str, memory_id: str) -> MemoryItem:
        item = self.stores.records.get(user_id, memory_id)
        if item is None or item.kind is Kind.LOG:
            raise NotFound(f"no memory {memory_id!r}")
        return item

    def _drop_slot_values(
        self, user_id: str, deleted: Sequence[MemoryItem], at: datetime, reason: str
    ) -> None:
        """Remove the slot versions deleted memories set (they hold the deleted value), then record
        what the surviving memories now say (a restored one's value, or a retraction)."""
        memory_ids = {m.id for m in deleted}
        versions = self.stores.profile.slots(user_id, current_only=False)
        touched = {v.slot for v in versions if v.memory_id in memory_ids}
        for slot in touched:
            keep = [v for v in versions if v.slot == slot and v.memory_id not in memory_ids]
            self.stores.profile.delete(user_id, slot)
            for i, v in enumerate(keep):
                v.current = i == len(keep) - 1
                self.stores.profile.put(v)
        slots = touched | profile.slots_of(deleted)
        profile.sync(self.stores, user_id, slots, at, reason, actor=Actor.USER)

    def _drop_derived(
        self, user_id: str, memory_ids: set[str], message_ids: Iterable[str], at: datetime
    ) -> list[str]:
        """Remove what was built from deleted memories or messages; returns the ids removed.

        A digest or trend goes and the sources it had archived are active again (the next maintenance
        compresses them afresh, without the deleted one); a session summary goes; the user summary
        goes with every earlier version (each one's history holds the one before) and is rebuilt.
        """
        hit: dict[str, MemoryItem] = {}
        for source in sorted({*memory_ids, *message_ids}):
            for m in self.stores.records.query(user_id, MemoryQuery(provenance=source, statuses=_ALL)):
                if _derived(m) and m.id not in memory_ids:
                    hit[m.id] = m
        if not hit:
            return []
        portrait = any(m.slot == SLOT for m in hit.values())
        if portrait:
            everyone = MemoryQuery(kinds=(Kind.SUMMARY,), slot=SLOT, statuses=_ALL)
            hit.update({m.id: m for m in self.stores.records.query(user_id, everyone)})
        revived = {
            s.id: s
            for m in hit.values()
            for p in m.provenance
            for s in self.stores.records.query(
                user_id, MemoryQuery(provenance=p, statuses=(Status.ARCHIVED,))
            )
            if s.superseded_by in hit and s.id not in hit and s.id not in memory_ids
        }
        gone = list(hit)
        self.stores.records.delete(user_id, gone)
        self.stores.history.scrub(user_id, gone)
        for m in hit.values():
            record(self.stores, user_id, m.id, "delete", at, "built from a deleted memory", actor=Actor.USER)
        for s in revived.values():
            s.status, s.superseded_by, s.updated_at = Status.ACTIVE, None, at
            self.stores.records.put(s, tokens_for(s))
            record(self.stores, user_id, s.id, "restore", at, "what it was compressed into was deleted")
        if portrait:
            Portrait(self.stores, self.embedder).rebuild(user_id, at)
        return gone

    def _reindex_after(self, user_id: str, turns: list[MemoryItem], gone: set[str]) -> None:
        """A log turn is indexed and embedded with the turn before it (write/pipeline.py), so the turn
        that followed a deleted one is indexed again on its own: no word of the deleted turn stays.
        """
        for turn in turns:
            if turn.created_at is None:
                continue
            later = MemoryQuery(
                kinds=(Kind.LOG,),
                statuses=_ALL,
                session_id=turn.session_id,
                since=turn.valid_from or turn.created_at,
                newest_first=False,
                limit=len(gone) + 2,
            )
            after = [
                m
                for m in self.stores.records.query(user_id, later)
                if m.id not in gone and m.session_id == turn.session_id
            ]
            if after:
                following = after[0]
                following.embedding = self.embedder.embed_passages([following.text])[0].tolist()
                self.stores.records.put(following, tokens_for(following))

    def _scrub_sessions(self, user_id: str, message_ids: set[str], texts: set[str]) -> None:
        """Live sessions forget the turns that said deleted memories, and their summary lines."""
        for session in self.stores.sessions.list_sessions(user_id, None):
            turns = [t for t in session.turns if t.message_id not in message_ids]
            lines = [line for line in session.summary.split("\n") if line not in texts]
            notes = [n for n in session.notes if n not in texts]
            if (
                len(turns) == len(session.turns)
                and len(notes) == len(session.notes)
                and ("\n".join(lines) == session.summary)
            ):
                continue
            session.turns, session.notes, session.summary = turns, notes, "\n".join(lines)
            self.stores.sessions.save_session(session)
