"""memlane as an OpenAI Agents SDK session: the SDK's own Runner against a recorded model server
(memlane.testing.llm, Responses API and Chat Completions; no network), turns written back through
the judge, context() in the instructions, and one contract run on SQLite and PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agents import (
    Agent,
    OpenAIChatCompletionsModel,
    OpenAIResponsesModel,
    RunConfig,
    Runner,
    RunResult,
    SQLiteSession,
)
from agents.memory import Session, SessionSettings
from openai import AsyncOpenAI

from memlane import Memory
from memlane.integrations.openai_agents import MemlaneSession, item_text
from memlane.testing.llm import Scripted, ScriptedServer, completion, response

NO_TRACING = RunConfig(tracing_disabled=True)  # traces would go to OpenAI


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


def responses_agent(server: ScriptedServer, instructions: Any = "You are concise.") -> Agent[Any]:
    client = AsyncOpenAI(base_url=server.url, api_key="test", max_retries=0)
    return Agent(name="assistant", instructions=instructions, model=OpenAIResponsesModel("test", client))


async def run(agent: Agent[Any], said: str, session: Session) -> RunResult:
    return await Runner.run(agent, said, session=session, run_config=NO_TRACING)


def test_the_runner_keeps_the_conversation_and_memory_learns_from_it(mem: Memory) -> None:
    session = MemlaneSession("chat-1", mem, user_id="u1")
    script = [Scripted(body=response("Noted: email, not calls.")), Scripted(body=response("By email."))]
    with ScriptedServer(script) as server:
        agent = responses_agent(server)
        first = asyncio.run(
            Runner.run(agent, "Please email me rather than call.", session=session, run_config=NO_TRACING)
        )
        second = asyncio.run(
            Runner.run(agent, "How will you reach me?", session=session, run_config=NO_TRACING)
        )
    assert (first.final_output, second.final_output) == ("Noted: email, not calls.", "By email.")
    assert all(p.endswith("/responses") for p in server.paths)
    # the second call sent the first exchange as history, from the memlane session
    sent = [item_text(i) for i in server.requests[1]["input"] if isinstance(i, dict)]
    assert sent[:3] == [
        ("user", "Please email me rather than call."),
        ("assistant", "Noted: email, not calls."),
        ("user", "How will you reach me?"),
    ]
    assert mem.profile("u1")["preferred_channel"] == "email"  # written back through the judge
    assert [e.caller for e in mem.audit("u1") if e.op == "write"][:1] == ["openai-agents"]


def test_context_goes_into_the_instructions(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1")
    session = MemlaneSession("chat-2", mem, user_id="u1")
    with ScriptedServer([Scripted(body=response("美式。"))]) as server:
        agent = responses_agent(server, session.instructions("You are a barista."))
        asyncio.run(run(agent, "推荐一杯早上的饮料", session))
    instructions = server.requests[0]["instructions"]
    assert instructions.startswith("You are a barista.")
    assert "<memory-data>" in instructions
    assert "美式" in instructions


def test_instructions_before_anything_was_said_are_the_base(mem: Memory) -> None:
    session = MemlaneSession("chat-3", mem, user_id="u1")
    build = session.instructions("Base.")
    assert asyncio.run(build(None, None)) == "Base."  # type: ignore[arg-type]


def test_chat_completions_models_work_too(mem: Memory) -> None:
    session = MemlaneSession("chat-4", mem, user_id="u1")
    with ScriptedServer([Scripted(body=completion("Hello!"))]) as server:
        client = AsyncOpenAI(base_url=server.url, api_key="test", max_retries=0)
        agent = Agent(name="a", instructions="Hi.", model=OpenAIChatCompletionsModel("test", client))
        result = asyncio.run(run(agent, "I live in Hangzhou.", session))
    assert result.final_output == "Hello!"
    assert server.paths == ["/v1/chat/completions"]
    assert asyncio.run(session.get_items()) == [
        {"role": "user", "content": "I live in Hangzhou."},
        {"role": "assistant", "content": "Hello!"},
    ]


def test_it_is_a_session_and_pops_limits_and_clears(mem: Memory) -> None:
    session = MemlaneSession("chat-5", mem, user_id="u1", session_settings=SessionSettings(limit=2))
    assert isinstance(session, Session)

    async def run() -> None:
        await session.add_items(
            [
                {"role": "user", "content": "one"},
                {"role": "assistant", "content": [{"type": "output_text", "text": "two", "annotations": []}]},
                {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": "ignored"},
                {"role": "developer", "content": "three"},
            ]
        )
        assert [i["content"] for i in await session.get_items()] == ["one", "two", "three"]
        assert await session.get_items(limit=1) == [{"role": "system", "content": "three"}]
        assert await session.pop_item() == {"role": "system", "content": "three"}
        assert [i["content"] for i in await session.get_items()] == ["one", "two"]
        await session.clear_session()
        assert await session.get_items() == []
        assert await session.pop_item() is None

    asyncio.run(run())


def test_sensitive_values_are_masked_in_the_session(mem: Memory) -> None:
    session = MemlaneSession("chat-6", mem, user_id="u1")
    asyncio.run(session.add_items([{"role": "user", "content": "My phone is 13812345678"}]))
    [item] = asyncio.run(session.get_items())
    assert "13812345678" not in item["content"]


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        memory = Memory(tmp_path / "memlane.db")
    else:
        url, sessions = request.getfixturevalue("pg_url"), request.getfixturevalue("redis_url")
        memory = Memory(store=url, sessions=sessions)
    with memory:
        yield memory


def test_contract_matches_the_sdks_own_sqlite_session(backend: Memory) -> None:
    """What the SDK's SQLiteSession answers for a conversation, memlane's session answers too."""
    said: list[Any] = [
        {"role": "user", "content": "I prefer email to phone calls."},
        {"role": "assistant", "content": "Understood."},
        {"role": "user", "content": "And I live in Hangzhou."},
    ]

    async def answers(session: Session) -> list[Any]:
        await session.add_items(list(said))
        out: list[Any] = [await session.get_items(), await session.get_items(limit=2)]
        out.append(await session.pop_item())
        out.append(await session.get_items())
        await session.clear_session()
        out.append(await session.get_items())
        return out

    ours = asyncio.run(answers(MemlaneSession("c", backend, user_id="u1")))
    theirs = asyncio.run(answers(SQLiteSession("c")))
    assert ours == theirs
    assert backend.profile("u1")["preferred_channel"] == "email"
