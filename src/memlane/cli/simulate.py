"""``memlane simulate``: play a generated year for one user and report how memory grows and stays true."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from memlane.cli.numbers import written
from memlane.extras import optional
from memlane.simulate.run import simulate as run_simulation


def plot(result: dict[str, Any], path: Path) -> None:
    """Active items by kind, and messages seen, month by month, as a PNG."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    months = [m["month"] for m in result["months"]]
    fig, left = plt.subplots(figsize=(8, 4.5))
    bottom = [0] * len(months)
    for kind in ("profile", "semantic", "episodic", "summary"):
        values = [m["active_by_kind"][kind] for m in result["months"]]
        left.bar(months, values, bottom=bottom, label=f"active {kind}")
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    left.set_xlabel("month")
    left.set_ylabel("active memories")
    right = left.twinx()
    right.plot(
        months, [m["messages"] for m in result["months"]], color="black", marker="o", label="messages seen"
    )
    right.set_ylabel("messages seen")
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    labels = left.get_legend_handles_labels()[1] + right.get_legend_handles_labels()[1]
    left.legend(handles, labels, loc="upper left", fontsize="small")
    final = result["final"]
    left.set_title(
        f"memlane simulate: {final['messages']} messages, {final['active']} active memories, "
        f"stable recalled {final['stable_recalled']:.0%}, outdated active {final['outdated_active']:.0%}",
        fontsize="small",
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


@click.command()
@click.option("--days", default=365, show_default=True, type=click.IntRange(1, 3650))
@click.option("--seed", default=7, show_default=True, type=int)
@click.option(
    "--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help="Write the result as JSON."
)
@click.option(
    "--plot", "plot_out", type=click.Path(dir_okay=False, path_type=Path), help="PNG of the growth curve."
)
def simulate(days: int, seed: int, json_out: Path | None, plot_out: Path | None) -> None:
    """Simulate one user's conversations over DAYS days, with daily maintenance."""
    console = Console()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("simulating days", total=days)
        result = run_simulation(days=days, seed=seed, on_day=lambda _: progress.advance(task))
    # short headers: the table must fit an 80-column terminal or a log file
    table = Table("month", "msgs", "active", "prof", "sem", "epi", "summ", "exp", "merg", "comp", "arch")
    for m in result["months"]:
        kinds = m["active_by_kind"]
        table.add_row(
            *(
                str(x)
                for x in (
                    m["month"],
                    m["messages"],
                    m["active"],
                    kinds["profile"],
                    kinds["semantic"],
                    kinds["episodic"],
                    kinds["summary"],
                    m["expired"],
                    m["merged"],
                    m["compressed"],
                    m["archived"],
                )
            )
        )
    console.print(table)
    final = result["final"]
    console.print(f"stable facts recalled: {final['stable_recalled']:.0%}")
    console.print(f"outdated facts still active: {final['outdated_active']:.0%}")
    console.print(f"active items per 1,000 messages: {final['items_per_1000_messages']}")
    written(result, json_out, plot_out, lambda out: plot(result, out)).show(console)
