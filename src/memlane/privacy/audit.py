"""The audit log: an append-only record of who wrote, changed, deleted, exported or assembled into a
context which memories of a user, and when.

An entry never holds memory text: it names memory ids, counts and the kind of operation, so the log
itself is no copy of what a user asked to delete. Entries are never changed or removed, except that
forgetting a user entirely (``Memory.forget(user_id)``) removes the user's audit entries with
everything else::

    mem.context("推荐饮料", user_id="u1", caller="chat-api")
    mem.audit("u1")[0]   # AuditEntry(op='context', caller='chat-api', memory_ids=[...], ...)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from memlane.domain import Actor, new_id

if TYPE_CHECKING:
    from memlane.store import MemoryStore

OPS: tuple[str, ...] = (
    "write",
    "update",
    "delete",
    "forget",
    "export",
    "restore",
    "context",
    "consent",
    "feedback",
    "search",
    "read",
)
"""Every operation an entry can record. ``search`` and ``read`` (a listing, a memory, the profile or a
history) are recorded for calls that name their caller; the others always."""


@dataclass
class AuditEntry:
    """One audited operation on a user's memories: what, when, by whom, for which caller, on which ids.

    ``detail`` is content-free by construction (counts, actions, slot names): never memory text.
    """

    user_id: str
    at: datetime
    op: str  # one of OPS
    actor: Actor = Actor.USER
    caller: str | None = None  # the application or component that asked (``context(caller=...)``)
    memory_ids: list[str] = field(default_factory=list)
    detail: str = ""
    id: str = field(default_factory=new_id)

    def to_dict(self) -> dict[str, object]:
        """The entry as JSON-ready data."""
        return {
            "id": self.id,
            "user_id": self.user_id,
            "at": self.at.isoformat(),
            "op": self.op,
            "actor": self.actor.value,
            "caller": self.caller,
            "memory_ids": list(self.memory_ids),
            "detail": self.detail,
        }


def entry(
    user_id: str,
    op: str,
    at: datetime,
    memory_ids: Sequence[str] = (),
    *,
    actor: Actor = Actor.USER,
    caller: str | None = None,
    detail: str = "",
) -> AuditEntry:
    """A new entry (not yet stored): for a plan that writes it in its own transaction."""
    if op not in OPS:
        raise ValueError(f"unknown audit operation {op!r}")
    return AuditEntry(
        user_id=user_id,
        at=at,
        op=op,
        actor=actor,
        caller=caller,
        memory_ids=list(dict.fromkeys(memory_ids)),
        detail=detail,
    )


def record(
    store: MemoryStore,
    user_id: str,
    op: str,
    at: datetime,
    memory_ids: Sequence[str] = (),
    *,
    actor: Actor = Actor.USER,
    caller: str | None = None,
    detail: str = "",
) -> AuditEntry:
    """Append one entry to the user's audit log and return it."""
    made = entry(user_id, op, at, memory_ids, actor=actor, caller=caller, detail=detail)
    store.add_audit(made)
    return made
