"""Tenant isolation in the store layer, API keys, and the maintenance schedule: below the routes."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane import Memory, Settings
from memlane.cli import main
from memlane.clock import utcnow
from memlane.errors import InvalidInput, NotFound
from memlane.service.jobs import job_handler, schedule_maintenance
from memlane.service.keys import open_keys
from memlane.service.queue import open_queue
from memlane.service.tenants import Tenants
from memlane.store import MemoryStore, SessionStore
from memlane.store.scoped import TenantSessions, TenantStore
from memlane.store.sqlite import SQLiteStore


def _methods(cls: type) -> set[str]:
    return {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}


@pytest.mark.parametrize(
    ("port", "view"),
    [(MemoryStore, TenantStore), (SessionStore, TenantSessions)],
    ids=["memories", "sessions"],
)
def test_the_tenant_view_implements_every_method_of_its_port(port: type, view: type) -> None:
    # a method added to a port but not to the view would reach the shared store unscoped
    assert _methods(port) <= _methods(view)


@pytest.fixture
def shared(tmp_path: Path) -> SQLiteStore:
    return SQLiteStore(str(tmp_path / "shared.db"), dim=384)


def test_same_user_id_in_two_tenants_is_two_people(shared: SQLiteStore) -> None:
    acme = Memory(store=TenantStore(shared, "acme"), sessions=TenantSessions(shared, "acme"))
    globex = Memory(
        store=TenantStore(shared, "globex"), sessions=TenantSessions(shared, "globex"), embedder=acme.embedder
    )
    decision = acme.remember("我喜欢喝美式", user_id="u1")
    assert decision.memory is not None
    mid = decision.memory.id
    assert acme.get(mid, user_id="u1").user_id == "u1"  # ids come back without the tenant prefix
    with pytest.raises(NotFound):
        globex.get(mid, user_id="u1")
    with pytest.raises(NotFound):
        globex.owner_of(mid)  # not even the admin lookup by id alone: it is scoped too
    with pytest.raises(NotFound):
        globex.history(mid, user_id="u1")
    assert globex.search("美式", user_id="u1") == []
    assert list(TenantStore(shared, "globex").users()) == []
    assert list(TenantStore(shared, "acme").users()) == ["u1"]
    assert set(shared.users()) == {"acme/u1"}  # what the shared store holds


@pytest.mark.parametrize("name", ["", "Acme", "a/b", "-x", "x" * 64, "ac me"])
def test_tenant_names_that_could_blur_scopes_are_refused(shared: SQLiteStore, name: str) -> None:
    with pytest.raises(InvalidInput):
        TenantStore(shared, name)


def test_keys_are_stored_hashed_and_revocable(tmp_path: Path) -> None:
    keys = open_keys(str(tmp_path / "keys.db"))
    created = keys.create("acme", name="backend", now=utcnow())
    assert keys.tenant_of(created.secret) == "acme"
    assert keys.tenant_of(created.secret + "x") is None
    assert keys.tenant_of("mlk_" + created.key.id + "_guess") is None
    raw = (tmp_path / "keys.db").read_bytes()
    assert created.secret.encode() not in raw
    keys.revoke(created.key.id, now=utcnow())
    assert keys.tenant_of(created.secret) is None
    with pytest.raises(NotFound):
        keys.revoke("nope", now=utcnow())


def test_a_key_is_known_without_the_database_only_once_it_was_looked_up(tmp_path: Path) -> None:
    keys = open_keys(str(tmp_path / "keys.db"))
    created = keys.create("acme", now=utcnow())
    assert keys.known("not-a-key") == (True, None)  # malformed: nothing to look up
    assert keys.known(created.secret) == (False, None)
    assert keys.tenant_of(created.secret) == "acme"
    assert keys.known(created.secret) == (True, "acme")
    keys.revoke(created.key.id, now=utcnow())
    assert keys.known(created.secret) == (False, None)  # a revocation forgets what was cached


def test_keys_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    made = runner.invoke(main, ["--db", db, "keys", "create", "--tenant", "acme", "--name", "ci"])
    assert made.exit_code == 0, made.output
    secret = made.stdout.strip().splitlines()[0]
    assert secret.startswith("mlk_")
    listed = runner.invoke(main, ["--db", db, "keys", "list"])
    assert "acme" in listed.output
    key_id = secret.split("_")[1]
    assert secret not in listed.output
    assert runner.invoke(main, ["--db", db, "keys", "revoke", key_id]).exit_code == 0
    bad = runner.invoke(main, ["--db", db, "keys", "create", "--tenant", "Not Valid"])
    assert bad.exit_code == 2
    assert bad.output.startswith("error: tenant")


def test_maintenance_is_queued_once_per_tenant_per_period(tmp_path: Path) -> None:
    from datetime import timedelta

    queue = open_queue(None, str(tmp_path / "jobs.db"))
    now = utcnow()
    every = timedelta(hours=1)
    assert schedule_maintenance(queue, ["acme", "globex"], now, every) == 2
    assert schedule_maintenance(queue, ["acme", "globex"], now, every) == 0  # another worker, same period
    tenants = Tenants(Settings(path=str(tmp_path / "m.db")))
    tenants.memory("acme").remember("我喜欢喝美式", user_id="u1")
    handle = job_handler(tenants.memory)
    reports = []
    while (job := queue.claim("w", now)) is not None:
        reports.append(handle(job))
        queue.complete(job, reports[-1], now)
    assert len(reports) == 2
    assert all("expired" in r for r in reports)
    tenants.close()


def test_llm_usage_is_exported_by_stage() -> None:
    from prometheus_client import generate_latest

    from memlane.service.metrics import Metrics
    from memlane.service.queue import QueueStats

    usage = {
        "judge": {"calls": 2, "failures": 1, "prompt_tokens": 300, "completion_tokens": 40, "latency": 1.5}
    }
    text = generate_latest(Metrics(lambda: QueueStats(0, 0, 0.0), dict, lambda: usage).registry).decode()
    assert 'memlane_llm_calls_total{stage="judge"} 2.0' in text
    assert 'memlane_llm_failures_total{stage="judge"} 1.0' in text
    assert 'memlane_llm_prompt_tokens_total{stage="judge"} 300.0' in text


def test_tenants_share_one_llm_client(tmp_path: Path) -> None:
    tenants = Tenants(
        Settings(path=str(tmp_path / "l.db"), llm_base_url="http://127.0.0.1:9/v1", llm_model="m")
    )
    try:
        assert tenants.llm is not None
        assert tenants.memory("acme").llm is tenants.llm
        assert tenants.memory("globex").llm is tenants.llm
    finally:
        tenants.close()
