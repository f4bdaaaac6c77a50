"""What the framework adapters cost on top of the Memory call each one makes: p50 per call, adapter
against direct, interleaved so that both see the same machine.

    .venv/bin/python benchmarks/integrations.py              # 200 calls of each pair
    .venv/bin/python benchmarks/integrations.py --n 50 --json out.json

Each pair does the same work once through the adapter and once directly on a fresh key or turn:

- LangGraph ``store.put`` vs ``Memory.remember`` (the put also writes the item's record);
- LangGraph ``store.get`` vs ``Memory.get`` (one row by id);
- LangGraph ``store.search(query=)`` vs ``Memory.search`` (the same query, tag filter and limit);
- OpenAI Agents ``session.add_items`` vs ``Memory.add``, ``session.get_items`` vs ``Memory.session``;
- LangChain ``history.add_messages`` vs ``Memory.add``, ``history.messages`` vs ``Memory.session``.

The overhead is the median over the pairs of adapter - direct (a pair's two calls run back to back);
the target is at most 1 ms. Embedded store in a
temporary file, the bundled embedder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from memlane import Memory
from memlane.integrations.langchain import MemlaneChatMessageHistory
from memlane.integrations.langgraph import MemlaneStore
from memlane.integrations.openai_agents import MemlaneSession

_WHO = [
    "My sister Lily", "Our neighbour Tom", "My boss Karen", "Grandpa Joe", "My friend Mei",
    "Uncle Raj", "My cousin Ana", "Coach Ben", "My dentist Dr Wu", "Aunt Rosa",
]  # fmt: skip
_DOES = [
    "plays the violin", "grows tomatoes", "collects stamps", "runs marathons", "bakes sourdough",
    "repairs bicycles", "paints watercolours", "keeps bees", "sails dinghies", "writes haiku",
    "climbs mountains", "knits scarves", "brews beer", "restores clocks", "breeds parrots",
    "builds kites", "carves wood", "dances salsa", "fixes radios", "studies moths",
]  # fmt: skip


def said(i: int) -> str:
    """One of 200 facts, few of which merge into another (186 memories for 200 of them)."""
    return f"{_WHO[i % len(_WHO)]} {_DOES[(i // len(_WHO)) % len(_DOES)]}"


def asked(i: int) -> str:
    return f"Who {_DOES[i % len(_DOES)]}?"


def pair(n: int, adapter: Callable[[int], Any], direct: Callable[[int], Any]) -> dict[str, float]:
    """p50 of each side in ms, calls interleaved (adapter first on even rounds, direct on odd)."""
    times: dict[str, list[float]] = {"adapter": [], "direct": []}
    for i in range(n):
        order = [("adapter", adapter), ("direct", direct)]
        for name, call in order if i % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            call(i)
            times[name].append((time.perf_counter() - start) * 1000)
    return _summary(times)


def _summary(times: dict[str, list[float]]) -> dict[str, float]:
    """Both sides' p50 and the overhead: the median of the differences of the pairs, each pair run back
    to back, so that what the shared host does meanwhile (it drifts by a third over a run) slows both
    sides of a pair rather than one side's median."""
    a, d = statistics.median(times["adapter"]), statistics.median(times["direct"])
    paired = statistics.median(x - y for x, y in zip(times["adapter"], times["direct"], strict=True))
    return {"adapter_p50_ms": round(a, 3), "direct_p50_ms": round(d, 3), "overhead_ms": round(paired, 3)}


async def apair(
    n: int, adapter: Callable[[int], Awaitable[Any]], direct: Callable[[int], Awaitable[Any]]
) -> dict[str, float]:
    """:func:`pair` for coroutines, awaited in one event loop (as an agent's would be)."""
    times: dict[str, list[float]] = {"adapter": [], "direct": []}
    for i in range(n):
        order = [("adapter", adapter), ("direct", direct)]
        for name, call in order if i % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            await call(i)
            times[name].append((time.perf_counter() - start) * 1000)
    return _summary(times)


async def agents_pairs(n: int, mem: Memory) -> dict[str, dict[str, float]]:
    """The Agents SDK session is async: against the same Memory calls run in a thread, as AsyncMemory's."""
    session = MemlaneSession("s1", mem, user_id="u3")

    def add(i: int) -> Any:
        return mem.add([{"role": "user", "content": said(i)}], user_id="u3", session_id="s2")

    return {
        "openai-agents add_items": await apair(
            n,
            lambda i: session.add_items([{"role": "user", "content": said(i)}]),
            lambda i: asyncio.to_thread(add, i),
        ),
        "openai-agents get_items": await apair(
            n, lambda i: session.get_items(), lambda i: asyncio.to_thread(mem.session, "u3", "s2")
        ),
    }


def run(n: int, directory: Path) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    with Memory(directory / "bench.db", vector_backlog=0) as mem:
        store = MemlaneStore(mem)
        results["langgraph put"] = pair(
            n,
            lambda i: store.put(("u1", "memories"), f"k{i}", {"text": said(i)}),
            lambda i: mem.remember(said(i), user_id="u2", tags=["langgraph"]),
        )
        items, memories = n, len(mem.list("u1", limit=10_000))
        print(f"{items} items put became {memories} memories (the rest merged into them)")
        memory_id = mem.list("u2", limit=1)[0].id
        results["langgraph get"] = pair(
            n,
            lambda i: store.get(("u1", "memories"), f"k{i}"),
            lambda i: mem.get(memory_id, user_id="u2"),
        )
        results["langgraph search"] = pair(
            n,
            lambda i: store.search(("u1", "memories"), query=asked(i)),
            lambda i: mem.search(
                asked(i),
                user_id="u1",
                tags=["langgraph:u1.memories"],
                limit=20,
                min_score=0.0,
                caller="langgraph",
            ),
        )
        results.update(asyncio.run(agents_pairs(n, mem)))
        history = MemlaneChatMessageHistory(mem, user_id="u4", session_id="s1")
        results["langchain add_messages"] = pair(
            n,
            lambda i: history.add_messages([HumanMessage(said(i)), AIMessage("Noted.")]),
            lambda i: mem.add(
                [{"role": "user", "content": said(i)}, {"role": "assistant", "content": "Noted."}],
                user_id="u4",
                session_id="s2",
            ),
        )
        results["langchain messages"] = pair(n, lambda i: history.messages, lambda i: mem.session("u4", "s2"))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200, help="calls of each side of each pair")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = run(args.n, Path(tmp))
    print(f"{'call':28} {'adapter p50':>12} {'direct p50':>11} {'overhead':>9}   (ms, n={args.n})")
    for name, r in results.items():
        print(f"{name:28} {r['adapter_p50_ms']:12.3f} {r['direct_p50_ms']:11.3f} {r['overhead_ms']:9.3f}")
    if args.json:
        args.json.write_text(json.dumps({"n": args.n, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
