"""Log turns get their vectors off the add path: the backlog, its readers and what can go wrong.

The stores are real (SQLite, and PostgreSQL + pgvector for the store method); the model behind the
backlog is the bundled e5 except where a test must hold the backlog still, which a gate in front of
it does (a real :class:`Embedder` subclass, not a mock).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from conftest import T0, days
from memlane import Kind, Memory, MemoryItem
from memlane.embed import Embedder, Vector
from memlane.embed.e5 import E5Embedder
from memlane.errors import StoreUnavailable
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.open import open_stores
from memlane.text.keywords import query_tokens
from memlane.vocabulary import MemoryQuery
from memlane.write.backlog import Reread

TURN = "We finally adopted a puppy from the shelter last weekend, a golden retriever."
QUERY = "what pet does the user have"  # shares no word with TURN: only its vector finds it


class Gated(Embedder):
    """The bundled model, whose background embeddings wait for ``gate`` (so a test sees them late)."""

    name = "gated"

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.dim = inner.dim
        self.gate = threading.Event()
        self.started = threading.Event()  # the background thread has taken a record
        self._background = _Held(self)

    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        return self.inner.embed_batch(texts, query=query)

    def for_background(self) -> Embedder:
        return self._background


class _Held(Embedder):
    name = "held"

    def __init__(self, owner: Gated) -> None:
        self.owner = owner
        self.dim = owner.dim

    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        self.owner.started.set()
        assert self.owner.gate.wait(timeout=60), "the test never opened the gate"
        return self.owner.inner.embed_batch(texts, query=query)


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    return E5Embedder()


@pytest.fixture
def gated(e5: E5Embedder) -> Gated:
    return Gated(e5)


@pytest.fixture
def mem(tmp_path: Path, gated: Gated) -> Iterator[Memory]:
    memory = Memory(tmp_path / "memlane.db", embedder=gated)
    yield memory
    gated.gate.set()
    memory.close()


def log_turns(mem: Memory, user_id: str = "u1") -> list[tuple[str, bool]]:
    turns = mem.stores.records.query(user_id, MemoryQuery(kinds=(Kind.LOG,)))
    return [(t.text, t.embedding is not None) for t in turns]


def test_add_returns_before_the_turn_has_its_vector(mem: Memory) -> None:
    mem.add(TURN, user_id="u1", at=T0)
    assert log_turns(mem) == [(TURN, False)]
    # the turn is stored and found by its words at once
    assert mem.stores.search.keyword_search("u1", query_tokens("puppy"), MemoryQuery(), 5)


def test_a_search_waits_for_its_users_turns_and_finds_them_by_meaning(mem: Memory, gated: Gated) -> None:
    mem.add(TURN, user_id="u1", at=T0)
    assert gated.started.wait(timeout=30)
    found: list[str] = []
    search = threading.Thread(
        target=lambda: found.extend(
            h.memory.text for h in mem.search(QUERY, user_id="u1", kinds=["log"], now=days(1))
        )
    )
    search.start()
    search.join(timeout=0.5)
    assert search.is_alive(), "the search did not wait for the turn's vector"
    gated.gate.set()
    search.join(timeout=60)
    assert TURN in found
    assert log_turns(mem) == [(TURN, True)]


def test_another_users_backlog_does_not_hold_a_search_up(mem: Memory, gated: Gated) -> None:
    mem.add(TURN, user_id="u1", at=T0)
    gated.gate.clear()
    assert mem.search(QUERY, user_id="u2", now=days(1)) == []


def test_flush_and_close_leave_no_turn_without_a_vector(tmp_path: Path, gated: Gated) -> None:
    memory = Memory(tmp_path / "memlane.db", embedder=gated)
    for i in range(3):
        memory.add(f"{TURN} ({i})", user_id=f"u{i}", at=T0)
    gated.gate.set()
    memory.flush("u0")
    assert all(has for _, has in log_turns(memory, "u0"))
    memory.close()  # drains the others
    with Memory(tmp_path / "memlane.db", embedder=gated) as reopened:
        assert all(has for i in range(3) for _, has in log_turns(reopened, f"u{i}"))


def test_a_clause_read_again_goes_ahead_of_waiting_turns(mem: Memory, gated: Gated) -> None:
    # two turns wait behind the held model; a clause submitted after them is read first, and a
    # caller settling the user's clauses reads it on its own thread without waiting for the turns
    mem.add(TURN, user_id="u1", at=T0)
    mem.add(f"{TURN} Again.", user_id="u1", at=T0)
    assert gated.started.wait(timeout=10)
    read: list[Vector] = []
    mem._vectors.submit("u1", [Reread("Pottery is a huge part of my life", read.append)])
    mem._vectors.settle_rereads("u1")
    assert len(read) == 1
    assert read[0].shape == (384,)
    assert not all(has for _, has in log_turns(mem))  # the turns still wait
    gated.gate.set()
    mem.flush("u1")
    assert all(has for _, has in log_turns(mem))


def test_a_turn_deleted_before_its_vector_arrives_stays_deleted(mem: Memory, gated: Gated) -> None:
    mem.add(TURN, user_id="u1", at=T0)
    mem.forget("u1", all=True)
    gated.gate.set()
    mem.flush()
    assert log_turns(mem) == []
    assert mem.search(QUERY, user_id="u1", now=days(1)) == []


def test_maintain_gives_a_vector_to_a_turn_a_stopped_process_left_without(
    tmp_path: Path, e5: E5Embedder
) -> None:
    stopped = Gated(e5)
    first = Memory(tmp_path / "memlane.db", embedder=stopped)
    first.add(TURN, user_id="u1", at=T0)
    first.stores.close()  # the process dies before its backlog has written the vector
    stopped.gate.set()
    first.flush()  # (its thread finds the database gone)
    with Memory(tmp_path / "memlane.db", embedder=e5) as mem:
        assert log_turns(mem) == [(TURN, False)]
        assert mem.maintain(now=days(1)).vectors_repaired == 1
        assert log_turns(mem) == [(TURN, True)]
        assert mem.maintain(now=days(1)).vectors_repaired == 0
        assert TURN in [h.memory.text for h in mem.search(QUERY, user_id="u1", kinds=["log"], now=days(1))]


def test_a_store_failing_under_the_backlog_is_reported_once_and_repaired_later(
    tmp_path: Path, e5: E5Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    with Memory(tmp_path / "memlane.db", embedder=e5) as memory:
        working = memory.stores.search.put_vectors
        down = threading.Event()
        down.set()

        def put_vectors(user_id: str, vectors: Mapping[str, Vector]) -> int:
            if down.is_set():
                raise StoreUnavailable("SQLite error: disk I/O error")
            return working(user_id, vectors)

        memory.stores.search.put_vectors = put_vectors  # type: ignore[method-assign]
        for i in range(3):
            memory.add(f"{TURN} ({i})", user_id="u1", at=T0)
        memory.flush()
        assert [r.levelname for r in caplog.records if r.name == "memlane.write.backlog"] == ["ERROR"]
        assert log_turns(memory) == [(t, False) for t, _ in log_turns(memory)]
        down.clear()
        memory.add("The store is back.", user_id="u2", at=T0)
        memory.flush()
        assert "3 records or clauses were left without a vector" in caplog.text
        assert memory.maintain(now=days(1)).vectors_repaired == 3
        assert all(has for _, has in log_turns(memory))


def test_without_a_backlog_add_embeds_the_turn_itself(tmp_path: Path, gated: Gated) -> None:
    with Memory(tmp_path / "memlane.db", embedder=gated.inner, vector_backlog=0) as memory:
        memory.add(TURN, user_id="u1", at=T0)
        assert log_turns(memory) == [(TURN, True)]


def test_a_full_backlog_makes_the_writer_embed_its_own_turns(tmp_path: Path, gated: Gated) -> None:
    with Memory(tmp_path / "memlane.db", embedder=gated, vector_backlog=1) as memory:
        memory.add(f"{TURN} (1)", user_id="u1", at=T0)  # taken by the background thread, which waits
        assert gated.started.wait(timeout=30)
        memory.add(f"{TURN} (2)", user_id="u1", at=T0)  # queued
        assert memory.vectors_queued == 1
        memory.add(f"{TURN} (3)", user_id="u1", at=T0)  # the queue is full: embedded by add itself
        assert sorted(log_turns(memory)) == [
            (f"{TURN} (1)", False),
            (f"{TURN} (2)", False),
            (f"{TURN} (3)", True),
        ]
        gated.gate.set()


def test_the_background_model_is_not_the_request_model(e5: E5Embedder) -> None:
    background = e5.for_background()
    assert background is e5.for_background()
    assert background is not e5
    text = ["我们上周末从收容所领养了一只小狗"]
    assert np.allclose(background.embed_passages(text), e5.embed_passages(text), atol=1e-6)


# -- the store method, on both SQL stores -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Stores]:
    if request.param == "sqlite":
        settings = Settings(path=str(tmp_path / "memlane.db"))
    else:
        settings = Settings(store=request.getfixturevalue("pg_url"))
    return lambda: open_stores(settings, 384)


def test_put_vectors_fills_only_missing_vectors_of_the_users_own_records(
    open_store: Callable[[], Stores], e5: E5Embedder
) -> None:
    stores = open_store()
    try:
        bare = MemoryItem(user_id="u1", text="I love americanos", kind=Kind.SEMANTIC, created_at=T0)
        stores.records.put(bare, "love americanos")
        assert [m.id for m in stores.records.query("u1", MemoryQuery(embedded=False))] == [bare.id]
        vector = e5.embed_passages(["I love americanos"])[0]
        assert stores.search.put_vectors("u2", {bare.id: vector}) == 0  # not u2's record
        assert stores.search.put_vectors("u1", {bare.id: vector, "no-such-id": vector}) == 1
        assert stores.search.put_vectors("u1", {bare.id: -vector}) == 0  # it has one now
        got = stores.records.get("u1", bare.id)
        assert got is not None
        assert got.embedding is not None
        assert float(np.dot(got.embedding, vector)) > 0.999
        assert stores.records.query("u1", MemoryQuery(embedded=False)) == []
        hits = stores.search.vector_search("u1", vector, MemoryQuery(), 5)
        assert [h.id for h in hits][:1] == [bare.id]
    finally:
        stores.close()
