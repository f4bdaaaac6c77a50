"""memlane.integrations as a package: no framework imported by ``import memlane``, a missing
framework named with its ``pip install``, and every example of docs/integrations.md run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"
FRAMEWORKS = ("langgraph", "langchain_core", "agents", "langgraph_sdk")
ADAPTERS = [
    pytest.param("memlane.integrations.langgraph", "langgraph", "memlane[integrations]", id="langgraph"),
    pytest.param("memlane.integrations.openai_agents", "agents", "memlane[integrations]", id="openai-agents"),
    pytest.param("memlane.integrations.langchain", "langchain_core", "memlane[integrations]", id="langchain"),
]


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_importing_memlane_imports_no_framework() -> None:
    code = (
        "import sys, memlane, memlane.integrations, memlane.integrations.items\n"
        f"print(sorted(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "framework", "extra"), ADAPTERS)
def test_a_missing_framework_names_the_extra_to_install(module: str, framework: str, extra: str) -> None:
    # a framework that cannot be imported, as in an install without the extra
    done = _python(f"import sys; sys.modules[{framework!r}] = None\nimport {module}")
    assert done.returncode == 1
    assert f"pip install '{extra}'" in done.stderr
    assert "MissingExtra" in done.stderr


def test_missing_extra_is_a_memlane_error_and_an_import_error() -> None:
    from memlane import MemlaneError, MissingExtra
    from memlane.extras import optional

    with pytest.raises(MissingExtra) as raised, optional("LangGraph"):
        raise ModuleNotFoundError("No module named 'langgraph'", name="langgraph")
    assert isinstance(raised.value, ImportError)
    assert isinstance(raised.value, MemlaneError)
    assert "pip install 'memlane[integrations]'" in str(raised.value)


def test_the_docs_show_every_framework_and_the_rest_api() -> None:
    assert len(examples()) == 4
    text = DOC.read_text(encoding="utf-8")
    for name in ("MemlaneStore", "MemlaneSession", "MemlaneChatMessageHistory", "/store/items/search"):
        assert name in text
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/integrations.md" in readme


@pytest.mark.filterwarnings("ignore:RunnableWithMessageHistory is deprecated")
@pytest.mark.parametrize("index", [0, 2, 3], ids=["langgraph", "openai-agents", "langchain"])
def test_each_example_runs_as_written(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(examples()[index], f"docs/integrations.md example {index}", "exec"), {"__name__": "docs"})
    out = capsys.readouterr().out
    assert "email" in out
