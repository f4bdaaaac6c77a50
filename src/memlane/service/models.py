"""Request and response bodies of the REST API (pydantic), with examples in Chinese and English.

The core speaks dataclasses; these models are the edge. ``*.of(...)`` builds a response from the
core's value, so each route is one call into :class:`memlane.Memory` and one conversion.

Every request body is a :class:`Body`: a field it does not define is a 422 (``{"user_id": "u2",
"tag": ["coffee"]}`` must not read as a forget without tags), and so is a string JSON can carry but
UTF-8 cannot (a lone surrogate, ``"\ud800"``), which no store could save.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memlane.domain import ContextBlock, Decision, HistoryRecord, Hit, MemoryItem, Session, SlotVersion, plain
from memlane.service.queue import JobState

Role = Literal["user", "assistant", "system"]


MAX_MESSAGES = 100  # messages in one write: the work and the result of one request are bounded
MAX_DECISIONS = 1000  # decisions a job's stored result lists (the rest are counted)


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(examples)})


def _encodable(value: Any) -> Any:
    """``value`` unchanged if every string in it is valid Unicode, else a ValueError."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("must be valid Unicode: it holds a lone surrogate (such as \\ud800)") from None
    elif isinstance(value, list | tuple):
        for item in value:
            _encodable(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _encodable(key)
            _encodable(item)
    return value


class Body(BaseModel):
    """A request body: unknown fields are refused, and every string must be valid Unicode."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        return _encodable(value)


class MessageIn(Body):
    """One turn of a conversation."""

    role: Role = "user"
    content: str
    name: str | None = Field(default=None, description="the speaker's name, kept in the log")
    id: str | None = Field(default=None, description="your message id; one id is processed once")
    at: datetime | None = Field(default=None, description="when it was said; default: when it arrived")


class AddMessages(Body):
    """Messages to remember from; processed in the background unless ``?wait=true``."""

    model_config = _examples(
        {
            "user_id": "u1",
            "session_id": "s1",
            "messages": [
                {"role": "user", "content": "我叫阿白，平时喜欢喝美式，别在周末给我打电话。"},
                {"role": "assistant", "content": "好的，记住了。"},
            ],
            "idempotency_key": "chat-42-turn-7",
        },
        {
            "user_id": "u2",
            "session_id": None,
            "messages": [{"role": "user", "content": "I'm vegetarian and I prefer email over phone calls."}],
            "idempotency_key": None,
        },
    )

    user_id: str
    session_id: str | None = None
    messages: list[MessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    idempotency_key: str | None = Field(
        default=None, description="the same key sent again returns the first job instead of a new one"
    )


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
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    provenance: list[str] = Field(default_factory=list, description="the message ids it came from")
    reason: str = Field(default="", description="why it was kept")

    @classmethod
    def of(cls, item: MemoryItem) -> MemoryOut:
        """The response form of a stored memory, built without a second check: the item is already
        typed, and FastAPI validates every response against its model (a search's ten hits took
        1 ms through ``to_dict`` and validation, 0.5 ms this way, with the same JSON)."""
        return cls.model_construct(**{k: plain(v) for k, v in vars(item).items() if k in _MEMORY_FIELDS})


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
        """The response form of a judge's decision (without its text for a stored job result)."""
        return cls(
            action=str(d.action.value),
            text=d.text if with_text else None,
            reason=d.reason,
            category=str(d.category.value),
            importance=d.importance,
            confidence=d.confidence,
            outcome=str(d.outcome) if d.outcome is not None else "discarded",
            related=list(d.related),
            note=d.note,
            expires_at=d.expires_at,
            memory_id=d.memory.id if d.memory is not None else None,
            message_id=d.candidate.message_id if d.candidate is not None else None,
        )


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


class SearchIn(Body):
    """A search in one user's memories."""

    model_config = _examples(
        {"user_id": "u1", "query": "推荐一杯早上的饮料", "limit": 5},
        {"user_id": "u2", "query": "how should we contact this customer?", "limit": 5},
    )

    user_id: str
    query: str
    limit: int = Field(default=10, ge=1, le=1000)
    kinds: list[str] = Field(default_factory=list, description="semantic, episodic, profile, summary, log")
    categories: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list, description="any of these tags")
    since: datetime | None = None
    until: datetime | None = None
    include_log: bool = True
    min_score: float | None = Field(default=None, ge=0.0, le=1.0)
    include_sensitive: bool = Field(default=False, description="include encrypted memories (docs/privacy.md)")


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


class ContextIn(Body):
    """A prompt-ready block for a query, under a token budget."""

    model_config = _examples(
        {"user_id": "u1", "query": "帮我订一杯咖啡", "session_id": "s1", "max_tokens": 400},
        {"user_id": "u2", "query": "What should I cook tonight?", "max_tokens": 400},
    )

    user_id: str
    query: str
    session_id: str | None = None
    max_tokens: int | None = Field(default=None, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=200)
    include_sensitive: bool = Field(default=False, description="include encrypted memories (docs/privacy.md)")


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


class RememberIn(Body):
    """Store a sentence as a memory, without extraction (still checked, deduplicated, reconciled)."""

    model_config = _examples(
        {"user_id": "u1", "text": "客户偏好邮件联系", "kind": "semantic", "tags": ["contact"]},
        {
            "user_id": "u2",
            "text": "Renewed the annual plan",
            "kind": "episodic",
            "at": "2026-03-01T10:00:00Z",
        },
    )

    user_id: str
    text: str
    kind: Literal["semantic", "episodic", "profile"] = "semantic"
    at: datetime | None = None
    tags: list[str] = Field(default_factory=list)
    session_id: str | None = None


class UpdateIn(Body):
    """A correction: the user's word wins, history keeps the old text."""

    model_config = _examples({"user_id": "u1", "text": "客户偏好电话联系"})

    user_id: str
    text: str


class FeedbackIn(Body):
    """How a recalled memory served."""

    user_id: str
    verdict: Literal["helpful", "outdated", "wrong"]
    note: str | None = None


class ForgetIn(Body):
    """Forget by tag, or everything about the user, said explicitly with ``"all": true``."""

    model_config = _examples({"user_id": "u1", "tags": ["coffee"]}, {"user_id": "u2", "all": True})

    tags: list[str] | None = Field(default=None, description="forget the memories with any of these tags")
    all: bool = Field(default=False, description="true: forget everything about the user (no tags then)")


class ForgetOut(BaseModel):
    """How many memories went."""

    deleted: int


class _FromCore(BaseModel):
    """A response read straight off a core dataclass of the same field names."""

    model_config = ConfigDict(from_attributes=True)


class HistoryOut(_FromCore):
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
        return cls.model_validate(r)


class SlotOut(_FromCore):
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
        return cls.model_validate(v)


class TurnOut(_FromCore):
    """A turn kept in a session."""

    role: str
    content: str
    at: datetime
    message_id: str


class SessionOut(_FromCore):
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
        return cls.model_validate(s)


class ReadyOut(BaseModel):
    """Readiness: each dependency's check, ``ok`` or ``unavailable``."""

    status: Literal["ready", "unavailable"]
    checks: dict[str, Literal["ok", "unavailable"]]


class ErrorBody(BaseModel):
    """What went wrong: a stable code to branch on, a message for people."""

    code: str = Field(description="e.g. invalid_input, not_found, unauthorized, rate_limited")
    message: str
    request_id: str | None = None


class ErrorOut(BaseModel):
    """Every error response has this shape."""

    error: ErrorBody
