"""The hard edges of the public API, on every backend of ``test_contract.py``: the owner is required
below the API, deleting everything is said explicitly, withdrawn messages leave no trace, a closed
memory fails one way, and a restore into the store it came from keeps ids apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conftest import T0, days
from memlane import InvalidInput, Memory, NotFound, StoreUnavailable
from test_contract import mem  # noqa: F401  (the fixture: every backend)


def test_calls_about_one_memory_need_its_user(mem: Memory) -> None:  # noqa: F811
    item = mem.add("我喜欢喝美式", user_id="alice", at=T0).memories[0]
    calls: list[Callable[..., Any]] = [
        lambda: mem.get(item.id),  # type: ignore[call-arg]
        lambda: mem.history(item.id),  # type: ignore[call-arg]
        lambda: mem.update(item.id, "我喜欢喝茶"),  # type: ignore[call-arg]
        lambda: mem.delete(item.id),  # type: ignore[call-arg]
        lambda: mem.feedback(item.id, "wrong"),  # type: ignore[call-arg]
    ]
    for call in calls:
        with pytest.raises(TypeError, match="user_id"):
            call()
    assert mem.get(item.id, user_id="alice").text == item.text
    assert mem.owner_of(item.id) == "alice"  # the admin lookup, by its own name
    mem.delete(item.id, user_id="alice", at=days(1))
    assert mem.owner_of(item.id) == "alice"  # a deleted memory's history still has an owner
    with pytest.raises(NotFound):
        mem.owner_of("no-such-id")


def test_forgetting_everything_is_never_a_default(mem: Memory) -> None:  # noqa: F811
    mem.add("我住在上海", user_id="u1", at=T0)
    for wrong in ({}, {"tags": None}, {"tags": []}, {"tags": "咖啡"}, {"tags": ["x"], "all": True}):
        with pytest.raises(InvalidInput):
            mem.forget("u1", **wrong)  # type: ignore[arg-type]
    assert [m.text for m in mem.list("u1")] == ["我住在上海"]
    assert mem.forget("u1", all=True) >= 1
    assert mem.list("u1", include_log=True) == []


def test_withdrawn_messages_leave_no_memory_log_turn_profile_value_or_session(mem: Memory) -> None:  # noqa: F811
    kept = mem.add("我喜欢爬山", user_id="u1", session_id="s1", at=T0)
    said = mem.add("我叫阿白，我住在杭州", user_id="u1", session_id="s2", at=T0)
    assert mem.profile("u1").get("name") == "阿白"
    gone = mem.forget_messages("u1", said.message_ids, at=T0, caller="test")
    assert gone >= 1
    everything = [m.text for m in mem.list("u1", include_log=True, status=None)]
    assert not any("阿白" in t or "杭州" in t for t in everything)
    assert any("爬山" in t for t in everything)
    assert "name" not in mem.profile("u1")
    assert mem.session("u1", "s2", now=T0) is None  # it said nothing else
    assert mem.session("u1", "s1", now=T0) is not None
    assert mem.forget_messages("u1", kept.message_ids, at=T0) >= 1
    with pytest.raises(InvalidInput):
        mem.forget_messages("u1", [])


def test_after_close_every_method_fails_the_same_way(open_memory: Callable[[], Memory]) -> None:
    closed = open_memory()
    item = closed.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    closed.close()
    closed.close()  # twice is harmless
    calls: list[Callable[[], object]] = [
        lambda: closed.search("美式", user_id="u1"),
        lambda: closed.add("我喜欢喝茶", user_id="u1"),
        lambda: closed.context("喝什么", user_id="u1"),
        lambda: closed.list("u1"),
        lambda: closed.get(item.id, user_id="u1"),
        lambda: closed.profile("u1"),
        lambda: closed.audit("u1"),
        lambda: closed.export("u1"),
        lambda: closed.maintain(now=days(1)),
        lambda: closed.flush(),
        lambda: closed.owner_of(item.id),
        lambda: closed.forget("u1", all=True),
    ]
    messages = set()
    for call in calls:
        with pytest.raises(StoreUnavailable) as caught:
            call()
        messages.add(str(caught.value))
    assert messages == {"this memory is closed; open a new Memory to go on"}


def test_a_user_restored_beside_the_original_in_the_same_store_gets_ids_of_its_own(mem: Memory) -> None:  # noqa: F811
    mem.add("我住在上海", user_id="u1", at=T0)
    mem.add("我搬到杭州了", user_id="u1", at=days(3))
    document = mem.export("u1")
    report = mem.restore(document, user_id="u2")  # what the refusal message recommends
    assert report.memories == len(document["memories"])
    originals = {m.id for m in mem.list("u1", status=None)}
    copies = mem.list("u2", status=None)
    assert {m.text for m in copies} == {m.text for m in mem.list("u1", status=None)}
    assert not originals & {m.id for m in copies}
    old = next(m for m in copies if "上海" in m.text)
    assert old.superseded_by in {m.id for m in copies}  # references follow the new ids
    assert [r.op for r in mem.history(old.id, user_id="u2")] == ["add", "supersede"]
    assert mem.profile("u2")["home_city"] == "杭州"
    mem.forget("u2", all=True)
    assert {m.id for m in mem.list("u1", status=None)} == originals  # the original is untouched
