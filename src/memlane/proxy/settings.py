"""The proxy's settings (``MEMLANE_PROXY_*``), read once when its app is built."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from memlane.settings import EnvSettings


class ProxySettings(EnvSettings):
    """Where the proxy forwards to, with which key, and how long memory may take."""

    model_config = SettingsConfigDict(env_prefix="MEMLANE_PROXY_", extra="ignore")

    upstream: str = Field(
        description="the upstream's OpenAI-compatible base URL, e.g. https://api.openai.com/v1"
    )
    upstream_key: str | None = Field(
        default=None, repr=False, description="the upstream's API key (never the client's memlane key)"
    )
    memory_timeout: float = Field(
        default=1.0,
        gt=0,
        description="seconds to wait for the context block; after that the request goes on without memory",
    )
    upstream_timeout: float = Field(
        default=600.0, gt=0, description="seconds to wait for the upstream to start answering"
    )
    user_header: str = Field(default="X-Memlane-User", description="the request header that names the user")
    context_tokens: int = Field(default=600, ge=1, le=100_000, description="the block's default token budget")
