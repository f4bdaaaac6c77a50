"""``memlane mcp`` and ``memlane proxy``: plugging memlane into agents and chat applications.

::

    memlane mcp --user alice                      # an MCP server on stdio (Claude Desktop, Cursor...)
    MEMLANE_PROXY_UPSTREAM_KEY=sk-... memlane proxy --upstream https://api.openai.com/v1
"""

from __future__ import annotations

import os

import click

from memlane.cli import _fail_cleanly
from memlane.cli.serve import _KEEP_ALIVE, _settings
from memlane.extras import optional


@click.command()
@click.option("--user", "user_id", envvar="MEMLANE_MCP_USER", help="Whose memory (or MEMLANE_MCP_USER).")
@click.option(
    "--read-only",
    is_flag=True,
    envvar="MEMLANE_MCP_READ_ONLY",
    help="Offer only the tools that read memory; writes are refused.",
)
@click.pass_context
@_fail_cleanly
def mcp(ctx: click.Context, user_id: str | None, read_only: bool) -> None:
    """Serve one user's memory to an MCP client over stdio (docs/mcp.md)."""
    with optional("memlane mcp"):
        from memlane.mcp.stdio import serve_stdio
    from memlane.memory import Memory

    if not user_id or not user_id.strip():
        raise click.UsageError("memlane mcp needs a user: pass --user or set MEMLANE_MCP_USER")
    serve_stdio(Memory(settings=_settings(ctx)), user_id, read_only=read_only)


@click.command()
@click.option(
    "--upstream", required=True, envvar="MEMLANE_PROXY_UPSTREAM", help="OpenAI-compatible base URL."
)
@click.option(
    "--upstream-key-env",
    default="MEMLANE_PROXY_UPSTREAM_KEY",
    show_default=True,
    help="The environment variable that holds the upstream's API key.",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--memory-timeout",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0.01),
    help="Seconds to wait for the context block; then the request goes on without memory.",
)
@click.option("--log-level", default="info", type=click.Choice(["debug", "info", "warning", "error"]))
@click.pass_context
@_fail_cleanly
def proxy(
    ctx: click.Context,
    upstream: str,
    upstream_key_env: str,
    host: str,
    port: int,
    memory_timeout: float,
    log_level: str,
) -> None:
    """An OpenAI-compatible chat endpoint with memory, in front of any upstream (docs/proxy.md)."""
    with optional("memlane proxy"):
        import uvicorn

        from memlane.proxy.app import create_proxy_app
        from memlane.proxy.settings import ProxySettings
        from memlane.service.http import configure_logging

    configure_logging(log_level)
    key = os.environ.get(upstream_key_env) or None
    proxy_settings = ProxySettings(upstream=upstream, upstream_key=key, memory_timeout=memory_timeout)
    app = create_proxy_app(proxy_settings, _settings(ctx))
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, access_log=False, timeout_keep_alive=_KEEP_ALIVE
    )
