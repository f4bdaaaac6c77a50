"""API keys scoped to one user of a tenant: the key store, the one-user scope every store role applies,
and the REST routes, which such a key does not open (it is for /mcp: tests/test_mcp.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from memlane import Memory, Settings
from memlane.cli import main
from memlane.clock import utcnow
from memlane.errors import InvalidInput, NotFound
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.keycache import Grant
from memlane.service.keys import open_keys
from memlane.service.routes.deps import ServiceState
from memlane.store import SealedUnderKey
from memlane.store.scope import Scope
from memlane.store.sqlite import open_sqlite
from memlane.vocabulary import SealedText


def test_a_user_scoped_key_grants_its_tenant_and_its_user(tmp_path: Path) -> None:
    keys = open_keys(str(tmp_path / "keys.db"))
    alice = keys.create("acme", name="alice's desktop", user="alice", now=utcnow())
    tenant = keys.create("acme", now=utcnow())
    assert keys.grant_of(alice.secret) == Grant("acme", "alice")
    assert keys.grant_of(tenant.secret) == Grant("acme")
    assert keys.known(alice.secret) == (True, Grant("acme", "alice"))  # cached with its user
    assert [k.user for k in keys.keys("acme")] == ["alice", None]
    with pytest.raises(InvalidInput, match="user id"):
        keys.create("acme", user=" ", now=utcnow())


def test_a_key_table_from_before_user_keys_gets_the_column_and_keeps_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "keys.db"
    keys = open_keys(str(path))
    old = keys.create("acme", now=utcnow())
    keys.close()
    with sqlite3.connect(path) as db:  # the table as it was made before keys had a user
        db.execute("ALTER TABLE memlane_api_keys DROP COLUMN user_id")
    reopened = open_keys(str(path))
    assert reopened.grant_of(old.secret) == Grant("acme")
    scoped = reopened.create("acme", user="alice", now=utcnow())
    assert reopened.grant_of(scoped.secret) == Grant("acme", "alice")


def test_the_command_line_creates_and_lists_a_user_scoped_key(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    made = runner.invoke(main, ["--db", db, "keys", "create", "--tenant", "acme", "--user", "alice"])
    assert made.exit_code == 0, made.output
    assert "user 'alice' of tenant acme" in made.stderr
    listed = runner.invoke(main, ["--db", db, "keys", "list"])
    assert "alice" in listed.output


def test_a_one_user_scope_refuses_every_other_user_below_the_facade(tmp_path: Path) -> None:
    stores = open_sqlite(str(tmp_path / "m.db"))
    with Memory(store=stores.within(Scope("acme")), vector_backlog=0) as acme:
        acme.remember("I prefer email to phone calls", user_id="alice")
        acme.remember("I live in Hangzhou", user_id="bob")
    with Memory(store=stores.within(Scope("acme", user="alice")), vector_backlog=0) as alice:
        assert [m.text for m in alice.list("alice")] == ["I prefer email to phone calls"]
        assert list(alice.stores.records.users()) == ["alice"]
        for reach in (
            lambda: alice.list("bob"),
            lambda: alice.search("where does the user live?", user_id="bob"),
            lambda: alice.remember("I moved to Beijing", user_id="bob"),
            lambda: alice.forget("bob", all=True),
        ):
            with pytest.raises(NotFound, match="reaches user 'alice' only"):
                reach()
    with Memory(store=stores.within(Scope("acme")), vector_backlog=0) as acme:
        assert [m.text for m in acme.list("bob")] == ["I live in Hangzhou"]
    stores.close()


def test_a_one_user_scope_lists_only_its_users_sealed_originals(tmp_path: Path) -> None:
    stores = open_sqlite(str(tmp_path / "m.db"))
    acme = stores.within(Scope("acme"))
    with Memory(store=acme, vector_backlog=0) as memory:
        ids = {u: memory.remember("I prefer tea", user_id=u).memory for u in ("alice", "bob")}
    for user, item in ids.items():
        assert item is not None
        acme.sealed.put(SealedText(user_id=user, memory_id=item.id, key_id="k1", body="Y2lwaGVy"))
    alice = stores.within(Scope("acme", user="alice")).sealed
    assert isinstance(alice, SealedUnderKey)
    assert [s.user_id for s in alice.sealed_under("k1")] == ["alice"]
    stores.close()


def test_a_user_scope_needs_a_tenant() -> None:
    with pytest.raises(InvalidInput, match="tenant"):
        Scope(user="alice")


def test_the_rest_routes_and_the_page_refuse_a_user_scoped_key(tmp_path: Path) -> None:
    config = ServiceSettings(rate_limit=1000, rate_burst=1000, maintain_every_minutes=0)
    with TestClient(create_app(Settings(path=str(tmp_path / "svc.db")), config)) as client:
        state: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
        secret = state.keys.create("acme", user="alice", now=utcnow()).secret
        auth = {"Authorization": f"Bearer {secret}"}
        for user in ("alice", "bob"):
            response = client.get("/v1/memories", params={"user_id": user}, headers=auth)
            assert response.status_code == 403
            assert "opens /mcp only" in response.json()["error"]["message"]
        body = {"user_id": "bob", "messages": [{"role": "user", "content": "我住在杭州"}]}
        queued = client.post("/v1/messages", json=body, headers=auth)
        assert queued.status_code == 403
        assert state.page.for_key(secret, utcnow()) is None  # no staff session: staff see every user
