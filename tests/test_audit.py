"""The audit log: every write, update, delete, export and context assembly is recorded, append-only,
with memory ids and never memory text; readable through the API, the async twin and the CLI.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import T0, days
from memlane import AsyncMemory, AuditEntry, Memory
from memlane.cli import main
from memlane.errors import InvalidInput

SAID = "我叫阿白，平时喜欢喝美式，工作日早上9点开会。"
WORDS = ("阿白", "美式", "开会")


@pytest.fixture(params=["sqlite", "postgres"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        memory = Memory(tmp_path / "memlane.db")
    else:
        memory = Memory(store=request.getfixturevalue("pg_url"))
    with memory:
        yield memory


def ops(entries: list[AuditEntry]) -> list[str]:
    return [e.op for e in reversed(entries)]  # oldest first


def test_every_write_update_delete_export_and_context_is_recorded(mem: Memory) -> None:
    added = mem.add(SAID, user_id="u1", session_id="s1", at=T0)
    drink = next(m for m in added.memories if "美式" in m.text)
    noted = mem.remember("I keep my passport in the blue drawer", user_id="u1", at=days(1))
    assert noted.memory is not None
    mem.update(noted.memory.id, "I keep my passport in the red drawer", user_id="u1", at=days(2))
    block = mem.context("推荐一杯早上的饮料", user_id="u1", caller="chat-api", now=days(3))
    mem.export("u1", caller="dsar-tool")
    mem.delete(drink.id, at=days(4), user_id=drink.user_id)
    entries = mem.audit("u1")
    assert ops(entries) == ["write", "write", "update", "context", "export", "delete"]
    write, _, update, context, export, delete = reversed(entries)
    assert set(write.memory_ids) == {m.id for m in added.memories}
    assert update.memory_ids == [noted.memory.id]
    assert context.caller == "chat-api"
    assert {m.id for m in block.memories} <= set(context.memory_ids)
    assert drink.id in context.memory_ids
    assert export.caller == "dsar-tool"
    assert drink.id in delete.memory_ids
    assert delete.at == days(4)
    for entry in entries:
        assert entry.user_id == "u1"
        assert not any(word in entry.detail for word in (*WORDS, "passport", "drawer"))


def test_the_log_is_append_only_and_outlives_the_memories_it_names(mem: Memory) -> None:
    added = mem.add("I like green tea", user_id="u1", at=T0)
    before = mem.audit("u1")
    mem.forget("u1", tags=[t for m in added.memories for t in m.tags] or ["tea"], at=days(1))
    after = mem.audit("u1")
    assert [e.id for e in after[1:]] == [e.id for e in before]  # earlier entries unchanged
    assert after[0].op == "forget"
    assert "tea" not in after[0].detail


def test_forgetting_a_user_removes_their_audit_log_and_no_one_elses(mem: Memory) -> None:
    mem.add("I like green tea", user_id="u1", at=T0)
    mem.add("I like black coffee", user_id="u2", at=T0)
    mem.forget("u1", all=True)
    assert mem.audit("u1") == []
    assert ops(mem.audit("u2")) == ["write"]


def test_reading_newest_first_with_a_limit_and_a_start(mem: Memory) -> None:
    for i in range(5):
        mem.context("tea", user_id="u1", now=days(i), caller=f"c{i}")
    assert [e.caller for e in mem.audit("u1", limit=2)] == ["c4", "c3"]
    assert [e.caller for e in mem.audit("u1", since=days(3))] == ["c4", "c3"]


def test_withdrawing_a_message_in_conversation_is_recorded_as_forget(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as mem:
        said = mem.add("I keep a pet iguana called Ziggy", user_id="u1", session_id="s1", at=T0)
        mem.add("don't remember that", user_id="u1", session_id="s1", at=days(0.01))
        forget = next(e for e in mem.audit("u1") if e.op == "forget")
        assert {m.id for m in said.memories} <= set(forget.memory_ids)
        assert "iguana" not in forget.detail


def test_async_twin_and_cli_read_the_same_log(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"

    async def scenario() -> list[AuditEntry]:
        async with AsyncMemory(db) as mem:
            await mem.add("I prefer email", user_id="u1", at=T0)
            await mem.context("how to reach me", user_id="u1", caller="bot", now=days(1))
            return await mem.audit("u1")

    entries = asyncio.run(scenario())
    assert ops(entries) == ["write", "context"]
    runner = CliRunner()
    result = runner.invoke(main, ["--db", str(db), "audit", "--user", "u1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    shown = json.loads(result.stdout)
    assert [e["op"] for e in shown] == ["context", "write"]
    assert shown[0]["caller"] == "bot"
    table = runner.invoke(
        main, ["--db", str(db), "audit", "--user", "u1", "--limit", "1"], catch_exceptions=False
    )
    assert "context" in table.stdout
    assert "write" not in table.stdout
    bad = runner.invoke(
        main, ["--db", str(db), "audit", "--user", "u1", "--limit", "0"], catch_exceptions=False
    )
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: ")


def test_every_call_that_names_its_caller_is_recorded_with_that_caller(mem: Memory) -> None:
    added = mem.add(SAID, user_id="u1", at=T0, caller="mcp:claude")
    item = added.memories[0]
    mem.search("饮料", user_id="u1", now=days(1), caller="mcp:claude")
    mem.list("u1", caller="web")
    mem.get(item.id, user_id="u1", caller="web")
    mem.profile("u1", caller="web")
    mem.history(item.id, user_id="u1", caller="web")
    mem.feedback(item.id, "helpful", user_id="u1", at=days(2), caller="web")
    mem.update(item.id, "我叫阿黑", user_id="u1", at=days(3), caller="web")
    mem.set_consent("u1", categories=["name"], at=days(4), caller="web")
    mem.forget("u1", tags=["咖啡"], at=days(5), caller="web")
    mem.delete(item.id, user_id="u1", at=days(6), caller="web")
    entries = list(reversed(mem.audit("u1")))
    assert [(e.op, e.caller) for e in entries] == [
        ("write", "mcp:claude"),
        ("search", "mcp:claude"),
        ("read", "web"),
        ("read", "web"),
        ("read", "web"),
        ("read", "web"),
        ("feedback", "web"),
        ("update", "web"),
        ("consent", "web"),
        ("forget", "web"),
        ("delete", "web"),
    ]
    # reads are recorded only for a named caller
    mem.search("饮料", user_id="u1", now=days(7))
    mem.list("u1")
    assert len(mem.audit("u1")) == len(entries)


def test_a_caller_that_is_not_a_printable_name_is_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="caller"):
        mem.add("hi", user_id="u1", caller="")
    with pytest.raises(InvalidInput, match="caller"):
        mem.search("hi", user_id="u1", caller="bad\x00name")
