"""The Memory methods the memory page needed and the API lacked: ``correct`` (the profile follows a
corrected memory), ``live_sessions``, ``sources`` (the turns a memory came from) and ``users``; on the
real embedded store, and through AsyncMemory."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import AsyncMemory, Memory
from memlane.errors import NotFound


def name_memory(mem: Memory, user: str = "u1") -> str:
    return next(m.id for m in mem.list(user, kinds=["profile"]) if m.slot == "name")


def test_correcting_the_sentence_behind_a_slot_moves_the_profile(mem: Memory) -> None:
    mem.add("我叫阿白，优先邮件联系。", user_id="u1", at=T0)
    fixed = mem.update(name_memory(mem), "我叫小白", user_id="u1", at=days(1), caller="web")
    assert (fixed.text, fixed.source.value, fixed.confidence, fixed.value) == (
        "我叫小白",
        "explicit",
        1.0,
        "小白",
    )
    assert mem.profile("u1") == {"name": "小白", "preferred_channel": "email"}
    versions = [(v.version, v.value, v.current) for v in mem.profile_history("u1", "name")]
    assert versions == [(1, "阿白", False), (2, "小白", True)]
    slot = mem.history("profile:name", user_id="u1")[-1]
    assert (slot.op, slot.actor.value, slot.before, slot.after) == ("update", "user", "'阿白'", "'小白'")
    assert [e.caller for e in mem.audit("u1") if e.op == "update"] == ["web"]


def test_a_correction_that_no_longer_states_the_slot_withdraws_its_value(mem: Memory) -> None:
    mem.add("我叫阿白。", user_id="u1", at=T0)
    mem.update(name_memory(mem), "我没有固定的称呼", user_id="u1", at=days(1))
    assert "name" not in mem.profile("u1")
    assert mem.history("profile:name", user_id="u1")[-1].op == "retract"


def test_an_earlier_value_from_another_memory_comes_back_when_the_newer_is_withdrawn(mem: Memory) -> None:
    mem.add("我叫阿白。", user_id="u1", at=T0)
    mem.add("我叫小白。", user_id="u1", at=days(1))
    newer = next(m.id for m in mem.list("u1", kinds=["profile"]) if m.value == "小白")
    mem.update(newer, "我喜欢别人叫我的本名", user_id="u1", at=days(2))
    assert mem.profile("u1")["name"] == "阿白"


def test_correcting_a_memory_that_backs_no_slot_leaves_the_profile_alone(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", at=T0)
    coffee = next(m for m in mem.list("u1") if "美式" in m.text)
    assert mem.update(coffee.id, "平时喜欢喝冷萃", user_id="u1").text == "平时喜欢喝冷萃"
    assert mem.profile("u1") == {"name": "阿白"}


def test_correct_needs_the_owner(mem: Memory) -> None:
    mem.add("我叫阿白。", user_id="u1", at=T0)
    with pytest.raises(NotFound):
        mem.update(name_memory(mem), "我叫小白", user_id="u2")


def test_live_sessions_are_the_unexpired_ones_latest_first(mem: Memory) -> None:
    mem.add("预算500元以内。", user_id="u1", session_id="old", at=T0)
    mem.add("我想买一双跑鞋。", user_id="u1", session_id="new", at=days(0.5))
    assert [s.id for s in mem.live_sessions("u1", now=days(0.6))] == ["new", "old"]
    assert [s.id for s in mem.live_sessions("u1", now=days(1.2))] == ["new"]  # the old one's TTL ran out
    assert mem.live_sessions("u2", now=days(0.6)) == []
    mem.live_sessions("u1", now=days(0.6), caller="web")
    assert mem.audit("u1")[0].op == "read"


def test_sources_are_the_turns_a_memory_came_from(mem: Memory) -> None:
    said = mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1", at=T0)
    mem.add("今天天气不错。", user_id="u1", session_id="s1", at=days(0.01))
    coffee = next(m for m in mem.list("u1") if "美式" in m.text)
    turns = mem.sources(coffee.id, user_id="u1", caller="web")
    assert [(t.kind.value, t.provenance) for t in turns] == [("log", said.message_ids)]
    assert turns[0].text.startswith("我叫阿白")
    assert mem.audit("u1")[0].memory_ids == [coffee.id, turns[0].id]
    with pytest.raises(NotFound):
        mem.sources(coffee.id, user_id="u2")
    with pytest.raises(NotFound):
        mem.sources(turns[0].id, user_id="u1")  # a log turn is not a memory


def test_sources_are_gone_when_the_log_turns_are(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1", at=T0)
    coffee = next(m for m in mem.list("u1") if "美式" in m.text)
    turn = mem.sources(coffee.id, user_id="u1")[0]
    mem.stores.records.delete("u1", [turn.id])
    assert mem.sources(coffee.id, user_id="u1") == []


def test_users_lists_whoever_has_anything_stored(mem: Memory) -> None:
    assert mem.users() == []
    mem.add("我叫阿白。", user_id="u2", at=T0)
    mem.add("hello", user_id="u1", session_id="s1", at=T0)
    assert mem.users() == ["u1", "u2"]


def test_the_async_twin_offers_them_too(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[str], str, int]:
        async with AsyncMemory(tmp_path / "a.db") as mem:
            await mem.add("我叫阿白。", user_id="u1", session_id="s1", at=T0)
            name = next(m.id for m in await mem.list("u1", kinds=["profile"]))
            await mem.update(name, "我叫小白", user_id="u1")
            live = await mem.live_sessions("u1", now=T0)
            turns = await mem.sources(name, user_id="u1")
            return await mem.users(), (await mem.profile("u1"))["name"], len(live) + len(turns)

    assert asyncio.run(scenario()) == (["u1"], "小白", 2)
