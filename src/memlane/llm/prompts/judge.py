"""The judge prompt: the candidates of one turn that the rule judge could not decide, in one request.

The model sees each candidate's text, its category, its subject key, and whether it was inferred
rather than said; it answers, for each, whether it is worth keeping beyond the conversation, in
which layer, how important it is, and why. The rules already settled everything else (small talk,
moods, sensitive data, assistant turns, clear facts), so only genuine doubts reach it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ..client import ChatMessage

Layer = Literal["profile", "semantic", "episodic", "session"]

_SYSTEM_EN = """You are the memory judge of an assistant that keeps a long-term memory about one user.
For each numbered candidate (a statement taken from the user's messages) decide whether it is worth
remembering beyond this conversation, where it belongs, and how important it is.
Keep: lasting facts about the user, preferences, constraints, routines, relationships, and events or
plans that will still matter later. Do not keep: passing moods, small talk, one-off context (where the
user is right now, what they are doing this minute), guesses, and things that do not concern the user.
Layers: "profile" (a stable attribute with a key: name, city, job...), "semantic" (a fact, preference or
constraint), "episodic" (something that happened or is planned, with a time), "session" (useful only
in the current conversation).
importance is from 0 to 1: 0.9 identity, 0.7 a lasting preference or fact, 0.4 a minor detail, 0.1 noise.
Answer with ONE JSON object and nothing else, one entry per candidate:
{"judgements": [{"candidate": <number>, "keep": true|false, "layer": "profile|semantic|episodic|session",
"importance": <0 to 1>, "reason": "<a short reason in the user's language>"}]}"""

_SYSTEM_ZH = """你是一个助手的记忆评审，这个助手为一位用户保存长期记忆。
对每条编号的候选（从用户消息中提取的陈述），判断它是否值得在本次对话之后继续记住、应放在哪一层、有多重要。
应保留：关于用户的长期事实、偏好、约束、习惯、人际关系，以及以后仍然重要的事件或计划。
不应保留：一时的情绪、寒暄、一次性的情境（用户此刻在哪、正在做什么）、猜测，以及与用户无关的内容。
层级："profile"（有固定键的稳定属性：姓名、城市、职业……）、"semantic"（事实、偏好或约束）、
"episodic"（已发生或计划中的、有时间的事）、"session"（只在本次对话中有用）。
importance 取 0 到 1：0.9 身份信息，0.7 长期偏好或事实，0.4 次要细节，0.1 无用信息。
只回答一个 JSON 对象，不要任何其他文字，每条候选一项：
{"judgements": [{"candidate": <编号>, "keep": true|false, "layer": "profile|semantic|episodic|session",
"importance": <0 到 1>, "reason": "<用用户的语言写的简短理由>"}]}"""

_USER = {
    "en": "Message time: {at}\nCandidates:\n{candidates}",
    "zh": "消息时间：{at}\n候选：\n{candidates}",
}
_INFERRED = {"en": "inferred, not said", "zh": "推断，非明说"}


@dataclass(frozen=True)
class Doubt:
    """One candidate the rules could not decide, as the prompt shows it."""

    text: str
    category: str
    slot: str | None = None
    inferred: bool = False


class Judgement(BaseModel):
    """The model's verdict on one candidate."""

    model_config = ConfigDict(extra="ignore")

    candidate: int = Field(ge=1, validation_alias=AliasChoices("candidate", "number", "id"))
    keep: bool
    layer: Layer = "semantic"
    importance: float = Field(ge=0.0, le=1.0)
    reason: str = ""

    @field_validator("keep", mode="before")
    @classmethod
    def _keep_words(cls, value: object) -> object:
        """Models write "keep" / "discard" as often as true / false."""
        if isinstance(value, str) and value.strip().lower() in ("keep", "discard", "drop"):
            return value.strip().lower() == "keep"
        return value

    @field_validator("layer", mode="before")
    @classmethod
    def _layer_case(cls, value: object) -> object:
        """ "Semantic" and "long-term" mean the semantic layer; "short-term" means the session."""
        if not isinstance(value, str):
            return value
        value = value.strip().lower()
        aliases = {
            "long-term": "semantic",
            "longterm": "semantic",
            "short-term": "session",
            "event": "episodic",
        }
        return aliases.get(value, value)

    @field_validator("importance", mode="before")
    @classmethod
    def _scale(cls, value: object) -> object:
        """A score out of 10 (7) or a percentage (70) is read as 0.7."""
        if isinstance(value, str):
            try:
                value = float(value.strip().rstrip("%"))
            except ValueError:
                return value
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 1:
            return value / 10 if value <= 10 else value / 100
        return value


class JudgeAnswer(BaseModel):
    """The model's whole answer to :func:`judge_prompt`."""

    model_config = ConfigDict(extra="ignore")

    judgements: list[Judgement] = Field(default_factory=list)

    def of(self, number: int) -> Judgement | None:
        """The judgement on candidate ``number`` (1-based), if the model gave one."""
        return next((j for j in self.judgements if j.candidate == number), None)


def judge_prompt(doubts: Sequence[Doubt], at: datetime, lang: str) -> list[ChatMessage]:
    """The messages asking the model to judge ``doubts`` (from a turn sent at ``at``).

    ``lang`` ("zh" or "en") picks the prompt's language; every text must already be redacted.

    >>> from datetime import datetime
    >>> turns = judge_prompt([Doubt("I keep a sourdough starter", "fact")], datetime(2024, 6, 1), "en")
    >>> turns[1]["content"].splitlines()[-1]
    '1. [fact] I keep a sourdough starter'
    """
    lang = lang if lang in _USER else "en"
    lines = []
    for i, d in enumerate(doubts, 1):
        notes = [
            d.category,
            *([f"slot={d.slot}"] if d.slot else []),
            *([_INFERRED[lang]] if d.inferred else []),
        ]
        lines.append(f"{i}. [{', '.join(notes)}] {d.text}")
    user = _USER[lang].format(at=at.isoformat(timespec="minutes"), candidates="\n".join(lines))
    return [
        {"role": "system", "content": _SYSTEM_ZH if lang == "zh" else _SYSTEM_EN},
        {"role": "user", "content": user},
    ]
