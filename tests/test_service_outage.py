"""The server deployment through a PostgreSQL outage: the real PostgreSQL behind a gate that drops
every connection (:mod:`gate`), Redis for sessions and the queue.

While the store is down, writes for keys the API already verified are still queued (202), reads
say 503 without naming the database, and a key never seen is not let in; once it is back, the
pooled connections it dropped are replaced before use, so the first request succeeds. A
``memlane worker`` started while the store is down waits for it instead of exiting.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from fastapi.testclient import TestClient

from gate import Gate, postgres_target, through
from memlane import Settings
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.routes.deps import ServiceState

pytestmark = pytest.mark.slow


@pytest.fixture
def gate(pg_url: str) -> Iterator[Gate]:
    with Gate(postgres_target(pg_url)) as g:
        yield g


@pytest.fixture
def api(gate: Gate, pg_url: str, redis_url: str) -> Iterator[TestClient]:
    store = through(pg_url, gate.port)
    settings = Settings(store=store, sessions=redis_url)
    config = ServiceSettings(queue=redis_url, rate_limit=1000, rate_burst=1000, maintain_every_minutes=0)
    with TestClient(create_app(settings, config)) as client:
        yield client


def state_of(client: TestClient) -> ServiceState:
    found: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
    return found


def write(client: TestClient, headers: dict[str, str], text: str) -> Any:
    body = {"user_id": "u1", "messages": [{"role": "user", "content": text}]}
    return client.post("/v1/messages", json=body, headers=headers)


def test_writes_of_known_keys_are_queued_while_the_store_is_down(api: TestClient, gate: Gate) -> None:
    keys = state_of(api).keys
    known = {"Authorization": f"Bearer {keys.create('acme', now=utcnow()).secret}"}
    stranger = {"Authorization": f"Bearer {keys.create('acme', now=utcnow()).secret}"}
    search = {"user_id": "u1", "query": "咖啡", "limit": 3}
    assert api.post("/v1/search", json=search, headers=known).status_code == 200  # the key is verified

    gate.cut()
    time.sleep(5.5)  # longer than a verified key is trusted without asking the database again
    queued = write(api, known, "我喜欢喝美式。")
    assert queued.status_code == 202, queued.text
    assert state_of(api).queue.get("acme", queued.json()["job_id"]) is not None
    down = api.post("/v1/search", json=search, headers=known)
    assert down.status_code == 503
    assert down.json()["error"]["code"] == "store_unavailable"
    assert str(gate.port) not in down.text
    assert write(api, stranger, "我喜欢喝茶。").status_code == 503  # never verified: not let in

    gate.open()  # "restarted": every connection pooled before the outage is dead
    assert api.post("/v1/search", json=search, headers=known).status_code == 200
    assert write(api, stranger, "我喜欢喝茶。").status_code == 202
    assert api.get("/readyz").status_code == 200


def test_after_a_quick_restart_the_first_request_gets_a_live_connection(api: TestClient, gate: Gate) -> None:
    headers = {"Authorization": f"Bearer {state_of(api).keys.create('acme', now=utcnow()).secret}"}
    search = {"user_id": "u1", "query": "咖啡", "limit": 3}
    for _ in range(3):  # the pool and the key store hold connections
        assert api.post("/v1/search", json=search, headers=headers).status_code == 200
    gate.cut()  # a restart: every one of them is dead...
    gate.open()  # ...and the server is back at once
    assert api.post("/v1/search", json=search, headers=headers).status_code == 200
    assert api.get("/v1/profile", params={"user_id": "u1"}, headers=headers).status_code == 200
    assert state_of(api).keys.keys("acme")  # the key store's own connection, replaced too


def _wait_for_line(stream: IO[bytes], text: bytes, proc: subprocess.Popen[bytes]) -> bytes:
    seen = b""
    for line in stream:
        seen += line
        if text in line:
            return seen
    raise AssertionError(f"the worker exited with {proc.wait()} before saying {text!r}: {seen!r}")


def test_a_worker_started_while_its_store_is_down_waits_for_it(
    gate: Gate, pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "MEMLANE_STORE": through(pg_url, gate.port),
        "MEMLANE_SESSIONS": redis_url,
        "MEMLANE_QUEUE": redis_url,
        "MEMLANE_MAINTAIN_EVERY_MINUTES": "0",
        "MEMLANE_EMBED_THREADS": "1",
    }
    gate.cut()
    command = [sys.executable, "-c", "from memlane.cli import main; main()", "worker"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        _wait_for_line(proc.stderr, b"waits for it", proc)
        assert proc.poll() is None  # still there, waiting
        gate.open()
        _wait_for_line(proc.stderr, b"waiting for jobs", proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
        if proc.stderr is not None:
            proc.stderr.close()
    assert code == 0
