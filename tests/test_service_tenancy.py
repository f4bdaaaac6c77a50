"""Tenant isolation in the store layer, API keys, and the maintenance schedule: below the routes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import T0
from memlane import Memory, Settings
from memlane.cli import main
from memlane.clock import utcnow
from memlane.domain import Session
from memlane.errors import InvalidInput, NotFound
from memlane.service.jobs import job_handler, schedule_maintenance
from memlane.service.keycache import Grant
from memlane.service.keys import open_keys
from memlane.service.queue import open_queue
from memlane.service.tenants import Tenants
from memlane.store import Scopable, SealedUnderKey, Stores
from memlane.store.scope import Scope
from memlane.store.sqlite import open_sqlite
from memlane.vocabulary import MemoryQuery, SealedText


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Stores]:
    stores = open_sqlite(str(tmp_path / "shared.db"), dim=384)
    yield stores
    stores.close()


def test_every_role_of_the_sql_stores_serves_one_tenant(shared: Stores) -> None:
    acme = shared.within(Scope("acme"))
    for role in fields(Stores):
        if role.name != "owned":
            assert isinstance(getattr(acme, role.name), Scopable), role.name
            assert getattr(acme, role.name).scope == Scope("acme"), role.name
    assert acme.owned == ()  # closing a tenant's memory leaves the shared connections open


def test_same_user_id_in_two_tenants_is_two_people(shared: Stores) -> None:
    acme = Memory(store=shared.within(Scope("acme")))
    globex = Memory(store=shared.within(Scope("globex")), embedder=acme.embedder)
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
    assert globex.users() == []
    assert acme.users() == ["u1"]
    assert set(shared.records.users()) == {"acme/u1"}  # what the shared store holds
    acme.close()
    assert shared.records.count("acme/u1", MemoryQuery()) == 1  # the shared store is still open


def test_a_tenants_sessions_and_sealed_originals_are_its_own(shared: Stores) -> None:
    acme, globex = shared.within(Scope("acme")), shared.within(Scope("globex"))
    session = Session(id="s1", user_id="u1", created_at=T0, updated_at=T0)
    acme.sessions.save_session(session)
    assert [s.user_id for s in acme.sessions.list_sessions("u1", None)] == ["u1"]
    assert globex.sessions.list_sessions("u1", None) == []
    assert [s.user_id for s in shared.sessions.list_sessions("acme/u1", None)] == ["acme/u1"]
    acme.sealed.put(SealedText(user_id="u1", memory_id="m1", key_id="k1", body="c2VhbGVk"))
    globex.sealed.put(SealedText(user_id="u1", memory_id="m2", key_id="k1", body="b3RoZXI="))
    assert isinstance(acme.sealed, SealedUnderKey)
    assert [(s.user_id, s.memory_id) for s in acme.sealed.sealed_under("k1")] == [("u1", "m1")]
    assert isinstance(shared.sealed, SealedUnderKey)
    assert [s.user_id for s in shared.sealed.sealed_under("k1")] == ["acme/u1", "globex/u1"]
    assert globex.sealed.get("u1", ["m1"]) == {}


@pytest.mark.parametrize("name", ["", "Acme", "a/b", "-x", "x" * 64, "ac me"])
def test_tenant_names_that_could_blur_scopes_are_refused(name: str) -> None:
    with pytest.raises(InvalidInput):
        Scope(name)


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
    assert keys.known(created.secret) == (True, Grant("acme"))
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
