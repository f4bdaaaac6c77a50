"""The embedded store: migrations, user scoping, and several threads and processes at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

from conftest import T0, days
from memlane import Memory
from memlane.domain import Kind, MemoryItem
from memlane.store import MemoryQuery
from memlane.store.sqlite import SQLiteStore
from memlane.store.sqlite.migrations import MIGRATIONS, migrate


def test_migrations_run_once_in_order(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    assert migrate(db) == [m.__name__ for m in MIGRATIONS]
    assert migrate(db) == []
    names = [r[0] for r in db.execute("SELECT name FROM schema_migrations ORDER BY rowid")]
    assert names == [m.__name__ for m in MIGRATIONS]


def test_the_database_is_in_wal_mode(db_path: Path) -> None:
    SQLiteStore(db_path).close()
    mode = sqlite3.connect(db_path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_store_queries_never_cross_users(db_path: Path) -> None:
    store = SQLiteStore(db_path, dim=3)
    item = MemoryItem(user_id="alice", text="likes tea", kind=Kind.SEMANTIC, embedding=[1.0, 0.0, 0.0])
    store.put(item, "like tea")
    assert store.get("bob", item.id) is None
    assert store.get_many("bob", [item.id]) == []
    assert store.query("bob", MemoryQuery()) == []
    assert store.keyword_search("bob", ["tea"], MemoryQuery(), 10) == []
    import numpy as np

    assert store.vector_search("bob", np.array([1, 0, 0], dtype=np.float32), MemoryQuery(), 10) == []
    assert store.delete("bob", [item.id]) == 0
    # an upsert under another user's name must not take the row over
    store.put(MemoryItem(user_id="bob", text="mine now", kind=Kind.SEMANTIC, id=item.id), "mine")
    assert store.get("alice", item.id) is not None
    assert store.get("alice", item.id).text == "likes tea"  # type: ignore[union-attr]
    store.close()


def test_eight_threads_adding_overlapping_facts_leave_no_duplicates(db_path: Path) -> None:
    mem = Memory(db_path)
    facts = ["我喜欢喝美式", "我住在上海", "优先邮件联系", "我是产品经理"]
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i, fact in enumerate(facts):
                mem.add(fact, user_id="u1", at=days(n + i))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    texts = [m.text for m in mem.list("u1")]
    assert len(texts) == len(set(texts)) == len(facts), texts
    mem.close()


def _write_from_process(path: str, n: int) -> None:
    with Memory(path) as mem:
        mem.add("我喜欢喝美式", user_id="u1", at=days(n))
        mem.add(f"我有{n + 1}只猫", user_id=f"other{n}", at=days(n))


def test_processes_share_one_file_without_duplicates(db_path: Path) -> None:
    Memory(db_path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_from_process, args=(str(db_path), n)) for n in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    with Memory(db_path) as mem:
        items = mem.list("u1")
        assert len(items) == 1
        assert len(items[0].provenance) == 3
        # the vector cache of this process sees rows written by the others
        assert mem.search("美式咖啡", user_id="u1", include_log=False, now=T0)


def test_vector_cache_follows_updates_and_deletes(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    assert mem.search("美式", user_id="u1", include_log=False, now=T0)
    mem.update(item.id, "我喜欢喝绿茶", at=days(1))
    hits = mem.search("绿茶", user_id="u1", include_log=False, now=days(1))
    assert hits[0].memory.text == "我喜欢喝绿茶"
    mem.delete(item.id)
    assert mem.search("绿茶", user_id="u1", include_log=False, now=days(1)) == []
