"""Memory.pop_turn and Memory.clear_session: undoing a turn and clearing a session's short-term memory,
which the framework adapters' sessions need (the log and long-term memory stay)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from conftest import T0
from memlane import AsyncMemory, InvalidInput, Memory


def test_pop_turn_returns_the_latest_turn_and_keeps_what_was_learned(mem: Memory) -> None:
    mem.add("I prefer email to phone calls.", user_id="u1", session_id="s1", at=T0)
    mem.add("Noted, email it is.", user_id="u1", session_id="s1", role="assistant", at=T0)
    turn = mem.pop_turn("u1", "s1", now=T0, caller="agent")
    assert turn is not None
    assert (turn.role, turn.content) == ("assistant", "Noted, email it is.")
    session = mem.session("u1", "s1", now=T0)
    assert session is not None
    assert [t.content for t in session.turns] == ["I prefer email to phone calls."]
    assert mem.profile("u1").get("preferred_channel") == "email"
    assert any(e.op == "delete" and e.caller == "agent" for e in mem.audit("u1"))


def test_pop_turn_on_an_empty_or_unknown_session_is_none(mem: Memory) -> None:
    assert mem.pop_turn("u1", "nope") is None
    mem.add("hi", user_id="u1", session_id="s1", at=T0)
    assert mem.pop_turn("u1", "s1", now=T0) is not None
    assert mem.pop_turn("u1", "s1", now=T0) is None


def test_clear_session_drops_the_turns_but_not_long_term_memory(mem: Memory) -> None:
    mem.add("我叫阿白，优先邮件联系。", user_id="u1", session_id="s1", at=T0)
    assert mem.clear_session("u1", "s1") is True
    assert mem.session("u1", "s1", now=T0) is None
    assert mem.profile("u1")["name"] == "阿白"
    assert mem.clear_session("u1", "s1") is False


def test_another_users_session_is_not_reached(mem: Memory) -> None:
    mem.add("I like tea.", user_id="u1", session_id="s1", at=T0)
    assert mem.pop_turn("u2", "s1", now=T0) is None
    assert mem.clear_session("u2", "s1") is False
    assert mem.session("u1", "s1", now=T0) is not None


@pytest.mark.parametrize("session_id", ["", "a\x00b"])
def test_bad_session_ids_fail_clearly(mem: Memory, session_id: str) -> None:
    with pytest.raises(InvalidInput, match="session_id"):
        mem.pop_turn("u1", session_id)
    with pytest.raises(InvalidInput, match="session_id"):
        mem.clear_session("u1", session_id)


def test_the_async_twin_has_both(tmp_path: Path) -> None:
    async def run() -> tuple[str | None, bool]:
        async with AsyncMemory(tmp_path / "a.db") as mem:
            await mem.add("hello", user_id="u1", session_id="s1", at=T0)
            turn = await mem.pop_turn("u1", "s1", now=T0)
            return (turn.content if turn else None), await mem.clear_session("u1", "s1")

    assert asyncio.run(run()) == ("hello", True)
