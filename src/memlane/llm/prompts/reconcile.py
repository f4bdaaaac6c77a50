"""The reconciler prompt: how new memories relate to stored ones the rules could not settle.

One request covers every new memory of a turn: each comes with the stored memories it was close to
(numbered across the whole request). For each stored memory the model says whether the new one
states the same thing, updates it (a newer value of the same fact), contradicts it (both cannot be
true, and it is not clearly newer), or is unrelated, with a short reason a person can read. Used by
:class:`memlane.llm.LLMReconciler`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..client import ChatMessage

Relation = Literal["same", "update", "contradict", "unrelated"]

_SYSTEM_EN = """You compare NEW memories about a user with numbered EXISTING memories about the same user.
Each NEW memory is followed by the existing memories to compare it with.
For each existing memory, decide how the new one above it relates to it:
"same" (says the same thing), "update" (a newer value of the same fact, which replaces it),
"contradict" (both cannot be true, and the new one is not clearly a change over time), or "unrelated".
Liking two different things is "unrelated" (a person can like both); a change of habit or place is "update".
Answer with ONE JSON object and nothing else:
{"relations": [{"existing": <number>, "relation": "same|update|contradict|unrelated",
"reason": "<a short reason in the user's language>"}]}
Give one entry for every numbered existing memory."""

_SYSTEM_ZH = """你要比较关于用户的【新记忆】和若干条编号的【已有记忆】。
每条新记忆后面列出要与它比较的已有记忆。
对每条已有记忆，判断它上方的新记忆与它的关系：
"same"（说的是同一件事）、"update"（同一事实的新值，应取代旧的）、
"contradict"（两者不可能同时为真，且新记忆并非明显的随时间变化）、"unrelated"（无关）。
喜欢两样不同的东西是 "unrelated"（可以都喜欢）；习惯或住处的改变是 "update"。
只回答一个 JSON 对象，不要任何其他文字：
{"relations": [{"existing": <编号>, "relation": "same|update|contradict|unrelated",
"reason": "<用用户的语言写的简短理由>"}]}
每条编号的已有记忆都要给出一项。"""

_USER = {"en": "Time of the new memories: {at}\n\n{groups}", "zh": "新记忆的时间：{at}\n\n{groups}"}
_GROUP = {"en": "NEW: {new}\nEXISTING:\n{existing}", "zh": "新记忆：{new}\n已有记忆：\n{existing}"}


class Verdict(BaseModel):
    """How the new memory relates to one existing memory, and why."""

    model_config = ConfigDict(extra="ignore")

    existing: int = Field(ge=1)
    relation: Relation
    reason: str = ""

    @field_validator("relation", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        """Models write "Update" as often as "update"."""
        return value.strip().lower() if isinstance(value, str) else value


class ReconcileAnswer(BaseModel):
    """The model's whole answer to :func:`reconcile_prompt`."""

    model_config = ConfigDict(extra="ignore")

    relations: list[Verdict] = Field(default_factory=list)

    def of(self, number: int) -> Verdict | None:
        """The verdict on existing memory ``number`` (1-based), if the model gave one."""
        return next((r for r in self.relations if r.existing == number), None)


def reconcile_prompt(
    groups: Sequence[tuple[str, Sequence[str]]], at: datetime, lang: str
) -> list[ChatMessage]:
    """The messages asking how each new memory relates to the existing ones listed with it.

    ``groups`` pairs each new memory's text with the texts it is compared to; the existing memories
    are numbered 1, 2, ... across all groups, and :class:`ReconcileAnswer` refers to those numbers.
    ``lang`` ("zh" or "en") picks the prompt's language; every text must already be redacted.

    >>> from datetime import datetime
    >>> turns = reconcile_prompt([("I moved to Berlin", ["I live in Paris"])], datetime(2024, 6, 1), "en")
    >>> [t["role"] for t in turns]
    ['system', 'user']
    """
    lang = lang if lang in _USER else "en"
    blocks = []
    number = 0
    for new, existing in groups:
        lines = []
        for text in existing:
            number += 1
            lines.append(f"{number}. {text}")
        blocks.append(_GROUP[lang].format(new=new, existing="\n".join(lines)))
    user = _USER[lang].format(at=at.isoformat(timespec="minutes"), groups="\n\n".join(blocks))
    return [
        {"role": "system", "content": _SYSTEM_ZH if lang == "zh" else _SYSTEM_EN},
        {"role": "user", "content": user},
    ]
