"""Where the measuring commands' numbers go: JSON and PNG files through :func:`written`."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from rich.console import Console

from memlane.cli.numbers import written
from memlane.errors import MissingExtra


def _draw(path: Path) -> Path:
    path.write_bytes(b"\x89PNG")
    return path


def test_the_json_and_its_picture_are_written_with_their_directory(tmp_path: Path) -> None:
    out = tmp_path / "new" / "numbers.json"
    files = written({"R@10": 0.79, "语言": "zh"}, out, None, _draw)
    assert files.lines == [f"wrote {out}", f"wrote {out.with_suffix('.png')}"]
    assert json.loads(out.read_text(encoding="utf-8")) == {"R@10": 0.79, "语言": "zh"}
    assert out.with_suffix(".png").read_bytes() == b"\x89PNG"
    files.show(Console(file=None, quiet=True))  # nothing failed: no exit


def test_a_picture_without_its_extra_leaves_the_numbers(tmp_path: Path) -> None:
    def no_matplotlib(path: Path) -> Path:
        raise MissingExtra("plots need the plot extra: pip install 'memlane[plot]'")

    files = written({"n": 1}, tmp_path / "n.json", None, no_matplotlib)
    assert files.lines[0] == f"wrote {tmp_path / 'n.json'}"
    assert files.lines[1].startswith("no plot: ")
    assert not files.failed


def test_nothing_asked_writes_nothing(tmp_path: Path) -> None:
    assert written({"n": 1}, None, None, _draw).lines == []
    assert list(tmp_path.iterdir()) == []


def test_a_path_that_cannot_be_written_fails_after_the_others(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    files = written({"n": 1}, tmp_path / "file" / "n.json", tmp_path / "plot.png", _draw)
    assert files.failed
    assert files.lines[0].startswith(f"error: could not write {tmp_path / 'file' / 'n.json'}")
    assert files.lines[1] == f"wrote {tmp_path / 'plot.png'}"
    with pytest.raises(click.exceptions.Exit):
        files.show(Console(quiet=True))
