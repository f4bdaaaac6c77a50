"""``memlane mcp``: the MCP server over stdio, for one user of the local memory.

A desktop client starts it as a subprocess and speaks JSON-RPC over its stdin and stdout; nothing
else may be written to stdout, so warnings and logs go to stderr.
"""

from __future__ import annotations

import anyio

from memlane.mcp.access import LocalAccess
from memlane.mcp.tools import build_server
from memlane.memory import Memory


def serve_stdio(memory: Memory, user_id: str, *, read_only: bool = False) -> None:
    """Serve ``user_id``'s memory on stdin/stdout until the client closes the pipe; then close it."""
    server = build_server(LocalAccess(memory, user_id, read_only=read_only))
    try:
        anyio.run(server.run_stdio_async)
    finally:
        memory.close()
