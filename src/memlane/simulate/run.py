"""Play a generated year into a real :class:`~memlane.Memory` with daily maintenance, and measure,
month by month, how much is kept; at the end, whether what is true is remembered and what is no
longer true is gone.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from memlane.domain import Action, EventStatus, Kind, Status
from memlane.memory import Memory
from memlane.simulate.generator import Year, generate, outdated_keys

USER = "sim-user"
_LONG_TERM = (Action.SEMANTIC, Action.EPISODIC, Action.PROFILE)
_MEMORY_KINDS = ("semantic", "episodic", "profile", "summary")


def _active_by_kind(mem: Memory) -> dict[str, int]:
    counts = Counter(m.kind.value for m in mem.list(USER, kinds=_MEMORY_KINDS, limit=100_000))
    return {kind: counts.get(kind, 0) for kind in _MEMORY_KINDS}


def simulate(
    days: int = 365,
    seed: int = 7,
    path: str | None = None,
    on_day: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run the simulation; returns ``{"months": [...], "final": {...}}`` (shares in [0, 1])."""
    year = generate(days, seed)
    with tempfile.TemporaryDirectory() as tmp, Memory(path or Path(tmp) / "simulate.db") as mem:
        return _play(mem, year, days, on_day)


def _play(mem: Memory, year: Year, days: int, on_day: Callable[[int], None] | None) -> dict[str, Any]:
    statement_ids: dict[str, set[str]] = {}
    by_day: dict[int, list[int]] = {}
    for i, message in enumerate(year.messages):
        by_day.setdefault(message.day, []).append(i)
    months: list[dict[str, Any]] = []
    totals: Counter[str] = Counter()
    seen = 0
    for day in range(days):
        for n, index in enumerate(by_day.get(day, [])):
            message = year.messages[index]
            at = year.start + timedelta(days=day, minutes=5 * n)
            result = mem.add(message.text, user_id=USER, session_id=message.session, at=at)
            seen += 1
            if message.states:
                # the memory that asserts the statement (not a "no longer X" that came with it)
                statement_ids.setdefault(message.states, set()).update(
                    d.memory.id
                    for d in result.decisions
                    if d.action in _LONG_TERM and d.memory and d.memory.polarity > 0
                )
        report = mem.maintain(now=year.start + timedelta(days=day + 1), user_id=USER)
        totals.update(
            expired=report.expired,
            merged=report.merged,
            compressed=report.compressed,
            archived=report.archived,
        )
        if (day + 1) % 30 == 0 or day + 1 == days:
            active = _active_by_kind(mem)
            months.append(
                {
                    "month": len(months) + 1,
                    "day": day + 1,
                    "messages": seen,
                    "active": sum(active.values()),
                    "active_by_kind": active,
                    **dict(totals),
                }
            )
            totals.clear()
        if on_day is not None:
            on_day(day)
    return {"months": months, "final": _final(mem, year, days, seen, statement_ids)}


def _final(
    mem: Memory, year: Year, days: int, seen: int, statement_ids: dict[str, set[str]]
) -> dict[str, Any]:
    now = year.start + timedelta(days=days)
    recalled: dict[str, bool] = {}
    for fact in year.facts:
        hits = mem.search(fact.question, user_id=USER, limit=5, include_log=False, now=now)
        recalled[fact.key] = any(
            h.memory.status is Status.ACTIVE and any(a.lower() in h.memory.text.lower() for a in fact.answers)
            for h in hits
        )
    outdated = sorted(outdated_keys(year))
    still_active: dict[str, bool] = {}
    for key in outdated:
        items = [mem.get(i, user_id=USER) for i in statement_ids.get(key, ()) if _exists(mem, i)]
        still_active[key] = any(
            m.status is Status.ACTIVE
            and m.event_status is not EventStatus.RESOLVED
            and m.kind is not Kind.LOG
            for m in items
        )
    active = sum(_active_by_kind(mem).values())
    return {
        "messages": seen,
        "active": active,
        "stable_recalled": sum(recalled.values()) / len(recalled) if recalled else 1.0,
        "outdated_active": sum(still_active.values()) / len(still_active) if still_active else 0.0,
        "items_per_1000_messages": round(1000 * active / max(1, seen), 1),
        "recalled": recalled,
        "outdated": still_active,
    }


def _exists(mem: Memory, memory_id: str) -> bool:
    return mem.stores.records.get(USER, memory_id) is not None
