"""``memlane serve``, ``memlane worker``, ``memlane keys`` and ``memlane link``: running memlane as
a service.

::

    memlane keys create --tenant acme --name "chat backend"
    memlane link create --tenant acme --user u1 --hours 24     # prints the user's memory page link
    memlane serve --host 0.0.0.0 --port 8000
    MEMLANE_QUEUE=redis://cache:6379/0 memlane worker
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from datetime import timedelta
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from memlane.cli import _fail_cleanly
from memlane.clock import utcnow
from memlane.extras import optional
from memlane.settings import Settings

console = Console()


def _settings(ctx: click.Context) -> Settings:
    db = ctx.obj.get("db") if ctx.obj else None
    return Settings(path=db) if db else Settings()


# seconds an idle connection stays open. Longer than the idle timeouts of clients and load
# balancers (httpx 5 s, most load balancers 60 s), so that the server is never the one to close a
# connection a client is about to reuse: a request sent as it closes fails with a reset
# (uvicorn's default is 5 s, the same as httpx's, which leaves that race open)
_KEEP_ALIVE = 65


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--log-level", default="info", type=click.Choice(["debug", "info", "warning", "error"]))
@click.option(
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="API processes on this port.",
)
@click.pass_context
@_fail_cleanly
def serve(ctx: click.Context, host: str, port: int, log_level: str, processes: int) -> None:
    """Run the REST API (FastAPI + uvicorn); OpenAPI docs at /docs."""
    with optional("memlane serve"):
        import uvicorn

        from memlane.service.app import create_app
        from memlane.service.http import configure_logging

    configure_logging(log_level)
    if processes > 1:
        # each process builds its own app from the environment (the factory below), so --db and the
        # log level go there
        db = ctx.obj.get("db") if ctx.obj else None
        if db:
            os.environ["MEMLANE_PATH"] = db
        os.environ["MEMLANE_LOG_LEVEL"] = log_level
        uvicorn.run(
            "memlane.service.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=processes,
            log_level=log_level,
            access_log=False,
            timeout_keep_alive=_KEEP_ALIVE,
        )
        return
    app = create_app(_settings(ctx))
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, access_log=False, timeout_keep_alive=_KEEP_ALIVE
    )


@click.command()
@click.option("--name", default=None, help="Consumer name (default: host-pid).")
@click.option("--log-level", default="info", type=click.Choice(["debug", "info", "warning", "error"]))
@click.pass_context
@_fail_cleanly
def worker(ctx: click.Context, name: str | None, log_level: str) -> None:
    """Process queued write-back jobs until stopped (SIGTERM or Ctrl-C finish the current job first).

    Its CPU share beside API processes is the supervisor's to set (deploy/memlane-worker.service).
    """
    from memlane.service.app import open_job_queue
    from memlane.service.config import ServiceSettings
    from memlane.service.http import configure_logging
    from memlane.service.jobs import job_handler, job_withdrawal, keep_maintained
    from memlane.service.queue.redis import RedisJobQueue
    from memlane.service.tenants import Tenants
    from memlane.service.traffic import HostTraffic
    from memlane.service.worker import Worker, wait_for

    configure_logging(log_level)
    settings, config = _settings(ctx), ServiceSettings()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    consumer = name or f"{socket.gethostname()}-{os.getpid()}"
    # a worker started while its store or queue is down waits for them rather than exit: a
    # supervisor restarting it in a loop would only add noise to the outage
    queue = wait_for(lambda: open_job_queue(settings, config), "job queue", consumer, stop)
    tenants = wait_for(lambda: Tenants(settings), "memory store", consumer, stop)
    if queue is None or tenants is None:  # told to stop while it waited
        if queue is not None:
            queue.close()
        return
    if config.maintain_every_minutes > 0:
        every = timedelta(minutes=config.maintain_every_minutes)
        threading.Thread(
            target=keep_maintained, args=(queue, tenants.tenants, every, stop), daemon=True
        ).start()
    # reads first: each job waits (at most MEMLANE_WORKER_MAX_DEFER s) while this host's API serves
    traffic = HostTraffic(queue, socket.gethostname()) if isinstance(queue, RedisJobQueue) else None
    handler, withdraw = job_handler(tenants.memory), job_withdrawal(tenants.memory)
    click.echo(f"memlane worker {consumer}: waiting for jobs", err=True)
    try:
        Worker.for_service(queue, handler, consumer, config, traffic, withdraw).run(stop)
    finally:
        tenants.close()
        queue.close()


@click.group()
def keys() -> None:
    """API keys of the REST service: each belongs to one tenant."""


def _keys(ctx: click.Context) -> Any:
    from memlane.service.app import keys_location
    from memlane.service.config import ServiceSettings
    from memlane.service.keys import open_keys

    return open_keys(keys_location(_settings(ctx), ServiceSettings()))


@keys.command("create")
@click.option("--tenant", required=True, help="Tenant name: a-z, 0-9, '_' and '-'.")
@click.option("--name", default="", help="What the key is for.")
@click.option("--user", default=None, help="Scope the key to this one user of the tenant (opens /mcp only).")
@click.pass_context
@_fail_cleanly
def keys_create(ctx: click.Context, tenant: str, name: str, user: str | None) -> None:
    """Create a key and print it once (only its hash is stored)."""
    created = _keys(ctx).create(tenant, name=name, user=user, now=utcnow())
    click.echo(created.secret)
    whom = f"user {user!r} of tenant {tenant}" if user is not None else f"tenant {tenant}"
    click.echo(f"key {created.key.id} for {whom}: store it now, it cannot be shown again", err=True)


@keys.command("list")
@click.option("--tenant", default=None)
@click.pass_context
@_fail_cleanly
def keys_list(ctx: click.Context, tenant: str | None) -> None:
    """List keys (never their secrets)."""
    found = _keys(ctx).keys(tenant)
    table = Table("id", "tenant", "user", "name", "created", "revoked")
    for k in found:
        revoked = k.revoked_at.isoformat(timespec="seconds") if k.revoked_at else ""
        created = k.created_at.isoformat(timespec="seconds")
        table.add_row(k.id, k.tenant, k.user or "", k.name, created, revoked)
    console.print(table)


@keys.command("revoke")
@click.argument("key_id")
@click.pass_context
@_fail_cleanly
def keys_revoke(ctx: click.Context, key_id: str) -> None:
    """Revoke a key: requests with it get 401 (within seconds on every API process)."""
    _keys(ctx).revoke(key_id, now=utcnow())
    click.echo(f"revoked {key_id}")


@click.group()
def link() -> None:
    """Links to one user's memory page (docs/web.md): signed, expiring, revocable."""


