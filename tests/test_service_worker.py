"""The server deployment end to end: the API on PostgreSQL + pgvector with Redis sessions and a Redis
Streams queue, and real ``memlane worker`` processes, one of them killed mid-stream, another waiting
while the API of its host serves reads."""

from __future__ import annotations

import configparser
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memlane import Settings
from memlane.clock import utcnow
from memlane.domain import Kind, Status
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.queue.redis import RedisJobQueue
from memlane.vocabulary import MemoryQuery

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "systemd"

pytestmark = pytest.mark.slow


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-c",
        "from memlane.cli import main; main()",
        "worker",
        "--log-level",
        "warning",
    ]
    with log.open("ab") as err:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)


@pytest.fixture
def deployment(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    env = {
        **os.environ,
        "MEMLANE_STORE": pg_url,
        "MEMLANE_SESSIONS": redis_url,
        "MEMLANE_QUEUE": redis_url,
        "MEMLANE_JOB_LEASE_SECONDS": "3",  # a killed worker's job comes back quickly
        "MEMLANE_MAINTAIN_EVERY_MINUTES": "0",
        "MEMLANE_EMBED_THREADS": "1",
    }
    settings = Settings(store=pg_url, sessions=redis_url)
    config = ServiceSettings(queue=redis_url, rate_limit=10_000, rate_burst=10_000, maintain_every_minutes=0)
    with TestClient(create_app(settings, config)) as client:
        yield client, env


def test_a_killed_worker_loses_nothing_and_writes_nothing_twice(
    deployment: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, env = deployment
    state = client.app.state.memlane  # type: ignore[attr-defined]
    headers = {"Authorization": f"Bearer {state.keys.create('acme', now=utcnow()).secret}"}
    jobs: list[str] = []
    for i in range(24):
        body: dict[str, Any] = {
            "user_id": f"u{i % 3}",
            "messages": [{"role": "user", "content": f"我第{i}次去了杭州出差，住在西湖边。", "id": f"m{i}"}],
        }
        response = client.post("/v1/messages", json=body, headers=headers)
        assert response.status_code == 202
        jobs.append(response.json()["job_id"])
    assert client.get("/readyz").status_code == 200

    log = tmp_path / "worker.log"
    first = start_worker(env, log)
    deadline = time.monotonic() + 120
    # kill as soon as one job is done: a scan of all 24 statuses took long enough under load for the
    # worker to finish them all between two scans
    while time.monotonic() < deadline and not _any_done(client, headers, jobs):
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)  # mid-stream: no chance to finish or acknowledge
    first.wait()
    assert _done(client, headers, jobs) < len(jobs), "the first worker finished everything before the kill"

    second = start_worker(env, log)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and _done(client, headers, jobs) < len(jobs):
            time.sleep(0.2)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)
    statuses = [client.get(f"/v1/jobs/{j}", headers=headers).json()["status"] for j in jobs]
    assert statuses == ["done"] * len(jobs), log.read_text()
    # every message is in the log exactly once, whichever worker handled it and however often
    stores = state.tenants.memory("acme").stores
    every = MemoryQuery(kinds=(Kind.LOG,), statuses=tuple(Status))
    logged = [p for u in ("u0", "u1", "u2") for m in stores.records.query(u, every) for p in m.provenance]
    assert sorted(logged) == sorted(f"m{i}" for i in range(24))


def _done(client: TestClient, headers: dict[str, str], jobs: list[str]) -> int:
    return sum(client.get(f"/v1/jobs/{j}", headers=headers).json()["status"] == "done" for j in jobs)


def _any_done(client: TestClient, headers: dict[str, str], jobs: list[str]) -> bool:
    return any(client.get(f"/v1/jobs/{j}", headers=headers).json()["status"] == "done" for j in jobs)


