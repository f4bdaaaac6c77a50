"""What routes depend on: the service's shared state and the authenticated caller."""

from __future__ import annotations

import asyncio
import contextvars
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memlane.clock import utcnow
from memlane.memory import Memory
from memlane.service.config import ServiceSettings
from memlane.service.http import ApiError, QueueLimit, RateLimiter
from memlane.service.keys import KeyStore
from memlane.service.metrics import Metrics
from memlane.service.models import ErrorOut
from memlane.service.queue import JobQueue
from memlane.service.tenants import Tenants
from memlane.service.traffic import Traffic
from memlane.service.web.access import COOKIE, PageAccess, PageSession
from memlane.service.web.guard import guard

T = TypeVar("T")

_bearer = HTTPBearer(auto_error=False, description="an API key from `memlane keys create --tenant NAME`")

_WHY = {
    401: "no API key, an unknown key or a revoked key (unauthorized)",
    404: "an unknown id, or another tenant's (not_found): the two read the same",
    413: "the body is larger than MEMLANE_MAX_BODY_BYTES (payload_too_large)",
    422: "the body or a parameter does not fit the schema, or a field or parameter is unknown "
    "(invalid_request); a value the core refuses (invalid_input, text_too_long)",
    429: "too many requests for this key, or too many failed authentications from this address "
    "(rate_limited), with Retry-After",
    503: "the store, Redis or the queue cannot be reached (store_unavailable); nothing was written",
}


def errors(*statuses: int, auth: bool = True) -> dict[int | str, dict[str, Any]]:
    """The error responses a route documents: those of every ``/v1`` route (``auth``: 401, 413,
    422, 429, 503), and ``statuses`` besides, each with the one error shape."""
    every = (401, 413, 422, 429, 503) if auth else (422,)
    return {s: {"model": ErrorOut, "description": _WHY[s]} for s in sorted({*every, *statuses})}


async def known_parameters(request: Request) -> None:
    """A query parameter the route does not define is a 422, as an unknown body field is: a typo
    (``?userid=``) must not silently mean "no value". A route with a caller is checked after the
    caller is authenticated (:func:`caller`): who may not use a route learns nothing more about it."""
    route = request.scope.get("route")
    if isinstance(route, APIRoute) and not _authenticated(route.dependant):
        _known(request)


def _known(request: Request) -> None:
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    names = _query_names(route.dependant)
    unknown = sorted(set(request.query_params) - names)
    if unknown:
        expected = ", ".join(sorted(names)) or "none"
        raise ApiError(
            422, "invalid_request", f"unknown query parameter {unknown[0]!r}; this route takes: {expected}"
        )


