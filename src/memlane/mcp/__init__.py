"""memlane as an MCP server, for agent clients (Claude Desktop, Claude Code, Cursor...).

``memlane mcp --user alice`` serves one user over stdio; ``memlane serve`` also answers MCP over
Streamable HTTP at ``/mcp``, behind its API keys (docs/mcp.md). The modules:

==========================  ==================================================================
:mod:`memlane.mcp.access`   who a call acts for (never a tool argument) and how it reaches memory
:mod:`memlane.mcp.tools`    the tools, the OpenMemory aliases, the profile resource, the prompt
:mod:`memlane.mcp.models`   what the tools return
:mod:`memlane.mcp.http`     the authenticated Streamable HTTP endpoint
:mod:`memlane.mcp.stdio`    the stdio server
==========================  ==================================================================

The SDK comes with the ``integrations`` extra (``pip install 'memlane[integrations]'``); this module
imports without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.errors import MissingExtra
from memlane.extras import optional

if TYPE_CHECKING:
    from memlane.mcp.http import McpEndpoint
    from memlane.service.routes.deps import ServiceState

__all__ = ["mcp_endpoint"]


def mcp_endpoint(state: ServiceState) -> McpEndpoint | None:
    """The ``/mcp`` endpoint over the service's state, or None when the MCP SDK is not installed."""
    try:
        with optional("/mcp"):
            from memlane.mcp.http import McpEndpoint
    except MissingExtra:
        return None
    return McpEndpoint(state)
