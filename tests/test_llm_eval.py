"""``memlane eval locomo --llm``: the benchmark via the LLM stages; a clear error without an endpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.cli import main
from memlane.testing.llm import Scripted, ScriptedServer, completion

TINY = Path(__file__).parent / "fixtures" / "locomo_tiny_en.json"


def run(*extra: str, out: Path) -> tuple[int, str, str]:
    args = ["eval", "locomo", "--data", str(TINY), "--conversations", "1", "--limit", "2", "--json", str(out)]
    result = CliRunner().invoke(main, [*args, *extra])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        pytest.param({}, "error: --llm needs an endpoint: set MEMLANE_LLM_BASE_URL", id="no-endpoint"),
        pytest.param(
            {"MEMLANE_LLM_BASE_URL": "http://127.0.0.1:9/v1"}, "error: llm_model must be set", id="no-model"
        ),
    ],
)
def test_llm_without_an_endpoint_is_one_line_and_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], message: str
) -> None:
    for name in ("MEMLANE_LLM_BASE_URL", "MEMLANE_LLM_MODEL", "MEMLANE_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, _, stderr = run("--llm", out=tmp_path / "out.json")
    assert code == 2
    assert stderr.startswith(message)
    assert stderr.count("\n") == 1
    assert not (tmp_path / "out.json").exists()


def test_llm_runs_the_benchmark_through_the_endpoint_and_reports_its_cost(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "out.json"
    with ScriptedServer([Scripted(completion('{"memories": []}'))]) as server:
        monkeypatch.setenv("MEMLANE_LLM_BASE_URL", server.url)
        monkeypatch.setenv("MEMLANE_LLM_MODEL", "test")
        monkeypatch.setenv("MEMLANE_LLM_MAX_RETRIES", "0")
        code, stdout, stderr = run("--llm", out=out)
        assert code == 0, stderr
        assert server.requests
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["llm"]["model"] == "test"
    extract = data["llm"]["usage"]["extract"]
    assert extract["calls"] > 0
    assert extract["prompt_tokens"] == 120 * extract["calls"]
    assert "LLM stages (test)" in stdout


def test_without_llm_the_rules_run_alone_even_when_an_endpoint_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "out.json"
    with ScriptedServer([Scripted(completion('{"memories": []}'))]) as server:
        monkeypatch.setenv("MEMLANE_LLM_BASE_URL", server.url)
        monkeypatch.setenv("MEMLANE_LLM_MODEL", "test")
        code, stdout, stderr = run(out=out)
        assert code == 0, stderr
        assert server.requests == []
    assert "llm" not in json.loads(out.read_text(encoding="utf-8"))
    assert "LLM stages" not in stdout
