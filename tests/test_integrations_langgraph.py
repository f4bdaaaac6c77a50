"""memlane as a LangGraph store: LangGraph's documented store behaviours, sync and async, then what
memlane adds (judged memories, hybrid search, masking, deletion paths), a real StateGraph, and one
contract run on SQLite and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)

from memlane import AsyncMemory, Memory
from memlane.integrations.langgraph import MemlaneStore
from memlane.integrations.namespaces import item_tag, tagged_items
from memlane.privacy import sensitive

T0 = datetime(2025, 3, 3, 8, 30, tzinfo=timezone.utc)


class Clock:
    """The store's clock, moved by the test (TTLs are minutes; no test waits)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


class Calls:
    """One store's methods called the sync way or the async way (``aput``, ``aget``...)."""

    def __init__(self, store: MemlaneStore, mode: str) -> None:
        self.store, self.mode = store, mode

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if self.mode == "sync":
            return getattr(self.store, name)  # type: ignore[no-any-return]
        method = getattr(self.store, f"a{name}")
        return lambda *args, **kwargs: asyncio.run(method(*args, **kwargs))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


@pytest.fixture(params=["sync", "async"])
def store(request: pytest.FixtureRequest, mem: Memory, clock: Clock) -> Calls:
    return Calls(MemlaneStore(mem, clock=clock), request.param)


# -- LangGraph's store semantics ------------------------------------------------------------------


def test_a_put_item_comes_back_exactly_with_its_times(store: Calls, clock: Clock) -> None:
    value = {"text": "I prefer email to phone calls", "n": 3, "tags": ["a", "b"], "nested": {"x": 1.5}}
    store.put(("u1", "memories"), "m1", value)
    item = store.get(("u1", "memories"), "m1")
    assert isinstance(item, Item)
    assert (item.namespace, item.key, item.value) == (("u1", "memories"), "m1", value)
    assert item.created_at == item.updated_at == T0
    clock.advance(5)
    store.put(("u1", "memories"), "m1", {"text": "I prefer text messages"})
    again = store.get(("u1", "memories"), "m1")
    assert again.value == {"text": "I prefer text messages"}
    assert (again.created_at, again.updated_at) == (T0, T0 + timedelta(minutes=5))


def test_a_missing_or_deleted_item_is_none(store: Calls) -> None:
    assert store.get(("u1", "memories"), "nope") is None
    store.put(("u1", "memories"), "m1", {"text": "I live in Hangzhou"})
    store.delete(("u1", "memories"), "m1")
    assert store.get(("u1", "memories"), "m1") is None
    store.delete(("u1", "memories"), "m1")  # deleting what is not there is no error


@pytest.mark.parametrize(
    "namespace",
    [
        pytest.param((), id="empty"),
        pytest.param(("langgraph", "u1"), id="reserved-root"),
        pytest.param(("u1", "a.b"), id="period"),
        pytest.param(("u1", ""), id="empty-label"),
        pytest.param(("u1", 3), id="not-a-string"),
    ],
)
def test_invalid_namespaces_are_refused(store: Calls, namespace: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "k", {"text": "x"})


def test_batch_checks_namespaces_it_is_given_directly(mem: Memory) -> None:
    store = MemlaneStore(mem)
    with pytest.raises(InvalidNamespaceError, match="period"):
        store.batch([GetOp(("u1", "a.b"), "k")])
    with pytest.raises(InvalidNamespaceError, match="langgraph"):
        store.batch([PutOp(("langgraph",), "k", {"text": "x"})])


def test_batch_answers_each_operation_in_order(mem: Memory) -> None:
    store = MemlaneStore(mem)
    results = store.batch(
        [
            PutOp(("u1", "memories"), "m1", {"text": "I like green tea"}),
            GetOp(("u1", "memories"), "m1"),
            SearchOp(("u1",)),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("u1",)),)),
            PutOp(("u1", "memories"), "m1", None),
            GetOp(("u1", "memories"), "m1"),
        ]
    )
    assert results[0] is None
    assert results[1].value == {"text": "I like green tea"}
    assert [i.key for i in results[2]] == ["m1"]
    assert results[3] == [("u1", "memories")]
    assert results[4] is None
    assert results[5] is None


