"""``benchmarks/load.py`` against a real embedded deployment (a ``memlane serve`` subprocess), briefly.

Only the shape of the result is checked: timings depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from types import ModuleType

import pytest
from rich.console import Console

from benchmark_scripts import load_script


@pytest.fixture(scope="module")
def load() -> ModuleType:
    return load_script("load")


@pytest.mark.slow
def test_a_short_run_reports_every_operation_per_level(load: ModuleType, tmp_path: Path) -> None:
    options = load.LoadOptions(clients=(2,), seconds=2.0, users=2, seed_messages=1, drain_timeout=30.0)
    console = Console(file=io.StringIO(), width=120)
    with load.deployment("embedded") as target:
        result = load.run(target, "embedded", options, console)
        workdir = target.logs[0].parent
    assert not workdir.exists()  # the temporary directory went with the deployment

    assert result["deployment"] == "embedded"
    assert result["machine"]["cpu_count"] >= 1
    assert result["machine"]["query_ms_before"] > 0 < result["machine"]["query_ms_after"]
    assert set(result["levels"]) == {"2"}
    level = result["levels"]["2"]
    assert set(level["ops"]) == {"search", "context", "add"}
    for stats in level["ops"].values():
        assert set(stats) >= {"n", "p50_ms", "p95_ms", "p99_ms"}
    assert isinstance(level["throughput_rps"], float)
    assert level["errors"] == 0, level["error_samples"]
    assert level["drain_seconds"] is None or level["drain_seconds"] >= 0
    assert result["server_log"]["errors"] == 0, result["server_log"]["error_samples"]
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    assert "2 clients" in printed
    assert "a query embedding took" in printed

    load.report(result, tmp_path / "load.json", tmp_path / "load.png", console)
    assert json.loads((tmp_path / "load.json").read_text())["levels"]["2"]["ops"]["add"]["n"] >= 0
    assert (tmp_path / "load.png").stat().st_size > 0


def test_the_mix_sends_valid_bodies_for_every_operation(load: ModuleType) -> None:
    work = load.Workload.build(load.LoadOptions(users=3, seed_messages=2))
    rng = random.Random(1)
    paths = {load.request_for(op, rng, work)[0] for op in load.OPS}
    assert paths == {"/v1/search", "/v1/context", "/v1/messages"}
    assert all(len(texts) == 2 for texts in work.seeds.values())
    _, body = load.request_for("add", rng, work)
    assert [t["role"] for t in body["messages"]] == ["user", "assistant"]
