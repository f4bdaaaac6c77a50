"""The store contract (:mod:`memlane.testing.contract`) on every store memlane ships, and on the
in-process one it offers for users' tests; then the whole library on the in-process store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Memory
from memlane.store import Stores
from memlane.store.postgres import open_postgres
from memlane.store.redis import RedisSessionStore
from memlane.store.sqlite import open_sqlite
from memlane.testing import memory_stores
from memlane.testing.contract import StoreContract


class TestSQLite(StoreContract):
    @pytest.fixture
    def make_stores(self, tmp_path: Path) -> Callable[[], Stores]:
        return lambda: open_sqlite(tmp_path / "contract.db", dim=384)


class TestPostgres(StoreContract):
    @pytest.fixture
    def make_stores(self, pg_url: str) -> Callable[[], Stores]:
        return lambda: open_postgres(pg_url)


class TestPostgresWithRedisSessions(StoreContract):
    @pytest.fixture
    def make_stores(self, pg_url: str, redis_url: str) -> Callable[[], Stores]:
        return lambda: open_postgres(pg_url).with_sessions(RedisSessionStore(redis_url))


class TestInMemory(StoreContract):
    @pytest.fixture
    def make_stores(self) -> Callable[[], Stores]:
        return memory_stores


def test_memory_works_on_the_in_process_store() -> None:
    with Memory(store=memory_stores()) as mem:
        mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1", at=T0)
        assert mem.profile("u1")["name"] == "阿白"
        hits = mem.search("推荐一杯饮料", user_id="u1", now=days(1))
        assert "美式" in hits[0].memory.text
        mem.update(hits[0].memory.id, "平时喜欢喝拿铁", user_id="u1", at=days(2))
        assert [h.op for h in mem.history(hits[0].memory.id, user_id="u1")][-1] == "update"
        assert "拿铁" in mem.search("推荐一杯饮料", user_id="u1", now=days(3))[0].memory.text
        assert mem.forget("u1", all=True) >= 2
        assert mem.list("u1") == []
        assert mem.users() == []
