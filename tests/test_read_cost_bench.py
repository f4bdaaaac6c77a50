"""``benchmarks/read_cost.py`` on both kinds of store, briefly: the cost of a read, by part.

Only the shape and the counts are checked: timings depend on the machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_scripts import load_script


@pytest.fixture(scope="module")
def read_cost() -> ModuleType:
    return load_script("read_cost")


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_short_run_splits_each_reads_cost_and_counts_its_store_calls(
    read_cost: ModuleType, store: str, redis_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--store", store, "--redis", redis_server, "--users", "2", "--messages", "3", "--reads", "4"]
    assert read_cost.main([*argv, "--json", str(tmp_path / "cost.json")]) == 0
    result = json.loads((tmp_path / "cost.json").read_text())

    assert set(result["reads"]) == {"search", "context"}
    for op, cost in result["reads"].items():
        assert cost["reads"] == 4
        assert cost["wall_ms"] > 0
        assert 0 < cost["embedding_ms"] <= cost["cpu_ms"]  # every read embeds its query, once
        assert cost["rest_cpu_ms"] == pytest.approx(cost["cpu_ms"] - cost["embedding_ms"], abs=0.01)
        assert (cost["database_ms"] is None) == (store == "sqlite")  # SQLite works inside the process
        assert cost["statements"] >= 3
        calls = cost["calls"]
        assert calls["search.keyword_search"] == calls["records.speakers"] == 1.0
        assert calls["search.vector_search"] >= 1.0
        if op == "context":  # it reads the summary and the profile, and records itself in the audit log
            assert calls["records.query"] >= 2.0
            assert calls["audit.add"] == 1.0
        else:
            assert "audit.add" not in calls
    # a context reads the session (from Redis beside PostgreSQL, from its own table in SQLite)
    assert result["reads"]["context"]["calls"]["sessions.get_session"] == 1.0
    printed = capsys.readouterr().out
    assert f"cost per read, {store}" in printed
    assert "store calls per read" in printed
    assert "a query embedding took" in printed


def test_the_options_are_checked(read_cost: ModuleType) -> None:
    with pytest.raises(SystemExit):
        read_cost._parse(["--reads", "0"])


def test_an_unreachable_redis_is_named_before_postgresql_starts(
    read_cost: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--store", "postgres", "--redis", "redis://127.0.0.1:1/0", "--reads", "1"]
    assert read_cost.main(argv) == 1
    printed = capsys.readouterr().out
    assert "--store postgres (for the sessions) needs Redis at redis://127.0.0.1:1/0" in printed
    assert "Traceback" not in printed