def test_search_stays_inside_its_prefix(store: Calls) -> None:
    store.put(("u1", "memories"), "a", {"text": "I like green tea"})
    store.put(("u1", "notes"), "b", {"text": "Call the plumber"})
    store.put(("u2", "memories"), "c", {"text": "I like coffee"})
    assert {i.key for i in store.search(("u1",))} == {"a", "b"}
    assert [i.key for i in store.search(("u1", "notes"))] == ["b"]
    assert {i.key for i in store.search(())} == {"a", "b", "c"}
    assert store.search(("u3",)) == []


def test_without_a_query_the_latest_update_comes_first_and_pages(store: Calls, clock: Clock) -> None:
    for i in range(5):
        store.put(("u1", "docs"), f"d{i}", {"text": f"document number {i}", "i": i}, index=False)
        clock.advance(1)
    keys = [i.key for i in store.search(("u1",))]
    assert keys == ["d4", "d3", "d2", "d1", "d0"]
    assert [i.key for i in store.search(("u1",), limit=2, offset=1)] == ["d3", "d2"]
    assert all(isinstance(i, SearchItem) and i.score is None for i in store.search(("u1",)))


@pytest.mark.parametrize(
    ("conditions", "expected"),
    [
        pytest.param({"kind": "pref"}, {"a", "c"}, id="equality"),
        pytest.param({"kind": {"$eq": "fact"}}, {"b"}, id="eq"),
        pytest.param({"kind": {"$ne": "pref"}}, {"b"}, id="ne"),
        pytest.param({"score": {"$gt": 4}}, {"c"}, id="gt"),
        pytest.param({"score": {"$gte": 4}}, {"b", "c"}, id="gte"),
        pytest.param({"score": {"$lt": 4}}, {"a"}, id="lt"),
        pytest.param({"score": {"$lte": 4}}, {"a", "b"}, id="lte"),
        pytest.param({"score": {"$gt": 2, "$lt": 5}}, {"b"}, id="range"),
        pytest.param({"meta": {"source": "chat"}}, {"a"}, id="nested"),
        pytest.param({"kind": "pref", "score": {"$gte": 5}}, {"c"}, id="both"),
        pytest.param({"missing": "x"}, set(), id="missing-field"),
    ],
)
def test_filters_compare_values(store: Calls, conditions: dict[str, Any], expected: set[str]) -> None:
    store.put(("u1", "m"), "a", {"text": "likes tea", "kind": "pref", "score": 2, "meta": {"source": "chat"}})
    store.put(("u1", "m"), "b", {"text": "works in Hangzhou", "kind": "fact", "score": 4})
    store.put(("u1", "m"), "c", {"text": "likes hiking", "kind": "pref", "score": 5.5})
    assert {i.key for i in store.search(("u1",), filter=conditions)} == expected


def test_a_query_ranks_by_memlanes_hybrid_search(store: Calls) -> None:
    store.put(("u1", "memories"), "contact", {"text": "Please email me, never call me"})
    store.put(("u1", "memories"), "drink", {"text": "我平时喜欢喝美式咖啡"})
    store.put(("u1", "memories"), "hobby", {"text": "I go hiking in the mountains on weekends"})
    store.put(("u2", "memories"), "other", {"text": "Please email me at work"})
    found = store.search(("u1",), query="how should I contact the user? email or phone")
    assert found[0].key == "contact"
    assert found[0].score is not None
    assert found[0].score > 0
    assert {i.key for i in found} == {"contact", "drink", "hobby"}  # unfound ones follow, unscored
    assert store.search(("u1",), query="推荐一杯咖啡")[0].key == "drink"
    assert store.search(("u1",), query="coffee", filter={"text": "nothing like this"}) == []


