"""The repair turns shared by every stage: show the model its own unusable reply and what was wrong."""

from __future__ import annotations

from ..client import ChatMessage

_REPAIR = {
    "en": "Your answer could not be used: {error}. Answer again with the JSON object only.",
    "zh": "你的回答无法使用：{error}。请只用 JSON 对象重新回答。",
}


def repair_prompt(reply: str, error: str, lang: str) -> list[ChatMessage]:
    """The turns that show the model its own unusable ``reply`` and why, asking once more."""
    return [
        {"role": "assistant", "content": reply},
        {"role": "user", "content": _REPAIR.get(lang, _REPAIR["en"]).format(error=error)},
    ]
