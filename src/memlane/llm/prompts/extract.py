"""The extraction prompt: the clauses the rules could not decide, in one request, and the answer's shape.

The model sees the whole (already redacted) message for context, the time it was sent, and the
numbered clauses to interpret; it answers ``{"memories": [...]}`` with one entry per memory, each
naming the clause it came from. Category and event status must be memlane's values; event times are
resolved by the model against the message time and given as ISO 8601.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from memlane.domain import Category, EventStatus

from ..client import ChatMessage

_CATEGORIES = ", ".join(c.value for c in Category)
_STATUSES = ", ".join(s.value for s in EventStatus)
_SLOTS = (
    "name, home_city, work_city, job, employer, diet, allergy, learning, pet:<animal>, routine:<activity>"
)

_SYSTEM_EN = f"""You extract long-term memories about the user from one chat message.
You get the message, the time it was sent, and numbered clauses of it to interpret.
For each clause, say what it tells us about the user, if anything. Answer with ONE JSON object:
{{"memories": [{{"clause": <number>, "text": "<short sentence in the user's language>",
 "category": "<one of: {_CATEGORIES}>", "slot": "<subject key or null, e.g. {_SLOTS}>",
 "value": "<slot value or null>", "objects": ["<what a preference or dislike is about>"],
 "polarity": 1 or -1, "event_time": "<ISO 8601 date or datetime, resolved against the message time, or null>",
 "event_status": "<one of: {_STATUSES}, or null>", "hedged": true|false, "explicit": true|false}}]}}
Rules: use "smalltalk" or "mood" for clauses that say nothing lasting; "event" for things that happened,
"plan" for intentions; polarity -1 for negations and "no longer"; hedged true for guesses (maybe, I think);
explicit false when you infer rather than the user says it. Placeholders like [hidden:...] are masked
private data: keep them as they are. Output JSON only, no prose."""

_SYSTEM_ZH = f"""你从一条聊天消息中提取关于用户的长期记忆。
你会得到这条消息、发送时间，以及需要解读的编号分句。
对每个分句，说明它告诉了我们关于用户的什么（如果有）。只回答一个 JSON 对象：
{{"memories": [{{"clause": <编号>, "text": "<用用户的语言写的简短句子>",
 "category": "<以下之一：{_CATEGORIES}>", "slot": "<主题键或 null，如 {_SLOTS}>",
 "value": "<槽位值或 null>", "objects": ["<偏好或厌恶的对象>"],
 "polarity": 1 或 -1, "event_time": "<ISO 8601 日期或时间，相对消息发送时间换算，或 null>",
 "event_status": "<以下之一：{_STATUSES}，或 null>", "hedged": true|false, "explicit": true|false}}]}}
规则：没有长期价值的分句用 "smalltalk" 或 "mood"；已发生的事用 "event"，打算用 "plan"；
否定和"不再"用 polarity -1；猜测（可能、大概、我觉得）hedged 为 true；
是你推断而非用户明说的，explicit 为 false。
形如 [已隐藏:...] 的占位符是被遮盖的隐私数据，原样保留。只输出 JSON，不要任何其他文字。"""

_USER = {
    "en": "Message time: {at}\nMessage: {message}\nClauses to interpret:\n{clauses}",
    "zh": "消息时间：{at}\n消息：{message}\n需要解读的分句：\n{clauses}",
}


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


class ExtractedMemory(BaseModel):
    """One memory the model found, tied to the clause it came from."""

    model_config = ConfigDict(extra="ignore")

    clause: int = Field(ge=1)
    text: str = ""
    category: Category
    slot: str | None = Field(default=None, validation_alias=AliasChoices("slot", "subject"))
    value: str | int | float | bool | None = None
    objects: list[str] = Field(default_factory=list)
    polarity: int = 1
    event_time: str | None = None
    event_status: EventStatus | None = None
    hedged: bool = False
    explicit: bool = True

    @field_validator("polarity", mode="before")
    @classmethod
    def _sign(cls, value: object) -> object:
        """Any negative number (or false) is a negation; everything else affirms."""
        if isinstance(value, bool):
            return 1 if value else -1
        if isinstance(value, (int, float)):
            return -1 if value < 0 else 1
        return value

    @field_validator("category", "event_status", mode="before")
    @classmethod
    def _enum_case(cls, value: object) -> object:
        """Models write "Fact" or "none" as often as "fact" and null."""
        value = _lower(value)
        return None if value in ("", "null", "none") else value


class ExtractionAnswer(BaseModel):
    """The model's whole answer to :func:`extraction_prompt`."""

    model_config = ConfigDict(extra="ignore")

    memories: list[ExtractedMemory] = Field(default_factory=list)


def extraction_prompt(message: str, clauses: Sequence[str], at: datetime, lang: str) -> list[ChatMessage]:
    """The messages asking the model to interpret ``clauses`` of ``message`` (sent at ``at``).

    ``lang`` ("zh" or "en") picks the prompt's language; ``message`` must already be redacted.
    """
    lang = lang if lang in _USER else "en"
    numbered = "\n".join(f"{i}. {c}" for i, c in enumerate(clauses, 1))
    user = _USER[lang].format(at=at.isoformat(timespec="minutes"), message=message, clauses=numbered)
    return [
        {"role": "system", "content": _SYSTEM_ZH if lang == "zh" else _SYSTEM_EN},
        {"role": "user", "content": user},
    ]
