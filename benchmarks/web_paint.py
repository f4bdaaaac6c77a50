"""How fast the memory page paints for a user with 1,000 memories: a real ``memlane serve`` on a free
port over a temporary directory, Debian's Chromium (headless, Playwright) on the page.

The user's 1,000 memories (900 facts and preferences, 100 events, Chinese and English) go in through
``POST /v1/restore``. Each round opens a fresh tab on the page (signed in, so the load is the page
and its data, not the link) and reads, from the browser's own clock (``performance``, milliseconds
since the navigation started):

- ``first-contentful-paint``: the labelled page, before any data;
- ``memlane:overview``: summary, preferences to confirm and profile rendered (the landing view);
- ``memlane:memories``: the first page of memories rendered, for ``/#memories``.

Prints the median, p90 and max of each over ``--rounds``; nothing is asserted::

    .venv/bin/python benchmarks/web_paint.py --memories 1000 --rounds 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import webserver  # noqa: E402  (the browser tests' server and browser helpers)

from memlane.clock import utcnow  # noqa: E402
from memlane.domain import Category, EventStatus, Kind, MemoryItem  # noqa: E402

_TOPICS = ["咖啡", "跑步", "tea", "books", "旅行", "piano", "猫", "hiking", "电影", "cooking"]


def document(user: str, n: int) -> dict[str, Any]:
    """An export document of ``n`` memories for ``user`` (what ``restore`` loads)."""
    now = utcnow()
    items = []
    for i in range(n):
        topic = _TOPICS[i % len(_TOPICS)]
        at = now - timedelta(hours=i)
        if i % 10 == 9:
            item = MemoryItem(
                user_id=user,
                text=f"{at:%m月%d日} 参加了和{topic}有关的活动，第 {i} 次",
                kind=Kind.EPISODIC,
                category=Category.EVENT,
                event_status=EventStatus.DONE,
                valid_from=at,
            )
        elif i % 2:
            item = MemoryItem(user_id=user, text=f"我喜欢{topic}，这是第 {i} 条偏好", kind=Kind.SEMANTIC)
        else:
            item = MemoryItem(user_id=user, text=f"I like {topic}, preference number {i}", kind=Kind.SEMANTIC)
        item.category = item.category if item.kind is Kind.EPISODIC else Category.PREFERENCE
        item.tags, item.created_at, item.updated_at = [topic], at, at
        item.reason = "a stated preference, importance 0.70"
        items.append(item.to_dict())
    return {"format": "memlane.export", "version": 1, "user_id": user, "memories": items}


def measure(page: Any, url: str, mark: str) -> tuple[float, float]:
    page.goto(url)
    page.wait_for_function(f"() => performance.getEntriesByName('{mark}').length > 0", timeout=30_000)
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1")
    done = page.evaluate(f"performance.getEntriesByName('{mark}')[0].startTime")
    return float(fcp), float(done)


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{name:<28} median {statistics.median(ordered):7.1f} ms   p90 {p90:7.1f} ms   max {ordered[-1]:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, webserver.serve(
        Path(folder), MEMLANE_MAX_BODY_BYTES=str(50_000_000)
    ) as server:
        restored = server.http.post("/v1/restore", json={"user_id": "p1", "document": document("p1", args.memories)})
        assert restored.status_code == 201, restored.text
        count = len(server.get("/v1/memories", user_id="p1", limit=1000)["memories"])
        print(f"user p1: {restored.json()['memories']} memories restored, {count} listed as active")
        with sync_playwright() as p:
            context = webserver.launch(p, viewport={"width": 1200, "height": 900})
            first = context.new_page()
            first.goto(server.link("p1"))
            first.wait_for_selector("#profile-list")
            results: dict[str, list[float]] = {k: [] for k in ("fcp", "overview", "fcp_m", "memories")}
            for _ in range(args.rounds):
                page = context.new_page()
                fcp, done = measure(page, f"{server.url}/#overview", "memlane:overview")
                results["fcp"].append(fcp)
                results["overview"].append(done)
                page.close()
                page = context.new_page()
                fcp, done = measure(page, f"{server.url}/#memories", "memlane:memories")
                assert page.locator("#memory-list .card").count() == 50
                results["fcp_m"].append(fcp)
                results["memories"].append(done)
                page.close()
            context.close()
    print(f"{args.rounds} rounds, Chromium headless, server and browser on this machine")
    print(summary("first contentful paint", results["fcp"] + results["fcp_m"]))
    print(summary("overview rendered", results["overview"]))
    print(summary("first 50 memories rendered", results["memories"]))


if __name__ == "__main__":
    main()
