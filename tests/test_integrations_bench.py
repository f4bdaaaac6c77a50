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
        assert isinstance(numbers["overhead_ms"], float)  # what it is: the test below


def test_the_overhead_is_the_median_of_the_pairs_differences() -> None:
    bench = load_script("integrations")
    times = {"adapter": [3.0, 10.0, 5.0], "direct": [2.0, 9.5, 1.0]}
    # differences 1.0, 0.5, 4.0: median 1.0, where the medians' difference would be 5.0 - 2.0 = 3.0
    assert bench._summary(times) == {"adapter_p50_ms": 5.0, "direct_p50_ms": 2.0, "overhead_ms": 1.0}


def test_its_facts_are_distinct() -> None:
    bench = load_script("integrations")
    assert len({bench.said(i) for i in range(200)}) == 200
