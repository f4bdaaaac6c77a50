"""``POST /v1/messages`` (queued write-back, or inline with ``?wait=true``) and the job routes."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from memlane import validate
from memlane.clock import utcnow
from memlane.errors import NotFound
from memlane.service.bodies import AddMessages
from memlane.service.jobs import process
from memlane.service.models import AddResultOut, ErrorOut, JobOut
from memlane.service.payload import payload_of
from memlane.service.queue import JobState
from memlane.service.routes.deps import CallerDep, ServiceState, StateDep, errors

router = APIRouter(prefix="/v1", tags=["write-back"], responses=errors())


@router.post(
    "/messages",
    status_code=202,
    response_model=JobOut,
    responses={
        200: {"model": AddResultOut, "description": "processed inline (?wait=true)"},
        503: {
            "model": ErrorOut,
            "description": "the queue is full (queue_full), or it or the store cannot be reached",
        },
    },
)
async def add_messages(
    body: AddMessages,
    caller: CallerDep,
    state: StateDep,
    response: Response,
    wait: Annotated[bool, Query(description="process now and return the decisions")] = False,
) -> JobOut | JSONResponse:
    """Remember from messages. Returns 202 as soon as the job is durably queued; poll
    ``GET /v1/jobs/{job_id}`` for its decisions. A repeated ``idempotency_key`` returns the first job.
    While the queue holds ``MEMLANE_QUEUE_LIMIT`` unfinished jobs, 503 ``queue_full`` (nothing is
    queued; retry after ``Retry-After`` seconds).
    """
    now = utcnow()
    settings = caller.memory.settings
    # everything a caller can get wrong fails now with 422, not later in a worker
    validate.identifier(body.user_id, "user_id", settings)
    if body.session_id is not None:
        validate.label(body.session_id, "session_id", settings)
    validate.messages([m.model_dump(exclude_none=True) for m in body.messages], "user", now, settings)
    if body.idempotency_key is not None:
        validate.identifier(body.idempotency_key, "idempotency_key", settings)
    # masked before it is queued: the queue never holds what memlane would not store
    payload = {**payload_of(body, now, uuid.uuid4().hex, settings), "caller": caller.name}
    if wait:
        result = await state.compute.run(process, caller.memory, payload, inline=True)
        state.metrics.count_decisions([d.action for d in result.decisions])
        return JSONResponse(result.model_dump(mode="json"), status_code=200)
    # the queue's commit waits for the disk: in a thread, outside the compute slots
    key = body.idempotency_key
    job, new = await anyio.to_thread.run_sync(submit, state, caller.tenant, payload, now, key)
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return JobOut.of(job, duplicate=not new)


def submit(
    state: ServiceState, tenant: str, payload: dict[str, Any], now: datetime, key: str | None
) -> tuple[JobState, bool]:
    """Queue the job, unless the queue is full (a 503: nothing is queued)."""
    state.queue_limit.take(now)
    try:
        job, new = state.queue.submit(tenant, payload, now, key, user_id=payload["user_id"])
    except BaseException:
        state.queue_limit.give_back()
        raise
    if not new:  # the key's first job, returned again: nothing more in the queue
        state.queue_limit.give_back()
    return job, new


@router.get("/jobs/{job_id}", response_model=JobOut, responses=errors(404))
def get_job(job_id: str, caller: CallerDep, state: StateDep) -> JobOut:
    """A write-back job: queued, running, done (with its decisions) or failed (with its error)."""
    job = state.queue.get(caller.tenant, job_id)
    if job is None:
        raise NotFound(f"no job {job_id!r}")
    return JobOut.of(job)


@router.get("/jobs", response_model=list[JobOut])
def failed_jobs(
    caller: CallerDep, state: StateDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> list[JobOut]:
    """Jobs parked after failing repeatedly, newest first, each with its last error."""
    return [JobOut.of(j) for j in state.queue.failed(caller.tenant, limit)]


@router.post("/jobs/{job_id}/retry", response_model=JobOut, responses=errors(404))
def retry_job(job_id: str, caller: CallerDep, state: StateDep) -> JobOut:
    """Queue a parked job again (after fixing what made it fail)."""
    job = state.queue.retry(caller.tenant, job_id, utcnow())
    if job is None:
        raise NotFound(f"no failed job {job_id!r}")
    return JobOut.of(job)