class ComputeSlots:
    """Requests that embed or rank text run at most ``slots`` at once; the others wait their turn,
    first come first served.

    Such a request is CPU work (a query embedding, scoring, reading rows) on a machine with a few
    cores. Eight of them running at once share the cores and the GIL, so each takes eight times as
    long and the unlucky ones longer still; run one per core, in arrival order, they take the same
    time on average and the slowest wait far less (docs/service.md, "Concurrency"). By default there
    is one slot per core, or two per core when the store is reached over the network
    (``remote_store``): such a request spends a fifth of its time waiting for PostgreSQL and Redis,
    and with one slot per core, a core would idle meanwhile. ``cores`` are the cores left to these
    requests (all of them unless the app's event loop has work of its own: the chat proxy's).
    """

    def __init__(
        self,
        slots: int | None = None,
        traffic: Traffic | None = None,
        *,
        remote_store: bool = False,
        cores: int | None = None,
    ) -> None:
        self.slots = slots or (cores or os.cpu_count() or 1) * (2 if remote_store else 1)
        self.traffic = traffic or Traffic()  # what a worker sharing the CPU lets go first
        # ``slots`` threads taking calls from one queue, in arrival order, are the slots and the
        # waiting line in one; unlike an anyio limiter, not tied to the event loop that used it first
        self._pool = ThreadPoolExecutor(self.slots, thread_name_prefix="memlane-compute")

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker thread, once a slot is free; in a copy of the caller's
        context, so that a context variable ``fn`` sets stays with this call."""
        call = partial(contextvars.copy_context().run, fn, *args, **kwargs)
        self.traffic.begin()
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, call)
        finally:
            self.traffic.end()

    def close(self) -> None:
        """Wait for the calls in hand; no more are taken."""
        self._pool.shutdown(wait=True)


def _authenticated(dependant: Dependant) -> bool:
    """Whether the route (or what it depends on) authenticates its caller."""
    return any(sub.call is caller or _authenticated(sub) for sub in dependant.dependencies)


def _query_names(dependant: Dependant) -> set[str]:
    """The query parameters a route (and what it depends on) reads."""
    names = {str(p.alias) for p in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


@dataclass
class ServiceState:
    """Everything the routes share: stores per tenant, keys, the job queue, limits and metrics."""

    tenants: Tenants
    keys: KeyStore
    queue: JobQueue
    config: ServiceSettings
    limiter: RateLimiter
    auth_failures: RateLimiter  # per client address: failed authentications
    queue_limit: QueueLimit
    metrics: Metrics
    compute: ComputeSlots
    page: PageAccess


@dataclass(frozen=True)
class Caller:
    """The tenant a request's key (or page session) belongs to, and that tenant's memory."""

    tenant: str
    memory: Memory
    key_id: str  # the API key's id; for a user's page session, its link's id
    page: PageSession | None = None  # set when the request came from the memory page

    @property
    def name(self) -> str:
        """Who is asking, as the audit log records it: ``api:<tenant>:<key id>``, or ``web`` for a
        user on the memory page and ``web:staff`` for staff there."""
        return self.page.caller if self.page is not None else f"api:{self.tenant}:{self.key_id}"

    @property
    def reader(self) -> str | None:
        """The name reads are audited under: a page session's (a person looked at the memory), None
        for an API key (an application's own reads are not recorded, so they cost no write)."""
        return self.page.caller if self.page is not None else None

    @property
    def reveals(self) -> bool:
        """Whether encrypted originals may be opened: for API keys and for the user's own page
        session, not for staff on the page."""
        return self.page is None or self.page.role == "user"

    @property
    def admin(self) -> bool:
        """Whether the caller may act for the whole tenant (links, the user list): an API key or a
        staff page session, never a user's link."""
        return self.page is None or self.page.role == "staff"


async def state_of(request: Request) -> ServiceState:
    """The app's shared state."""
    state: ServiceState = request.app.state.memlane
    return state


StateDep = Annotated[ServiceState, Depends(state_of)]


async def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    state: StateDep,
) -> Caller:
    """Authenticate the bearer key, apply its rate limit, and hand out its tenant's memory.

    Async, as a dependency that needs no thread must be: FastAPI runs a plain ``def`` one in its
    thread pool, two thread switches a request for what is a dictionary lookup once the key and the
    tenant were seen. The database is asked, in a thread, only when they were not.
    """
    address = request.client.host if request.client is not None else "unknown"
    if credentials is None:
        cookie = request.cookies.get(COOKIE)
        if cookie is not None:
            return await _page_caller(request, state, cookie)
        state.auth_failures.check(address)
        raise ApiError(401, "unauthorized", "missing API key: send 'Authorization: Bearer <key>'")
    secret = credentials.credentials
    known, grant = state.keys.known(secret)
    if not known:
        # an address that keeps sending bad keys does not get to make the database look them up
        # (a key verified before, checked again, is not a guess)
        if not state.keys.verified_before(secret):
            state.auth_failures.refuse_if_empty(address)
        grant = await anyio.to_thread.run_sync(state.keys.grant_of, secret)
    if grant is None:
        state.auth_failures.check(address)
        raise ApiError(401, "unauthorized", "unknown or revoked API key")
    if grant.user is not None:  # the REST routes act for any user of the tenant
        raise ApiError(
            403,
            "forbidden",
            f"this key is scoped to user {grant.user!r} and opens /mcp only; use a tenant key here",
        )
    tenant = grant.tenant
    key_id = secret.split("_")[1]
    state.limiter.check(f"key:{key_id}")  # the bucket a staff page session of this key shares
    request.state.tenant = tenant
    _known(request)
    return Caller(tenant, await _memory(state, tenant), key_id)


async def _memory(state: ServiceState, tenant: str) -> Memory:
    memory = state.tenants.built(tenant)
    if memory is None:
        memory = await anyio.to_thread.run_sync(state.tenants.memory, tenant)
    return memory


async def _page_caller(request: Request, state: ServiceState, cookie: str) -> Caller:
    """A request from the memory page: its session must be live and the request within it
    (``memlane.service.web.guard``); it shares the rate limits of the API."""
    session = await anyio.to_thread.run_sync(state.page.session_of, cookie, utcnow())
    if session is None:
        raise ApiError(
            401, "unauthorized", "the page session has ended or its link was revoked: open your link again"
        )
    state.limiter.check(session.bucket)
    await guard(request, session, state.page)
    request.state.tenant = session.tenant
    _known(request)
    return Caller(session.tenant, await _memory(state, session.tenant), session.via, session)


CallerDep = Annotated[Caller, Depends(caller)]


async def admin(caller: CallerDep) -> Caller:
    """:func:`caller`, for routes that act for the whole tenant: a user's link may not use them."""
    if not caller.admin:
        raise ApiError(403, "forbidden", "a user's link opens that user's memory only; this needs an API key")
    return caller


AdminDep = Annotated[Caller, Depends(admin)]
