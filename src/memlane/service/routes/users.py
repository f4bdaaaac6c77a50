"""Everything about one user: profile, sessions, forgetting and export."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from memlane import validate
from memlane.clock import utcnow
from memlane.errors import NotFound
from memlane.service.models import ErrorOut, ForgetIn, ForgetOut, MemoryOut, SessionOut, SlotOut
from memlane.service.routes.deps import CallerDep

router = APIRouter(prefix="/v1", tags=["users"], responses={422: {"model": ErrorOut}})
UserId = Annotated[str, Query(description="the user, inside your tenant")]


class ProfileOut(BaseModel):
    """The user's profile: slot → current value."""

    profile: dict[str, Any]


class SlotHistory(BaseModel):
    """Every version of the profile's slots, oldest first."""

    versions: list[SlotOut]


class SessionList(BaseModel):
    """The user's live sessions, most recent first."""

    sessions: list[SessionOut]


class EndSession(BaseModel):
    """End a conversation now."""

    user_id: str
    session_id: str


class Written(BaseModel):
    """Memories written by ending a session (its episode summary, promoted conditions)."""

    memories: list[MemoryOut]


class ForgetSession(BaseModel):
    """Delete one conversation and what was learned only from it."""

    user_id: str
    session_id: str


class AuditOut(BaseModel):
    """The user's audit log, latest first: operations and memory ids, never memory text."""

    entries: list[dict[str, Any]]


class ConsentIn(BaseModel):
    """What the user agrees memlane may keep."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"user_id": "u1", "enabled": True, "categories": ["name", "preference"]},
                {"user_id": "u2", "enabled": False, "categories": None},
            ]
        }
    )

    user_id: str
    enabled: bool = True
    categories: list[str] | None = Field(default=None, description="null: every category")


class ForgetUser(ForgetIn):
    """Forget by tag, or (no tags) everything about the user."""

    user_id: str


@router.get("/profile", response_model=ProfileOut)
def profile(caller: CallerDep, user_id: UserId) -> ProfileOut:
    """The user's structured profile."""
    return ProfileOut(profile=caller.memory.profile(user_id))


@router.get("/profile/history", response_model=SlotHistory)
def profile_history(
    caller: CallerDep, user_id: UserId, slot: Annotated[str | None, Query()] = None
) -> SlotHistory:
    """Every version of one slot (or of all slots)."""
    versions = caller.memory.profile_history(user_id, slot)
    return SlotHistory(versions=[SlotOut.of(v) for v in versions])


@router.get("/sessions", response_model=SessionList)
def sessions(caller: CallerDep, user_id: UserId) -> SessionList:
    """The user's live sessions."""
    uid = validate.identifier(user_id, "user_id", caller.memory.settings)
    live = caller.memory.sessions.list_sessions(uid, utcnow())
    return SessionList(sessions=[SessionOut.of(s) for s in live])


@router.get("/sessions/{session_id}", response_model=SessionOut, responses={404: {"model": ErrorOut}})
def session(session_id: str, caller: CallerDep, user_id: UserId) -> SessionOut:
    """One live session: recent turns, summary, temporary slots."""
    found = caller.memory.session(user_id, session_id)
    if found is None:
        raise NotFound(f"no session {session_id!r}")
    return SessionOut.of(found)


@router.post("/sessions/end", response_model=Written, responses={404: {"model": ErrorOut}})
def end_session(body: EndSession, caller: CallerDep) -> Written:
    """End a session: write its episode summary and promote repeated conditions."""
    written = caller.memory.end_session(body.user_id, body.session_id)
    return Written(memories=[MemoryOut.of(m) for m in written])


@router.post("/forget", response_model=ForgetOut)
def forget(body: ForgetUser, caller: CallerDep) -> ForgetOut:
    """Delete the user's memories with any of the tags, or everything about the user (no tags)."""
    return ForgetOut(deleted=caller.memory.forget(body.user_id, tags=body.tags))


@router.get("/export")
def export(caller: CallerDep, user_id: UserId) -> dict[str, Any]:
    """Everything held about the user as one JSON document (schema: docs/privacy.md)."""
    return caller.memory.export(user_id, caller=caller.name)


@router.post("/sessions/forget", response_model=ForgetOut)
def forget_session(body: ForgetSession, caller: CallerDep) -> ForgetOut:
    """Delete a conversation: its turns, its log, and memories learned only from it."""
    return ForgetOut(deleted=caller.memory.forget_session(body.user_id, body.session_id))


@router.get("/audit", response_model=AuditOut)
def audit(
    caller: CallerDep, user_id: UserId, limit: Annotated[int, Query(ge=1, le=10_000)] = 100
) -> AuditOut:
    """Every write, update, delete, export and context assembly for the user, latest first."""
    return AuditOut(entries=[e.to_dict() for e in caller.memory.audit(user_id, limit=limit)])


@router.get("/consent")
def consent(caller: CallerDep, user_id: UserId) -> dict[str, Any]:
    """The user's consent settings (memory on, every category, until set)."""
    return caller.memory.consent(user_id).to_dict()


@router.put("/consent")
def set_consent(body: ConsentIn, caller: CallerDep) -> dict[str, Any]:
    """Turn memory on or off for the user, or limit it to some categories."""
    settings = caller.memory.set_consent(body.user_id, enabled=body.enabled, categories=body.categories)
    return settings.to_dict()
