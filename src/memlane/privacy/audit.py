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
from datetime import datetime
from typing import TYPE_CHECKING

from memlane.domain import Actor
from memlane.vocabulary import AuditEntry

if TYPE_CHECKING:
    from memlane.store import Stores

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
    stores: Stores,
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
    stores.audit.add(made)
    return made
