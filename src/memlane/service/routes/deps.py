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
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memlane.memory import Memory
from memlane.service.config import ServiceSettings
from memlane.service.http import ApiError, QueueLimit, RateLimiter
from memlane.service.keys import KeyStore
from memlane.service.metrics import Metrics
from memlane.service.queue import JobQueue
from memlane.service.tenants import Tenants
from memlane.service.worker import Traffic

T = TypeVar("T")

_bearer = HTTPBearer(auto_error=False, description="an API key from `memlane keys create --tenant NAME`")


class ComputeSlots:
    """Requests that embed or rank text run at most ``slots`` at once; the others wait their turn,
    first come first served.

    Such a request is CPU work (a query embedding, scoring, reading rows) on a machine with a few
    cores. Eight of them running at once share the cores and the GIL, so each takes eight times as
    long and the unlucky ones longer still; run one per core, in arrival order, they take the same
    time on average and the slowest wait far less (docs/service.md, "Concurrency"). By default there
    is one slot per core, or two per core when the store is reached over the network
    (``remote_store``): such a request spends a fifth of its time waiting for PostgreSQL and Redis,
    and with one slot per core, a core would idle meanwhile.
    """

    def __init__(
        self, slots: int | None = None, traffic: Traffic | None = None, *, remote_store: bool = False
    ) -> None:
        self.slots = slots or (os.cpu_count() or 1) * (2 if remote_store else 1)
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


@dataclass
class ServiceState:
    """Everything the routes share: stores per tenant, keys, the job queue, limits and metrics."""

    tenants: Tenants
    keys: KeyStore
    queue: JobQueue
    config: ServiceSettings
    limiter: RateLimiter
    queue_limit: QueueLimit
    metrics: Metrics
    compute: ComputeSlots


@dataclass(frozen=True)
class Caller:
    """The tenant a request's key belongs to, and that tenant's memory."""

    tenant: str
    memory: Memory
    key_id: str

    @property
    def name(self) -> str:
        """Who is asking, as the audit log records it."""
        return f"api:{self.tenant}:{self.key_id}"


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
    if credentials is None:
        raise ApiError(401, "unauthorized", "missing API key: send 'Authorization: Bearer <key>'")
    secret = credentials.credentials
    known, tenant = state.keys.known(secret)
    if not known:
        tenant = await anyio.to_thread.run_sync(state.keys.tenant_of, secret)
    if tenant is None:
        raise ApiError(401, "unauthorized", "unknown or revoked API key")
    state.limiter.check(secret)
    request.state.tenant = tenant
    memory = state.tenants.built(tenant)
    if memory is None:
        memory = await anyio.to_thread.run_sync(state.tenants.memory, tenant)
    return Caller(tenant, memory, secret.split("_")[1])


CallerDep = Annotated[Caller, Depends(caller)]