def _waiting(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stderr is not None
    for line in proc.stderr:
        if b"waiting for jobs" in line:
            return
    raise AssertionError(f"the worker exited with {proc.wait()}")


def _autogroup(pid: int) -> str:
    return Path(f"/proc/{pid}/autogroup").read_text().strip()


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists(), reason="needs Linux autogroups")
def test_a_worker_leaves_its_cpu_share_to_its_supervisor(tmp_path: Path) -> None:
    # nice values and autogroups are the host's to set (deploy/systemd), not the worker's
    env = {**os.environ, "MEMLANE_PATH": str(tmp_path / "memlane.db"), "MEMLANE_MAINTAIN_EVERY_MINUTES": "0"}
    command = [sys.executable, "-c", "from memlane.cli import main; main()", "worker"]
    led = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _waiting(led)
        assert os.getpriority(os.PRIO_PROCESS, led.pid) == os.getpriority(os.PRIO_PROCESS, 0)
        assert _autogroup(led.pid).endswith("nice 0")
    finally:
        led.send_signal(signal.SIGTERM)
        led.communicate(timeout=60)


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=True)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    unit.read(DEPLOY / name, encoding="utf-8")
    return unit


def test_the_systemd_units_give_the_worker_a_smaller_cpu_share_than_the_api(tmp_path: Path) -> None:
    worker, api = _unit("memlane-worker@.service")["Service"], _unit("memlane-api.service")["Service"]
    assert int(worker["Nice"]) > int(api["Nice"])
    assert int(worker["CPUWeight"]) < int(api["CPUWeight"])
    assert worker["ExecStart"].split()[1:3] == ["worker", "--name"]
    assert api["ExecStart"].split()[1] == "serve"
    analyze = shutil.which("systemd-analyze")
    if analyze is not None:  # systemd's own check of both units, run against this install's memlane
        memlane = str(Path(sys.executable).with_name("memlane"))
        for name in ("memlane-worker@.service", "memlane-api.service"):
            text = (DEPLOY / name).read_text(encoding="utf-8").replace("/usr/local/bin/memlane", memlane)
            (tmp_path / name.replace("@.", "@1.")).write_text(text, encoding="utf-8")
        units = [str(p) for p in tmp_path.glob("*.service")]
        done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr


def test_a_worker_process_waits_while_the_api_of_its_host_serves(tmp_path: Path, redis_url: str) -> None:
    env = {
        **os.environ,
        "MEMLANE_PATH": str(tmp_path / "memlane.db"),
        "MEMLANE_QUEUE": redis_url,
        "MEMLANE_WORKER_MAX_DEFER": "60",
        "MEMLANE_MAINTAIN_EVERY_MINUTES": "0",
        "MEMLANE_EMBED_THREADS": "1",
    }
    config = ServiceSettings(queue=redis_url, rate_limit=1000, rate_burst=1000, maintain_every_minutes=0)
    queue = RedisJobQueue(redis_url)
    host = socket.gethostname()
    with TestClient(create_app(Settings(path=env["MEMLANE_PATH"]), config)) as client:
        state = client.app.state.memlane  # type: ignore[attr-defined]
        headers = {"Authorization": f"Bearer {state.keys.create('acme', now=utcnow()).secret}"}
        body = {"user_id": "u1", "messages": [{"role": "user", "content": "我住在杭州，喜欢喝龙井。"}]}
        queue.mark_serving(host, 60)  # as the beacon does while reads are in flight on this host
        job = client.post("/v1/messages", json=body, headers=headers).json()["job_id"]
        log = tmp_path / "worker.log"
        worker = start_worker(env, log)
        try:
            deadline = time.monotonic() + 120
            while b"waiting for jobs" not in log.read_bytes() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(3)  # long enough for an idle worker to have taken it and done it
            assert client.get(f"/v1/jobs/{job}", headers=headers).json()["status"] == "queued"
            queue.mark_serving(host, 0.001)  # the reads are over
            deadline = time.monotonic() + 60
            status = "queued"
            while status != "done" and time.monotonic() < deadline:
                time.sleep(0.1)
                status = client.get(f"/v1/jobs/{job}", headers=headers).json()["status"]
            assert status == "done", log.read_text()
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=60)
            queue.close()
