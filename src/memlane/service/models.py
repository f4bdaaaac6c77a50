"""Response bodies of the REST API (pydantic).

The core speaks dataclasses; these models are the edge. ``*.of(...)`` builds a response from the
core's value through its one serialisation (:func:`memlane.data.to_data`, times left as datetimes
for pydantic to write), so each route is one call into :class:`memlane.Memory` and one conversion,
and a field added to a core type reaches the response as the export and the stores see it.

The request bodies are in :mod:`memlane.service.bodies`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from memlane.data import to_data
from memlane.dated import period
from memlane.domain import ContextBlock, Decision, HistoryRecord, Hit, MemoryItem, Session, SlotVersion
from memlane.service.queue import JobState

MAX_DECISIONS = 1000  # decisions a job's stored result lists (the rest are counted)


class MemoryOut(BaseModel):
    """A memory as a readable sentence with the metadata that governs its life."""

    id: str
    user_id: str
    text: str
    kind: str
    category: str
    tags: list[str]
    entities: list[str]
    importance: float
    confidence: float
    stability: float
    sensitivity: float
    source: str
    status: str
    session_id: str | None = None
    slot: str | None = None
    value: Any = None
    polarity: int = 1
    event_status: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    last_accessed_at: datetime | None = None
    last_verified_at: datetime | None = None
    access_count: int = 0
    expires_at: datetime | None = None
    valid_from: datetime | None = None
    period: str | None = Field(
        default=None,
        description="when the words named only a year, a month or a week: that period as the user "
        "meant it (2024, 2025-02, or the week's Monday), which valid_from starts; null: the day is known",
    )
    period_unit: str | None = Field(default=None, description="year | month | week, with period")
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    provenance: list[str] = Field(default_factory=list, description="the message ids it came from")
    reason: str = Field(default="", description="why it was kept")

    @classmethod
    def of(cls, item: MemoryItem) -> MemoryOut:
        """The response form of a stored memory, built without a second check: the item is already
        typed, and FastAPI validates every response against its model (a search's ten hits took
        1 ms through ISO times and validation, 0.5 ms this way, with the same JSON)."""
        data = to_data(item, times="native")
        named = period(item)
        if named is not None:
            data["period_unit"], data["period"] = named
        return cls.model_construct(**{k: v for k, v in data.items() if k in _MEMORY_FIELDS})


_MEMORY_FIELDS = frozenset(MemoryOut.model_fields)


class DecisionOut(BaseModel):
    """What the memory judge decided about one candidate, and why: the memory by id, not a copy
    (``GET /v1/memories/{memory_id}`` reads it)."""

    action: str = Field(description="discard | session | semantic | episodic | profile")
    text: str | None = Field(
        default=None,
        description="the candidate, masked; in an inline result (?wait=true) only: a job's stored "
        "result keeps no text, so that deleting a memory leaves no copy of it in the queue",
    )
    reason: str
    category: str
    importance: float
    confidence: float
    outcome: str = Field(
        description="what was done: new | merged | superseded | resolved | kept_existing | session "
        "| discarded"
    )
    related: list[str] = Field(
        default_factory=list, description="the existing memories it merged into, superseded or resolved"
    )
    note: str = Field(default="", description="why it was merged, superseded or kept apart")
    expires_at: datetime | None = None
    memory_id: str | None = Field(default=None, description="the memory written, merged into or updated")
    message_id: str | None = Field(default=None, description="the message the candidate came from")

    @classmethod
    def of(cls, d: Decision, *, with_text: bool = True) -> DecisionOut:
        """The response form of a judge's decision (without its text for a stored job result): its
        fields, the memory by id and the message its candidate came from."""
        data = to_data(d, times="native")
        memory, candidate = data.pop("memory"), data.pop("candidate")
        return cls(
            **{k: v for k, v in data.items() if k in _DECISION_FIELDS},
            text=d.text if with_text else None,
            outcome=data["outcome"] or "discarded",
            memory_id=memory["id"] if memory is not None else None,
            message_id=candidate["message_id"] if candidate is not None else None,
        )


_DECISION_FIELDS = frozenset(DecisionOut.model_fields) - {"text", "outcome", "memory_id", "message_id"}


class RememberOut(DecisionOut):
    """The decision about one sentence to remember, with the memory it wrote."""

    memory: MemoryOut | None = None

    @classmethod
    def of_remembered(cls, d: Decision) -> RememberOut:
        """The response form of :meth:`memlane.Memory.remember`'s decision."""
        memory = MemoryOut.of(d.memory) if d.memory is not None else None
        return cls(**DecisionOut.of(d).model_dump(), memory=memory)