def test_namespaces_list_with_prefix_suffix_wildcards_and_depth(store: Calls) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f")]:
        store.put(ns, "k", {"text": "x"}, index=False)
    # the example in BaseStore.list_namespaces' docstring
    expected = [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == expected
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("*", "e")) == [("a", "b", "d", "e")]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d", "e"), ("a", "b", "d", "i")]
    assert store.list_namespaces(max_depth=1) == [("a",)]


def test_ttl_is_minutes_from_the_last_read_or_write(store: Calls, clock: Clock) -> None:
    store.put(("u1", "cache"), "k", {"text": "the weather is sunny today"}, ttl=10)
    clock.advance(8)
    assert store.get(("u1", "cache"), "k") is not None  # a read refreshes the TTL
    clock.advance(8)
    assert store.get(("u1", "cache"), "k", refresh_ttl=False) is not None
    clock.advance(3)  # 11 minutes after the last refresh
    assert store.get(("u1", "cache"), "k") is None
    assert store.search(("u1",)) == []
    assert store.list_namespaces() == []


def test_a_search_refreshes_the_ttl_of_what_it_returns(store: Calls, clock: Clock) -> None:
    store.put(("u1", "cache"), "k", {"text": "the weather is sunny today"}, ttl=10)
    clock.advance(9)
    assert [i.key for i in store.search(("u1",))] == ["k"]
    clock.advance(9)
    assert store.get(("u1", "cache"), "k") is not None


def test_default_ttl_and_the_sweep(mem: Memory, clock: Clock) -> None:
    store = MemlaneStore(mem, clock=clock, ttl_config={"default_ttl": 5, "refresh_on_read": False})
    store.put(("u1", "cache"), "short", {"text": "a cached forecast for Hangzhou"})
    store.put(("u1", "cache"), "kept", {"text": "I prefer window seats on planes"}, ttl=None)
    clock.advance(3)
    assert store.get(("u1", "cache"), "short") is not None  # refresh_on_read=False: no refresh
    clock.advance(3)
    assert store.get(("u1", "cache"), "short") is None
    assert store.sweep_ttl() == 1
    assert [m.text for m in mem.list("u1")] == ["I prefer window seats on planes"]  # its memory went too
    assert store.get(("u1", "cache"), "kept") is not None


def test_the_sweeper_thread_starts_and_stops(mem: Memory) -> None:
    store = MemlaneStore(mem, ttl_config={"sweep_interval_minutes": 60})
    assert store.stop_ttl_sweeper(timeout=5)
    assert store.stop_ttl_sweeper()  # stopping twice is harmless


# -- what memlane adds ----------------------------------------------------------------------------


def test_a_put_is_an_explicit_memory_tagged_by_namespace(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "m1", {"text": "I prefer email to phone calls", "kind": "preference"})
    [memory] = mem.list("u1")
    assert memory.text == "I prefer email to phone calls"
    assert {"langgraph", "langgraph:u1", "langgraph:u1.memories"} <= set(memory.tags)
    assert mem.list("u2") == []
    assert [e.caller for e in mem.audit("u1") if e.op == "write"] == ["langgraph"]


def test_a_memory_names_its_item_in_a_tag_that_never_reads_as_a_number(mem: Memory) -> None:
    # record ids are random hex: "13812345678..." would read as a phone number, which no tag may hold
    record_id = "13812345678" + "0" * 21
    assert sensitive.scan(item_tag(record_id)) == []
    assert tagged_items(["langgraph:u1", item_tag(record_id)]) == [record_id]
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "m1", {"text": "I prefer email to phone calls"})
    [memory] = mem.list("u1")
    [item] = store.search(("u1",), query="how to contact the user?")
    assert item.key == "m1"
    assert len(tagged_items(memory.tags)) == 1


def test_the_user_label_is_configurable(mem: Memory) -> None:
    store = MemlaneStore(mem, user_label=1)
    store.put(("memories", "u7"), "m1", {"content": "I am vegetarian"})
    assert [m.text for m in mem.list("u7")] == ["I am vegetarian"]
    assert [i.key for i in store.search(("memories", "u7"), query="what do I eat?")] == ["m1"]
    with pytest.raises(ValueError, match="no label at position 1"):
        store.put(("memories",), "m2", {"content": "x"})


