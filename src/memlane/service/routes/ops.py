"""Operations: liveness, readiness and Prometheus metrics (no API key needed)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from memlane.clock import utcnow
from memlane.errors import MemlaneError
from memlane.service.models import ReadyOut
from memlane.service.routes.deps import StateDep, errors
from memlane.vocabulary import MemoryQuery

log = logging.getLogger("memlane.service")
router = APIRouter(tags=["operations"], responses=errors(auth=False))
_PROBE = "memlane:readyz"  # a user id no tenant can name (tenant scopes contain "/")


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=ReadyOut,
    responses={503: {"model": ReadyOut, "description": "something is down: its check says unavailable"}},
)
def readyz(state: StateDep) -> JSONResponse:
    """The store, the session store, the key store and the queue all answer (503 if one does not);
    ``embedder`` says what computes the vectors (for e5: which engine and kernel, and why).
    A check says ``ok`` or ``unavailable``; why, and where, goes to the server log only (it names
    hosts, database users and paths)."""
    checks: dict[str, str] = {}
    stores = state.tenants.stores
    probes: dict[str, Callable[[], object]] = {
        "store": lambda: stores.records.count(_PROBE, MemoryQuery()),
        # a session store that degrades when down (Redis) says so through ping()
        "sessions": getattr(stores.sessions, "ping", lambda: stores.sessions.list_sessions(_PROBE, utcnow())),
        "keys": state.keys.ping,
        "queue": state.queue.ping,
    }
    for name, probe in probes.items():
        try:
            probe()
            checks[name] = "ok"
        except MemlaneError as exc:
            log.warning("readiness: %s is unavailable: %s", name, exc)
            checks[name] = "unavailable"
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse(
        {
            "status": "ready" if ready else "unavailable",
            "checks": checks,
            "embedder": state.tenants.embedder.runs_on(),
        },
        200 if ready else 503,
    )


@router.get("/metrics", response_class=PlainTextResponse)
def metrics(state: StateDep) -> PlainTextResponse:
    """Prometheus text format."""
    return PlainTextResponse(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
