"""A SQLite file another process holds locked: a write fails within seconds, saying so."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memlane import Memory, StoreUnavailable
from memlane.store.sqlite import BUSY_SECONDS


def test_a_write_to_a_locked_file_fails_soon_and_says_why(tmp_path: Path) -> None:
    db = tmp_path / "memlane.db"
    with Memory(db) as mem:
        mem.add("我喜欢喝美式", user_id="u1")
        holder = sqlite3.connect(db, isolation_level=None)  # another process, as far as SQLite knows
        holder.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreUnavailable) as caught:
                mem.add("我住在杭州", user_id="u1")
            assert "is locked by another process or connection" in str(caught.value)
            assert f"waited {BUSY_SECONDS:g} s" in str(caught.value)
            assert BUSY_SECONDS <= 5
            assert [m.text for m in mem.list("u1")] == ["我喜欢喝美式"]  # reads go on (WAL)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        mem.add("我住在杭州", user_id="u1")  # and writes once it is free
