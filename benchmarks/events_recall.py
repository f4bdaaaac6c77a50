"""Recall of a user's past events from what they say later, in Chinese (in the spirit of MADial-Bench).

::

    python benchmarks/events_recall.py --json benchmarks/results/events-zh.json
    python benchmarks/events_recall.py --split dev --misses

MADial-Bench (memory-augmented dialogue) stores a user's past events as memories and asks whether a
later turn, often emotional and indirect ("外婆下周要去复查，我心里一直七上八下的"), evokes the right
one. Its data is not here, so ``benchmarks/data/events_zh.jsonl`` is a set written for memlane in
that spirit: 8 users, 18-19 dated event memories each with near misses among them (the same place or
person in another event, the same kind of event at another time), and 12 queries per user phrased
as the user would say them in a later conversation, each naming the memories it should evoke. Each
query has a style: ``paraphrase`` (the event said in other words), ``indirect`` (a consequence or a
feeling, not the event), ``time`` (the period is how the user points at it: 去年冬天那件事) and
``mixed`` (Chinese with English words). Whole users are held out: ``dev`` (u01-u04) may be looked
at while choosing anything, ``test`` (u05-u08) only to report.

Per user, a fresh in-memory store: ``remember(text, kind="episodic", at=<event date>)`` for each
memory, then ``search(query, limit=10, now=<the query's date>)`` for each query, in file order.
``now`` fixes the day the user speaks, so that 去年冬天 means the same period on every run. A query
counts as recalled at k when one of its memories is among the first k hits; MRR is the mean of
1 / the first such rank (0 when none is in the ten). With 18-19 memories a user, R@5 and R@10 are
high by chance (the ``chance`` row: a random order's scores); R@1 and MRR are what tell two
rankings apart. Only ``Memory(":memory:")``, ``remember`` (its decision's memory, outcome and
reason), ``search`` and ``Hit.memory.id`` are used, which c69c1ce has too, so two commits run the
same script. Recall is deterministic; the search time (median per query, query embedding included)
is informational and depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

DATA = Path(__file__).resolve().parent / "data" / "events_zh.jsonl"
SPLITS = ("dev", "test")
STYLES = ("paraphrase", "indirect", "time", "mixed")
KS = (1, 5, 10)
LIMIT = 10
CALLER = "bench-events"
# the users speak in China: an event's date and a query's day are at noon in Beijing time
_CST = timezone(timedelta(hours=8))


@dataclass(frozen=True)
class Event:
    """One memory to store: a dated event of one user."""

    id: str
    user: str
    at: date
    text: str


@dataclass(frozen=True)
class Query:
    """What a user says later, and the memories it should evoke."""

    id: str
    user: str
    split: str
    style: str
    asked_at: date
    text: str
    targets: tuple[str, ...]


@dataclass
class Dataset:
    """The events and queries of the file, in file order."""

    events: list[Event] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    def users(self) -> list[str]:
        return list(dict.fromkeys(e.user for e in self.events))


@dataclass
class Result:
    """One query's outcome: the rank of its first memory (None when not in the first ten) and what
    ranked first."""

    query: str
    split: str
    style: str
    rank: int | None
    top: list[str]
    search_ms: float
    pool: int  # the user's memories: a random order would rank a target first once in ``pool``
    targets: int


def _day(value: object, where: str) -> date:
    if not isinstance(value, str):
        raise ValueError(f"{where}: a date must be a YYYY-MM-DD string, not {value!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{where}: {value!r} is not a YYYY-MM-DD date") from None


def parse(lines: Iterable[str]) -> Dataset:
    """The dataset in ``lines`` (JSON objects, one a line); a ValueError names the first bad line."""
    data = Dataset()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"line {n}"
        try:
            rec = json.loads(line)
            kind = rec["type"]
            if kind == "memory":
                data.events.append(Event(rec["id"], rec["user"], _day(rec["at"], where), rec["text"]))
            elif kind == "query":
                targets = tuple(rec["targets"])
                data.queries.append(
                    Query(
                        rec["id"],
                        rec["user"],
                        rec["split"],
                        rec["style"],
                        _day(rec["asked_at"], where),
                        rec["text"],
                        targets,
                    )
                )
            else:
                raise ValueError(f"{where}: type must be memory or query, not {kind!r}")
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not JSON ({exc.msg})") from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{where}: a record needs type, id, user and its fields ({exc!r})") from None
    return data


def load(path: Path = DATA) -> Dataset:
    """The dataset of ``path``."""
    with path.open(encoding="utf-8") as f:
        return parse(f)


def problems(data: Dataset) -> list[str]:
    """What makes ``data`` inconsistent, one sentence each (empty when nothing does): ids used twice,
    targets that are not the user's memories, a user in both splits, a query asked before its
    user's events happened."""
    found: list[str] = []
    ids = Counter([e.id for e in data.events] + [q.id for q in data.queries])
    found += [f"id {i} is used {n} times" for i, n in ids.items() if n > 1]
    owner = {e.id: e for e in data.events}
    per_user: dict[str, list[Event]] = defaultdict(list)
    for e in data.events:
        per_user[e.user].append(e)
        if not e.text.strip():
            found.append(f"memory {e.id} has no text")
    split_of: dict[str, set[str]] = defaultdict(set)
    for q in data.queries:
        split_of[q.user].add(q.split)
        if q.split not in SPLITS:
            found.append(f"query {q.id}: split must be dev or test, not {q.split!r}")
        if q.style not in STYLES:
            found.append(f"query {q.id}: style must be one of {', '.join(STYLES)}, not {q.style!r}")
        if not q.text.strip():
            found.append(f"query {q.id} has no text")
        if not q.targets:
            found.append(f"query {q.id} names no memory")
        for t in q.targets:
            if t not in owner:
                found.append(f"query {q.id}: target {t} is not a memory")
            elif owner[t].user != q.user:
                found.append(f"query {q.id}: target {t} is another user's memory")
        later = [e.id for e in per_user[q.user] if e.at > q.asked_at]
        if later:
            found.append(f"query {q.id} is asked before its user's memories {', '.join(later)} happened")
    for user, splits in split_of.items():
        if len(splits) > 1:
            found.append(f"user {user} has queries in both splits (a user is held out whole)")
        if user not in per_user:
            found.append(f"user {user} has queries but no memories")
    return found


