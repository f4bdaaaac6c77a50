"""The public surface of ``memlane.llm``: a sorted, complete, documented ``__all__``."""

from __future__ import annotations

import inspect
from pathlib import Path

import memlane.llm
from memlane.llm import judge, reconcile, summarise
from memlane.llm.extract import STAGE as EXTRACT

DOC = (Path(__file__).resolve().parents[1] / "docs" / "llm.md").read_text(encoding="utf-8")


def test_all_is_sorted_complete_and_documented() -> None:
    names = list(memlane.llm.__all__)
    assert names == sorted(names)
    public = {
        n for n, v in vars(memlane.llm).items() if not n.startswith("_") and not inspect.ismodule(v)
    } - {"annotations"}
    assert public == set(names)
    for name in names:
        assert getattr(memlane.llm, name).__doc__, name


def test_every_stage_and_its_class_is_in_the_guide() -> None:
    stages = [EXTRACT, judge.STAGE, reconcile.STAGE, summarise.SESSION_STAGE, summarise.PERIOD_STAGE]
    for stage in stages:
        assert f"`{stage}`" in DOC, stage
    for name in ("LLMExtractor", "LLMJudge", "LLMReconciler", "LLMSummariser", "eval locomo --llm"):
        assert name in DOC, name
