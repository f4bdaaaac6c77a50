"""The FastAPI application: :func:`create_app` wires the stores, keys, queue, limits and routes.

::

    uvicorn --factory memlane.service.app:create_app   # or: memlane serve
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import timedelta
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from memlane.clock import utcnow
from memlane.errors import MemlaneError
from memlane.mcp import mcp_endpoint
from memlane.service.config import ServiceSettings
from memlane.service.http import (
    ApiError,
    Edge,
    QueueLimit,
    RateLimiter,
    configure_logging,
    on_api_error,
    on_http_error,
    on_memlane_error,
    on_unexpected,
    on_validation_error,
)
from memlane.service.jobs import job_handler, job_withdrawal, keep_maintained
from memlane.service.keycache import KeyCache
from memlane.service.keys import KeyStore, open_keys
from memlane.service.metrics import Metrics
from memlane.service.queue import JobQueue, open_queue
from memlane.service.queue.redis import RedisJobQueue
from memlane.service.queue.sqlite import SQLiteJobQueue
from memlane.service.routes import langgraph_store, memories, ops, users, writes
from memlane.service.routes.deps import ComputeSlots, ServiceState, known_parameters
from memlane.service.tenants import Tenants, sibling_file
from memlane.service.traffic import Beacon, Traffic
from memlane.service.web import page
from memlane.service.web import routes as web_routes
from memlane.service.web.access import PageAccess
from memlane.service.web.links import LinkStore
from memlane.service.worker import Worker, start_thread
from memlane.settings import Settings
from memlane.store import KindCounts
from memlane.store.sqlite.search import SQLiteSearch
from memlane.text.keywords import query_tokens

log = logging.getLogger("memlane.service")

DESCRIPTION = """memlane's REST API: long-term memory for LLM applications, in Chinese and English.

Every `/v1` route needs `Authorization: Bearer <key>`; a key belongs to one tenant, and a `user_id`
is only meaningful inside its tenant. Errors are `{"error": {"code", "message", "request_id"}}`.
The memory page at `/` calls the same routes with a page-session cookie instead (opened with
`POST /v1/web/session`): a user's link reaches that user only, and every change carries
`X-CSRF-Token`.
"""


def open_key_store(settings: Settings, config: ServiceSettings) -> KeyStore:
    """The API keys the settings name (:func:`keys_location`), with the settings' outage grace."""
    return open_keys(keys_location(settings, config), KeyCache(grace=config.keys_outage_grace))


def keys_location(settings: Settings, config: ServiceSettings) -> str:
    """Where API keys live: ``MEMLANE_KEYS``, else the PostgreSQL store, else a file beside the SQLite one."""
    store_url = settings.store or ""
    return config.keys or (store_url if store_url.startswith("postgres") else sibling_file(settings, "keys"))


def open_job_queue(settings: Settings, config: ServiceSettings) -> JobQueue:
    """The job queue: ``MEMLANE_QUEUE``, else a SQLite file beside the store's."""
    return open_queue(
        config.queue,
        sibling_file(settings, "jobs"),
        lease_seconds=config.job_lease_seconds,
        max_attempts=config.job_max_attempts,
    )


