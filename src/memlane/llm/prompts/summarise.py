"""The summary prompts: an episode summary at the end of a session, and a monthly digest of old memories.

Both answer with a list of short points, never free prose: memlane writes the title and joins the
points itself ("Conversation on 2024-06-10: a; b"), so a later digest can split a summary back into
points and grow it in place. The rules' extractive draft is shown as a starting point; the model
may reword, merge and add, but dates and open issues must survive.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..client import ChatMessage

_SESSION_EN = """You write the episode summary of one finished conversation between a user and an assistant,
for the assistant's long-term memory about the user.
Write a few short points (at most {most}) in the conversation's language: what the user told about
themselves, decided, asked for or is still waiting on. Keep dates and numbers. Leave out greetings,
small talk and what the assistant said unless the user agreed to it. Placeholders like [hidden:...]
are masked private data: keep them as they are.
Answer with ONE JSON object and nothing else: {{"points": ["<point>", ...]}}"""

_SESSION_ZH = """你为一次已结束的用户与助手的对话写情景摘要，供助手保存关于用户的长期记忆。
用对话的语言写几条简短要点（最多 {most} 条）：用户讲到的关于自己的事、做出的决定、提出的请求或仍在等待的事。
保留日期和数字。略去问候、寒暄和助手说的话（除非用户认可）。
形如 [已隐藏:...] 的占位符是被遮盖的隐私数据，原样保留。
只回答一个 JSON 对象，不要任何其他文字：{{"points": ["<要点>", ...]}}"""

_PERIOD_EN = """You compress old memories about a user into a digest for one period: "{title}".
Merge points that say the same thing, keep every date, keep every open issue marked "unresolved",
and drop nothing the user would want remembered. Write at most {most} short points in the language
of the points.
Answer with ONE JSON object and nothing else: {{"points": ["<point>", ...]}}"""

_PERIOD_ZH = """你把关于用户的旧记忆压缩成一个时期的摘要：「{title}」。
合并意思相同的要点，保留每个日期，保留每个标记为"未解决"的问题，不要丢掉用户希望被记住的内容。
用要点的语言写最多 {most} 条简短要点。
只回答一个 JSON 对象，不要任何其他文字：{{"points": ["<要点>", ...]}}"""

_SESSION_USER = {
    "en": "Conversation on {day}:\n{turns}\n\nWhat the rules noted:\n{draft}",
    "zh": "{day} 的对话：\n{turns}\n\n规则记下的要点：\n{draft}",
}
_PERIOD_USER = {"en": "Points to compress:\n{points}", "zh": "要压缩的要点：\n{points}"}
_NONE = {"en": "(nothing)", "zh": "（无）"}
_ROLES = {"en": {"user": "User", "assistant": "Assistant"}, "zh": {"user": "用户", "assistant": "助手"}}
_TURN_CHARS = 1500  # a very long turn is cut in the prompt: the summary needs its gist, not all of it


class SummaryAnswer(BaseModel):
    """The model's answer to :func:`session_summary_prompt` or :func:`period_summary_prompt`."""

    model_config = ConfigDict(extra="ignore")

    points: list[str] = Field(default_factory=list)

    @field_validator("points", mode="before")
    @classmethod
    def _one_string(cls, value: object) -> object:
        """A single string is one point."""
        return [value] if isinstance(value, str) else value


def _lang(lang: str) -> str:
    return lang if lang in _SESSION_USER else "en"


def session_summary_prompt(
    turns: Sequence[tuple[str, str]], draft: Sequence[str], day: date, lang: str, most: int = 6
) -> list[ChatMessage]:
    """The messages asking for the episode summary of a conversation held on ``day``.

    ``turns`` are (role, text) pairs, already redacted; ``draft`` is the rules' extractive summary.
    """
    lang = _lang(lang)
    roles = _ROLES[lang]
    shown = "\n".join(
        f"{roles.get(role, role)}: {text[:_TURN_CHARS]}" for role, text in turns if role in roles
    )
    notes = "\n".join(f"- {p}" for p in draft) or _NONE[lang]
    user = _SESSION_USER[lang].format(day=day.isoformat(), turns=shown, draft=notes)
    system = (_SESSION_ZH if lang == "zh" else _SESSION_EN).format(most=most)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def period_summary_prompt(title: str, points: Sequence[str], lang: str, most: int = 12) -> list[ChatMessage]:
    """The messages asking to compress ``points`` into the digest called ``title``."""
    lang = _lang(lang)
    system = (_PERIOD_ZH if lang == "zh" else _PERIOD_EN).format(title=title, most=most)
    user = _PERIOD_USER[lang].format(points="\n".join(f"- {p}" for p in points))
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
