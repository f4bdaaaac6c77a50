"""Everything about one user: profile, sessions, forgetting and export."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from memlane import validate
from memlane.errors import NotFound
from memlane.lifecycle.markdown import to_markdown
from memlane.privacy.audit import OPS
from memlane.service.bodies import Body, ForgetIn
from memlane.service.models import ErrorOut, ForgetOut, MemoryOut, SessionOut, SlotOut
from memlane.service.routes.deps import AdminDep, CallerDep, StateDep, errors

router = APIRouter(prefix="/v1", tags=["users"], responses=errors())
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


class EndSession(Body):
    """End a conversation now."""

    user_id: str
    session_id: str


class Written(BaseModel):
    """Memories written by ending a session (its episode summary, promoted conditions)."""

    memories: list[MemoryOut]


class ForgetSession(Body):
    """Delete one conversation and what was learned only from it."""

    user_id: str
    session_id: str


class AuditOut(BaseModel):
    """The user's audit log, latest first: operations and memory ids, never memory text."""

    entries: list[dict[str, Any]]


class ConsentIn(Body):
    """What the user agrees memlane may keep."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"user_id": "u1", "enabled": True, "categories": ["name", "preference"]},
                {"user_id": "u2", "enabled": False, "categories": None},
            ]
        },
    )

    user_id: str
    enabled: bool = True
    categories: list[str] | None = Field(default=None, description="null: every category")


class ForgetUser(ForgetIn):
    """Forget by tag, or everything about the user with ``"all": true`` (never by leaving tags out)."""

    user_id: str


@router.get("/profile", response_model=ProfileOut)
def profile(caller: CallerDep, user_id: UserId) -> ProfileOut:
    """The user's structured profile."""
    return ProfileOut(profile=caller.memory.profile(user_id, caller=caller.reader))


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
    live = caller.memory.live_sessions(user_id, caller=caller.reader)
    return SessionList(sessions=[SessionOut.of(s) for s in live])


@router.get("/sessions/{session_id}", response_model=SessionOut, responses=errors(404))
def session(session_id: str, caller: CallerDep, user_id: UserId) -> SessionOut:
    """One live session: recent turns, summary, temporary slots."""
    found = caller.memory.session(user_id, session_id)
    if found is None:
        raise NotFound(f"no session {session_id!r}")
    return SessionOut.of(found)


@router.post("/sessions/end", response_model=Written, responses=errors(404))
def end_session(body: EndSession, caller: CallerDep) -> Written:
    """End a session: write its episode summary and promote repeated conditions."""
    written = caller.memory.end_session(body.user_id, body.session_id)
    return Written(memories=[MemoryOut.of(m) for m in written])


@router.post("/forget", response_model=ForgetOut)
def forget(body: ForgetUser, caller: CallerDep, state: StateDep) -> ForgetOut:
    """Delete the user's memories with any of the tags, or, with ``"all": true``, everything about
    the user: memories, log, profile, sessions, history, and the user's write-back jobs (queued ones
    are cancelled, finished ones lose their results), so that nothing queued before comes back."""
    if body.all:
        uid = validate.identifier(body.user_id, "user_id", caller.memory.settings)
        # the queue first: a job still running then finds itself gone and withdraws what it wrote
        state.queue.forget(caller.tenant, uid)
    deleted = caller.memory.forget(body.user_id, tags=body.tags, all=body.all, caller=caller.name)
    return ForgetOut(deleted=deleted)


@router.get(
    "/export",
    responses={
        200: {
            "content": {"text/markdown": {}},
            "description": "the document, or (?format=markdown) a readable file",
        }
    },
)
def export(
    caller: CallerDep,
    user_id: UserId,
    format: Literal["json", "markdown"] = "json",
    lang: Literal["en", "zh"] = "en",
) -> Any:
    """Everything held about the user as one JSON document (schema: docs/privacy.md), or as a
    readable Markdown file in English or Chinese. Staff on the memory page get it without the
    encrypted originals (``sealed`` is empty; those memories keep their masked text)."""
    document = caller.memory.export(user_id, caller=caller.name)
    if not caller.reveals:
        document["sealed"] = []
    if format == "markdown":
        name = f"memlane-{user_id}.md".encode("ascii", "replace").decode()
        return PlainTextResponse(
            to_markdown(document, lang),
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{_safe(name)}"'},
        )
    return document


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