def create_app(
    settings: Settings | None = None,
    config: ServiceSettings | None = None,
    *,
    tenants: Tenants | None = None,
    keys: KeyStore | None = None,
    queue: JobQueue | None = None,
    relay: bool = False,
) -> FastAPI:
    """The app; anything not passed in is opened from ``MEMLANE_*`` settings. The app owns what it
    is given: its shutdown closes the stores, the key store and the queue. ``relay``: the event
    loop relays streams of its own (the chat proxy), so one core is left to it, not to the
    compute slots (docs/service.md, "Concurrency").
    """
    settings = settings or Settings()
    if "embed_instances" not in settings.model_fields_set:
        # one model per core (72 MB each), not per compute slot: the embedded worker thread embeds
        # its candidates on these models too, and a read must not wait for it to finish
        settings = settings.model_copy(update={"embed_instances": min(4, os.cpu_count() or 1)})
    config = config or ServiceSettings()
    if config.log_level:  # a process started by uvicorn's --workers builds its app, and its logs, here
        configure_logging(config.log_level)
    tenants = tenants or Tenants(settings)
    keys = keys or open_key_store(settings, config)
    queue = queue or open_job_queue(settings, config)
    stores = tenants.stores
    traffic = Traffic()  # requests doing compute work: a worker sharing the CPU lets them go first
    state = ServiceState(
        tenants=tenants,
        keys=keys,
        queue=queue,
        config=config,
        limiter=RateLimiter(config.rate_limit, config.rate_burst),
        auth_failures=RateLimiter(
            config.auth_failure_rate,
            config.auth_failure_burst,
            what="failed authentications from this address",
        ),
        queue_limit=QueueLimit(queue, config.queue_limit),
        metrics=Metrics(
            lambda: queue.stats(utcnow()),
            stores.records.kind_counts if isinstance(stores.records, KindCounts) else dict,
            tenants.llm_usage,
            tenants.vectors_queued,
        ),
        compute=ComputeSlots(
            config.compute_slots,
            traffic,
            remote_store=not isinstance(stores.search, SQLiteSearch),
            cores=max(1, (os.cpu_count() or 1) - 1) if relay else None,
        ),
        page=PageAccess(LinkStore(keys), keys),
    )
    mcp = mcp_endpoint(state)  # /mcp (docs/mcp.md), when the MCP SDK is installed

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # load the models and jieba's dictionary now, not in the first requests (~0.8 s)
        tenants.embedder.warm_up()
        query_tokens("预热 warm up")
        stop = threading.Event()
        threads: list[threading.Thread] = []
        # a SQLite queue is worked inside the API process; a Redis one by `memlane worker` processes,
        # and those on this host hear from the beacon when requests are being served here
        if config.embedded_worker and isinstance(queue, SQLiteJobQueue):
            consumer = f"{socket.gethostname()}-{os.getpid()}-api"
            handler, withdraw = job_handler(tenants.memory), job_withdrawal(tenants.memory)
            worker = Worker.for_service(queue, handler, consumer, config, traffic, withdraw)
            threads.append(start_thread(worker, stop)[0])
            if config.maintain_every_minutes > 0:
                every = timedelta(minutes=config.maintain_every_minutes)
                args = (queue, tenants.tenants, every, stop)
                threading.Thread(target=keep_maintained, args=args, daemon=True).start()
        elif isinstance(queue, RedisJobQueue):
            beacon = Beacon(queue, traffic, socket.gethostname())
            thread = threading.Thread(target=beacon.run, args=(stop,), name="memlane-beacon", daemon=True)
            thread.start()
            threads.append(thread)
        running: AbstractAsyncContextManager[None] = mcp.running() if mcp else nullcontext()
        try:
            async with running:
                yield
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=30)  # let the job in hand finish before the stores close
            state.compute.close()  # and the requests' work in hand
            tenants.close()
            keys.close()
            queue.close()

    # no redirect from /v1/search/ to /v1/search: its Location would come from the Host header
    app = FastAPI(
        title="memlane",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
        redirect_slashes=False,
        dependencies=[Depends(known_parameters)],
    )
    app.state.memlane = state
    routers = (
        writes.router,
        memories.router,
        users.router,
        web_routes.router,
        ops.router,
        langgraph_store.router,
    )
    for router in (*routers, page.router):
        app.include_router(router)
    if mcp is not None:
        app.router.routes.append(mcp.route)
    handlers: dict[Any, Any] = {
        ApiError: on_api_error,
        HTTPException: on_http_error,
        MemlaneError: on_memlane_error,
        RequestValidationError: on_validation_error,
        Exception: on_unexpected,
    }
    for exc, handler in handlers.items():
        app.add_exception_handler(exc, handler)
    app.add_middleware(Edge, metrics=state.metrics, max_body_bytes=config.max_body_bytes)
    return app
