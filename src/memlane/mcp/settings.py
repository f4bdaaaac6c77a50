"""The MCP server's settings (``MEMLANE_MCP_*``), read once where a server is built."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from memlane.settings import EnvSettings


class McpSettings(EnvSettings):
    """Who the stdio server acts for, where the HTTP endpoint finds the user, and read-only mode."""

    model_config = SettingsConfigDict(env_prefix="MEMLANE_MCP_", extra="ignore")

    user: str | None = Field(default=None, description="the user of `memlane mcp` (stdio), unless --user")
    user_header: str = Field(
        default="X-Memlane-User",
        description="the request header that names the user on /mcp (set by the MCP client's configuration)",
    )
    read_only: bool = Field(default=False, description="offer only the tools that read memory")
