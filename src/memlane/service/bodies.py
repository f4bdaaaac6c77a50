"""Request bodies of the REST API (pydantic), with examples in Chinese and English.

Every request body is a :class:`Body`: a field it does not define is a 422 (``{"user_id": "u2",
"tag": ["coffee"]}`` must not read as a forget without tags), and so is a string JSON can carry but
UTF-8 cannot (a lone surrogate, ``"\\ud800"``), which no store could save.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memlane.read.options import SearchOptions

Role = Literal["user", "assistant", "system"]

MAX_MESSAGES = 100  # messages in one write: the work and the result of one request are bounded


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(examples)})


def _encodable(value: Any) -> Any:
    """``value`` unchanged if every string in it is valid Unicode, else a ValueError."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("must be valid Unicode: it holds a lone surrogate (such as \\ud800)") from None
    elif isinstance(value, list | tuple):
        for item in value:
            _encodable(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _encodable(key)
            _encodable(item)
    return value


class Body(BaseModel):
    """A request body: unknown fields are refused, and every string must be valid Unicode."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        return _encodable(value)


class MessageIn(Body):
    """One turn of a conversation."""

    role: Role = "user"
    content: str
    name: str | None = Field(default=None, description="the speaker's name, kept in the log")
    id: str | None = Field(default=None, description="your message id; one id is processed once")
    at: datetime | None = Field(default=None, description="when it was said; default: when it arrived")


class AddMessages(Body):
    """Messages to remember from; processed in the background unless ``?wait=true``."""

    model_config = _examples(
        {
            "user_id": "u1",
            "session_id": "s1",
            "messages": [
                {"role": "user", "content": "我叫阿白，平时喜欢喝美式，别在周末给我打电话。"},
                {"role": "assistant", "content": "好的，记住了。"},
            ],
            "idempotency_key": "chat-42-turn-7",
        },
        {
            "user_id": "u2",
            "session_id": None,
            "messages": [{"role": "user", "content": "I'm vegetarian and I prefer email over phone calls."}],
            "idempotency_key": None,
        },
    )

    user_id: str
    session_id: str | None = None
    messages: list[MessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    idempotency_key: str | None = Field(
        default=None, description="the same key sent again returns the first job instead of a new one"
    )


class SearchIn(Body, SearchOptions):
    """A search in one user's memories: the user, the query and the search's options
    (:class:`memlane.SearchOptions`, the same fields and checks as the Python API's)."""

    model_config = _examples(
        {"user_id": "u1", "query": "推荐一杯早上的饮料", "limit": 5},
        {"user_id": "u2", "query": "how should we contact this customer?", "limit": 5, "kinds": ["profile"]},
    )

    user_id: str
    query: str


class ContextIn(Body, SearchOptions):
    """A prompt-ready block for a query, under a token budget; its search takes the options of a
    search (34 hits unless ``limit`` says otherwise)."""

    model_config = _examples(
        {"user_id": "u1", "query": "帮我订一杯咖啡", "session_id": "s1", "max_tokens": 400},
        {"user_id": "u2", "query": "What should I cook tonight?", "max_tokens": 400},
    )

    user_id: str
    query: str
    session_id: str | None = Field(default=None, description="the conversation whose state the block holds")
    max_tokens: int | None = Field(default=None, ge=1, le=100_000)


class RememberIn(Body):
    """Store a sentence as a memory, without extraction (still checked, deduplicated, reconciled)."""

    model_config = _examples(
        {"user_id": "u1", "text": "客户偏好邮件联系", "kind": "semantic", "tags": ["contact"]},
        {
            "user_id": "u2",
            "text": "Renewed the annual plan",
            "kind": "episodic",
            "at": "2026-03-01T10:00:00Z",
        },
    )

    user_id: str
    text: str
    kind: Literal["semantic", "episodic", "profile"] = "semantic"
    at: datetime | None = None
    tags: list[str] = Field(default_factory=list)
    session_id: str | None = None


class UpdateIn(Body):
    """A correction: the user's word wins, history keeps the old text."""

    model_config = _examples({"user_id": "u1", "text": "客户偏好电话联系"})

    user_id: str
    text: str


class FeedbackIn(Body):
    """How a recalled memory served."""

    user_id: str
    verdict: Literal["helpful", "outdated", "wrong"]
    note: str | None = None


class ForgetIn(Body):
    """Forget by tag, or everything about the user, said explicitly with ``"all": true``."""

    model_config = _examples({"user_id": "u1", "tags": ["coffee"]}, {"user_id": "u2", "all": True})

    tags: list[str] | None = Field(default=None, description="forget the memories with any of these tags")
    all: bool = Field(default=False, description="true: forget everything about the user (no tags then)")
