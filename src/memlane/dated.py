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
    named = _named(item, _COARSE)
    return None if named is None else (named[0], _label(*named))


def passed(item: MemoryItem, now: datetime) -> bool:
    """Whether the time a memory names is over by ``now``: its day, or the whole week, month or year
    its words named (a plan for 下个月 made in June is not over before August). A memory whose words
    name no time has none to be over."""
    if item.valid_from is None:
        return False
    day_end = aware(item.valid_from) + timedelta(days=1)
    if aware(now) < day_end:
        return False  # a named week, month or year ends no sooner: no need to parse its words again
    said_then = item.created_at is not None and aware(item.valid_from) == aware(item.created_at)
    if said_then and not find_times(item.text, aware(item.valid_from)):
        # dated by when it was said, with no time in its words: a plan with no day of its own
        # ("还是想换台车了") has no day to be over
        return False
    named = _named(item, _COARSE)
    if named is None:
        end = day_end
    elif named[0] == "week":
        end = named[1] + timedelta(days=7)
    elif named[0] == "month":
        end = (named[1].replace(day=28) + timedelta(days=4)).replace(day=1)
    else:
        end = named[1].replace(year=named[1].year + 1)
    return aware(now) >= end


def said(item: MemoryItem) -> str:
    """An episode's time as its indexes hold it: the period its words named, or the day they named
    in the zone they were said in ("10月18号" said at +08:00 is 2025-10-18, though stored as 16:00
    UTC the day before), else the day in UTC."""
    assert item.valid_from is not None
    named = _named(item, ("day", *_COARSE))
    if named is None:
        return aware(item.valid_from).astimezone(timezone.utc).date().isoformat()
    return _label(*named)


def _named(item: MemoryItem, grains: tuple[str, ...]) -> tuple[str, datetime] | None:
    """The granularity of the time the memory's words named, if it is one of ``grains``, and where
    the named period starts in the zone they were said in."""
    if item.valid_from is None or item.created_at is None:
        return None
    zone = _midnight_zone(item.valid_from)
    if zone is None:
        return None
    start = aware(item.valid_from).astimezone(zone)
    if "day" not in grains and not (start.day == 1 or start.weekday() == 0):
        return None  # a week, a month or a year starts on a Monday or a first
    for mention in find_times(item.text, aware(item.created_at).astimezone(zone)):
        if mention.at == item.valid_from and mention.granularity in grains:
            return mention.granularity, start
    return None


def _label(granularity: str, start: datetime) -> str:
    if granularity == "year":
        return f"{start.year}"
    if granularity == "month":
        return start.strftime("%Y-%m")
    return start.date().isoformat()  # a day, or a week's Monday


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
