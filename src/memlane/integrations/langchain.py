"""memlane as a LangChain chat history: :class:`MemlaneChatMessageHistory` implements
``langchain_core.chat_history.BaseChatMessageHistory``.

The history is memlane's session (SQLite, or Redis with ``MEMLANE_SESSIONS``), and every message
added is written through :meth:`Memory.add <memlane.Memory.add>`: logged, judged, and kept as
long-term memory when it is worth it. With ``RunnableWithMessageHistory``::

    from langchain_core.runnables.history import RunnableWithMessageHistory
    from memlane import Memory
    from memlane.integrations.langchain import MemlaneChatMessageHistory

    mem = Memory()
    chain = RunnableWithMessageHistory(
        model,
        lambda session_id: MemlaneChatMessageHistory(mem, user_id="u1", session_id=session_id),
    )
    chain.invoke("Please email me rather than call.", config={"configurable": {"session_id": "s1"}})

Messages come back as text (human, AI and system messages; tool messages are not kept), sensitive
values masked, the last ``session_turns`` of them (20), for ``session_ttl_hours`` after the last one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from memlane.aio import AsyncMemory
from memlane.domain import Turn
from memlane.extras import optional
from memlane.memory import Memory

with optional("MemlaneChatMessageHistory (LangChain)"):
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

__all__ = ["MemlaneChatMessageHistory"]

_ROLES = {"human": "user", "ai": "assistant", "system": "system"}


class MemlaneChatMessageHistory(BaseChatMessageHistory):
    """A LangChain chat history on one memlane session of one user, with write-back to long-term
    memory; ``caller`` names the chain in memlane's audit log."""

    def __init__(
        self, memory: Memory | AsyncMemory, *, user_id: str, session_id: str, caller: str = "langchain"
    ) -> None:
        self.memory = memory.sync if isinstance(memory, AsyncMemory) else memory
        self.user_id = user_id
        self.session_id = session_id
        self.caller = caller

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The conversation so far, oldest first."""
        session = self.memory.session(self.user_id, self.session_id)
        return [_message(t) for t in (session.turns if session is not None else [])]

    async def aget_messages(self) -> list[BaseMessage]:
        """:attr:`messages` without blocking the event loop."""
        return await asyncio.to_thread(lambda: self.messages)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Add messages in one call to memlane's write path (log, judge, long-term memory)."""
        turns = [t for t in map(_turn, messages) if t is not None]
        if turns:
            self.memory.add(turns, user_id=self.user_id, session_id=self.session_id, caller=self.caller)

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        """:meth:`add_messages` without blocking the event loop."""
        await asyncio.to_thread(self.add_messages, messages)

    def clear(self) -> None:
        """Forget this conversation's messages (long-term memory learned from them stays)."""
        self.memory.clear_session(self.user_id, self.session_id, caller=self.caller)

    async def aclear(self) -> None:
        """:meth:`clear` without blocking the event loop."""
        await asyncio.to_thread(self.clear)


def _turn(message: BaseMessage) -> dict[str, str] | None:
    role = _ROLES.get(message.type)
    text = message.text if role is not None else ""
    return {"role": role, "content": text} if role is not None and text.strip() else None


def _message(turn: Turn) -> BaseMessage:
    if turn.role == "user":
        return HumanMessage(turn.content, id=turn.message_id)
    if turn.role == "assistant":
        return AIMessage(turn.content, id=turn.message_id)
    return SystemMessage(turn.content, id=turn.message_id)
