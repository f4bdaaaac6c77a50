"""The service's own settings (``MEMLANE_*`` like the library's), read once when the app is built."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from memlane.settings import EnvSettings


class ServiceSettings(EnvSettings):
    """Where the service keeps its keys and jobs, and the limits it enforces per request and key.

    The memory store itself is configured by :class:`memlane.Settings` (``MEMLANE_STORE``,
    ``MEMLANE_SESSIONS``...); these add what only the service needs.
    """

    model_config = SettingsConfigDict(env_prefix="MEMLANE_", extra="ignore")

    queue: str | None = Field(
        default=None,
        description="job queue URL: redis://... (Redis Streams) or a SQLite file; None means a SQLite "
        "file next to the embedded store",
    )
    keys: str | None = Field(
        default=None,
        description="API key database: postgresql://... or a SQLite file; None means the store's "
        "PostgreSQL database, or a SQLite file next to the embedded store",
    )
    embedded_worker: bool = Field(
        default=True,
        description="process jobs in a thread of the API process when the queue is a SQLite file",
    )
    max_body_bytes: int = Field(default=1_000_000, gt=0, description="largest request body accepted")
    compute_slots: int | None = Field(
        default=None,
        ge=1,
        le=256,
        description="requests that embed or rank text at once; the others wait in arrival order "
        "(None: one per CPU core, two per core when the store is PostgreSQL)",
    )
    rate_limit: float = Field(default=20.0, gt=0, description="sustained requests per second per API key")
    rate_burst: int = Field(default=100, gt=0, description="requests a key may send at once")
    auth_failure_rate: float = Field(
        default=1.0, gt=0, description="failed authentications per second sustained, per client address"
    )
    auth_failure_burst: int = Field(
        default=20, gt=0, description="failed authentications a client address may make at once; then 429"
    )
    keys_outage_grace: float = Field(
        default=3600.0,
        ge=0,
        description="seconds a key verified before the key database went down is still accepted while it "
        "stays down (queue-only writes keep working through a store outage; 0: refuse every request)",
    )
    queue_limit: int = Field(
        default=100_000,
        ge=0,
        description="unfinished jobs the queue may hold; beyond it POST /v1/messages answers 503 "
        "queue_full with Retry-After (?wait=true still works; 0: no limit)",
    )
    worker_max_defer: float = Field(
        default=1.0,
        ge=0,
        description="seconds a write-back job may wait for a lull in the requests it shares the CPU "
        "with: the embedded worker's process's, or a memlane worker's host's API processes' (0: never)",
    )
    worker_max_lag: float = Field(
        default=60.0,
        ge=0,
        description="a write-back job queued this many seconds ago no longer waits for a lull: under "
        "reads that never pause, the write-back stays about this far behind at most",
    )
    job_lease_seconds: float = Field(default=60.0, gt=0, description="time a worker holds a job")
    job_max_attempts: int = Field(default=5, ge=1, description="deliveries before a job is parked")
    log_level: str | None = Field(
        default=None, description="configure JSON logs at this level when the app is built (debug, info...)"
    )
    public_url: str | None = Field(
        default=None,
        description="the address users reach this service at (https://memory.example.com), for the "
        "links POST /v1/links and `memlane link create` make; None: the address a request came to",
    )
    maintain_every_minutes: float = Field(
        default=60.0, ge=0, description="how often workers run lifecycle maintenance (0: never)"
    )
    store_user_label: int = Field(
        default=0, ge=0, description="which label of a /store namespace names the user (LangGraph's routes)"
    )
