"""What the MCP tools return: small pydantic models a model can read at a glance.

The SDK turns each into the tool's output schema and its structured content. They carry what an
agent needs to act (ids, text, why) and leave out the bookkeeping the REST API shows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memlane.domain import Decision, Hit, MemoryItem, Outcome


def _day(at: datetime | None) -> str | None:
    return at.date().isoformat() if at is not None else None


class MemoryBrief(BaseModel):
    """One memory as a readable sentence with its id."""

    id: str
    text: str
    kind: str = Field(description="semantic, episodic, profile or summary")
    tags: list[str] = Field(default_factory=list)
    updated: str | None = Field(default=None, description="the day it last changed")

    @classmethod
    def of(cls, item: MemoryItem) -> MemoryBrief:
        """The brief form of a stored memory."""
        return cls(
            id=item.id,
            text=item.text,
            kind=item.kind.value,
            tags=list(item.tags),
            updated=_day(item.updated_at or item.created_at),
        )


class MemoryDetail(MemoryBrief):
    """A memory with why it was kept and how much it is trusted."""

    category: str
    importance: float
    confidence: float
    status: str
    reason: str = Field(description="why it was kept")
    created: str | None = None
    expires: str | None = None
    recalled: int = Field(description="how often it was recalled")

    @classmethod
    def of(cls, item: MemoryItem) -> MemoryDetail:
        """The full form of a stored memory."""
        brief = MemoryBrief.of(item)
        return cls(
            **brief.model_dump(),
            category=item.category.value,
            importance=round(item.importance, 3),
            confidence=round(item.confidence, 3),
            status=item.status.value,
            reason=item.reason,
            created=_day(item.created_at),
            expires=_day(item.expires_at),
            recalled=item.access_count,
        )


class Remembered(BaseModel):
    """What the memory judge did with the text, and why."""

    kept: bool = Field(
        description="false when nothing was kept: the judge discarded it, or it was meant for a "
        "conversation that has none"
    )
    action: str = Field(description="discard, session, semantic, episodic or profile")
    text: str
    reason: str
    outcome: str = Field(
        description="new, merged, superseded, resolved, kept_existing (an existing memory already says "
        "more), session (this conversation only) or discarded"
    )
    related: list[str] = Field(
        default_factory=list, description="ids of the memories it merged into, superseded or resolved"
    )
    memory_id: str | None = None

    @classmethod
    def of(cls, d: Decision) -> Remembered:
        """The tool form of a judge's decision (its fields are only read)."""
        return cls(
            kept=d.outcome is not Outcome.DISCARDED,
            action=d.action.value,
            text=d.text,
            reason=d.reason,
            outcome=str(d.outcome or Outcome.DISCARDED),
            related=list(d.related),
            memory_id=d.memory.id if d.memory is not None else None,
        )


class RememberedAll(BaseModel):
    """One decision per memory the text held (a text may hold several, or none worth keeping)."""

    decisions: list[Remembered]


class Recalled(BaseModel):
    """One memory relevant to the query, with why it was recalled."""

    id: str
    text: str
    kind: str
    score: float
    why: str
    when: str | None = Field(default=None, description="the day it was said or happened")

    @classmethod
    def of(cls, hit: Hit) -> Recalled:
        """The tool form of a search hit."""
        m = hit.memory
        return cls(
            id=m.id,
            text=m.text,
            kind=m.kind.value,
            score=round(hit.score, 4),
            why=str(hit.explain.get("why", "")),
            when=_day(m.valid_from or m.created_at),
        )


class RecallOut(BaseModel):
    """The best matches first."""

    results: list[Recalled]


class ContextOut(BaseModel):
    """A block to put in a prompt: memory text is fenced as quoted data, not instructions."""

    text: str
    tokens: int
    memory_ids: list[str]


class MemoryList(BaseModel):
    """A page of memories, newest first."""

    memories: list[MemoryBrief]


class Forgotten(BaseModel):
    """How many memories were deleted (from every table and index)."""

    deleted: int


class ProfileOut(BaseModel):
    """The user's profile slots and the rolling summary of who they are."""

    profile: dict[str, Any]
    summary: str | None = None


class ExportOut(BaseModel):
    """Everything held about the user (docs/privacy.md describes the document)."""

    document: dict[str, Any]