def test_index_chooses_what_becomes_memories(mem: Memory) -> None:
    store = MemlaneStore(mem, fields=["summary"])
    store.put(("u1", "m"), "a", {"summary": "I run every morning", "raw": "ignored text"})
    store.put(("u1", "m"), "b", {"facts": ["I have two cats", "I live near the lake"]}, index=["facts[*]"])
    store.put(("u1", "m"), "c", {"summary": "not remembered"}, index=False)
    remembered = sorted(m.text for m in mem.list("u1"))
    assert remembered == ["I have two cats", "I live near the lake", "I run every morning"]
    assert store.get(("u1", "m"), "c").value == {"summary": "not remembered"}


def test_sensitive_values_are_masked_in_the_item_and_never_remembered(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "profile"), "id", {"text": "我的身份证号是110101199003077578", "ok": True})
    item = store.get(("u1", "profile"), "id")
    assert "110101199003077578" not in str(item.value)
    assert item.value["ok"] is True
    assert mem.list("u1") == []  # an ID number is never stored as a memory


def test_deleting_the_memory_in_memlane_deletes_the_item(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "m1", {"text": "I am afraid of flying"})
    [memory] = mem.list("u1")
    mem.delete(memory.id, user_id="u1")
    assert store.get(("u1", "memories"), "m1") is None


def test_forgetting_the_user_deletes_every_item(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "m1", {"text": "I am afraid of flying"})
    mem.forget("u1", all=True)
    assert store.search(()) == []
    assert store.list_namespaces() == []


def test_an_item_repeating_a_memory_shares_it_and_deleting_one_keeps_the_other(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "a", {"text": "I prefer green tea"})
    store.put(("u1", "memories"), "b", {"text": "I prefer green tea"})
    assert len(mem.list("u1")) == 1  # deduplicated into one memory
    store.delete(("u1", "memories"), "a")
    assert store.get(("u1", "memories"), "b") is not None
    assert [i.key for i in store.search(("u1",), query="green tea")] == ["b"]


def test_nothing_is_kept_for_a_user_who_turned_memory_off(mem: Memory) -> None:
    mem.set_consent("u1", enabled=False)
    store = MemlaneStore(mem)
    store.put(("u1", "memories"), "m1", {"text": "I prefer email"})
    assert store.get(("u1", "memories"), "m1") is None
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(["not", "a", "dict"], "must be a mapping", id="not-a-mapping"),
        pytest.param({"when": datetime(2025, 1, 1)}, "JSON-serialisable", id="not-json"),
        pytest.param({"text": "x" * 200_000}, "limit", id="too-large"),
    ],
)
def test_bad_values_fail_clearly_and_store_nothing(mem: Memory, value: Any, message: str) -> None:
    store = MemlaneStore(mem)
    with pytest.raises(ValueError, match=message):
        store.put(("u1", "m"), "k", value)
    assert store.search(()) == []


@pytest.mark.parametrize("ttl", [0, -1, 1e300, float("nan")])
def test_a_bad_ttl_fails_clearly(mem: Memory, ttl: float) -> None:
    with pytest.raises(ValueError, match="ttl must be a number of minutes"):
        MemlaneStore(mem).put(("u1", "m"), "k", {"text": "x"}, ttl=ttl)


def test_an_unknown_filter_operator_fails_clearly(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "m"), "k", {"n": 1})
    with pytest.raises(ValueError, match=r"unknown filter operator '\$in'"):
        store.search(("u1",), filter={"n": {"$in": [1]}})


def test_an_async_memory_works_too(tmp_path: Path) -> None:
    async def run() -> list[str]:
        async with AsyncMemory(tmp_path / "a.db") as mem:
            store = MemlaneStore(mem)
            await store.aput(("u1", "m"), "k", {"text": "I enjoy jazz"})
            return [i.key for i in await store.asearch(("u1",), query="music")]

    assert asyncio.run(run()) == ["k"]


