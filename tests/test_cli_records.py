"""The CLI's commands for one memory and one user's data: the ids ``list`` prints work everywhere,
every correction the library offers is a command, and ``-`` reads standard input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memlane import Memory
from memlane.cli import main


class Cli:
    def __init__(self, db: Path) -> None:
        self.db, self.runner = db, CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
        result = self.runner.invoke(main, ["--db", str(self.db), *args], input=input, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    def json(self, *args: str, input: str | None = None) -> Any:
        code, out, err = self(*args, "--json", input=input)
        assert code == 0, err
        return json.loads(out)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "cli.db")


def coffee_id(cli: Cli) -> str:
    decisions = cli.json("add", "我平时喜欢喝美式咖啡", "--user", "u1")
    return str(next(d["memory_id"] for d in decisions if d["memory_id"]))


def test_list_prints_full_ids_that_show_finds(cli: Cli) -> None:
    memory_id = coffee_id(cli)
    code, out, _ = cli("list", "--user", "u1")
    assert code == 0
    assert memory_id in out  # whole, not cut to 12 characters
    code, out, _ = cli("show", memory_id)
    assert code == 0
    assert json.loads(out)["id"] == memory_id


def test_update_feedback_and_delete_a_memory_by_id(cli: Cli) -> None:
    memory_id = coffee_id(cli)
    code, out, _ = cli("update", memory_id, "我平时喜欢喝拿铁")
    assert code == 0
    assert "拿铁" in out
    code, out, _ = cli("history", memory_id)
    assert "update" in out
    code, out, _ = cli("feedback", memory_id, "helpful", "--note", "right")
    assert code == 0
    assert "helpful" in out
    code, _, err = cli("delete", memory_id, "--user", "u2", "--yes")  # someone else's: unknown
    assert code == 2
    assert err.startswith("error: ")
    code, out, _ = cli("delete", memory_id, "--yes")
    assert code == 0
    code, _, err = cli("show", memory_id)
    assert code == 2
    assert "no memory" in err


def test_a_dash_reads_the_text_from_standard_input(cli: Cli) -> None:
    decisions = cli.json("add", "-", "--user", "u1", input="我住在杭州\n")
    memory_id = next(d["memory_id"] for d in decisions if d["memory_id"])
    with Memory(cli.db) as mem:
        assert "杭州" in mem.get(memory_id, user_id="u1").text
    code, _, _ = cli("update", memory_id, "-", input="我住在上海")
    assert code == 0
    with Memory(cli.db) as mem:
        texts = [m.text for m in mem.list("u1", include_log=True)]
    assert "-" not in texts
    assert any("上海" in t for t in texts)
    code, _, err = cli("add", "-", "--user", "u1", input=b"\xff\xfe")
    assert code == 2
    assert "UTF-8" in err


def test_export_then_restore_from_standard_input_under_another_user(cli: Cli) -> None:
    coffee_id(cli)
    code, document, _ = cli("export", "--user", "u1")
    assert code == 0
    code, out, err = cli("restore", "-", "--user", "u2", input=document)
    assert code == 0, err
    assert "u2" in out
    assert [m["text"] for m in cli.json("list", "--user", "u2")] == [
        m["text"] for m in cli.json("list", "--user", "u1")
    ]
    code, _, err = cli("restore", "-", "--user", "u2", input=document)  # u2 is not empty now
    assert code == 2
    assert "already has memories" in err


def test_end_session_writes_what_the_session_taught(cli: Cli) -> None:
    for text in ("我叫阿白", "这次预算500元以内"):
        cli.json("add", text, "--user", "u1", "--session", "s1")
    code, out, err = cli("end-session", "--user", "u1", "--session", "s1")
    assert code == 0, err
    assert "ended session s1" in out
    code, _, err = cli("end-session", "--user", "u1", "--session", "s1")
    assert code == 2
    assert "no session" in err


def test_audit_takes_the_user_as_every_other_command_does(cli: Cli) -> None:
    coffee_id(cli)
    entries = cli.json("audit", "--user", "u1")
    assert [e["op"] for e in entries] == ["write"]
    assert entries[0]["caller"] == "cli"


def test_maintain_prints_a_table_or_json(cli: Cli) -> None:
    coffee_id(cli)
    code, out, _ = cli("maintain", "--now", "2030-01-01T00:00:00")
    assert code == 0
    assert "portraits" in out
    assert not out.lstrip().startswith("{")
    assert set(cli.json("maintain")) >= {"expired", "portraits", "stale"}


def test_forget_needs_a_tag_or_all(cli: Cli) -> None:
    coffee_id(cli)
    code, _, err = cli("forget", "--user", "u1", "--yes")
    assert code == 2
    assert "--all" in err
    assert cli.json("list", "--user", "u1")  # nothing went
    code, out, _ = cli("forget", "--user", "u1", "--all", "--yes")
    assert code == 0
    assert out.startswith("deleted ")
    assert cli.json("list", "--user", "u1") == []
