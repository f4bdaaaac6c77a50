"""The jobs workers run: write-back (``POST /v1/messages`` as a durable job, a job as stored
memories) and periodic lifecycle maintenance.

Delivery is at least once (a worker may die after writing and before acknowledging), so processing
must be idempotent: every message gets an id when it is queued, derived from the idempotency key
when there is one, and a message whose id the store already holds is skipped. Sending the same
messages twice, or handling the same job twice, therefore writes once.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from memlane import validate
from memlane.clock import utcnow
from memlane.domain import Kind, Status
from memlane.errors import MemlaneError
from memlane.memory import Memory
from memlane.service.models import MAX_DECISIONS, AddResultOut, DecisionOut
from memlane.service.payload import message_ids, messages_of
from memlane.service.queue import Job, JobQueue
from memlane.vocabulary import MemoryQuery

log = logging.getLogger("memlane.worker")

MAINTAIN = "maintain"  # a job's "op" when it is a lifecycle run rather than a write
WORKER = "service:worker"  # the caller the audit log names for what a worker writes


def process(memory: Memory, payload: dict[str, Any], *, inline: bool = False) -> AddResultOut:
    """Write the payload's new messages (those whose ids the store does not hold yet).

    The result names memories by id; an ``inline`` one (``?wait=true``, returned and never stored)
    also gives each decision's text. At most :data:`MAX_DECISIONS` decisions are listed. The audit
    log names the payload's ``caller`` (the API key that queued it), else the worker.
    """
    caller = payload.get("caller") or WORKER
    user_id, session_id = payload["user_id"], payload.get("session_id")
    messages = messages_of(payload, memory.settings)
    uid = validate.identifier(user_id, "user_id", memory.settings)  # fails before any lookup
    done = {m["id"] for m in messages if memory.stores.records.query(uid, _holding(m["id"]))}
    fresh = [m for m in messages if m["id"] not in done]
    skipped = [m["id"] for m in messages if m["id"] in done]
    if not fresh:
        return AddResultOut(decisions=[], session_id=session_id, message_ids=[], skipped_message_ids=skipped)
    result = memory.add(fresh, user_id=user_id, session_id=session_id, caller=caller)
    memory.flush(user_id)  # done means searchable in every way
    listed = result.decisions[:MAX_DECISIONS]
    return AddResultOut(
        decisions=[DecisionOut.of(d, with_text=inline) for d in listed],
        omitted_decisions=len(result.decisions) - len(listed),
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


def job_withdrawal(memory_of: Callable[[str], Memory]) -> Callable[[Job, dict[str, Any] | None], None]:
    """What the worker does with a job found gone when it finished (its user was forgotten while
    it ran): withdraw every message of the job, so that nothing it wrote outlives the forget."""

    def withdraw(job: Job, result: dict[str, Any] | None) -> None:
        user_id = job.payload.get("user_id")
        ids = message_ids(job.payload)
        if job.payload.get("op") == MAINTAIN or not isinstance(user_id, str) or not ids:
            return
        memory_of(job.tenant).forget_messages(user_id, ids, caller=WORKER)

    return withdraw


def schedule_maintenance(queue: JobQueue, tenants: Sequence[str], now: datetime, every: timedelta) -> int:
    """Queue one maintenance job per tenant for the period ``now`` falls in; returns how many are new.

    Every worker calls this on its own timer. The idempotency key names the period, so however many
    workers call it, each tenant gets one maintenance run per period.
    """
    period = int(now.timestamp() // every.total_seconds())
    new = 0
    for tenant in tenants:
        payload: dict[str, Any] = {"op": MAINTAIN, "at": now.isoformat()}
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
