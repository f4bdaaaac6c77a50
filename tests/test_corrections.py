"""Corrections in conversation: "Actually I meant Berlin, not Munich", "不对，不是杭州，是苏州" correct the
memory that said the wrong words (its slot and its day follow), store nothing of their own, and
leave the old words nowhere a model reads them. A message that corrects nothing said is read as
any other ("I want tea, not coffee")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Memory
from memlane.domain import Category, Flag, Kind
from memlane.write.apply import apply
from memlane.write.corrections import correction
from memlane.write.plan import Correct, WritePlan


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Actually I meant Berlin, not Munich", ("Berlin", "Munich")),
        ("sorry, I meant Tuesday not Monday", ("Tuesday", "Monday")),
        ("not Munich, I meant Berlin", ("Berlin", "Munich")),
        ("I said Munich but I meant Berlin", ("Berlin", "Munich")),
        ("不对，不是杭州，是苏州", ("苏州", "杭州")),
        ("我说的是苏州不是杭州", ("苏州", "杭州")),
        ("杭州说错了，应该是苏州", ("苏州", "杭州")),
        ("打错了，是周三不是周二", ("周三", "周二")),
        ("my name isn't Bob, it's Rob", ("Rob", "Bob")),
        ("the meeting's not on Monday, it's on Tuesday", ("on Tuesday", "on Monday")),
        ("my favourite color isn't blue it's green", ("green", "blue")),
        ("sorry, it's Rob, not Bob", ("Rob", "Bob")),
    ],
)
def test_a_correction_says_the_right_words_and_the_wrong_ones(text: str, pair: tuple[str, str]) -> None:
    assert correction(text) == pair


@pytest.mark.parametrize(
    "text",
    [
        "I want tea, not coffee",
        "not now, maybe later",
        "I mean, not really",
        "不是我不想去，是没时间",
        "it's fine, not a big deal",
        "it's not that I don't care, it's that I'm busy",
    ],
)
def test_what_corrects_no_words_is_no_correction(text: str) -> None:
    assert correction(text) is None


@pytest.fixture
def mem(open_memory: Callable[[], Memory]) -> Iterator[Memory]:
    with open_memory() as memory:
        yield memory


def test_a_correction_rewrites_the_memory_and_its_profile_slot(mem: Memory) -> None:
    (city,) = mem.add("I live in Munich", user_id="u1", session_id="s1", at=T0).memories
    (fixed,) = mem.add("Actually I meant Berlin, not Munich", user_id="u1", session_id="s1", at=T0).decisions
    assert fixed.category is Category.REQUEST
    assert fixed.related == (city.id,)
    assert fixed.reason == "a correction of “I live in Munich”: it now says “I live in Berlin”"
    assert [(m.id, m.text) for m in mem.list("u1")] == [(city.id, "I live in Berlin")]
    assert mem.profile("u1")["home_city"] == "Berlin"
    assert [h.op for h in mem.history(city.id, user_id="u1")][-1] == "update"
    said = [m for m in mem.list("u1", kinds=["log"], include_log=True) if "Munich" in m.text]
    assert said
    assert all(Flag.OUTDATED in m.flags for m in said if m.text == "I live in Munich")
    block = mem.context("where does the user live?", user_id="u1", session_id="s2", now=days(1))
    assert "Berlin" in block.text
    assert "Munich" not in block.text


def test_a_name_said_wrong_is_corrected_in_the_profile(mem: Memory) -> None:
    (name,) = mem.add("My name is Bob", user_id="u1", session_id="s1", at=T0).memories
    mem.add("my name isn't Bob, it's Rob", user_id="u1", session_id="s1", at=T0)
    assert [(m.id, m.text) for m in mem.list("u1")] == [(name.id, "My name is Rob")]
    assert mem.profile("u1")["name"] == "Rob"


def test_a_corrected_day_moves_the_episode(mem: Memory) -> None:
    (trip,) = mem.add("我周二去北京出差", user_id="u1", at=T0).memories  # T0 is a Monday
    assert trip.valid_from is not None
    assert trip.kind is Kind.EPISODIC
    mem.add("打错了，是周三不是周二", user_id="u1", at=T0 + timedelta(minutes=5))
    (moved,) = mem.list("u1")
    assert moved.text == "我周三去北京出差"
    assert moved.valid_from == trip.valid_from + timedelta(days=1)


def test_a_message_that_corrects_nothing_said_is_read_as_any_other(mem: Memory) -> None:
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    decisions = mem.add("不是杭州，是苏州", user_id="u1", at=T0).decisions
    assert all(not d.related for d in decisions)
    assert [m.text for m in mem.list("u1")][-1] == "我喜欢喝美式"
    kept = mem.add("I want tea, not coffee", user_id="u1", at=T0).decisions
    assert any(d.category is not Category.REQUEST for d in kept)


def test_a_correction_is_of_what_was_said_lately(mem: Memory) -> None:
    mem.add("I live in Munich", user_id="u1", at=T0)
    decisions = mem.add("sorry, I meant Berlin, not Munich", user_id="u1", at=days(3)).decisions
    assert all(not d.related for d in decisions)  # three days on it corrects nothing: read as said
    assert mem.profile("u1")["home_city"] == "Munich"


def test_a_correction_of_a_memory_deleted_meanwhile_corrects_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as mem:
        (city,) = mem.add("I live in Munich", user_id="u1", at=T0).memories
        plan = WritePlan("u1", None, T0, (), (), (Correct("no-such-memory", "I live in Berlin"),))
        assert apply(mem._edit.stores, plan, mem._edit) == set()
        assert [m.text for m in mem.list("u1")] == [city.text]
