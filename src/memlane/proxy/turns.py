"""What the proxy reads from and writes into a chat-completions request: pure functions, no I/O.

- :func:`query_of` — the question to look memories up for: the last user message's text.
- :func:`with_context` — the request with memlane's block as a system message of its own, after the
  application's own system messages (the block fences memory text as quoted data).
- :func:`writeback` — the turns to remember: the last user message and the assistant's reply, each
  with an id derived from the conversation up to it, so that a retried request, or the follow-up
  request of a tool call that repeats the same user message, is written once.
- :class:`StreamReply` — the assistant's text gathered from an SSE stream as it passes through,
  without touching the bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from memlane.service.bodies import AddMessages, MessageIn

_LEADING = ("system", "developer")


def text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts (images are skipped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _last_user(messages: Sequence[Any]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if isinstance(m, dict) and m.get("role") == "user" and text_of(m.get("content")).strip():
            return i
    return None


def query_of(messages: Sequence[Any]) -> str | None:
    """The last user message's text, or None when there is none."""
    i = _last_user(messages)
    return None if i is None else text_of(messages[i]["content"]).strip()


def with_context(body: dict[str, Any], block: str) -> dict[str, Any]:
    """A copy of ``body`` whose messages carry ``block`` as a system message after the leading ones."""
    messages = list(body["messages"])
    at = 0
    while at < len(messages) and isinstance(messages[at], dict) and messages[at].get("role") in _LEADING:
        at += 1
    messages.insert(at, {"role": "system", "content": block})
    return {**body, "messages": messages}


def _turn_id(user_id: str, session_id: str | None, turns: Sequence[tuple[str, str]]) -> str:
    """The same conversation up to the same turn always gets the same id."""
    seed = json.dumps([user_id, session_id, list(turns)], ensure_ascii=False, separators=(",", ":"))
    return "px-" + hashlib.sha256(seed.encode()).hexdigest()[:24]


def writeback(
    messages: Sequence[Any], reply: str | None, user_id: str, session_id: str | None
) -> AddMessages | None:
    """The write-back job for one exchange: the last user turn and the reply's text (either may be
    missing: a reply that only calls tools has no text), or None when there is nothing to write."""
    turns = [(str(m.get("role")), text_of(m.get("content"))) for m in messages if isinstance(m, dict)]
    out: list[MessageIn] = []
    i = _last_user(messages)
    if i is not None:
        m = messages[i]
        name = m.get("name") if isinstance(m.get("name"), str) else None
        uid = _turn_id(user_id, session_id, turns[: i + 1])
        out.append(MessageIn(role="user", content=text_of(m["content"]).strip(), name=name, id=uid))
    if reply and reply.strip():
        rid = _turn_id(user_id, session_id, [*turns, ("assistant", reply)])
        out.append(MessageIn(role="assistant", content=reply.strip(), id=rid))
    if not out:
        return None
    key = "px-" + hashlib.sha256("|".join(m.id or "" for m in out).encode()).hexdigest()[:24]
    return AddMessages(user_id=user_id, session_id=session_id, messages=out, idempotency_key=key)


def reply_of(body: bytes) -> str | None:
    """The first choice's text of a (non-streamed) chat completion, or None."""
    try:
        data = json.loads(body)
        content = data["choices"][0]["message"].get("content")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
    return text_of(content) or None


class StreamReply:
    """The first choice's text, gathered from the SSE bytes of a streamed completion.

    Bytes arrive in arbitrary pieces; only whole lines are read, and the bytes themselves are left
    to the caller to forward unchanged. ``finished`` turns true at ``data: [DONE]`` (or a choice's
    ``finish_reason``): a stream the client abandoned is not written back.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._parts: list[str] = []
        self.finished = False

    @property
    def text(self) -> str:
        """What the assistant said so far (tool calls aside)."""
        return "".join(self._parts)

    def feed(self, chunk: bytes) -> None:
        """Read the complete lines of ``chunk`` (with what was left of the previous one)."""
        data = self._pending + chunk
        lines = data.split(b"\n")
        self._pending = lines.pop()
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        payload = line[5:].strip()
        if payload == b"[DONE]":
            self.finished = True
            return
        try:
            choice = json.loads(payload)["choices"][0]
        except (ValueError, KeyError, IndexError, TypeError):
            return
        if not isinstance(choice, dict):
            return
        delta = choice.get("delta") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            self._parts.append(content)
        if choice.get("finish_reason"):
            self.finished = True