def _links(ctx: click.Context) -> Any:
    from memlane.service.web.links import LinkStore

    return LinkStore(_keys(ctx))


@link.command("create")
@click.option("--tenant", required=True, help="The user's tenant.")
@click.option("--user", "user_id", required=True, help="Whose memory the link opens.")
@click.option("--hours", default=24.0, show_default=True, type=float, help="How long it works (at most 720).")
@click.option(
    "--url",
    "base",
    default=None,
    help="Where users reach the service (default: MEMLANE_PUBLIC_URL, else http://127.0.0.1:8000).",
)
@click.pass_context
@_fail_cleanly
def link_create(ctx: click.Context, tenant: str, user_id: str, hours: float, base: str | None) -> None:
    """Print a link to USER's memory page: whoever opens it sees that user's memory only."""
    from memlane import validate
    from memlane.service.config import ServiceSettings
    from memlane.store.scope import check_tenant

    check_tenant(tenant)
    uid = validate.identifier(user_id, "user_id", _settings(ctx))
    made = _links(ctx).create(tenant, uid, hours=hours, now=utcnow(), created_by="cli")
    click.echo(made.url(base or ServiceSettings().public_url or "http://127.0.0.1:8000"))
    expires = made.link.expires_at.isoformat(timespec="seconds")
    click.echo(f"link {made.link.id} for {tenant}/{uid}, until {expires}", err=True)


@link.command("list")
@click.option("--tenant", required=True)
@click.option("--user", "user_id", default=None)
@click.pass_context
@_fail_cleanly
def link_list(ctx: click.Context, tenant: str, user_id: str | None) -> None:
    """List a tenant's links (never their tokens)."""
    table = Table("id", "user", "created", "expires", "revoked", "by")
    for k in _links(ctx).links(tenant, user_id):
        revoked = k.revoked_at.isoformat(timespec="seconds") if k.revoked_at else ""
        created, expires = (t.isoformat(timespec="seconds") for t in (k.created_at, k.expires_at))
        table.add_row(k.id, k.user_id, created, expires, revoked, k.created_by)
    console.print(table)


@link.command("revoke")
@click.argument("link_id")
@click.option("--tenant", default=None, help="Check that the link is this tenant's.")
@click.pass_context
@_fail_cleanly
def link_revoke(ctx: click.Context, link_id: str, tenant: str | None) -> None:
    """Revoke a link: it and the page sessions opened with it stop working (within seconds)."""
    from memlane.errors import NotFound

    links = _links(ctx)
    found = links.get(link_id)
    if found is None:
        raise NotFound(f"no link {link_id!r}")
    links.revoke(tenant or found.tenant, link_id, now=utcnow())
    click.echo(f"revoked {link_id}")