class AddResultOut(BaseModel):
    """The decisions of a processed write."""

    decisions: list[DecisionOut]
    omitted_decisions: int = Field(
        default=0, description=f"decisions beyond the first {MAX_DECISIONS}, counted but not listed"
    )
    session_id: str | None = None
    message_ids: list[str]
    skipped_message_ids: list[str] = Field(
        default_factory=list, description="messages already processed before (same id), not again"
    )


class JobOut(BaseModel):
    """A queued write and, once done, its decisions."""

    job_id: str
    status: Literal["queued", "running", "done", "failed"]
    attempts: int
    created_at: datetime
    updated_at: datetime
    result: AddResultOut | dict[str, Any] | None = Field(
        default=None, description="a write's decisions (or a maintenance run's report)"
    )
    error: str | None = None
    duplicate: bool = Field(default=False, description="this idempotency key was already used")

    @classmethod
    def of(cls, job: JobState, *, duplicate: bool = False) -> JobOut:
        """The response form of a job's state."""
        return cls(
            job_id=job.id,
            status=job.status,
            attempts=job.attempts,
            created_at=job.created_at,
            updated_at=job.updated_at,
            result=AddResultOut.model_validate(job.result) if _is_write(job.result) else job.result,
            error=job.error,
            duplicate=duplicate,
        )


def _is_write(result: dict[str, Any] | None) -> bool:
    return result is not None and "decisions" in result


class HitOut(BaseModel):
    """One result, its score and why it was recalled."""

    memory: MemoryOut
    score: float
    explain: dict[str, Any]

    @classmethod
    def of(cls, hit: Hit) -> HitOut:
        """The response form of a search hit."""
        return cls(memory=MemoryOut.of(hit.memory), score=hit.score, explain=hit.explain)


class SearchOut(BaseModel):
    """Results, best first."""

    results: list[HitOut]


class ContextOut(BaseModel):
    """The block to put in a prompt, its size and the memories it used."""

    text: str
    tokens: int
    memory_ids: list[str]
    profile: dict[str, Any]

    @classmethod
    def of(cls, block: ContextBlock) -> ContextOut:
        """The response form of a context block."""
        return cls(
            text=block.text,
            tokens=block.tokens,
            memory_ids=[m.id for m in block.memories],
            profile=block.profile,
        )


class ForgetOut(BaseModel):
    """How many memories went."""

    deleted: int


class HistoryOut(BaseModel):
    """One change to a memory or profile slot."""

    id: str
    target_id: str
    op: str
    at: datetime
    actor: str
    reason: str
    before: str | None = None
    after: str | None = None

    @classmethod
    def of(cls, r: HistoryRecord) -> HistoryOut:
        """The response form of a history record."""
        return cls.model_validate(to_data(r, times="native"))


class SlotOut(BaseModel):
    """One version of a profile slot."""

    slot: str
    value: Any
    version: int
    created_at: datetime
    current: bool
    memory_id: str | None = None
    reason: str = ""

    @classmethod
    def of(cls, v: SlotVersion) -> SlotOut:
        """The response form of a slot version."""
        return cls.model_validate(to_data(v, times="native"))


class TurnOut(BaseModel):
    """A turn kept in a session."""

    role: str
    content: str
    at: datetime
    message_id: str


class SessionOut(BaseModel):
    """Short-term memory of one conversation."""

    id: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None
    summary: str
    slots: dict[str, Any]
    notes: list[str]
    turns: list[TurnOut]

    @classmethod
    def of(cls, s: Session) -> SessionOut:
        """The response form of a session."""
        return cls.model_validate(to_data(s, times="native"))


class ReadyOut(BaseModel):
    """Readiness: each dependency's check, ``ok`` or ``unavailable``."""

    status: Literal["ready", "unavailable"]
    checks: dict[str, Literal["ok", "unavailable"]]
    embedder: str  # what computes the vectors: for e5, the engine, its kernel and why


class ErrorBody(BaseModel):
    """What went wrong: a stable code to branch on, a message for people."""

    code: str = Field(description="e.g. invalid_input, not_found, unauthorized, rate_limited")
    message: str
    request_id: str | None = None


class ErrorOut(BaseModel):
    """Every error response has this shape."""

    error: ErrorBody
