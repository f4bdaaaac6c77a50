"""One way to write a history record, shared by every stage that changes a memory or a slot."""

from __future__ import annotations

from datetime import datetime

from memlane.domain import Actor, HistoryRecord
from memlane.store import Stores


def record(
    stores: Stores,
    user_id: str,
    target_id: str,
    op: str,
    at: datetime,
    reason: str,
    *,
    actor: Actor = Actor.SYSTEM,
    before: str | None = None,
    after: str | None = None,
) -> None:
    """Append what happened to ``target_id`` (a memory id, or ``profile:<slot>``), by whom and why."""
    stores.history.add(
        HistoryRecord(
            user_id=user_id,
            target_id=target_id,
            op=op,
            at=at,
            actor=actor,
            reason=reason,
            before=before,
            after=after,
        )
    )
