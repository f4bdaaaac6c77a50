"""The LLM prompts: each a plain function returning chat messages, paired with a pydantic answer model.

Every prompt exists in Chinese and English; the caller passes the conversation's language
(:func:`memlane.text.lang.detect`). One module per stage:

- ``extract``: :func:`extraction_prompt` → :class:`ExtractionAnswer` (the LLM extractor);
- ``judge``: :func:`judge_prompt` → :class:`JudgeAnswer` (the LLM judge);
- ``reconcile``: :func:`reconcile_prompt` → :class:`ReconcileAnswer` (the LLM reconciler);
- ``summarise``: :func:`session_summary_prompt` and :func:`period_summary_prompt` → :class:`SummaryAnswer`;
- ``repair``: :func:`repair_prompt`, the one retry that shows the model its own error (every stage).
"""

from __future__ import annotations

from .extract import ExtractedMemory, ExtractionAnswer, extraction_prompt
from .judge import Doubt, JudgeAnswer, Judgement, judge_prompt
from .reconcile import ReconcileAnswer, Verdict, reconcile_prompt
from .repair import repair_prompt
from .summarise import SummaryAnswer, period_summary_prompt, session_summary_prompt

__all__ = [
    "Doubt",
    "ExtractedMemory",
    "ExtractionAnswer",
    "JudgeAnswer",
    "Judgement",
    "ReconcileAnswer",
    "SummaryAnswer",
    "Verdict",
    "extraction_prompt",
    "judge_prompt",
    "period_summary_prompt",
    "reconcile_prompt",
    "repair_prompt",
    "session_summary_prompt",
]
