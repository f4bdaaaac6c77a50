"""The layout rules the package keeps (docs/architecture.md): small files with one job each."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "memlane"
MOST_LINES = 400  # split along a seam before this, never trim to fit


def test_no_source_file_is_over_400_lines() -> None:
    sizes = {
        p.relative_to(SRC).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in SRC.rglob("*.py")
    }
    assert sizes, f"no sources under {SRC}"
    over = {path: n for path, n in sorted(sizes.items()) if n > MOST_LINES}
    assert over == {}
