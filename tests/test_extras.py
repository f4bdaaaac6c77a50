"""The package's extras: the core install runs without any of them, and each feature whose extra is
missing fails with a message that names the ``pip install`` to run.

A missing extra is made by a ``sys.meta_path`` finder in a fresh interpreter that refuses to import
the extra's modules, as an install without it would.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib

from memlane.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

BLOCKER = """
import importlib.abc, sys

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError("No module named " + repr(name), name=name)
        return None

BLOCKED = set(MODULES)
sys.meta_path.insert(0, Blocked())
"""


def _without(modules: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    program = f"MODULES = {sorted(modules)!r}\n" + BLOCKER + code
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_core_library_adds_and_searches_with_every_extra_missing() -> None:
    every = tuple(m for modules in EXTRAS.values() for m in modules)
    done = _without(
        every,
        "import memlane\n"
        "from memlane import Memory\n"
        "mem = Memory(':memory:')\n"
        "mem.add('我叫阿白，平时喜欢喝美式。I prefer email to phone calls.', user_id='u1')\n"
        "print([hit.memory.text for hit in mem.search('喝什么咖啡', user_id='u1', limit=3)])\n"
        "print([hit.memory.text for hit in mem.search('how to contact me', user_id='u1', limit=3)])\n"
        f"print(sorted(m for m in sys.modules if m.partition('.')[0] in {every!r}))\n",
    )
    assert done.returncode == 0, done.stderr
    coffee, contact, loaded = done.stdout.strip().splitlines()
    assert "平时喜欢喝美式" in coffee
    assert "email" in contact
    assert loaded == "[]"


FEATURES = [
    pytest.param("server", "from memlane.service.app import create_app", id="server"),
    pytest.param(
        "postgres", "memlane.Memory(store='postgresql://memlane@127.0.0.1:1/memlane')", id="postgres"
    ),
    pytest.param("postgres", "import memlane.store.postgres", id="postgres-import"),
    pytest.param("redis", "memlane.Memory(':memory:', sessions='redis://127.0.0.1:6379/0')", id="redis"),
    pytest.param(
        "llm", "memlane.Memory(':memory:', llm_base_url='http://127.0.0.1:9/v1', llm_model='m')", id="llm"
    ),
    pytest.param(
        "crypto",
        "from memlane.privacy.crypto import DataKey\nDataKey(bytes(32)).seal('x', 'u1')",
        id="crypto",
    ),
    pytest.param("plots", "from memlane.eval.report import plot\nplot({}, 'recall.png')", id="plots"),
    pytest.param("integrations", "import memlane.integrations.langgraph", id="integrations"),
]


@pytest.mark.parametrize(("extra", "call"), FEATURES)
def test_a_missing_extra_names_its_pip_install(extra: str, call: str, tmp_path: Path) -> None:
    done = _without(EXTRAS[extra], f"import os, memlane\nos.chdir({str(tmp_path)!r})\n{call}\n")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("memlane.errors.MissingExtra: ")
    assert f"run: pip install 'memlane[{extra}]'" in last
    assert list(tmp_path.iterdir()) == []  # nothing was written on the way


def test_every_extra_has_a_feature_test() -> None:
    assert {p.values[0] for p in FEATURES} == set(EXTRAS)


def test_the_cli_says_which_extra_a_command_needs() -> None:
    done = _without(EXTRAS["server"], "from memlane.cli import main\nmain(['serve'])\n")
    assert done.returncode == 2
    assert "pip install 'memlane[server]'" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_pyproject_declares_each_extra_with_the_modules_it_maps() -> None:
    extras = PYPROJECT["optional-dependencies"]
    providers = metadata.packages_distributions()
    for extra, modules in EXTRAS.items():
        listed = {_name(r) for r in extras[extra]}
        # what the extra's requirements install, one level down (starlette comes with fastapi)
        installed = listed | {_name(r) for d in listed for r in metadata.requires(d) or ()}
        for module in modules:
            dists = {_name(d) for d in providers[module]}
            assert dists & installed, f"{module} is not installed by memlane[{extra}]"


def test_all_is_every_extra_and_dev_is_all_and_the_core_is_none_of_them() -> None:
    extras = PYPROJECT["optional-dependencies"]
    assert extras["all"] == [f"memlane[{','.join(EXTRAS)}]"]
    assert "memlane[all]" in extras["dev"]
    optional = {_name(r) for extra in EXTRAS for r in extras[extra]}
    core = {_name(r) for r in PYPROJECT["dependencies"]}
    assert core.isdisjoint(optional)
