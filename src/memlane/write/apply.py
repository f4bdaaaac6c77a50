"""Carry out a :class:`~memlane.write.plan.WritePlan` in one transaction.

Every step writes the final state it holds and the history record that says why; the profile's
versions, the sealed originals, withdrawn messages and the audit entry go in the same transaction,
so a crash leaves either all of a message or none of it.
"""

from __future__ import annotations

from memlane.domain import HistoryRecord, MemoryItem
from memlane.profile import record as record_version
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.write.plan import (
    Audit,
    Correct,
    ForgetMemories,
    ForgetMessages,
    Insert,
    LogTurn,
    Merge,
    Reflag,
    Resolve,
    RetractSlot,
    Seal,
    SetSlot,
    Supersede,
    UserEdits,
    WritePlan,
)


def _history(
    stores: Stores, item: MemoryItem, op: str, reason: str, before: str | None, after: str | None
) -> None:
    assert item.updated_at is not None
    stores.history.add(
        HistoryRecord(
            user_id=item.user_id,
            target_id=item.id,
            op=op,
            at=item.updated_at,
            reason=reason,
            before=before,
            after=after,
        )
    )


def apply(stores: Stores, plan: WritePlan, edits: UserEdits) -> set[str]:
    """Write ``plan``; returns the texts of memories deleted or corrected because the user withdrew a
    message, asked to forget them or corrected one (what the conversation's summary no longer says)."""
    gone: set[str] = set()
    with stores.records.transaction(plan.user_id):
        for step in plan.steps:
            match step:
                case Insert(item, reason):
                    stores.records.put(item, tokens_for(item))
                    _history(stores, item, "add", reason, None, item.text)
                case Merge(item, before, reason):
                    stores.records.put(item, tokens_for(item))
                    _history(stores, item, "merge", reason, before, item.text)
                case Resolve(item, reason):
                    stores.records.put(item, tokens_for(item))
                    _history(stores, item, "resolve", reason, None, str(item.event_status))
                case Supersede(item, by, reason):
                    stores.records.put(item, tokens_for(item))
                    _history(stores, item, "supersede", reason, item.text, by.text)
                case Reflag(item, tokens) | LogTurn(item, tokens):
                    stores.records.put(item, tokens)
                case SetSlot(version, before) | RetractSlot(version, before):
                    record_version(stores, version, before)
                case Seal(sealed):
                    stores.sealed.put(sealed)
                case ForgetMessages(ids, reason):
                    gone |= edits.forget_messages(plan.user_id, list(ids), plan.at, reason)
                case ForgetMemories(ids, reason):
                    gone |= edits.forget_memories(plan.user_id, list(ids), plan.at, reason)
                case Correct(memory_id, text):
                    before = stores.records.get(plan.user_id, memory_id)
                    if before is not None:  # deleted since the write read it: nothing to correct
                        edits.update(plan.user_id, memory_id, text, plan.at)
                        gone.add(before.text)  # the conversation's summary no longer says it
                case Audit(entry):
                    stores.audit.add(entry)
    return gone
