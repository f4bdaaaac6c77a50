"""The PostgreSQL store: migrations on a live database, user scoping, per-user serialisation, failures
translated at the boundary, and the two indexes (GIN keywords scored like FTS5, HNSW vectors).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np
import psycopg
import pytest

import stores
from conftest import T0
from memlane import ConfigurationError, Kind, Memory, MemoryItem, StoreUnavailable
from memlane.domain import Flag
from memlane.store import Stores
from memlane.store.postgres import PostgresDatabase, open_postgres, register_types, safe_url
from memlane.store.postgres.migrations import MIGRATIONS, migrate
from memlane.store.postgres.search import vector_sql
from memlane.store.redis import RedisSessionStore
from memlane.store.sql_records import SQLRecords
from memlane.store.sql_roles import SQLSessions
from memlane.store.sqlite import open_sqlite
from memlane.text.keywords import index_text
from memlane.vocabulary import MemoryQuery
from stores import put_before_flags


def unit(seed: int, dim: int = 384) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


def memory(user: str, text: str, seed: int = 0, kind: Kind = Kind.SEMANTIC) -> MemoryItem:
    return MemoryItem(user_id=user, text=text, kind=kind, embedding=unit(seed))


@pytest.fixture
def store(pg_url: str) -> Iterator[Stores]:
    s = open_postgres(pg_url)
    yield s
    s.close()


def test_migrations_run_once_in_order_even_when_processes_race(pg_server: str) -> None:
    with stores.postgres_database(pg_server) as url:
        results: list[list[str]] = []

        def run() -> None:
            with psycopg.connect(url, autocommit=True) as conn:
                results.append(migrate(conn, 384))

        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        names = [m.__name__ for m in MIGRATIONS]
        assert sorted(results, key=len) == [[], [], [], names]
        with psycopg.connect(url) as conn:
            done = [
                r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY applied_at, name")
            ]
        assert done == names


def test_store_queries_never_cross_users(store: Stores) -> None:
    item = memory("alice", "likes tea", seed=1)
    store.records.put(item, "like tea")
    assert store.records.get("bob", item.id) is None
    assert store.records.get_many("bob", [item.id]) == []
    assert store.records.query("bob", MemoryQuery()) == []
    assert store.search.keyword_search("bob", ["tea"], MemoryQuery(), 10) == []
    assert store.search.vector_search("bob", np.array(unit(1), dtype=np.float32), MemoryQuery(), 10) == []
    assert store.records.delete("bob", [item.id]) == 0
    # an upsert under another user's name must not take the row over
    store.records.put(MemoryItem(user_id="bob", text="mine now", kind=Kind.SEMANTIC, id=item.id), "mine")
    kept = store.records.get("alice", item.id)
    assert kept is not None
    assert kept.text == "likes tea"
    assert kept.embedding == pytest.approx(unit(1))


def test_chinese_keywords_match_without_a_parser_extension(store: Stores) -> None:
    item = memory("u1", "我最近开始喝冷萃了", seed=2)
    store.records.put(item, index_text(item.text))
    store.records.put(memory("u1", "我住在上海", seed=3), index_text("我住在上海"))
    found = store.search.keyword_search("u1", ["冷萃", "咖啡"], MemoryQuery(), 10)
    assert [(h.id, h.terms) for h in found] == [(item.id, ["冷萃"])]
    assert found[0].score > 0


def test_keyword_scores_are_the_same_as_the_embedded_stores(store: Stores) -> None:
    docs = ["我喜欢喝美式咖啡", "美式咖啡和拿铁咖啡我都喝", "周末去上海看展", "咖啡馆在上海", "我不喝茶"]
    embedded = open_sqlite(":memory:")
    for i, text in enumerate(docs):
        item = memory("u1", text, seed=i)
        store.records.put(item, index_text(text))
        embedded.records.put(item, index_text(text))
    for query in (["咖啡"], ["上海", "咖啡"], ["美式", "拿铁"]):
        pg = store.search.keyword_search("u1", query, MemoryQuery(), 10)
        lite = embedded.search.keyword_search("u1", query, MemoryQuery(), 10)
        assert [h.id for h in pg] == [h.id for h in lite], query
        # both score with the user's own statistics (memlane.store.bm25)
        assert [h.score for h in pg] == pytest.approx([h.score for h in lite], rel=1e-9)
    embedded.close()


def test_keyword_statistics_follow_inserts_updates_and_deletes(store: Stores, pg_url: str) -> None:
    a, b = memory("u1", "一 二 三", seed=1), memory("u1", "四", seed=2)
    store.records.put(a, "一 二 三")
    store.records.put(b, "四")
    store.records.put(memory("u2", "五", seed=3), "五")
    a.text = "一 二"
    store.records.put(a, "一 二")
    store.records.touch("u1", [a.id], T0)
    store.records.delete("u1", [b.id])
    with psycopg.connect(pg_url) as conn:
        stats = conn.execute("SELECT user_id, docs, tokens FROM keyword_stats ORDER BY user_id").fetchall()
    assert stats == [("u1", 1, 2), ("u2", 1, 1)]


def counted_terms(url: str) -> list[tuple[str, str, int]]:
    """keyword_terms as the triggers keep it, and as counting every row from scratch gives it."""
    with psycopg.connect(url) as conn:
        kept = conn.execute("SELECT user_id, term, docs FROM keyword_terms ORDER BY 1, 2").fetchall()
        counted = conn.execute(
            "SELECT user_id, term, count(*) FROM memories, unnest(tsvector_to_array(tsv)) w(term) "
            "GROUP BY 1, 2 ORDER BY 1, 2"
        ).fetchall()
    assert kept == counted
    return kept


def test_keyword_document_counts_follow_every_write(pg_url: str) -> None:
    with Memory(store=pg_url) as mem:
        tea = mem.remember("I drink green tea every morning", user_id="u1", tags=["drink"], at=T0)
        mem.remember("Green tea and black tea are both fine", user_id="u1", at=T0)
        mem.remember("I drink green tea too", user_id="u2", at=T0)
        before = counted_terms(pg_url)
        assert ("u1", "tea", 2) in before
        assert ("u2", "tea", 1) in before
        mem.search("green tea", user_id="u1", now=T0)  # a recall writes no count
        assert counted_terms(pg_url) == before
        mem.update(tea.memory.id, "I drink oolong every morning", at=T0, user_id=tea.memory.user_id)
        assert ("u1", "oolong", 1) in counted_terms(pg_url)
        mem.forget("u1", tags=["drink"], at=T0)
        mem.delete(mem.list("u1")[0].id, user_id="u1", at=T0)
        mem.forget("u2", all=True)
        # a word goes with the last memory that held it
        assert counted_terms(pg_url) == []


def test_the_migration_counts_the_words_already_stored(
    pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with stores.postgres_database(pg_server) as url:
        before = [m for m in MIGRATIONS if m.__name__ < "m009"]
        monkeypatch.setattr("memlane.store.postgres.migrations.MIGRATIONS", before)
        old = open_postgres(url)
        for i, text in enumerate(["一 二 三", "二 三", "三"]):
            put_before_flags(old, memory("u1", text, seed=i), text)
        put_before_flags(old, memory("u2", "三 四", seed=9), "三 四")
        old.close()
        monkeypatch.undo()
        with psycopg.connect(url, autocommit=True) as conn:
            assert migrate(conn, 384) == [m.__name__ for m in MIGRATIONS[len(before) :]]
        terms = counted_terms(url)
        assert [(u, t, n) for u, t, n in terms if not t.startswith("u")] == [
            ("u1", "一", 1),
            ("u1", "三", 3),
            ("u1", "二", 2),
            ("u2", "三", 1),
            ("u2", "四", 1),
        ]
        store = open_postgres(url)  # and the triggers count from there on
        store.records.put(memory("u1", "四", seed=5), "四")
        assert ("u1", "四", 1) in counted_terms(url)
        store.close()


def test_keyword_search_finds_the_bm25_best_among_many_matches(store: Stores) -> None:
    # 300 rows hold "tea" (more than are pre-ranked), one in ten "oolong" too, each row a length of its
    # own: BM25 prefers the rarer word, then the shorter rows. FTS5 ranks every match; so must this.
    embedded = open_sqlite(":memory:")
    for i, length in enumerate(np.random.default_rng(7).permutation(300)):
        words = ["tea", *(["oolong"] if i % 10 == 0 else []), *[f"w{j}" for j in range(length)]]
        item = memory("u1", " ".join(words), seed=i)
        store.records.put(item, item.text)
        embedded.records.put(item, item.text)
    for query in (["tea"], ["oolong", "tea"]):
        pg = store.search.keyword_search("u1", query, MemoryQuery(), 20)
        lite = embedded.search.keyword_search("u1", query, MemoryQuery(), 20)
        assert [h.id for h in pg] == [h.id for h in lite], query
    embedded.close()


def test_a_recall_rewrites_the_row_on_its_own_page(store: Stores, pg_url: str) -> None:
    items = [memory("u1", f"fact {i}", seed=i) for i in range(12)]
    for item in items:
        store.records.put(item, item.text)

    def where(memory_id: str) -> str:
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT (ctid::text::point)[0] FROM memories WHERE id = %s", (memory_id,))
            return str(row.fetchone())

    first = items[0].id
    page = where(first)
    store.records.touch("u1", [first], T0)
    # the page kept room for the new version: no index (the HNSW graph included) had to learn of it
    assert where(first) == page


def test_filtered_vector_search_can_use_the_hnsw_index(store: Stores, pg_url: str) -> None:
    for i in range(20):
        store.records.put(
            memory("u1", f"fact {i}", seed=i, kind=Kind.EPISODIC if i % 5 else Kind.SEMANTIC), ""
        )
    q = MemoryQuery(kinds=(Kind.SEMANTIC,), categories=("fact",))
    sql, params = vector_sql("u1", np.array(unit(0), dtype=np.float32), q, 3)
    found = store.search.vector_search("u1", np.array(unit(0), dtype=np.float32), q, 3)
    assert len(found) == 3
    assert found[0].score == pytest.approx(1.0, abs=1e-5)
    with psycopg.connect(pg_url) as conn:
        register_types(conn)
        conn.execute("SET enable_sort = off")  # a sort would hide whether the index can order the scan
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + sql, params))
    assert "memories_embedding" in plan


def test_a_failed_transaction_writes_nothing(store: Stores) -> None:
    item = memory("u1", "半途而废", seed=1)

    def write_then_fail() -> None:
        with store.records.transaction("u1"):
            store.records.put(item, "半途而废")
            raise RuntimeError("the write path failed half way")

    with pytest.raises(RuntimeError):
        write_then_fail()
    assert store.records.get("u1", item.id) is None


def test_a_connection_lost_mid_transaction_is_store_unavailable_and_rolls_back(
    store: Stores, pg_url: str
) -> None:
    item = memory("u1", "断线", seed=1)

    def write_while_the_server_drops_the_connection() -> None:
        with store.records.transaction("u1"):
            store.records.put(item, "断线")
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND state = 'idle in transaction'"
                )
            store.records.put(memory("u1", "再写一条", seed=2), "再写")

    with pytest.raises(StoreUnavailable, match="PostgreSQL"):
        write_while_the_server_drops_the_connection()
    assert store.records.get("u1", item.id) is None
    store.records.put(item, "断线")  # the pool replaced the broken connection
    assert store.records.get("u1", item.id) is not None


def test_transactions_for_one_user_run_one_after_another(store: Stores, pg_url: str) -> None:
    order: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def first() -> None:
        with store.records.transaction("u1"):
            order.append("first in")
            inside.set()
            release.wait()
            order.append("first out")

    def second() -> None:
        with store.records.transaction("u1"):
            order.append("second in")

    a = threading.Thread(target=first)
    a.start()
    inside.wait()
    b = threading.Thread(target=second)
    b.start()
    with psycopg.connect(pg_url, autocommit=True) as watcher:
        for _ in range(3000):  # until the second transaction queues on the user's advisory lock
            row = watcher.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()"
            ).fetchone()
            if row and row[0]:
                break
            time.sleep(0.01)
    with store.records.transaction("u2"):  # another user is not held up
        order.append("other user")
    release.set()
    a.join()
    b.join()
    assert order == ["first in", "other user", "first out", "second in"]


def test_an_unreachable_server_is_store_unavailable_without_the_password() -> None:
    url = f"postgresql://memlane:s3cret@127.0.0.1:{stores.closed_port()}/memlane"
    with pytest.raises(StoreUnavailable, match="cannot open PostgreSQL store") as caught:
        open_postgres(url, timeout=2)
    assert "s3cret" not in str(caught.value)
    assert "s3cret" not in safe_url(url)


def test_a_store_refuses_an_embedder_of_another_dimension(pg_url: str) -> None:
    open_postgres(pg_url).close()  # created for 384-d vectors
    with pytest.raises(ConfigurationError, match="384"):
        open_postgres(pg_url, dim=64)


def test_the_environment_names_the_stores(
    pg_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_STORE", pg_url)
    monkeypatch.setenv("MEMLANE_SESSIONS", redis_url)
    with Memory() as mem:
        assert isinstance(mem.stores.records, SQLRecords)
        assert isinstance(mem.stores.records.db, PostgresDatabase)
        assert isinstance(mem.stores.sessions, RedisSessionStore)
    monkeypatch.delenv("MEMLANE_SESSIONS")
    with Memory() as mem:
        assert isinstance(mem.stores.sessions, SQLSessions)
    monkeypatch.setenv("MEMLANE_STORE", "mysql://db/memlane")
    with pytest.raises(ConfigurationError, match="mysql"):
        Memory()


def test_the_migration_moves_memlanes_own_marks_out_of_the_users_tags(
    pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with stores.postgres_database(pg_server) as url:
        monkeypatch.setattr(
            "memlane.store.postgres.migrations.MIGRATIONS", [m for m in MIGRATIONS if m.__name__ < "m013"]
        )
        old = open_postgres(url)
        turn = memory("u1", "hi", seed=1, kind=Kind.LOG)
        turn.tags = ["role:user", "outdated", "chatter", "flag:injection", "speaker:Bo", "coffee"]
        trend = memory("u1", "trend", seed=2)
        trend.tags = ["trend", "outdated", "coffee"]
        put_before_flags(old, turn, "hi")
        put_before_flags(old, trend, "trend")
        old.close()
        monkeypatch.undo()
        store = open_postgres(url)
        moved = store.records.get("u1", turn.id)
        assert moved is not None
        assert (moved.role, moved.flags, moved.tags) == (
            "user",
            {Flag.OUTDATED, Flag.CHATTER, Flag.INSTRUCTION},
            ["speaker:Bo", "coffee"],
        )
        built = store.records.get("u1", trend.id)
        assert built is not None
        assert (built.role, built.flags, built.tags) == (None, {Flag.DERIVED}, ["outdated", "coffee"])
        assert store.records.speakers("u1") == ["Bo"]
        store.close()
