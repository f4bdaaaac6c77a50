"""``benchmarks/integrations.py`` runs every pair and reports both sides (a few calls; no timing is
asserted)."""

from __future__ import annotations

from pathlib import Path

from benchmark_scripts import load_script


def test_every_adapter_call_is_paired_with_its_direct_call(tmp_path: Path) -> None:
    bench = load_script("integrations")
    results = bench.run(3, tmp_path)
    assert set(results) == {
        "langgraph put",
        "langgraph get",
        "langgraph search",
        "openai-agents add_items",
        "openai-agents get_items",
        "langchain add_messages",
        "langchain messages",
    }
    for numbers in results.values():
        assert numbers["adapter_p50_ms"] > 0
        assert numbers["direct_p50_ms"] > 0
        difference = numbers["adapter_p50_ms"] - numbers["direct_p50_ms"]
        assert abs(numbers["overhead_ms"] - difference) < 0.002  # each is rounded to the microsecond


def test_its_facts_are_distinct() -> None:
    bench = load_script("integrations")
    assert len({bench.said(i) for i in range(200)}) == 200
