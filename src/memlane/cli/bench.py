"""``memlane bench``: benchmarks of memlane itself, drawn with rich progress bars.

::

    memlane bench scale --sizes 1000,10000,100000 --json scale-sqlite.json
    memlane bench scale --store postgresql://memlane@db/memlane --sessions redis://cache:6379/0 --json pg.json
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from memlane.bench.scale import ScaleOptions, plot, run_scale
from memlane.cli.numbers import written
from memlane.errors import MemlaneError

console = Console(stderr=True)

_COLUMNS = ("add_per_s", "add_p95_ms", "search_p50_ms", "search_p95_ms", "context_p95_ms", "rss_mb")
_METHOD = (
    "Fill: synthetic memories written through the store port with batch-computed, cached embeddings "
    "(not timed). Measured: search and context through Memory (query embedding included) after "
    "warm-up, and a sample of real Memory.add calls through the whole write path."
)


def _sizes(value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(s.replace("_", "")) for s in value.split(",") if s.strip())
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of numbers") from None
    if not sizes or min(sizes) <= 0:
        raise click.BadParameter("sizes must be positive")
    return sizes


@click.group(name="bench")
def bench() -> None:
    """Benchmarks of memlane itself (numbers, never timed tests)."""


@bench.command()
@click.option("--store", help="Long-term store URL (default: a temporary embedded SQLite file).")
@click.option("--sessions", help="Session store URL, e.g. redis://127.0.0.1:6379/0.")
@click.option("--sizes", default="1000,10000,100000", show_default=True, help="Memories in the user's scope.")
@click.option("--searches", default=200, show_default=True, help="Searches timed at each size.")
@click.option("--contexts", default=50, show_default=True, help="Context blocks timed at each size.")
@click.option("--adds", default=50, show_default=True, help="Memory.add calls timed at each size.")
@click.option(
    "--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help="Write results here."
)
@click.option(
    "--plot",
    "plot_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="PNG (default: next to --json).",
)
def scale(
    store: str | None,
    sessions: str | None,
    sizes: str,
    searches: int,
    contexts: int,
    adds: int,
    json_out: Path | None,
    plot_out: Path | None,
) -> None:
    """Add, search and context latency, and memory, from 1k to 100k memories in one user's scope."""
    options = ScaleOptions(store, sessions, _sizes(sizes), searches, contexts, adds)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=True) as bars:
            tasks: dict[str, TaskID] = {}

            def progress(what: str, advance: int, total: int | None) -> None:
                if what not in tasks:
                    tasks[what] = bars.add_task(what, total=total)
                bars.advance(tasks[what], advance)

            results = run_scale(options, progress)
    except MemlaneError as exc:
        raise click.ClickException(str(exc)) from exc

    table = Table("size", *_COLUMNS, title=f"memlane bench scale — {results['store']}")
    for size, row in results["sizes"].items():
        table.add_row(f"{int(size):,}", *(f"{row[c]:,.2f}" for c in _COLUMNS))
    Console().print(table)
    console.print(_METHOD, style="dim")
    written(results, json_out, plot_out, lambda out: plot(results, out)).show(console)