def shortfalls(
    data: Dataset, *, users: int = 6, queries: int = 60, per_user: tuple[int, int] = (12, 20), each: int = 8
) -> list[str]:
    """Where ``data`` is smaller than the set this benchmark reports on, one sentence each: at least
    ``users`` users with ``per_user`` memories and ``each`` queries each, ``queries`` in all, and
    both splits about half."""
    found: list[str] = []
    names = data.users()
    if len(names) < users:
        found.append(f"{len(names)} users, fewer than {users}")
    memories = Counter(e.user for e in data.events)
    asked = Counter(q.user for q in data.queries)
    low, high = per_user
    for user in names:
        if not low <= memories[user] <= high:
            found.append(f"user {user} has {memories[user]} memories, not {low}-{high}")
        if asked[user] < each:
            found.append(f"user {user} has {asked[user]} queries, fewer than {each}")
    if len(data.queries) < queries:
        found.append(f"{len(data.queries)} queries, fewer than {queries}")
    by_split = Counter(q.split for q in data.queries)
    found += [f"no {split} queries" for split in SPLITS if not by_split[split]]
    if abs(by_split["dev"] - by_split["test"]) > len(data.queries) / 5:
        found.append(f"the splits are not about half each: dev {by_split['dev']}, test {by_split['test']}")
    return found


def first_rank(ranked: Sequence[str], targets: Iterable[str], same: dict[str, set[str]]) -> int | None:
    """The 1-based rank of the first hit that stands for one of ``targets``, or None.

    ``ranked`` are memlane ids best first; ``same`` maps a memlane id to the data ids it stands for
    (more than one when remember merged an event into an earlier one).
    """
    wanted = set(targets)
    for rank, mid in enumerate(ranked, 1):
        if same.get(mid, set()) & wanted:
            return rank
    return None


def score(ranks: Sequence[int | None], ks: Sequence[int] = KS) -> dict[str, float]:
    """R@k for each of ``ks`` and MRR over queries whose first relevant rank is ``ranks`` (None:
    not found within the limit).

    >>> score([1, 3, None, 7])
    {'queries': 4, 'R@1': 0.25, 'R@5': 0.5, 'R@10': 0.75, 'MRR': 0.369}
    """
    n = len(ranks)
    out: dict[str, float] = {"queries": n}
    for k in ks:
        out[f"R@{k}"] = round(sum(1 for r in ranks if r is not None and r <= k) / n, 3) if n else 0.0
    out["MRR"] = round(sum(1 / r for r in ranks if r is not None) / n, 3) if n else 0.0
    return out


