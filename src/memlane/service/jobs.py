"""The jobs workers run: write-back (``POST /v1/messages`` as a durable job, a job as stored
memories) and periodic lifecycle maintenance.

Delivery is at least once (a worker may die after writing and before acknowledging), so processing
must be idempotent: every message gets an id when it is queued, derived from the idempotency key
when there is one, and a message whose id the store already holds is skipped. Sending the same
messages twice, or handling the same job twice, therefore writes once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from memlane import validate
from memlane.clock import aware, utcnow
from memlane.domain import Kind, Status
from memlane.errors import MemlaneError
from memlane.memory import Memory
from memlane.service.models import AddMessages, AddResultOut, DecisionOut
from memlane.service.queue import Job, JobQueue
from memlane.store import MemoryQuery

log = logging.getLogger("memlane.worker")

MAINTAIN = "maintain"  # a job's "op" when it is a lifecycle run rather than a write


def payload_of(body: AddMessages, now: datetime, job_seed: str) -> dict[str, Any]:
    """The JSON-ready job for ``body``: every message with an id and a time, fixed at arrival."""
    seed = body.idempotency_key or job_seed
    messages = []
    for i, m in enumerate(body.messages):
        derived = hashlib.sha256(f"{seed}\x1f{i}".encode()).hexdigest()[:24]
        messages.append(
            {
                "role": m.role,
                "content": m.content,
                "name": m.name,
                "id": m.id or f"msg-{derived}",
                "at": aware(m.at).isoformat() if m.at else now.isoformat(),
            }
        )
    return {"user_id": body.user_id, "session_id": body.session_id, "messages": messages}


def messages_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload's messages as :meth:`memlane.Memory.add` takes them (times parsed back)."""
    out = [{k: v for k, v in m.items() if v is not None} for m in payload["messages"]]
    for m in out:
        m["at"] = datetime.fromisoformat(m["at"])
    return out


def process(memory: Memory, payload: dict[str, Any]) -> AddResultOut:
    """Write the payload's new messages (those whose ids the store does not hold yet)."""
    user_id, session_id = payload["user_id"], payload.get("session_id")
    messages = messages_of(payload)
    uid = validate.identifier(user_id, "user_id", memory.settings)  # fails before any lookup
    done = {m["id"] for m in messages if memory.store.query(uid, _holding(m["id"]))}
    fresh = [m for m in messages if m["id"] not in done]
    skipped = [m["id"] for m in messages if m["id"] in done]
    if not fresh:
        return AddResultOut(decisions=[], session_id=session_id, message_ids=[], skipped_message_ids=skipped)
    result = memory.add(fresh, user_id=user_id, session_id=session_id)
    memory.flush(user_id)  # done means searchable in every way
    return AddResultOut(
        decisions=[DecisionOut.of(d) for d in result.decisions],
        session_id=result.session_id,
        message_ids=result.message_ids,
        skipped_message_ids=skipped,
    )


def _holding(message_id: str) -> MemoryQuery:
    """Any record of any kind and status that came from this message."""
    return MemoryQuery(kinds=tuple(Kind), statuses=tuple(Status), provenance=message_id, limit=1)


def job_handler(memory_of: Callable[[str], Memory]) -> Callable[[Job], dict[str, Any]]:
    """The worker's handler: the job's tenant's memory writes its messages, or runs maintenance."""

    def handle(job: Job) -> dict[str, Any]:
        memory = memory_of(job.tenant)
        if job.payload.get("op") == MAINTAIN:
            return dataclasses.asdict(memory.maintain(datetime.fromisoformat(job.payload["at"])))
        return process(memory, job.payload).model_dump(mode="json")

    return handle


def schedule_maintenance(queue: JobQueue, tenants: Sequence[str], now: datetime, every: timedelta) -> int:
    """Queue one maintenance job per tenant for the period ``now`` falls in; returns how many are new.

    Every worker calls this on its own timer. The idempotency key names the period, so however many
    workers call it, each tenant gets one maintenance run per period.
    """
    period = int(now.timestamp() // every.total_seconds())
    new = 0
    for tenant in tenants:
        payload = {"op": MAINTAIN, "at": now.isoformat()}
        _, created = queue.submit(tenant, payload, now, f"maintain-{period}")
        new += created
    return new


def keep_maintained(
    queue: JobQueue, tenants: Callable[[], Sequence[str]], every: timedelta, stop: threading.Event
) -> None:
    """Until ``stop``: queue each tenant's maintenance once per ``every`` (a thread of each worker)."""
    while not stop.is_set():
        try:
            schedule_maintenance(queue, tenants(), utcnow(), every)
        except MemlaneError as exc:  # the store or queue is down: try again next period
            log.warning("maintenance not scheduled: %s", exc)
        stop.wait(min(every.total_seconds(), 300.0))
