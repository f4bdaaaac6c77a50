"""What ``memlane proxy`` adds to a chat request: time to first byte through the proxy minus direct.

::

    python benchmarks/proxy_overhead.py                      # 8 clients, 30 s each way, embedded default
    python benchmarks/proxy_overhead.py --clients 8 --seconds 20 --ttfb 0.3 --json out.json

Everything runs here on 127.0.0.1 in a temporary directory: the recorded upstream
(:class:`memlane.testing.llm.ScriptedServer`, in a process of its own) answers every request with a
streamed reply after ``--ttfb`` seconds, as a model's first token would come; one ``memlane proxy``
on the embedded default (SQLite, its job queue worked by a thread of the proxy) sits in front of it.
Each of ``--users`` users first has ``--turns`` bilingual exchanges remembered, so that each request
gets a real context block. Then ``--clients`` clients loop for ``--seconds`` a side, straight to the
upstream or through the proxy (streamed, a random user each time, the write-back queued as in a
chat), the two sides taking turns in phases of ``--phase`` seconds: the time to first byte is from
sending the request to reading the first chunk of the body.
The overhead is each percentile through the proxy minus the same percentile direct. The write-back
runs in the proxy's worker thread meanwhile, on the same two cores: it is measured, not paused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

QUESTIONS = [
    "推荐一杯早上的饮料",
    "What should I cook tonight?",
    "周末有什么安排？",
    "How should you contact me?",
]
FACTS = [
    ("我叫阿白，平时喜欢喝美式。", "好的，阿白。"),
    ("I'm vegetarian and I prefer email over phone calls.", "Noted."),
    ("我下周三要去杭州出差。", "祝出差顺利。"),
    ("My daughter's birthday is on June 10.", "I'll remember that."),
    ("我不吃辣，最近在减肥。", "明白了。"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_upstream(ttfb: float) -> None:
    """The recorded upstream, in this process until stdin closes (run with ``--upstream-only``)."""
    from memlane.testing.llm import Scripted, ScriptedServer, chunks

    reply = Scripted(events=chunks("好的，这是一个回答。Here is an answer.", pieces=6), stall=ttfb)
    with ScriptedServer([reply]) as server:
        print(server.url, flush=True)
        sys.stdin.read()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def first_byte(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], body: dict[str, Any]
) -> float:
    """Seconds from sending the request to the first chunk of its body (the rest is read too)."""
    start = time.perf_counter()
    async with client.stream("POST", url, json=body, headers=headers) as response:
        response.raise_for_status()
        chunks = response.aiter_raw()
        await chunks.__anext__()
        ttfb = time.perf_counter() - start
        async for _ in chunks:
            pass
    return ttfb


async def alternate(
    args: argparse.Namespace, upstream: str, proxy: str, key: str
) -> tuple[list[float], list[float], list[int]]:
    """``args.clients`` loops for ``args.seconds`` a side, straight to ``upstream`` or through
    ``proxy`` by turns of ``args.phase`` seconds (each loop keeps its connections to both); every
    request's time to first byte on its side, and the queue's depth after each proxied turn."""
    sides: tuple[list[float], list[float]] = ([], [])
    backlog: list[int] = []
    turns = 2 * max(1, round(args.seconds / args.phase))
    turn = 2 * args.seconds / turns
    start = time.monotonic()

    def side() -> int:
        return int((time.monotonic() - start) / turn) % 2

    async def loop(n: int) -> None:
        rng = random.Random(n)
        if not args.lockstep:  # people do not press enter together: the clients start spread
            await asyncio.sleep(n * args.ttfb / args.clients)  # over one upstream wait
        async with httpx.AsyncClient(timeout=60) as direct, httpx.AsyncClient(timeout=60) as proxied:
            while time.monotonic() - start < turns * turn:
                through = side()
                headers = {"Authorization": f"Bearer {key}"} if through else {}
                if through and not args.no_memory:
                    headers["X-Memlane-User"] = f"u{rng.randrange(args.users)}"
                body = {
                    "model": "test",
                    "stream": True,
                    "messages": [{"role": "user", "content": rng.choice(QUESTIONS)}],
                }
                client, url = (proxied, proxy) if through else (direct, upstream)
                sides[through].append(await first_byte(client, f"{url}/chat/completions", headers, body))

    async def watch() -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            for k in range(1, turns, 2):  # the end of each proxied turn
                await asyncio.sleep(max(0.0, start + (k + 1) * turn - time.monotonic()))
                backlog.append(await queue_depth(client, proxy.removesuffix("/v1"), key))

    await asyncio.gather(watch(), *(loop(n) for n in range(args.clients)))
    return sides[0], sides[1], backlog


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0, help="per side (the two sides take turns)")
    parser.add_argument(
        "--phase", type=float, default=5.0, help="seconds of each side before the other takes over"
    )
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="start every client at once: with the upstream's fixed wait, the requests then come in bursts",
    )
    parser.add_argument("--ttfb", type=float, default=0.3, help="the upstream's time to first byte, seconds")
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--turns", type=int, default=5, help="exchanges remembered per user before the run")
    parser.add_argument(
        "--no-memory",
        action="store_true",
        help="name no user: the proxy only forwards (no context, no write-back)",
    )
    parser.add_argument("--json", help="write the numbers here")
    parser.add_argument("--upstream-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.upstream_only:
        serve_upstream(args.ttfb)
        return
    with tempfile.TemporaryDirectory(prefix="memlane-proxy-bench-") as tmp:
        run(args, Path(tmp))


def run(args: argparse.Namespace, tmp: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env.update(HOME=str(tmp), MEMLANE_PATH=str(tmp / "memlane.db"), MEMLANE_RATE_LIMIT="100000")
    env.update(MEMLANE_RATE_BURST="100000", OMP_NUM_THREADS=env.get("OMP_NUM_THREADS", "1"))
    upstream = subprocess.Popen(
        [sys.executable, __file__, "--upstream-only", "--ttfb", str(args.ttfb)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert upstream.stdout is not None
    upstream_url = upstream.stdout.readline().strip()
    from memlane.clock import utcnow
    from memlane.service.keys import open_keys

    key = open_keys(str(tmp / "memlane.keys.db")).create("bench", now=utcnow()).secret
    port = free_port()
    memlane = str(Path(sys.executable).with_name("memlane"))
    log = (tmp / "proxy.log").open("wb")
    proxy = subprocess.Popen(
        [memlane, "proxy", "--upstream", upstream_url, "--port", str(port)], env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        seed(url, key, args.users, args.turns)
        direct, proxied, backlog = asyncio.run(alternate(args, upstream_url, f"{url}/v1", key))
    finally:
        proxy.send_signal(signal.SIGTERM)
        proxy.wait(timeout=60)
        upstream.stdin.close()  # type: ignore[union-attr]
        upstream.wait(timeout=30)
    report(args, direct, proxied, backlog)


async def queue_depth(client: httpx.AsyncClient, url: str, key: str) -> int:
    """Write-back jobs queued or running (from ``/metrics``): were they done as the chats went on?"""
    response = await client.get(f"{url}/metrics", headers={"Authorization": f"Bearer {key}"})
    line = next(x for x in response.text.splitlines() if x.startswith("memlane_queue_depth "))
    return int(float(line.split()[1]))


def seed(url: str, key: str, users: int, turns: int) -> None:
    """Each user's exchanges, written inline (``?wait=true``) so that the run starts with memories."""
    with httpx.Client(timeout=120, headers={"Authorization": f"Bearer {key}"}) as client:
        for u in range(users):
            for said, answer in (FACTS * turns)[:turns]:
                messages = [{"role": "user", "content": said}, {"role": "assistant", "content": answer}]
                body = {"user_id": f"u{u}", "messages": messages}
                client.post(f"{url}/v1/messages", params={"wait": "true"}, json=body).raise_for_status()


def report(args: argparse.Namespace, direct: list[float], proxied: list[float], backlog: list[int]) -> None:
    out: dict[str, Any] = {"clients": args.clients, "ttfb_s": args.ttfb, "seconds": args.seconds}
    out["writeback_backlog"] = backlog  # jobs not yet done at the end of each proxied turn
    for name, values in (("direct", direct), ("proxy", proxied)):
        out[name] = {
            "requests": len(values),
            **{f"p{q}_ms": percentile(values, q / 100) * 1000 for q in (50, 95)},
        }
    out["overhead"] = {f"p{q}_ms": out["proxy"][f"p{q}_ms"] - out["direct"][f"p{q}_ms"] for q in (50, 95)}
    print(f"time to first byte, {args.clients} clients, upstream first byte after {args.ttfb * 1000:.0f} ms")
    for name in ("direct", "proxy", "overhead"):
        row = out[name]
        count = f"  ({row['requests']} requests)" if "requests" in row else ""
        print(f"  {name:9s} p50 {row['p50_ms']:7.1f} ms   p95 {row['p95_ms']:7.1f} ms{count}")
    print(f"  write-back jobs not yet done after each proxied turn: max {max(backlog, default=0)}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