# -- a real graph ---------------------------------------------------------------------------------


class State(TypedDict):
    user_id: str
    message: str
    recalled: list[str]


def remember_and_recall(state: State, runtime: Runtime[None]) -> dict[str, Any]:
    store = runtime.store
    assert store is not None
    namespace = (state["user_id"], "memories")
    recalled = [str(i.value["text"]) for i in store.search(namespace, query=state["message"], limit=3)]
    store.put(namespace, f"m{len(recalled)}", {"text": state["message"]})
    return {"recalled": recalled}


def test_a_state_graph_writes_and_reads_memory_across_runs(mem: Memory) -> None:
    graph = StateGraph(State)
    graph.add_node("memory", remember_and_recall)
    graph.add_edge(START, "memory")
    graph.add_edge("memory", END)
    app = graph.compile(store=MemlaneStore(mem))
    first = app.invoke({"user_id": "u1", "message": "I prefer window seats on planes", "recalled": []})
    assert first["recalled"] == []
    asked = "Which seat should I book on the plane?"
    second = app.invoke({"user_id": "u1", "message": asked, "recalled": []})
    assert second["recalled"][0] == "I prefer window seats on planes"
    assert "I prefer window seats on planes" in [m.text for m in mem.list("u1")]


# -- the contract, on both deployments ------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        memory = Memory(tmp_path / "memlane.db")
    else:
        url, sessions = request.getfixturevalue("pg_url"), request.getfixturevalue("redis_url")
        memory = Memory(store=url, sessions=sessions)
    with memory:
        yield memory


def test_contract_on_each_deployment(backend: Memory, clock: Clock) -> None:
    store = MemlaneStore(backend, clock=clock)
    store.put(("u1", "memories"), "contact", {"text": "Please email me, never call me", "n": 1})
    store.put(("u1", "memories"), "drink", {"text": "我平时喜欢喝美式咖啡", "n": 2})
    store.put(("u1", "cache"), "tmp", {"text": "a cached forecast"}, ttl=1)
    contact = {"text": "Please email me, never call me", "n": 1}
    assert store.get(("u1", "memories"), "contact").value == contact
    assert store.search(("u1", "memories"), query="how do I reach the user by email?")[0].key == "contact"
    assert [i.key for i in store.search(("u1",), filter={"n": {"$gte": 2}})] == ["drink"]
    assert store.list_namespaces(prefix=("u1",)) == [("u1", "cache"), ("u1", "memories")]
    clock.advance(2)
    assert store.get(("u1", "cache"), "tmp") is None
    assert store.sweep_ttl() == 1  # the expired item and its memory
    store.delete(("u1", "memories"), "drink")
    assert [m.text for m in backend.list("u1")] == ["Please email me, never call me"]


def test_an_item_put_without_index_is_never_ranked_even_after_maintenance(mem: Memory) -> None:
    store = MemlaneStore(mem)
    store.put(("u1", "m"), "hidden", {"text": "Please email me at work"}, index=False)
    store.put(("u1", "m"), "shown", {"text": "I like hiking"})
    mem.maintain()  # gives log rows without a vector (the records) one
    found = store.search(("u1",), query="email me at work")
    assert [(i.key, i.score is None) for i in found][-1] == ("hidden", True)


def test_a_search_ranks_the_same_with_or_without_a_filter_that_keeps_everything(store: Calls) -> None:
    topics = ["green tea", "hiking", "jazz", "the sea", "chess", "bread"]
    for i in range(24):
        store.put(("u1", "m"), f"k{i}", {"text": f"I like {topics[i % 6]}, item {i}", "all": True})
    for query in ("what music do I like?", "something to drink", None):
        plain = store.search(("u1",), query=query, limit=8, offset=2)
        filtered = store.search(("u1",), query=query, filter={"all": True}, limit=8, offset=2)
        assert [(i.key, i.score) for i in plain] == [(i.key, i.score) for i in filtered]
        assert len(plain) == 8
