"""The proxy's app: the service's app (keys, tenants, queue, worker, limits, ``/v1`` routes, ``/mcp``)
with the chat routes of :mod:`memlane.proxy.chat` and a connection pool to the upstream.

::

    app = create_proxy_app(ProxySettings(upstream="http://localhost:11434/v1"))
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI

from memlane.proxy.chat import ProxyState, router
from memlane.proxy.settings import ProxySettings
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.settings import Settings


def create_proxy_app(
    proxy: ProxySettings, settings: Settings | None = None, config: ServiceSettings | None = None
) -> FastAPI:
    """The service's app, plus ``POST /v1/chat/completions`` and ``GET /v1/models`` in front of
    ``proxy.upstream``; the upstream's connection pool opens and closes with the app. The event loop
    relays every reply, so it keeps a core of its own: one compute slot fewer than the cores."""
    app = create_app(settings, config, relay=True)
    app.include_router(router)
    service_lifespan = app.router.lifespan_context
    base = proxy.upstream.rstrip("/") + "/"  # so that relative paths go below its /v1

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[None]:
        timeout = httpx.Timeout(proxy.upstream_timeout, connect=10.0)
        limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as client:
            application.state.proxy = ProxyState(proxy, client)
            async with service_lifespan(application):
                yield

    app.router.lifespan_context = lifespan
    return app
