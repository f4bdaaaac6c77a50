"""memlane as an OpenAI Agents SDK session: :class:`MemlaneSession` implements ``agents.memory.Session``.

The conversation lives in memlane's session store (the SQLite file, or Redis with
``MEMLANE_SESSIONS=redis://...``) under memlane's session TTL, and every turn the runner adds is
written through :meth:`Memory.add <memlane.Memory.add>`: logged, judged, and kept as long-term memory
when it is worth it, so memory grows from agent runs. :meth:`MemlaneSession.instructions` puts the
user's :meth:`~memlane.Memory.context` into the agent's instructions::

    from agents import Agent, Runner
    from memlane import Memory
    from memlane.integrations.openai_agents import MemlaneSession

    session = MemlaneSession("chat-42", Memory(), user_id="u1")
    agent = Agent(name="assistant", instructions=session.instructions("You are a concise assistant."))
    result = await Runner.run(agent, "Please email me rather than call.", session=session)

What a session keeps is what was said: user, assistant and system messages, as text (sensitive
values masked), the last ``session_turns`` of them (20). Tool calls, their outputs and reasoning items
belong to the run that made them and are not kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from memlane.aio import AsyncMemory
from memlane.domain import Turn
from memlane.extras import optional
from memlane.memory import Memory

with optional("MemlaneSession (OpenAI Agents SDK)"):
    from agents import Agent, RunContextWrapper, TResponseInputItem
    from agents.memory import SessionSettings

__all__ = ["MemlaneSession", "item_text"]

# the SDK's developer role is a system message to memlane
_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_TEXT_PARTS = ("input_text", "output_text", "text", "refusal")


def item_text(item: Mapping[str, Any]) -> tuple[str, str] | None:
    """The (role, text) of a message item, or None for items that are not messages with text (tool
    calls and outputs, reasoning, images)."""
    role = _ROLES.get(str(item.get("role", "")))
    if role is None or item.get("type", "message") != "message":
        return None
    content = item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, Sequence):
        parts = [p for p in content if isinstance(p, Mapping) and p.get("type") in _TEXT_PARTS]
        text = "\n".join(str(p.get("text") or p.get("refusal") or "") for p in parts)
    else:
        return None
    return (role, text) if text.strip() else None


class MemlaneSession:
    """An Agents SDK ``Session`` on memlane's short-term memory, with write-back to long-term memory.

    ``memory`` is a :class:`~memlane.Memory` or :class:`~memlane.AsyncMemory`; ``user_id`` the user the
    conversation is with; ``caller`` names the agent in memlane's audit log; ``session_settings`` are
    the SDK's (a default ``limit`` of items to read back).
    """

    def __init__(
        self,
        session_id: str,
        memory: Memory | AsyncMemory,
        *,
        user_id: str,
        caller: str = "openai-agents",
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.session_id = session_id
        self.memory = memory.sync if isinstance(memory, AsyncMemory) else memory
        self.user_id = user_id
        self.caller = caller
        self.session_settings = session_settings
        self._said: str | None = None  # the user's latest text, the query of instructions()

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The conversation so far, oldest first (the latest ``limit`` items when given)."""
        session = await asyncio.to_thread(self.memory.session, self.user_id, self.session_id)
        turns = session.turns if session is not None else []
        if limit is not None:
            turns = turns[-limit:] if limit > 0 else []
        return [_item(t) for t in turns]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Add the run's messages to the session, through memlane's write path (log, judge, memory)."""
        messages = [{"role": role, "content": text} for role, text in filter(None, map(_text_of, items))]
        if not messages:
            return
        users = [m["content"] for m in messages if m["role"] == "user"]
        if users:
            self._said = users[-1]
        await asyncio.to_thread(
            self.memory.add, messages, user_id=self.user_id, session_id=self.session_id, caller=self.caller
        )

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove the most recent item from the session and return it (None when it is empty); what
        long-term memory learned from it stays."""
        turn = await asyncio.to_thread(
            self.memory.pop_turn, self.user_id, self.session_id, caller=self.caller
        )
        return _item(turn) if turn is not None else None

    async def clear_session(self) -> None:
        """Forget this conversation's turns (long-term memory learned from them stays)."""
        await asyncio.to_thread(self.memory.clear_session, self.user_id, self.session_id, caller=self.caller)
        self._said = None

    def instructions(
        self, base: str, *, max_tokens: int | None = None
    ) -> Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]:
        """Dynamic instructions for an ``Agent``: ``base`` followed by memlane's context block for the
        user's latest message (profile, summary and relevant long-term memories, fenced as data; the
        conversation itself reaches the model as the session's items). Only ``base`` before the user
        has said anything."""

        async def build(context: RunContextWrapper[Any], agent: Agent[Any]) -> str:
            query = self._said or await self._latest_user_text()
            if query is None:
                return base
            block = await asyncio.to_thread(
                self.memory.context, query, user_id=self.user_id, max_tokens=max_tokens, caller=self.caller
            )
            return f"{base}\n\n{block.text}"

        return build

    async def _latest_user_text(self) -> str | None:
        session = await asyncio.to_thread(self.memory.session, self.user_id, self.session_id)
        turns = [t for t in (session.turns if session is not None else []) if t.role == "user"]
        return turns[-1].content if turns else None


def _text_of(item: Any) -> tuple[str, str] | None:
    return item_text(item) if isinstance(item, Mapping) else None


def _item(turn: Turn) -> TResponseInputItem:
    # an easy input message, which the Responses and Chat Completions paths both accept
    item: TResponseInputItem = {"role": turn.role, "content": turn.content}  # type: ignore[assignment,misc]
    return item
