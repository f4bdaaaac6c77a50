"""Every error a caller can cause is clear and writes nothing."""

from __future__ import annotations

import pytest

from conftest import T0
from memlane import InvalidInput, Memory, NotFound, TextTooLong


@pytest.mark.parametrize(
    ("limit", "offset"),
    [(0, 0), (10, -1), (10, 2**70), (2**70, 0), (10, "5")],
    ids=["no-limit", "negative-offset", "huge-offset", "huge-limit", "text-offset"],
)
def test_a_listing_page_out_of_range_is_rejected(mem: Memory, limit: object, offset: object) -> None:
    with pytest.raises(InvalidInput, match=r"limit|offset"):
        mem.list("u1", limit=limit, offset=offset)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "   ", "\n\t "], ids=["empty", "spaces", "whitespace"])
def test_empty_text_is_rejected(mem: Memory, text: str) -> None:
    with pytest.raises(InvalidInput, match="empty"):
        mem.add(text, user_id="u1")
    assert mem.list("u1", include_log=True) == []


def test_a_megabyte_of_text_is_rejected_and_nothing_is_written(mem: Memory) -> None:
    with pytest.raises(TextTooLong, match="limit"):
        mem.add("我喜欢喝美式。" * 150_000, user_id="u1")
    assert mem.list("u1", include_log=True) == []


def test_bytes_that_are_not_utf8_are_rejected(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="UTF-8"):
        mem.add("我喜欢喝茶".encode("gbk"), user_id="u1")  # type: ignore[arg-type]


def test_utf8_bytes_are_accepted(mem: Memory) -> None:
    mem.add("我喜欢喝茶".encode(), user_id="u1", at=T0)  # type: ignore[arg-type]
    assert mem.list("u1")


@pytest.mark.parametrize(
    "user_id", ["", "  ", "a\x00b", "x" * 500, None, 42], ids=["empty", "blank", "nul", "long", "none", "int"]
)
def test_bad_user_ids_are_rejected(mem: Memory, user_id: object) -> None:
    with pytest.raises(InvalidInput, match="user_id"):
        mem.add("我喜欢喝茶", user_id=user_id)  # type: ignore[arg-type]


def test_bad_message_lists_are_rejected(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="role"):
        mem.add([{"role": "robot", "content": "hi"}], user_id="u1")
    with pytest.raises(InvalidInput, match="content"):
        mem.add([{"role": "user", "content": ""}], user_id="u1")
    with pytest.raises(InvalidInput):
        mem.add([], user_id="u1")
    assert mem.list("u1", include_log=True) == []


def test_unknown_memory_ids_raise_not_found(mem: Memory) -> None:
    for call in (mem.get, mem.delete, mem.history):
        with pytest.raises(NotFound, match="no memory"):
            call("does-not-exist", user_id="u1")
    with pytest.raises(NotFound):
        mem.update("does-not-exist", "新的文本", user_id="u1")
    with pytest.raises(NotFound, match="no memory"):
        mem.owner_of("does-not-exist")


def test_another_users_memory_looks_exactly_like_an_unknown_one(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="alice", at=T0).memories[0]
    with pytest.raises(NotFound, match="no memory"):
        mem.get(item.id, user_id="bob")
    with pytest.raises(NotFound):
        mem.update(item.id, "我喜欢喝茶", user_id="bob")
    with pytest.raises(NotFound):
        mem.delete(item.id, user_id="bob")
    assert mem.get(item.id, user_id="alice").text == item.text
    assert mem.search("美式", user_id="bob") == []


def test_bad_search_options_are_rejected(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="limit"):
        mem.search("咖啡", user_id="u1", limit=0)
    with pytest.raises(InvalidInput, match="kinds"):
        mem.search("咖啡", user_id="u1", kinds=["nonsense"])
    with pytest.raises(InvalidInput, match="max_tokens"):
        mem.context("咖啡", user_id="u1", max_tokens=0)