def chance(pool: int, targets: int, ks: Sequence[int] = KS) -> dict[str, float]:
    """What a random order of ``pool`` memories scores for a query with ``targets`` of them: the
    floor the measured numbers stand on (with 19 memories, R@10 is 0.53 by chance).

    >>> chance(4, 1)
    {'R@1': 0.25, 'R@5': 1.0, 'R@10': 1.0, 'MRR': 0.5208333333333333}
    """
    none = math.comb(pool, targets)
    out = {f"R@{k}": 1 - math.comb(pool - k, targets) / none if k < pool else 1.0 for k in ks}
    # the first target is at rank r when the other targets - 1 are all below it
    out["MRR"] = sum(math.comb(pool - r, targets - 1) / none / r for r in range(1, pool - targets + 2))
    return out


def _noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=_CST)


def run_user(
    memory: Any, user: str, events: Sequence[Event], queries: Sequence[Query], step: Callable[[], None]
) -> tuple[list[Result], dict[str, str]]:
    """Store one user's events in ``memory`` (a :class:`memlane.Memory`), then ask their queries.

    Returns each query's result and what ``remember`` did with each event (new, merged, discarded:
    its decision's outcome, and its reason when nothing was stored).
    """
    same: dict[str, set[str]] = defaultdict(set)
    outcomes: dict[str, str] = {}
    for e in events:
        decision = memory.remember(e.text, user_id=user, kind="episodic", at=_noon(e.at), caller=CALLER)
        # c69c1ce gives a string ("new", "superseded <id>", "" when refused); later commits an enum
        outcome = str(getattr(decision.outcome, "value", decision.outcome)).split(" ")[0] or "discarded"
        outcomes[e.id] = outcome if decision.memory is not None else f"{outcome}: {decision.reason}"
        if decision.memory is not None:
            same[decision.memory.id].add(e.id)
    results = []
    for q in queries:
        start = time.perf_counter()
        hits = memory.search(q.text, user_id=user, limit=LIMIT, now=_noon(q.asked_at), caller=CALLER)
        elapsed = (time.perf_counter() - start) * 1e3
        ranked = [h.memory.id for h in hits]
        top = [
            ",".join(sorted(same[mid])) or f"?{h.memory.text[:20]}"
            for mid, h in zip(ranked, hits, strict=True)
        ]
        results.append(
            Result(
                q.id,
                q.split,
                q.style,
                first_rank(ranked, q.targets, same),
                top[:3],
                round(elapsed, 2),
                len(events),
                len(q.targets),
            )
        )
        step()
    return results, outcomes


def summarize(results: Sequence[Result]) -> dict[str, Any]:
    """The scores per split (dev, test, all) and per style, with the median search time."""

    def block(rs: Sequence[Result]) -> dict[str, Any]:
        out: dict[str, Any] = score([r.rank for r in rs])
        out["search_p50_ms"] = round(statistics.median(r.search_ms for r in rs), 2) if rs else None
        floors = [chance(r.pool, r.targets) for r in rs]
        out["chance"] = {m: round(sum(f[m] for f in floors) / len(rs), 3) for m in floors[0]} if rs else {}
        return out

    splits = {s: block([r for r in results if r.split == s]) for s in SPLITS}
    splits["all"] = block(results)
    styles = {s: block([r for r in results if r.style == s]) for s in STYLES}
    return {"splits": splits, "styles": styles}


def _commit() -> str | None:
    import memlane

    try:
        repo = Path(memlane.__file__).resolve().parents[2]
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it is inside it: a result file names no machine's paths."""
    try:
        return str(path.resolve().relative_to(Path(__file__).resolve().parents[1]))
    except ValueError:
        return str(path)


def _table(title: str, rows: dict[str, dict[str, Any]]) -> Table:
    table = Table("", "queries", *(f"R@{k}" for k in KS), "MRR", "search p50", title=title)
    for name, m in rows.items():
        p50 = m["search_p50_ms"]
        table.add_row(
            name,
            str(m["queries"]),
            *(f"{m[f'R@{k}']:.3f}" for k in KS),
            f"{m['MRR']:.3f}",
            "" if p50 is None else f"{p50:.1f} ms",
        )
    floor = rows.get("all", {}).get("chance")
    if floor:
        table.add_row(
            "chance", "", *(f"{floor[f'R@{k}']:.3f}" for k in KS), f"{floor['MRR']:.3f}", "", style="dim"
        )
    return table


