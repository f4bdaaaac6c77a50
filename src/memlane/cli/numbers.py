"""What the CLI's measuring commands share: their ``--split`` and ``--json`` options, their progress
bars, and the files their numbers go to (``memlane eval …``, ``memlane bench scale``, ``memlane
simulate``).

A run may take minutes; a path the user gave must not lose its numbers. A missing directory is made,
a file that cannot be written says so in one line after the tables are printed, and the command then
exits with status 1::

    files = written(report.to_dict(), json_out, None, lambda path: scored.plot(report, path))
    console.print(table)
    files.show(console)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from memlane.errors import MissingExtra

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

PROGRESS = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
"""The columns of every measuring command's progress bar."""


def split_option(
    help_text: str, choices: tuple[str, ...] = ("all", "dev", "test"), default: str = "all"
) -> Decorator:
    """``--split``: which half of a data set to run."""
    return click.option(
        "--split", type=click.Choice(list(choices)), default=default, show_default=True, help=help_text
    )


def json_option(help_text: str = "Write the numbers as JSON (and a PNG next to it).") -> Decorator:
    """``--json PATH``, passed as ``json_out``."""
    return click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help=help_text)


@dataclass
class Written:
    """What :func:`written` wrote, one line each, and whether a file could not be written."""

    lines: list[str] = field(default_factory=list)
    failed: bool = False

    def show(self, console: Console) -> None:
        """Print the lines; exit with status 1 when a file could not be written."""
        for line in self.lines:
            console.print(line, markup=False)
        if self.failed:
            raise click.exceptions.Exit(1)


def written(
    document: Any, json_out: Path | None, plot_out: Path | None, plot: Callable[[Path], object]
) -> Written:
    """Write ``document`` as JSON to ``json_out`` and the picture ``plot`` draws to ``plot_out``
    (by default the PNG next to the JSON), making missing directories."""
    done = Written()
    if json_out is not None:
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        _write(done, json_out, lambda path: path.write_text(text, encoding="utf-8"))
        plot_out = plot_out or json_out.with_suffix(".png")
    if plot_out is not None:
        _write(done, plot_out, plot)
    return done


def _write(done: Written, path: Path, write: Callable[[Path], object]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path)
    except MissingExtra as exc:  # the numbers stand without their picture
        done.lines.append(f"no plot: {exc}")
    except OSError as exc:
        done.lines.append(f"error: could not write {path}: {exc.strerror or exc}")
        done.failed = True
    else:
        done.lines.append(f"wrote {path}")
