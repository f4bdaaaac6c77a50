"""``memlane eval changes``: whether a later message retires what it says no longer holds, and
``--train``, which rebuilds the ending head that reads such messages (docs/judge.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.status import Status
from rich.table import Table

from memlane.cli.numbers import PROGRESS, json_option, split_option, written


@click.command()
@split_option("dev: the half that may be tuned on; test: the held-out half.")
@json_option()
@click.option("--train", is_flag=True, help="Instead, rebuild the shipped ending head (a few minutes).")
def changes(split: str, json_out: Path | None, train: bool) -> None:
    """Changes of mind: pairs of messages twelve days apart, in Chinese, English and both; is the first
    retired when the second says it no longer holds, and kept when it still does?"""
    from memlane.eval import changes as pairs

    console = Console()
    if train:
        _train(console)
        return
    chosen = [p for p in pairs.load() if split in ("all", p["split"])]
    with Progress(*PROGRESS, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("pairs", total=len(chosen))
        report = pairs.evaluate(chosen, progress=lambda n, _: progress.update(task, completed=n))
    table = Table(title="Changes of mind (share decided right; vacuous pairs aside)")
    for name in ("half", "language", "pairs", "old retired", "old kept", "balanced"):
        table.add_column(name, justify="left" if name in ("half", "language") else "right")
    numbers = report.to_dict()["halves"]
    for half in ("dev", "test"):
        for lang in (*pairs.LANGS, "all"):
            n = numbers[half][lang]
            if n["pairs"]:
                row = (str(n["pairs"]), f"{n['replaces']:.3f}", f"{n['keeps']:.3f}", f"{n['balanced']:.3f}")
                table.add_row(half, lang, *row)
    console.print(table)
    written(report.to_dict(), json_out, None, lambda out: pairs.plot(report, out)).show(console)


def _train(console: Console) -> None:
    from memlane.eval import changes as pairs
    from memlane.write.judge import train as judge_train
    from memlane.write.judge.ending import EndingHead
    from memlane.write.judge.train_ending import build, lasting

    def score(groups: Sequence[tuple[EndingHead, Sequence[dict[str, Any]]]]) -> tuple[float, float]:
        report = pairs.Report()
        for head, chosen in groups:  # each group of dev pairs with the head fitted without it
            report.outcomes += pairs.evaluate(chosen, ending=head).outcomes
        return report.share("dev", None, "replaces"), report.share("dev", None, "keeps")

    with Console(stderr=True).status("training the ending head") as status:
        head, chosen = build(
            pairs.load("clauses.jsonl"),
            pairs.load(),
            lasting(judge_train.corpus("train")),
            score,
            progress=lambda line: _said(console, status, line),
        )
    head.save(EndingHead.path())
    console.print(f"wrote {EndingHead.path()}: {chosen}")


def _said(console: Console, status: Status, line: str) -> None:
    status.update(line)
    if line.startswith("threshold"):  # each pair of thresholds tried stays on screen
        console.print(line, markup=False)
