"""The public surface: a curated, complete, documented ``__all__``, and the async twin."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import memlane
from memlane import AsyncMemory, Memory


def test_all_is_sorted_and_complete() -> None:
    names = [n for n in memlane.__all__ if n != "__version__"]
    assert names == sorted(names)
    public = {n for n, v in vars(memlane).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert public - {"annotations"} == set(names)


def test_every_public_name_and_method_has_a_docstring() -> None:
    for name in memlane.__all__:
        obj = getattr(memlane, name)
        if inspect.isclass(obj):
            assert obj.__doc__, name
    for name, method in inspect.getmembers(Memory, inspect.isfunction):
        if not name.startswith("_"):
            assert method.__doc__, name


def test_async_memory_offers_every_method_of_memory() -> None:
    sync = {n for n, _ in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    both = {n for n in sync if inspect.iscoroutinefunction(getattr(AsyncMemory, n, None))}
    assert both == sync


def test_async_memory_works(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        async with AsyncMemory(tmp_path / "a.db") as mem:
            await mem.add("I prefer email", user_id="u1")
            return [h.memory.text for h in await mem.search("email", user_id="u1")]

    assert any("email" in t for t in asyncio.run(scenario()))


def test_readme_python_example_runs_as_written(capsys: object) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## In Python", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "阿白" in out
    assert "<memory-data>" in out
