"""Shared fixtures: a real embedded store in a temporary file and the real bundled embedder."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import stores
from memlane import Memory

T0 = datetime(2025, 3, 3, 8, 30, tzinfo=timezone(timedelta(hours=8)))


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres"),
    pytest.param("postgres+redis", id="postgres-redis"),
]


@pytest.fixture(params=BACKENDS)
def open_memory(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Memory]:
    """Opens a Memory on each backend, the way an application would: from a path or from URLs
    (keyword arguments are settings)."""
    if request.param == "sqlite":
        return lambda **kw: Memory(tmp_path / "memlane.db", **kw)
    url: str = request.getfixturevalue("pg_url")
    sessions = request.getfixturevalue("redis_url") if request.param.endswith("redis") else None
    return lambda **kw: Memory(store=url, sessions=sessions, **kw)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memlane.db"


def days(n: float) -> datetime:
    """The scenario clock: ``n`` days after T0."""
    return T0 + timedelta(days=n)


# the project's data kept outside the repository (scenarios, benchmark files): MEMLANE_SHARED names
# it, by default the shared/ directory beside the checkout
SHARED = Path(os.environ.get("MEMLANE_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")


@pytest.fixture
def seed_lines() -> list[str]:
    path = SHARED / "scenarios" / "seed-profile.txt"
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- servers for the store tests (tests/stores.py): PostgreSQL + pgvector and Redis ------------------


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server with pgvector for the whole run (``MEMLANE_TEST_PG_DSN``, or started here)."""
    with stores.postgres_server(tmp_path_factory.mktemp("postgres")) as url:
        yield url


@pytest.fixture(scope="session")
def pg_database(pg_server: str) -> Iterator[str]:
    """This run's own database on that server, dropped at the end."""
    with stores.postgres_database(pg_server) as url:
        yield url


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """The run's database, emptied of what earlier tests wrote."""
    stores.empty_postgres(pg_database)
    return pg_database


@pytest.fixture(scope="session")
def redis_server() -> str:
    """The test Redis (``MEMLANE_TEST_REDIS_URL``, or 127.0.0.1:6379), checked to answer."""
    return stores.redis_server()


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    """A Redis URL with a key prefix of this test's own; its keys are removed afterwards."""
    prefix = f"memlane-test-{uuid.uuid4().hex[:12]}:"
    yield stores.with_prefix(redis_server, prefix)
    stores.remove_prefix(redis_server, prefix)
