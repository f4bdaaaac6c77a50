"""The copies a deletion reaches beyond the deleted rows: what a deleted memory had superseded comes
back, the profile versions it set go, what was built from it (digests, trends, session summaries, the
user summary) goes, the turn after a deleted log turn is indexed again without it, and live sessions
forget the turns and summary lines that said it. :class:`~memlane.lifecycle.edit.Editor` calls these
inside the user's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from memlane import profile
from memlane.domain import Actor, Flag, Kind, MemoryItem, Status
from memlane.embed import Embedder
from memlane.lifecycle.history import record
from memlane.lifecycle.portrait import SLOT, Portrait
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.vocabulary import MemoryQuery

EVERY_STATUS = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED, Status.ARCHIVED, Status.DELETED)


def derived(item: MemoryItem) -> bool:
    """Whether ``item`` was built from other memories (a summary, digest, trend or portrait)."""
    return item.kind is Kind.SUMMARY or Flag.DERIVED in item.flags


def restore_superseded(stores: Stores, deleted: MemoryItem, at: datetime, reason: str) -> MemoryItem | None:
    """What ``deleted`` had superseded, active again (None when there is nothing to restore)."""
    old = stores.records.get(deleted.user_id, deleted.supersedes) if deleted.supersedes else None
    if old is None or old.status is not Status.SUPERSEDED or old.superseded_by != deleted.id:
        return None
    old.status, old.superseded_by, old.valid_to, old.updated_at = Status.ACTIVE, None, None, at
    stores.records.put(old, tokens_for(old))
    record(
        stores,
        deleted.user_id,
        old.id,
        "restore",
        at,
        f"{reason}: what replaced it was withdrawn",
        actor=Actor.USER,
    )
    return old


def drop_slot_values(
    stores: Stores, user_id: str, deleted: Sequence[MemoryItem], at: datetime, reason: str
) -> None:
    """Remove the slot versions deleted memories set (they hold the deleted value) and blank the
    values in those slots' history, then record what the surviving memories now say (a restored
    one's value, or a retraction)."""
    memory_ids = {m.id for m in deleted}
    versions = stores.profile.slots(user_id, current_only=False)
    touched = {v.slot for v in versions if v.memory_id in memory_ids}
    stores.history.scrub(user_id, [f"profile:{slot}" for slot in sorted(touched)])
    for slot in touched:
        keep = [v for v in versions if v.slot == slot and v.memory_id not in memory_ids]
        stores.profile.delete(user_id, slot)
        for i, v in enumerate(keep):
            v.current = i == len(keep) - 1
            stores.profile.put(v)
    slots = touched | profile.slots_of(deleted)
    profile.sync(stores, user_id, slots, at, reason, actor=Actor.USER)


def drop_derived(
    stores: Stores,
    embedder: Embedder,
    user_id: str,
    memory_ids: set[str],
    message_ids: Iterable[str],
    at: datetime,
) -> list[str]:
    """Remove what was built from deleted memories or messages; returns the ids removed.

    A digest or trend goes and the sources it had archived are active again (the next maintenance
    compresses them afresh, without the deleted one); a session summary goes; the user summary
    goes with every earlier version (each one's history holds the one before) and is rebuilt.
    """
    hit: dict[str, MemoryItem] = {}
    for source in sorted({*memory_ids, *message_ids}):
        for m in stores.records.query(user_id, MemoryQuery(provenance=source, statuses=EVERY_STATUS)):
            if derived(m) and m.id not in memory_ids:
                hit[m.id] = m
    if not hit:
        return []
    portrait = any(m.slot == SLOT for m in hit.values())
    if portrait:
        everyone = MemoryQuery(kinds=(Kind.SUMMARY,), slot=SLOT, statuses=EVERY_STATUS)
        hit.update({m.id: m for m in stores.records.query(user_id, everyone)})
    revived = {
        s.id: s
        for m in hit.values()
        for p in m.provenance
        for s in stores.records.query(user_id, MemoryQuery(provenance=p, statuses=(Status.ARCHIVED,)))
        if s.superseded_by in hit and s.id not in hit and s.id not in memory_ids
    }
    gone = list(hit)
    stores.records.delete(user_id, gone)
    stores.history.scrub(user_id, gone)
    for m in hit.values():
        record(stores, user_id, m.id, "delete", at, "built from a deleted memory", actor=Actor.USER)
    for s in revived.values():
        s.status, s.superseded_by, s.updated_at = Status.ACTIVE, None, at
        stores.records.put(s, tokens_for(s))
        record(stores, user_id, s.id, "restore", at, "what it was compressed into was deleted")
    if portrait:
        Portrait(stores, embedder).rebuild(user_id, at)
    return gone


def reindex_after(
    stores: Stores, embedder: Embedder, user_id: str, turns: list[MemoryItem], gone: set[str]
) -> None:
    """A log turn is indexed and embedded with the turn before it (write/pipeline.py), so the turn
    that followed a deleted one is indexed again on its own: no word of the deleted turn stays.
    """
    for turn in turns:
        if turn.created_at is None:
            continue
        later = MemoryQuery(
            kinds=(Kind.LOG,),
            statuses=EVERY_STATUS,
            session_id=turn.session_id,
            since=turn.valid_from or turn.created_at,
            newest_first=False,
            limit=len(gone) + 2,
        )
        after = [
            m
            for m in stores.records.query(user_id, later)
            if m.id not in gone and m.session_id == turn.session_id
        ]
        if after:
            following = after[0]
            following.embedding = embedder.embed_passages([following.text])[0].tolist()
            stores.records.put(following, tokens_for(following))


def scrub_sessions(stores: Stores, user_id: str, message_ids: set[str], texts: set[str]) -> None:
    """Live sessions forget the turns that said deleted memories, what those turns set for the
    session, and the notes and summary lines that say them."""
    for session in stores.sessions.list_sessions(user_id, None):
        changed = session.forget_messages(message_ids, texts)
        summary = "\n".join(line for line in session.summary.split("\n") if line not in texts)
        if not changed and summary == session.summary:
            continue
        session.summary = summary
        stores.sessions.save_session(session)
