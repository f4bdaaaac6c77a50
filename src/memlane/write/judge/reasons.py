"""What the judge tells a user about a decision, in the user's language (:func:`memlane.text.lang.said`):
the rules' wording for a secret, a clause below the write threshold and what the extractor
noticed, and the learned model's class and how sure it was::

    学习判断：情绪（0.93），不保存
    learned: condition (0.83), kept for this conversation only
"""

from __future__ import annotations

from memlane.privacy.sensitive import described
from memlane.text.lang import said

from .model import Prediction

NAMES_ZH = {
    "mood": "情绪",
    "smalltalk": "闲聊",
    "request": "请求",
    "hypothetical": "假设",
    "guess": "猜测",
    "other": "与用户无关",
    "forget": "撤回",
    "sensitive": "敏感信息",
    "context": "一次性情境",
    "condition": "本次任务的条件",
    "profile": "个人资料",
    "preference": "偏好",
    "constraint": "限制",
    "background": "背景",
    "event": "经历",
    "plan": "计划",
}
_OUTCOME = {
    "discard": ("not kept", "不保存"),
    "session": ("kept for this conversation only", "仅在本次对话中保留"),
    "long-term": ("kept", "长期保存"),
}


SPEAKERS_ZH = {"assistant": "助手", "system": "系统", "tool": "工具"}


def never_stored(kinds: list[str], lang: str) -> str:
    """Why a clause holding ``kinds`` (each never stored) is dropped, in ``lang``."""
    return said(
        lang,
        f"contains {described(kinds)}; such content is never stored",
        f"含有{described(kinds, 'zh')}：这类内容从不保存",
    )


def below_threshold(why: str, importance: float, threshold: float, notes: list[str], lang: str) -> str:
    """Why a clause whose importance is below the write threshold is kept for this conversation only."""
    return said(
        lang,
        f"{why}, importance {importance:.2f} below the threshold {threshold:.2f}{noted(notes, lang, '; ')}"
        ": kept for this conversation only",
        f"{why}，重要性 {importance:.2f} 低于阈值 {threshold:.2f}{noted(notes, lang, '；')}"
        "：仅在本次对话中保留",
    )


def noted(notes: list[str], lang: str, before: str = "") -> str:
    """What the extractor noticed, as the end of a reason: `` (inferred, not stated)`` or after ``before``."""
    if not notes:
        return ""
    joined = said(lang, ", ".join(notes), "，".join(notes))
    if before:
        return before + joined
    return said(lang, f" ({joined})", f"（{joined}）")


def learned_reason(prediction: Prediction, lang: str) -> str:
    """Why the model decided, in the user's language: its class, how sure (of the long-term tier as a
    whole for a lasting class, of the class itself otherwise), what it did."""
    en, zh = _OUTCOME[prediction.tier]
    sure = prediction.share if prediction.tier == "long-term" else prediction.confidence
    return said(
        lang,
        f"learned: {prediction.label} ({sure:.2f}), {en}",
        f"学习判断：{NAMES_ZH[prediction.label]}（{sure:.2f}），{zh}",
    )
