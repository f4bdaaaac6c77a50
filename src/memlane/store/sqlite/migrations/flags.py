"""memlane's own marks as typed columns (m013): a log turn's role and a record's flags move out of the
user's tags."""

from __future__ import annotations

import json
import sqlite3


def m013_typed_flags(db: sqlite3.Connection) -> None:
    # memlane's own marks leave the user's tag namespace: who said a log turn ("role:user") becomes
    # the role column, and "outdated", "chatter", "flag:injection" and a trend's "trend" become flags
    db.execute("ALTER TABLE memories ADD COLUMN role TEXT")
    db.execute("ALTER TABLE memories ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'")
    rows = db.execute(
        "SELECT id, kind, tags FROM memories WHERE tags != '[]' AND EXISTS (SELECT 1 FROM json_each(tags) "
        "WHERE value LIKE 'role:%' OR value IN ('outdated', 'chatter', 'flag:injection', 'trend'))"
    ).fetchall()
    for memory_id, kind, tags in rows:
        role, flags, kept = _typed(json.loads(tags), kind)
        db.execute(
            "UPDATE memories SET role = ?, flags = ?, tags = ? WHERE id = ?",
            (role, json.dumps(flags), json.dumps(kept, ensure_ascii=False), memory_id),
        )


def _typed(tags: list[str], kind: str) -> tuple[str | None, list[str], list[str]]:
    """(role, flags, the user's tags) from the tags a record held before m013."""
    names = {"outdated": "outdated", "chatter": "chatter", "flag:injection": "instruction"}
    if kind != "log":
        names = {"flag:injection": "instruction", "trend": "derived"}
    role = next((t.removeprefix("role:") for t in tags if kind == "log" and t.startswith("role:")), None)
    flags = sorted({names[t] for t in tags if t in names})
    kept = [t for t in tags if t not in names and not (kind == "log" and t.startswith("role:"))]
    return role, flags, kept
