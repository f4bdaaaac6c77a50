"""The ``/v1`` routes the memory page adds: signing in and out of a page session, and per-user links
(made, listed and revoked with an API key of the tenant, or by staff signed in on the page).

Everything else the page shows or changes goes through the ordinary ``/v1`` routes, with the page's
cookie in place of an API key (``memlane.service.routes.deps``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import anyio
from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from memlane import validate
from memlane.clock import utcnow
from memlane.service.http import ApiError
from memlane.service.models import ErrorOut
from memlane.service.routes.deps import AdminDep, StateDep
from memlane.service.web.access import COOKIE, PageSession
from memlane.service.web.links import MAX_HOURS, Link

router = APIRouter(prefix="/v1", tags=["memory page"], responses={422: {"model": ErrorOut}})
_AUTH: dict[int | str, dict[str, object]] = {401: {"model": ErrorOut}, 403: {"model": ErrorOut}}


class SignIn(BaseModel):
    """Open a page session: with a user's link token, or (staff) with an API key of the tenant."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"link": "eyJ...Q.3vN..."}, {"key": "mlk_1a2b3c4d5e6f_..."}]}
    )

    link: str | None = Field(default=None, max_length=4096, description="the token after #link= in a link")
    key: str | None = Field(default=None, max_length=512, description="an API key (staff)")


class PageSessionOut(BaseModel):
    """Who the page is signed in as, and the token its state-changing requests must carry."""

    tenant: str
    role: str = Field(description="user (through a link) or staff (with an API key)")
    user_id: str | None = Field(description="the one user a link reaches; null for staff")
    expires_at: datetime
    csrf_token: str = Field(description="send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE")
    reveals_sensitive: bool = Field(description="whether encrypted originals may be opened (the user only)")


class LinkIn(BaseModel):
    """A link to one user's memory page."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"user_id": "u1", "hours": 24}]})

    user_id: str
    hours: float = Field(default=24, gt=0, le=MAX_HOURS, description="how long the link opens the page")


class LinkOut(BaseModel):
    """A link as listed (never its token)."""

    id: str
    user_id: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    created_by: str

    @classmethod
    def of(cls, link: Link) -> LinkOut:
        """The response form of a link."""
        return cls(
            id=link.id,
            user_id=link.user_id,
            created_at=link.created_at,
            expires_at=link.expires_at,
            revoked_at=link.revoked_at,
            created_by=link.created_by,
        )


class CreatedLinkOut(LinkOut):
    """A new link: hand ``url`` to the user. It is shown once."""

    url: str
    token: str


class LinkList(BaseModel):
    """The tenant's links, newest first."""

    links: list[LinkOut]


def _https(request: Request, public_url: str | None) -> bool:
    """Whether the page is served over https: directly, or behind a proxy that terminates TLS at the
    public address."""
    return request.url.scheme == "https" or (public_url or "").startswith("https://")


def _described(request: Request, session: PageSession) -> PageSessionOut:
    access = request.app.state.memlane.page
    return PageSessionOut(
        tenant=session.tenant,
        role=session.role,
        user_id=session.user_id,
        expires_at=session.expires_at,
        csrf_token=access.csrf(session),
        reveals_sensitive=session.role == "user",
    )


@router.post("/web/session", response_model=PageSessionOut, responses=_AUTH)
async def sign_in(body: SignIn, request: Request, response: Response, state: StateDep) -> PageSessionOut:
    """Open a page session (an HttpOnly, SameSite=Strict cookie; Secure over https) with a user's
    link token or a staff API key. A link's session reaches that user only."""
    client = request.client.host if request.client else "unknown"
    state.limiter.check(f"sign-in:{client}")  # guessing is hopeless (256-bit secrets), and slow too
    if (body.link is None) == (body.key is None):
        raise ApiError(422, "invalid_input", "send either a link token or an API key")
    now = utcnow()
    if body.link is not None:
        session = await anyio.to_thread.run_sync(state.page.for_link, body.link, now)
        refused = "this link is not valid: it has expired, was revoked, or was changed"
    else:
        session = await anyio.to_thread.run_sync(state.page.for_key, body.key or "", now)
        refused = "unknown or revoked API key"
    if session is None:
        raise ApiError(401, "unauthorized", refused)
    response.set_cookie(
        COOKIE,
        state.page.cookie(session),
        max_age=max(1, int((session.expires_at - now).total_seconds())),
        path="/",
        secure=_https(request, state.config.public_url),
        httponly=True,
        samesite="strict",
    )
    response.headers["Cache-Control"] = "no-store"
    return _described(request, session)


@router.get("/web/session", response_model=PageSessionOut, responses=_AUTH)
async def current_session(request: Request, state: StateDep) -> PageSessionOut:
    """The page session the cookie carries (401 when there is none, or it has ended)."""
    cookie = request.cookies.get(COOKIE)
    session = await anyio.to_thread.run_sync(state.page.session_of, cookie, utcnow()) if cookie else None
    if session is None:
        raise ApiError(401, "unauthorized", "no page session: open your link, or sign in with an API key")
    state.limiter.check(session.bucket)
    return _described(request, session)


@router.delete("/web/session", status_code=204)
def sign_out(request: Request, state: StateDep) -> Response:
    """Sign the page out: the cookie is removed."""
    response = Response(status_code=204)
    secure = _https(request, state.config.public_url)
    response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
    return response


@router.post("/links", status_code=201, response_model=CreatedLinkOut, responses=_AUTH)
def create_link(body: LinkIn, request: Request, caller: AdminDep, state: StateDep) -> CreatedLinkOut:
    """Make a link to one user's memory page, valid for ``hours`` (at most 30 days). Its ``url``
    opens the page on this service (``MEMLANE_PUBLIC_URL`` when the service sits behind a proxy)."""
    uid = validate.identifier(body.user_id, "user_id", caller.memory.settings)
    made = state.page.links.create(caller.tenant, uid, hours=body.hours, now=utcnow(), created_by=caller.name)
    base = state.config.public_url or str(request.base_url)
    return CreatedLinkOut(**LinkOut.of(made.link).model_dump(), url=made.url(base), token=made.token)


@router.get("/links", response_model=LinkList, responses=_AUTH)
def list_links(
    caller: AdminDep, state: StateDep, user_id: Annotated[str | None, Query(description="one user's")] = None
) -> LinkList:
    """The tenant's links (of one user), newest first, revoked and expired ones included."""
    return LinkList(links=[LinkOut.of(k) for k in state.page.links.links(caller.tenant, user_id)])


@router.delete("/links/{link_id}", response_model=LinkOut, responses={**_AUTH, 404: {"model": ErrorOut}})
def revoke_link(link_id: str, caller: AdminDep, state: StateDep) -> LinkOut:
    """Revoke a link: it, and every page session opened with it, stop working within seconds."""
    return LinkOut.of(state.page.links.revoke(caller.tenant, link_id, now=utcnow()))
