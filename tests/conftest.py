"""Shared fixtures: a real embedded store in a temporary file and the real bundled embedder."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from memlane import Memory

T0 = datetime(2025, 3, 3, 8, 30, tzinfo=timezone(timedelta(hours=8)))


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memlane.db"


def days(n: float) -> datetime:
    """The scenario clock: ``n`` days after T0."""
    return T0 + timedelta(days=n)


SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture
def seed_lines() -> list[str]:
    path = SHARED / "scenarios" / "seed-profile.txt"
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
