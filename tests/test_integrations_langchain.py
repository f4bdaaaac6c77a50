"""memlane as a LangChain chat history: RunnableWithMessageHistory over memlane's session with a chat
model double from langchain_core, write-back through the judge, and one contract run on SQLite and
PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory

from memlane import Memory
from memlane.integrations.langchain import MemlaneChatMessageHistory

# langchain-core 1.8 deprecates RunnableWithMessageHistory in favour of LangGraph's persistence (for
# which memlane has MemlaneStore); the issue asks for this path, which still works, so it is tested
pytestmark = pytest.mark.filterwarnings("ignore:RunnableWithMessageHistory is deprecated")


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


def chain(mem: Memory, replies: list[str]) -> RunnableWithMessageHistory:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are concise."), MessagesPlaceholder("history"), ("human", "{question}")]
    )
    return RunnableWithMessageHistory(
        prompt | FakeListChatModel(responses=replies),
        lambda session_id: MemlaneChatMessageHistory(mem, user_id="u1", session_id=session_id),
        input_messages_key="question",
        history_messages_key="history",
    )


def test_runnable_with_message_history_keeps_the_conversation(mem: Memory) -> None:
    runnable = chain(mem, ["Noted, email it is.", "By email."])
    config = {"configurable": {"session_id": "s1"}}
    first = runnable.invoke({"question": "Please email me rather than call."}, config=config)
    second = runnable.invoke({"question": "How will you reach me?"}, config=config)
    assert (first.text, second.text) == ("Noted, email it is.", "By email.")
    history = MemlaneChatMessageHistory(mem, user_id="u1", session_id="s1")
    assert [(m.type, m.text) for m in history.messages] == [
        ("human", "Please email me rather than call."),
        ("ai", "Noted, email it is."),
        ("human", "How will you reach me?"),
        ("ai", "By email."),
    ]
    assert mem.profile("u1")["preferred_channel"] == "email"  # written back through the judge
    assert "langchain" in {e.caller for e in mem.audit("u1") if e.op == "write"}


def test_the_async_path_works_the_same(mem: Memory) -> None:
    runnable = chain(mem, ["你好阿白。"])
    config = {"configurable": {"session_id": "s2"}}
    assert asyncio.run(runnable.ainvoke({"question": "我叫阿白。"}, config=config)).text == "你好阿白。"
    history = MemlaneChatMessageHistory(mem, user_id="u1", session_id="s2")
    assert [m.text for m in asyncio.run(history.aget_messages())] == ["我叫阿白。", "你好阿白。"]
    assert mem.profile("u1")["name"] == "阿白"
    asyncio.run(history.aclear())
    assert history.messages == []


def test_message_types_and_clear(mem: Memory) -> None:
    history = MemlaneChatMessageHistory(mem, user_id="u1", session_id="s3")
    assert isinstance(history, BaseChatMessageHistory)
    history.add_messages(
        [
            SystemMessage("Be brief."),
            HumanMessage("I work as a nurse."),
            ToolMessage("tool output", tool_call_id="t1"),
            AIMessage(""),
            AIMessage([{"type": "text", "text": "Thanks for sharing."}]),
        ]
    )
    kept: list[BaseMessage] = history.messages
    assert [(type(m).__name__, m.text) for m in kept] == [
        ("SystemMessage", "Be brief."),
        ("HumanMessage", "I work as a nurse."),
        ("AIMessage", "Thanks for sharing."),
    ]
    history.clear()
    assert history.messages == []
    assert any("nurse" in m.text for m in mem.list("u1"))  # long-term memory stays


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        memory = Memory(tmp_path / "memlane.db")
    else:
        url, sessions = request.getfixturevalue("pg_url"), request.getfixturevalue("redis_url")
        memory = Memory(store=url, sessions=sessions)
    with memory:
        yield memory


def test_contract_on_each_deployment(backend: Memory) -> None:
    history = MemlaneChatMessageHistory(backend, user_id="u1", session_id="s1")
    history.add_messages([HumanMessage("I prefer email to phone calls."), AIMessage("Understood.")])
    history.add_user_message("And I live in Hangzhou.")  # BaseChatMessageHistory's own helpers
    history.add_ai_message("Noted.")
    assert [(m.type, m.text) for m in history.messages] == [
        ("human", "I prefer email to phone calls."),
        ("ai", "Understood."),
        ("human", "And I live in Hangzhou."),
        ("ai", "Noted."),
    ]
    assert [m.text for m in asyncio.run(history.aget_messages())][-1] == "Noted."
    history.clear()
    assert history.messages == []
    assert backend.profile("u1")["preferred_channel"] == "email"
    # another user's history with the same session id is another conversation
    assert MemlaneChatMessageHistory(backend, user_id="u2", session_id="s1").messages == []
