"""Search, context, and reading, correcting and deleting single memories."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from memlane import validate
from memlane.service.bodies import ContextIn, FeedbackIn, RememberIn, SearchIn, UpdateIn
from memlane.service.http import ApiError
from memlane.service.models import ContextOut, ErrorOut, HistoryOut, HitOut, MemoryOut, RememberOut, SearchOut
from memlane.service.routes.deps import CallerDep, StateDep, errors
from memlane.validate import MAX_OFFSET

router = APIRouter(prefix="/v1", tags=["memories"], responses=errors())
UserId = Annotated[str, Query(description="the user, inside your tenant")]
_NOT_FOUND: dict[int | str, dict[str, Any]] = errors(404)


class MemoryList(BaseModel):
    """A page of memories, newest first."""

    memories: list[MemoryOut]


class HistoryList(BaseModel):
    """What happened to a memory, oldest first."""

    history: list[HistoryOut]


@router.post("/search", response_model=SearchOut)
async def search(body: SearchIn, caller: CallerDep, state: StateDep) -> SearchOut:
    """The user's memories most relevant to the query, best first, each with why it was recalled."""
    hits = await state.compute.run(
        caller.memory.search, body.query, user_id=body.user_id, options=body, caller=caller.reader
    )
    return SearchOut(results=[HitOut.of(h) for h in hits])


@router.post("/context", response_model=ContextOut)
async def context(body: ContextIn, caller: CallerDep, state: StateDep) -> ContextOut:
    """A prompt-ready block under a token budget: profile, session, relevant memories, fenced as data."""
    block = await state.compute.run(
        caller.memory.context,
        body.query,
        user_id=body.user_id,
        session_id=body.session_id,
        max_tokens=body.max_tokens,
        options=body,
        caller=caller.name,
    )
    return ContextOut.of(block)


@router.post("/memories", status_code=201, response_model=RememberOut)
async def remember(body: RememberIn, caller: CallerDep, state: StateDep) -> RememberOut:
    """Store a sentence as a memory (no extraction; still checked, deduplicated and reconciled)."""
    settings = caller.memory.settings
    # stored as they are: no sensitive data in them (the text itself is masked by the write path)
    validate.labels(body.tags, "tags", settings)
    if body.session_id is not None:
        validate.label(body.session_id, "session_id", settings)
    decision = await state.compute.run(
        caller.memory.remember,
        body.text,
        user_id=body.user_id,
        kind=body.kind,
        at=body.at,
        tags=body.tags,
        session_id=body.session_id,
        caller=caller.name,
    )
    state.metrics.count_decisions([decision.action.value])
    return RememberOut.of_remembered(decision)


@router.get("/memories", response_model=MemoryList)
def list_memories(
    caller: CallerDep,
    user_id: UserId,
    kind: Annotated[list[str], Query(description="semantic, episodic, profile, summary, log")] = [],  # noqa: B006
    status: Literal["active", "superseded", "expired", "archived", "deleted"] | None = "active",
    include_log: bool = False,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> MemoryList:
    """The user's memories, newest first (the raw conversation log only when asked)."""
    items = caller.memory.list(
        user_id,
        kinds=kind,
        status=status,
        include_log=include_log,
        limit=limit,
        offset=offset,
        caller=caller.reader,
    )
    return MemoryList(memories=[MemoryOut.of(m) for m in items])


@router.get(
    "/memories/{memory_id}", response_model=MemoryOut, responses={**_NOT_FOUND, 403: {"model": ErrorOut}}
)
def get_memory(memory_id: str, caller: CallerDep, user_id: UserId) -> MemoryOut:
    """One memory of the user's; an encrypted one reads as its original (so staff on the memory
    page, who see sensitive memories masked, get 403: they list or search instead)."""
    if not caller.reveals:
        raise ApiError(403, "forbidden", "staff see sensitive memories masked: list or search instead")
    return MemoryOut.of(caller.memory.get(memory_id, user_id=user_id, caller=caller.reader))


@router.patch("/memories/{memory_id}", response_model=MemoryOut, responses=_NOT_FOUND)
async def update_memory(memory_id: str, body: UpdateIn, caller: CallerDep, state: StateDep) -> MemoryOut:
    """Correct a memory's text: it becomes user-confirmed (explicit, full confidence), its history
    keeps the old text, and a profile slot it backs takes the corrected value."""
    item = await state.compute.run(
        caller.memory.update, memory_id, body.text, user_id=body.user_id, caller=caller.name
    )
    return MemoryOut.of(item)


@router.delete("/memories/{memory_id}", status_code=204, responses=_NOT_FOUND)
def delete_memory(memory_id: str, caller: CallerDep, user_id: UserId) -> Response:
    """Delete a memory from every table and index; history keeps a tombstone without its text."""
    caller.memory.delete(memory_id, user_id=user_id, caller=caller.name)
    return Response(status_code=204)


@router.get("/memories/{memory_id}/history", response_model=HistoryList, responses=_NOT_FOUND)
def memory_history(memory_id: str, caller: CallerDep, user_id: UserId) -> HistoryList:
    """Every change to the memory, oldest first."""
    records = caller.memory.history(memory_id, user_id=user_id, caller=caller.reader)
    return HistoryList(history=[HistoryOut.of(r) for r in records])


@router.get("/memories/{memory_id}/sources", response_model=MemoryList, responses=_NOT_FOUND)
def memory_sources(memory_id: str, caller: CallerDep, user_id: UserId) -> MemoryList:
    """What the memory came from, oldest first: the conversation turns of its ``provenance`` (as the
    log keeps them, sensitive values masked) and, for a summary or digest, the memories it was built
    from. Turns past the log's retention are gone."""
    items = caller.memory.sources(memory_id, user_id=user_id, caller=caller.reader)
    return MemoryList(memories=[MemoryOut.of(m) for m in items])


@router.post("/memories/{memory_id}/feedback", response_model=MemoryOut, responses=_NOT_FOUND)
def feedback(memory_id: str, body: FeedbackIn, caller: CallerDep) -> MemoryOut:
    """How the memory served: helpful strengthens it, outdated expires it, wrong supersedes it."""
    item = caller.memory.feedback(
        memory_id, body.verdict, note=body.note, user_id=body.user_id, caller=caller.name
    )
    return MemoryOut.of(item)