def plot(data: dict[str, Any], path: Path) -> Path:
    """R@1, R@5, R@10 and MRR per split, as grouped bars in a PNG."""
    # the object-oriented API with the Agg canvas: no pyplot global state, no display needed
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.5, 4), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    measures = [f"R@{k}" for k in KS] + ["MRR"]
    names = ["dev", "test", "all"]
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        m = data["splits"][name]
        xs = [j + (i - 1) * width for j in range(len(measures))]
        ax.bar(xs, [m[k] for k in measures], width, label=f"{name} ({m['queries']})")
    floor = data["splits"]["all"]["chance"]
    ax.hlines(
        [floor[k] for k in measures],
        [j - 0.45 for j in range(len(measures))],
        [j + 0.45 for j in range(len(measures))],
        colors="black",
        linestyles="dashed",
        label="chance",
    )
    ax.set_xticks(range(len(measures)), measures)
    ax.set_ylim(0, 1.15)
    ax.legend(loc="upper center", ncol=4, fontsize=8)
    ax.set_ylabel("share of queries")
    ax.set_title(f"Chinese event recall (MADial-style), memlane {data['commit'] or '?'}")
    ax.grid(True, axis="y", alpha=0.3)
    fig.savefig(path)
    return path


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--data", type=Path, default=DATA, help="the JSONL set (default: %(default)s)")
    p.add_argument("--split", choices=[*SPLITS, "all"], default="all", help="which users to run")
    p.add_argument("--json", type=Path, help="write the numbers here, and a PNG next to it")
    p.add_argument("--misses", action="store_true", help="list the queries not recalled at 1")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    console = Console()
    from memlane import Memory

    data = load(args.data)
    wrong = problems(data)
    if wrong:
        console.print(f"[red]{args.data} is not a usable set:[/red]\n  " + "\n  ".join(wrong))
        return 2
    for short in shortfalls(data):
        console.print(f"[yellow]note:[/yellow] {short}")
    queries = [q for q in data.queries if args.split in ("all", q.split)]
    users = [u for u in data.users() if any(q.user == u for q in queries)]
    results: list[Result] = []
    outcomes: dict[str, str] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("remember, then search", total=len(queries))
        for user in users:
            with Memory(":memory:") as memory:
                rs, done = run_user(
                    memory,
                    user,
                    [e for e in data.events if e.user == user],
                    [q for q in queries if q.user == user],
                    lambda: progress.advance(task),
                )
            results += rs
            outcomes |= done
    summary = summarize(results)
    commit = _commit()
    console.print(_table(f"Chinese event recall, memlane {commit or '?'}", summary["splits"]))
    console.print(_table("by style (all splits)", summary["styles"]))
    counts = Counter(o.split(":")[0] for o in outcomes.values())
    console.print("remember: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for eid, outcome in outcomes.items():
        if outcome != "new":
            console.print(f"  {eid}: {outcome}")
    if args.misses:
        text_of = {q.id: q for q in data.queries}
        memo = {e.id: e.text for e in data.events}
        for r in results:
            if r.rank != 1:
                q = text_of[r.query]
                console.print(
                    f"{r.query} ({r.split}, {r.style}) rank {r.rank}: {q.text}\n"
                    f"    wanted {', '.join(q.targets)} {memo[q.targets[0]]}\n"
                    f"    first  {r.top[0] if r.top else '-'} {memo.get(r.top[0], '') if r.top else ''}"
                )
    if args.json:
        from memlane.bench.machine import machine

        out = {
            "benchmark": "events_zh",
            "commit": commit,
            "data": _shown(args.data),
            "split": args.split,
            "users": len(users),
            "events": sum(1 for e in data.events if e.user in users),
            "limit": LIMIT,
            "remember": dict(sorted(counts.items())),
            "not_new": {eid: o for eid, o in outcomes.items() if o != "new"},
            **summary,
            "machine": machine(),
            "queries": [asdict(r) for r in results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written = [str(args.json)]
        try:
            written.append(str(plot(out, args.json.with_suffix(".png"))))
        except ImportError:  # matplotlib comes with the dev extra only
            written.append("no plot: matplotlib is not installed")
        console.print("wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
