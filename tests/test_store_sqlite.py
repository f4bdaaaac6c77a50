"""The embedded store: migrations, user scoping, and several threads and processes at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from conftest import T0, days
from memlane import Memory
from memlane.domain import Flag, Kind, MemoryItem, Status
from memlane.store import Stores
from memlane.store.sql import SQLITE, rarest_within
from memlane.store.sqlite import open_sqlite
from memlane.store.sqlite.migrations import MIGRATIONS, migrate
from memlane.vocabulary import MemoryQuery
from stores import put_before_flags


def test_migrations_run_once_in_order(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    assert migrate(db) == [m.__name__ for m in MIGRATIONS]
    assert migrate(db) == []
    names = [r[0] for r in db.execute("SELECT name FROM schema_migrations ORDER BY rowid")]
    assert names == [m.__name__ for m in MIGRATIONS]


def test_the_database_is_in_wal_mode(db_path: Path) -> None:
    open_sqlite(db_path).close()
    mode = sqlite3.connect(db_path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_store_queries_never_cross_users(db_path: Path) -> None:
    stores = open_sqlite(db_path, dim=3)
    item = MemoryItem(user_id="alice", text="likes tea", kind=Kind.SEMANTIC, embedding=[1.0, 0.0, 0.0])
    stores.records.put(item, "like tea")
    assert stores.records.get("bob", item.id) is None
    assert stores.records.get_many("bob", [item.id]) == []
    assert stores.records.query("bob", MemoryQuery()) == []
    assert stores.search.keyword_search("bob", ["tea"], MemoryQuery(), 10) == []
    assert stores.search.vector_search("bob", np.array([1, 0, 0], dtype=np.float32), MemoryQuery(), 10) == []
    assert stores.records.delete("bob", [item.id]) == 0
    # an upsert under another user's name must not take the row over
    stores.records.put(MemoryItem(user_id="bob", text="mine now", kind=Kind.SEMANTIC, id=item.id), "mine")
    assert stores.records.get("alice", item.id) is not None
    assert stores.records.get("alice", item.id).text == "likes tea"  # type: ignore[union-attr]
    stores.close()


def test_reads_do_not_wait_for_another_threads_open_transaction(db_path: Path) -> None:
    stores = open_sqlite(db_path, dim=3)
    old = MemoryItem(user_id="u1", text="likes tea", kind=Kind.SEMANTIC, embedding=[1.0, 0.0, 0.0])
    stores.records.put(old, "like tea")
    new = MemoryItem(user_id="u1", text="likes coffee", kind=Kind.SEMANTIC, embedding=[0.0, 1.0, 0.0])
    written, release = threading.Event(), threading.Event()
    seen_inside: list[str] = []

    def write_back() -> None:
        with stores.records.transaction("u1"):
            stores.records.put(new, "like coffee")
            seen_inside.extend(m.text for m in stores.records.query("u1", MemoryQuery()))  # its own write
            written.set()
            release.wait(30)

    writer = threading.Thread(target=write_back)
    writer.start()
    assert written.wait(30)
    read: list[list[str]] = []
    # a search's reads: they see the last commit, without waiting for the transaction to end
    reader = threading.Thread(
        target=lambda: read.append([m.text for m in stores.records.query("u1", MemoryQuery())])
    )
    reader.start()
    reader.join(30)
    release.set()
    writer.join(30)
    assert not reader.is_alive()
    assert read == [["likes tea"]]
    assert sorted(seen_inside) == ["likes coffee", "likes tea"]
    assert sorted(m.text for m in stores.records.query("u1", MemoryQuery())) == ["likes coffee", "likes tea"]
    stores.close()


def test_a_recall_is_counted_after_another_threads_transaction_without_waiting_for_it(db_path: Path) -> None:
    stores = open_sqlite(db_path, dim=3)
    item = MemoryItem(user_id="u1", text="likes tea", kind=Kind.SEMANTIC)
    stores.records.put(item, "like tea")
    inside, release = threading.Event(), threading.Event()

    def write_back() -> None:
        with stores.records.transaction("u1"):
            stores.records.put(
                MemoryItem(user_id="u1", text="likes coffee", kind=Kind.SEMANTIC), "like coffee"
            )
            inside.set()
            release.wait(30)

    writer = threading.Thread(target=write_back)
    writer.start()
    assert inside.wait(30)
    searcher = threading.Thread(target=lambda: stores.records.touch("u1", [item.id], T0))
    searcher.start()
    searcher.join(30)
    assert not searcher.is_alive()  # it did not wait for the transaction

    def recalls() -> tuple[int, datetime | None]:
        got = stores.records.get("u1", item.id)
        assert got is not None
        return got.access_count, got.last_accessed_at

    assert recalls() == (0, None)  # not yet: the writer still holds the file
    release.set()
    writer.join(30)
    assert recalls() == (1, T0)  # written when the transaction committed
    stores.records.touch("u1", [item.id], days(1))  # with the writer free, at once
    assert recalls() == (2, days(1))
    stores.close()


def test_an_in_memory_store_reads_on_its_one_connection() -> None:
    stores = open_sqlite(":memory:", dim=3)
    item = MemoryItem(user_id="u1", text="likes tea", kind=Kind.SEMANTIC, embedding=[1.0, 0.0, 0.0])
    stores.records.put(item, "like tea")
    assert [m.text for m in stores.records.query("u1", MemoryQuery())] == ["likes tea"]
    stores.close()


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
    mem.update(item.id, "我喜欢喝绿茶", at=days(1), user_id=item.user_id)
    hits = mem.search("绿茶", user_id="u1", include_log=False, now=days(1))
    assert hits[0].memory.text == "我喜欢喝绿茶"
    mem.delete(item.id, user_id=item.user_id)
    assert mem.search("绿茶", user_id="u1", include_log=False, now=days(1)) == []


def _random_unit(rng: np.random.Generator, dim: int = 8) -> list[float]:
    v = rng.standard_normal(dim)
    return (v / np.linalg.norm(v)).tolist()


def test_the_vector_index_agrees_with_brute_force_through_writes_and_deletes(db_path: Path) -> None:
    rng = np.random.default_rng(7)
    stores = open_sqlite(db_path, dim=8)
    items: dict[str, MemoryItem] = {}
    for step in range(400):  # enough rows to grow the matrix several times and to remove from its middle
        roll = rng.random()
        if roll < 0.6 or len(items) < 5:
            kind = Kind.SEMANTIC if rng.random() < 0.7 else Kind.EPISODIC
            item = MemoryItem(user_id="u1", text=f"m{step}", kind=kind, embedding=_random_unit(rng))
        else:
            item = items[list(items)[int(rng.integers(len(items)))]]
            if roll < 0.75:
                item.embedding = _random_unit(rng)
            elif roll < 0.9:
                item.status = Status.SUPERSEDED if item.status is Status.ACTIVE else Status.ACTIVE
            else:
                stores.records.delete("u1", [item.id])
                del items[item.id]
                continue
        stores.records.put(item, item.text)
        items[item.id] = item
        if step % 40 == 0:
            query = np.array(_random_unit(rng), dtype=np.float32)
            for kinds in ((), (Kind.EPISODIC,)):
                live = [
                    m
                    for m in items.values()
                    if m.status is Status.ACTIVE and (not kinds or m.kind in kinds) and m.embedding
                ]
                expected = sorted(live, key=lambda m: -float(np.dot(m.embedding, query)))[:5]  # type: ignore[arg-type]
                found = stores.search.vector_search("u1", query, MemoryQuery(kinds=kinds), 5)
                assert [f.id for f in found] == [m.id for m in expected]
    stores.close()


def test_a_delete_through_another_connection_reaches_the_vector_cache(db_path: Path) -> None:
    reader, writer = open_sqlite(db_path, dim=3), open_sqlite(db_path, dim=3)
    keep = MemoryItem(user_id="u1", text="keep", kind=Kind.SEMANTIC, embedding=[1.0, 0.0, 0.0])
    gone = MemoryItem(user_id="u1", text="gone", kind=Kind.SEMANTIC, embedding=[0.0, 1.0, 0.0])
    writer.records.put(keep, "keep")
    writer.records.put(gone, "gone")
    query = np.array([0.6, 0.8, 0.0], dtype=np.float32)
    assert [h.id for h in reader.search.vector_search("u1", query, MemoryQuery(), 5)] == [gone.id, keep.id]
    writer.records.delete("u1", [gone.id])
    assert [h.id for h in reader.search.vector_search("u1", query, MemoryQuery(), 5)] == [keep.id]
    reader.close()
    writer.close()


@pytest.mark.parametrize(
    ("documents", "expected"),
    [
        pytest.param({"tea": 10, "like": 900}, ["like", "tea"], id="all-within-budget"),
        pytest.param({"tea": 10, "like": 5000}, ["tea"], id="common-word-left-out"),
        pytest.param({"tea": 6000, "like": 9000}, ["tea"], id="rarest-kept-even-over-budget"),
        pytest.param({}, ["like", "tea"], id="unknown-words-are-rare"),
    ],
)
def test_keyword_search_matches_the_rarest_words_within_a_budget(
    documents: dict[str, float], expected: list[str]
) -> None:
    assert rarest_within(["like", "tea"], documents, budget=4000) == expected


def test_keyword_search_ranks_inside_the_index_then_applies_the_filters(db_path: Path) -> None:
    stores = open_sqlite(db_path, dim=3)
    for i in range(250):  # more than the index pre-ranks, and all better matches than the memory below
        stores.records.put(MemoryItem(user_id="u1", text=f"tea {i}", kind=Kind.LOG), "tea tea")
    semantic = MemoryItem(user_id="u1", text="tea", kind=Kind.SEMANTIC)
    stores.records.put(semantic, "tea")
    found = stores.search.keyword_search("u1", ["tea"], MemoryQuery(kinds=(Kind.SEMANTIC,)), 10)
    assert [(f.id, f.terms) for f in found] == [(semantic.id, ["tea"])]
    assert len(stores.search.keyword_search("u1", ["tea"], MemoryQuery(), 10)) == 10
    stores.close()


def counted_terms(db_path: Path) -> tuple[list[tuple[str, str, int]], list[tuple[str, int, int]]]:
    """keyword_terms and keyword_stats as the triggers keep them, checked against counting every row."""
    db = sqlite3.connect(db_path)
    kept = db.execute("SELECT user_id, term, docs FROM keyword_terms ORDER BY 1, 2").fetchall()
    totals = db.execute("SELECT user_id, docs, tokens FROM keyword_stats ORDER BY 1").fetchall()
    rows = db.execute("SELECT user_id, tokens FROM memories").fetchall()
    db.close()
    terms: dict[tuple[str, str], int] = {}
    stats: dict[str, tuple[int, int]] = {}
    for user, tokens in rows:
        for term in set(tokens.split()):
            terms[(user, term)] = terms.get((user, term), 0) + 1
        docs, length = stats.get(user, (0, 0))
        stats[user] = (docs + 1, length + len(tokens.split()))
    assert kept == sorted((u, t, n) for (u, t), n in terms.items())
    assert totals == sorted((u, d, n) for u, (d, n) in stats.items())
    return kept, totals


def test_keyword_statistics_follow_every_write(db_path: Path) -> None:
    with Memory(db_path) as mem:
        tea = mem.remember("I drink green tea every morning", user_id="u1", tags=["drink"], at=T0)
        mem.remember("Green tea and black tea are both fine", user_id="u1", at=T0)
        mem.remember("I drink green tea too", user_id="u2", at=T0)
        before = counted_terms(db_path)
        assert ("u1", "tea", 2) in before[0]
        assert ("u2", "tea", 1) in before[0]
        mem.search("green tea", user_id="u1", now=T0)  # a recall writes no count
        assert counted_terms(db_path) == before
        mem.update(tea.memory.id, "I drink oolong every morning", at=T0, user_id=tea.memory.user_id)
        assert ("u1", "oolong", 1) in counted_terms(db_path)[0]
        mem.forget("u1", tags=["drink"], at=T0)
        mem.delete(mem.list("u1")[0].id, user_id="u1", at=T0)
        mem.forget("u2", all=True)
        # a word goes with the last memory that held it, and a user's totals with the user
        assert counted_terms(db_path) == ([], [])


def test_another_users_memories_move_no_keyword_score(db_path: Path) -> None:
    stores = open_sqlite(db_path, dim=3)
    for i, text in enumerate(["green tea", "black tea", "tea with milk", "a walk in the park"]):
        stores.records.put(MemoryItem(user_id="u1", text=text, kind=Kind.SEMANTIC), f"{text} {i}")
    before = [(h.id, h.score) for h in stores.search.keyword_search("u1", ["tea", "park"], MemoryQuery(), 10)]
    # another user says "tea" a thousand times: in FTS5's own statistics "tea" would become common
    for i in range(1000):
        stores.records.put(MemoryItem(user_id="u2", text="tea", kind=Kind.LOG), f"tea {i}")
    after = [(h.id, h.score) for h in stores.search.keyword_search("u1", ["tea", "park"], MemoryQuery(), 10)]
    assert after == before
    stores.close()


def store_before(migration: str, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Stores:
    """A store whose file has run only the migrations before ``migration`` (the next open runs the rest)."""
    with monkeypatch.context() as m:
        m.setattr(
            "memlane.store.sqlite.migrations.MIGRATIONS", [x for x in MIGRATIONS if x.__name__ < migration]
        )
        return open_sqlite(db_path, dim=3)


def test_the_migration_counts_the_words_already_stored(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = store_before("m010", db_path, monkeypatch)
    for text in ["一 二 三", "二 三", "三"]:
        put_before_flags(old, MemoryItem(user_id="u1", text=text, kind=Kind.SEMANTIC), text)
    put_before_flags(old, MemoryItem(user_id="u2", text="三 四", kind=Kind.SEMANTIC), "三 四")
    old.close()
    stores = open_sqlite(db_path, dim=3)
    assert counted_terms(db_path) == (
        [("u1", "一", 1), ("u1", "三", 3), ("u1", "二", 2), ("u2", "三", 1), ("u2", "四", 1)],
        [("u1", 3, 6), ("u2", 1, 2)],
    )
    # the triggers count from there on
    stores.records.put(MemoryItem(user_id="u1", text="四", kind=Kind.SEMANTIC), "四")
    assert ("u1", "四", 1) in counted_terms(db_path)[0]
    stores.close()


def turn_at(text: str, direction: list[float], at: datetime) -> MemoryItem:
    v = np.asarray(direction) / np.linalg.norm(direction)
    return MemoryItem(user_id="u1", text=text, kind=Kind.LOG, valid_from=at, embedding=list(v))


def test_a_filtered_vector_search_ranks_every_record_that_passes(db_path: Path) -> None:
    # 300 records near the query, 5 far from it in another period: the nearest few times the limit
    # hold none of the 5, and the search must still give the best of them
    stores = open_sqlite(db_path, dim=3)
    rng = np.random.default_rng(3)
    for i in range(300):
        stores.records.put(turn_at(f"near {i}", [1.0, 0.01 * rng.random(), 0.0], T0), "")
    far = [turn_at(f"far {i}", [0.1 * (i + 1), 0.0, 1.0], days(40)) for i in range(5)]
    for item in far:
        stores.records.put(item, "")
    query = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    found = stores.search.vector_search("u1", query, MemoryQuery(since=days(30), until=days(50)), 3)
    assert [h.id for h in found] == [item.id for item in far[::-1][:3]]
    assert len(stores.search.vector_search("u1", query, MemoryQuery(since=T0, until=days(1)), 3)) == 3
    stores.close()


def test_the_migration_counts_the_speakers_already_tagged(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = store_before("m012", db_path, monkeypatch)
    for name in ["Alice", "Alice", "Bob"]:
        turn = MemoryItem(user_id="u1", text="hi", kind=Kind.LOG, tags=[f"speaker:{name}"])
        put_before_flags(old, turn, "hi")
    # not a turn: not counted
    said = MemoryItem(user_id="u1", text="hi", kind=Kind.SEMANTIC, tags=["speaker:Carol"])
    put_before_flags(old, said, "hi")
    old.close()
    stores = open_sqlite(db_path, dim=3)
    assert stores.records.speakers("u1") == ["Alice", "Bob"]
    counts = sqlite3.connect(db_path).execute("SELECT name, turns FROM speakers ORDER BY name").fetchall()
    assert counts == [("Alice", 2), ("Bob", 1)]
    stores.close()


def test_the_migration_moves_memlanes_own_marks_out_of_the_users_tags(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = store_before("m013", db_path, monkeypatch)
    turn = MemoryItem(
        user_id="u1",
        text="hi",
        kind=Kind.LOG,
        tags=["role:user", "outdated", "chatter", "flag:injection", "speaker:Bo", "coffee"],
    )
    trend = MemoryItem(user_id="u1", text="trend", kind=Kind.SEMANTIC, tags=["trend", "outdated", "coffee"])
    put_before_flags(old, turn, "hi")
    put_before_flags(old, trend, "trend")
    old.close()
    stores = open_sqlite(db_path, dim=3)
    moved = stores.records.get("u1", turn.id)
    assert moved is not None
    assert (moved.role, moved.flags, moved.tags) == (
        "user",
        {Flag.OUTDATED, Flag.CHATTER, Flag.INSTRUCTION},
        ["speaker:Bo", "coffee"],
    )
    built = stores.records.get("u1", trend.id)
    assert built is not None
    # "outdated" on a memory was a tag the user gave: it stays one
    assert (built.role, built.flags, built.tags) == (None, {Flag.DERIVED}, ["outdated", "coffee"])
    assert stores.records.speakers("u1") == ["Bo"]
    stores.close()


def test_a_lookup_by_ids_reads_the_primary_key_not_the_users_rows(tmp_path: Path) -> None:
    # get_many, touch and delete name a few ids of one user: SQLite must not walk the user's index
    with Memory(tmp_path / "m.db") as mem:
        mem.add("I like green tea", user_id="u1", at=T0)
    owner = SQLITE.owner_of_ids.format(mark="?")
    with sqlite3.connect(tmp_path / "m.db") as db:
        plan = db.execute(
            f"EXPLAIN QUERY PLAN SELECT * FROM memories WHERE {owner} AND id IN (?, ?)", ("u1", "a", "b")
        ).fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "sqlite_autoindex_memories_1" in details
    assert "memories_user_time" not in details
