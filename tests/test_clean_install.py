"""``pip install`` of memlane into a clean virtual environment, without extras, runs the README's
Python example as written.

This one test builds a wheel and installs it with the core requirements from the configured package
index (about 15 s here: the compiled engine is reused from the build directory when it is current).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlane.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]


def readme_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## In Python", 1)[1].split("```python", 1)[1].split("```", 1)[0]


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, check=False, cwd=cwd, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_a_clean_install_without_extras_runs_the_readme_example(tmp_path: Path) -> None:
    pip = (sys.executable, "-m", "pip")
    _run(*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", tmp_path / "wheel", ROOT)
    (wheel,) = (tmp_path / "wheel").glob("memlane-*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", tmp_path / "venv")
    python = tmp_path / "venv" / "bin" / "python"
    _run(*pip, "--python", python, "install", "--quiet", wheel)

    code = (
        "import importlib.util, json\n"
        f"print(json.dumps([m for m in {sorted(m for ms in EXTRAS.values() for m in ms)!r}"
        " if importlib.util.find_spec(m)]))\n"
    )
    assert _run(python, "-c", code).strip() == "[]"  # none of the extras came with the core
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8"}
    out = _run(python, "-c", readme_example(), cwd=home, env=env)
    assert "{'name': '阿白', 'preferred_channel': 'email', 'response_style': 'concise'}" in out
    assert "<memory-data>" in out
