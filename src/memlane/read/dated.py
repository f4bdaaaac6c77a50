"""How finely a memory's time is known: the day, or only the week, month or year its words named.

"去年我去了一趟日本" is stored from the start of 2024 (the period's first instant is what a time
index can hold), but the trip was not on New Year's Day: a line a model or a person reads says
``2024``. The words are parsed again at the time they were said, in the zone they were said in,
which the stored time itself tells: a period starts at midnight, so the zone is the one where the
stored instant is midnight (16:00 UTC is midnight at +08:00)::

    >>> from datetime import datetime, timezone
    >>> from memlane.domain import Kind, MemoryItem
    >>> trip = MemoryItem(user_id="u", text="去年我去了一趟日本", kind=Kind.EPISODIC,
    ...     valid_from=datetime(2023, 12, 31, 16, tzinfo=timezone.utc),
    ...     created_at=datetime(2025, 3, 3, 1, tzinfo=timezone.utc))
    >>> period(trip)
    ('year', '2024')
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from memlane.clock import aware, local
from memlane.domain import MemoryItem
from memlane.text.timeparse import find_times

_COARSE = ("week", "month", "year")


def period(item: MemoryItem) -> tuple[str, str] | None:
    """``(granularity, label)`` when the memory's words named a week, a month or a year and no finer
    time (``("month", "2025-02")``, ``("week", "2025-02-24")``: its Monday), else None."""
    if item.valid_from is None or item.created_at is None:
        return None
    zone = _midnight_zone(item.valid_from)
    start = aware(item.valid_from).astimezone(zone) if zone is not None else None
    if start is None or not (start.day == 1 or start.weekday() == 0):
        return None  # a week, a month or a year starts on a Monday or a first
    for mention in find_times(item.text, aware(item.created_at).astimezone(zone)):
        if mention.at == item.valid_from and mention.granularity in _COARSE:
            if mention.granularity == "year":
                return "year", f"{start.year}"
            if mention.granularity == "month":
                return "month", start.strftime("%Y-%m")
            return "week", start.date().isoformat()
    return None


def dated(item: MemoryItem, lang: str, now: datetime) -> str:
    """The label of a memory's time: its period as the user named it, or its day in the zone of
    ``now`` (the time the caller gave)."""
    named = period(item)
    if named is not None:
        granularity, label = named
        if granularity != "week":
            return label
        return f"{label} 那周" if lang == "zh" else f"week of {label}"
    when = item.valid_from or item.created_at
    return local(when, now).date().isoformat() if when is not None else ""


def _midnight_zone(value: datetime) -> timezone | None:
    """The fixed-offset zone in which ``value`` is midnight (the one west of +12:00 where two are),
    or None when it is midnight nowhere on a quarter hour."""
    utc = aware(value).astimezone(timezone.utc)
    seconds = utc.hour * 3600 + utc.minute * 60 + utc.second
    if utc.microsecond or seconds % 900:
        return None
    return timezone(timedelta(seconds=-seconds if seconds <= 12 * 3600 else 86400 - seconds))
