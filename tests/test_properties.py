"""Property tests over the write and read paths: any input gives a result or a clear error, never a
crash, never another user's data, never a half-written record.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane import InvalidInput, Memory

_users = itertools.count()
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)
TIMES = st.datetimes(
    min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.none() | st.timezones()
)
PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with Memory(Path(tmp_path_factory.mktemp("props")) / "props.db") as memory:
        memory.add("我的秘密代号是蓝鲸", user_id="bystander", at=datetime(2025, 1, 1, tzinfo=timezone.utc))
        yield memory


def records(mem: Memory, user: str) -> int:
    return len(mem.list(user, include_log=True, status=None, limit=10_000))


@PROFILE
@given(text=TEXT, at=TIMES)
def test_any_text_at_any_time_is_stored_or_refused_cleanly(mem: Memory, text: str, at: datetime) -> None:
    user = f"p{next(_users)}"
    try:
        result = mem.add(text, user_id=user, session_id="s", at=at)
    except InvalidInput:
        assert records(mem, user) == 0  # refused: nothing half-written
        return
    assert all(d.reason for d in result.decisions)
    for memory in mem.list(user, include_log=True):
        assert memory.user_id == user


@PROFILE
@given(query=TEXT)
def test_search_and_context_never_return_another_users_data(mem: Memory, query: str) -> None:
    user = f"q{next(_users)}"
    mem.add("我喜欢喝美式", user_id=user, at=datetime(2025, 1, 2, tzinfo=timezone.utc))
    try:
        hits = mem.search(query, user_id=user, limit=20)
        block = mem.context(query, user_id=user, max_tokens=300)
    except InvalidInput:
        return
    assert all(h.memory.user_id == user for h in hits)
    assert "蓝鲸" not in block.text
    assert block.tokens <= 300


@PROFILE
@given(
    messages=st.lists(
        st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": TEXT}), max_size=5
    )
)
def test_message_lists_are_all_or_nothing(mem: Memory, messages: list[dict[str, str]]) -> None:
    user = f"m{next(_users)}"
    try:
        mem.add(messages, user_id=user)
    except InvalidInput:
        assert records(mem, user) == 0
        return
    assert records(mem, user) >= 1


@settings(max_examples=10, deadline=None)
@given(size=st.integers(100_001, 300_000), char=st.sampled_from(["a", "中", "😀", "\x00"]))
def test_huge_text_is_refused_whole(mem: Memory, size: int, char: str) -> None:
    user = f"h{next(_users)}"
    with pytest.raises(InvalidInput):
        mem.add(char * size, user_id=user)
    assert records(mem, user) == 0
