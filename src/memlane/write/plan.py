"""The write plan: everything one ``add`` or ``remember`` will change, as immutable values.

The write path computes a :class:`WritePlan` (redact → extract → judge → reconcile, with
:class:`memlane.write.planner.Planner`) and :func:`memlane.write.apply.apply` carries it out in the
same transaction: memories, their history, the profile's versions, sealed originals, withdrawn
messages, log turns and the audit entry, all or nothing. Each step is a frozen value holding the
final state of what it writes, so a plan can be read and tested as a value: "我叫阿白" plans an
``Insert``, a ``SetSlot`` for ``name``, a ``LogTurn`` and an ``Audit``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar

from memlane.domain import Decision, MemoryItem, Message, SlotVersion
from memlane.vocabulary import AuditEntry, SealedText


@dataclass(frozen=True)
class Insert:
    """A new memory."""

    item: MemoryItem
    reason: str


@dataclass(frozen=True)
class Merge:
    """An existing memory strengthened by the same statement said again (``item`` as it becomes)."""

    item: MemoryItem
    before: str
    reason: str


@dataclass(frozen=True)
class Resolve:
    """An open complaint settled by a resolution (``item`` with its new status and end)."""

    item: MemoryItem
    reason: str


@dataclass(frozen=True)
class Supersede:
    """An existing memory retired by ``by``, which changes or contradicts it."""

    item: MemoryItem
    by: MemoryItem
    reason: str


@dataclass(frozen=True)
class Reflag:
    """A log turn re-written with its flags changed (a turn whose memory was superseded is outdated)."""

    item: MemoryItem
    tokens: str


@dataclass(frozen=True)
class SetSlot:
    """A new version of a profile slot, pointing at the memory that set it."""

    version: SlotVersion
    before: Any


@dataclass(frozen=True)
class RetractSlot:
    """A profile slot that no memory states any more (a version with no value)."""

    version: SlotVersion
    before: Any


@dataclass(frozen=True)
class Seal:
    """The encrypted original of a memory, stored beside its masked text."""

    sealed: SealedText


@dataclass(frozen=True)
class ForgetMessages:
    """Earlier messages the user withdrew ("别记这个" said of the previous message)."""

    message_ids: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class ForgetMemories:
    """Memories the user asked to forget by what they are about ("忘掉我住哪")."""

    memory_ids: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Correct:
    """A memory the user corrected in conversation ("I meant Berlin, not Munich"): its new text."""

    memory_id: str
    text: str


@dataclass(frozen=True)
class LogTurn:
    """A raw (redacted) turn for the conversation log, with its index tokens."""

    item: MemoryItem
    tokens: str


@dataclass(frozen=True)
class Audit:
    """The audit entry of the write (ids and counts, never text)."""

    entry: AuditEntry


S = TypeVar("S")

Step = (
    Insert
    | Merge
    | Resolve
    | Supersede
    | Reflag
    | SetSlot
    | RetractSlot
    | Seal
    | ForgetMessages
    | ForgetMemories
    | Correct
    | LogTurn
    | Audit
)


@dataclass(frozen=True)
class WritePlan:
    """What one call writes: its decisions (one per candidate, each with its outcome) and the steps
    that carry them out, in order; ``vectors`` are the log turns' texts for the backlog to embed."""

    user_id: str
    session_id: str | None
    at: datetime
    messages: tuple[Message, ...]  # the redacted messages
    decisions: tuple[Decision, ...]
    steps: tuple[Step, ...]
    vectors: tuple[tuple[str, str], ...] = ()
    withdrawn: frozenset[str] = frozenset()  # message ids of this call that keep nothing

    def of(self, kind: type[S]) -> list[S]:
        """The steps of one kind, in order."""
        return [s for s in self.steps if isinstance(s, kind)]


class UserEdits(Protocol):
    """What the user asks of their memories in conversation: withdrawn messages (what came only from
    them is deleted with everything built from it), memories to forget, a memory to correct."""

    def forget_messages(self, user_id: str, message_ids: list[str], at: datetime, reason: str) -> set[str]:
        """Forget ``message_ids``; returns the texts of the memories deleted."""
        ...

    def forget_memories(self, user_id: str, memory_ids: list[str], at: datetime, reason: str) -> set[str]:
        """Delete ``memory_ids`` (those still held) as a deletion by the user; returns their texts."""
        ...

    def update(self, user_id: str, memory_id: str, text: str, at: datetime, caller: str | None = None) -> Any:
        """Replace a memory's text with the user's correction."""
        ...


def strengthened(old: MemoryItem, new: MemoryItem, wording: Literal["old", "new"]) -> MemoryItem:
    """``old`` as a merge with ``new`` leaves it: stronger, with both sources, in the wording that says
    more (the new one when ``wording`` says so)."""
    merged = replace(
        old,
        importance=round(min(1.0, max(old.importance, new.importance) + 0.05), 3),
        confidence=max(old.confidence, new.confidence),
        provenance=list(dict.fromkeys([*old.provenance, *new.provenance])),
        tags=list(dict.fromkeys([*old.tags, *new.tags])),
        entities=list(dict.fromkeys([*old.entities, *new.entities])),
        updated_at=new.created_at,
        last_verified_at=new.created_at,
    )
    if new.expires_at and old.expires_at and new.expires_at > old.expires_at:
        merged = replace(merged, expires_at=new.expires_at)
    if wording == "new":
        merged = replace(merged, text=new.text, embedding=new.embedding)
    return merged
