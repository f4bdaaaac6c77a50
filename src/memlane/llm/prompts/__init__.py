"""The LLM prompts: each a plain function returning chat messages, paired with a pydantic answer model.

Every prompt exists in Chinese and English; the caller passes the conversation's language
(:func:`memlane.text.lang.detect`). One module per stage:

- ``extract``: :func:`extraction_prompt` → :class:`ExtractionAnswer` (used by the LLM extractor);
- ``reconcile``: :func:`reconcile_prompt` → :class:`ReconcileAnswer` (not wired into the write path yet).
"""

from __future__ import annotations

from .extract import ExtractedMemory, ExtractionAnswer, extraction_prompt, repair_prompt
from .reconcile import ReconcileAnswer, Verdict, reconcile_prompt

__all__ = [
    "ExtractedMemory",
    "ExtractionAnswer",
    "ReconcileAnswer",
    "Verdict",
    "extraction_prompt",
    "reconcile_prompt",
    "repair_prompt",
]