@router.post("/sessions/forget", response_model=ForgetOut, responses=errors(404))
def forget_session(body: ForgetSession, caller: CallerDep) -> ForgetOut:
    """Delete a conversation: its turns, its log, and memories learned only from it."""
    return ForgetOut(deleted=caller.memory.forget_session(body.user_id, body.session_id, caller=caller.name))


@router.get("/audit", response_model=AuditOut)
def audit(
    caller: CallerDep,
    user_id: UserId,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
    op: Annotated[list[Literal[OPS]], Query(description="only these operations")] = [],  # type: ignore[valid-type]  # noqa: B006
    since: Annotated[datetime | None, Query(description="only entries from this time on")] = None,
) -> AuditOut:
    """Every write, update, delete, export and context assembly for the user (and reads by a named
    caller, such as the memory page), latest first; ``op`` and ``since`` narrow it down."""
    wanted = set(op)
    entries = caller.memory.audit(user_id, since=since, limit=10_000 if wanted else limit)
    chosen = [e for e in entries if not wanted or e.op in wanted][:limit]
    return AuditOut(entries=[e.to_dict() for e in chosen])


@router.get("/consent")
def consent(caller: CallerDep, user_id: UserId) -> dict[str, Any]:
    """The user's consent settings (memory on, every category, until set)."""
    return caller.memory.consent(user_id).to_dict()


@router.put("/consent")
def set_consent(body: ConsentIn, caller: CallerDep) -> dict[str, Any]:
    """Turn memory on or off for the user, or limit it to some categories."""
    settings = caller.memory.set_consent(
        body.user_id, enabled=body.enabled, categories=body.categories, caller=caller.name
    )
    return settings.to_dict()


class SummaryOut(BaseModel):
    """The rolling portrait of the user, rebuilt by maintenance (null until there is one)."""

    summary: MemoryOut | None


class MemoryList(BaseModel):
    """Memories, in the order the route says."""

    memories: list[MemoryOut]


class UserList(BaseModel):
    """The tenant's users with anything stored, sorted."""

    users: list[str]


class RestoreIn(BaseModel):
    """An export document to load into the user's (empty) memory."""

    user_id: str
    document: dict[str, Any] = Field(description="what GET /v1/export returned (format memlane.export)")


class RestoreOut(BaseModel):
    """What a restore wrote."""

    user_id: str
    memories: int
    log: int
    profile_versions: int
    sessions: int
    history: int
    audit: int
    sealed: int


@router.get("/summary", response_model=SummaryOut)
def summary(caller: CallerDep, user_id: UserId) -> SummaryOut:
    """The user summary: a short portrait for everyday prompts (rebuilt by maintenance)."""
    found = caller.memory.user_summary(user_id)
    return SummaryOut(summary=MemoryOut.of(found) if found is not None else None)


@router.get("/stale", response_model=MemoryList)
def stale(caller: CallerDep, user_id: UserId) -> MemoryList:
    """Long-lived preferences not confirmed for a while: worth asking the user about again
    (``helpful`` feedback confirms one)."""
    return MemoryList(memories=[MemoryOut.of(m) for m in caller.memory.stale(user_id)])


@router.get("/users", response_model=UserList, responses={403: {"model": ErrorOut}})
def users(caller: AdminDep) -> UserList:
    """The tenant's users with memories, log turns or a session (an API key or staff only)."""
    return UserList(users=caller.memory.users())


@router.post("/restore", status_code=201, response_model=RestoreOut)
def restore(body: RestoreIn, caller: CallerDep) -> RestoreOut:
    """Load an export into the user's memory, which must be empty (forget everything first, or
    restore under another user_id); ids, times, history and profile versions are kept."""
    report = caller.memory.restore(body.document, user_id=body.user_id, caller=caller.name)
    return RestoreOut(**vars(report))
