"""Calendar periods ``[at, end_at)`` counted from a reference time: a day (or a part of one), a week,
a weekend, a month, a year, a clock time. Weeks start on Monday; a period keeps the reference's tzinfo.

>>> from datetime import datetime
>>> p = week_period(datetime(2024, 6, 14), -1)
>>> p.at.date().isoformat(), p.end_at.date().isoformat(), p.granularity
('2024-06-03', '2024-06-10', 'week')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Period:
    """The span ``[at, end_at)`` a time expression names, and how fine it is."""

    at: datetime
    end_at: datetime
    granularity: str
    clock: tuple[int, int] | None = None  # set for a bare time of day, which may join a date before it
    part: tuple[int, int] | None = None  # the hours of a day it names (今晚: 18 to 24), when it stands alone


def midnight(d: datetime) -> datetime:
    return d.replace(hour=0, minute=0, second=0, microsecond=0)


def day_period(d: datetime, offset: int = 0, part: tuple[int, int] | None = None) -> Period:
    start = midnight(d) + timedelta(days=offset)
    return Period(start, start + timedelta(days=1), "day", part=part)


# the part of a day a word names: "今晚开会" said at 9am is a plan, "this morning" at 5pm is past
MORNING, AFTERNOON, EVENING_HOURS = (6, 12), (12, 18), (18, 24)
ZH_PARTS = {"今早": MORNING, "明早": MORNING, "今晚": EVENING_HOURS, "今夜": EVENING_HOURS,
             "明晚": EVENING_HOURS, "昨晚": EVENING_HOURS, "昨夜": EVENING_HOURS}  # fmt: skip
EN_PARTS = {"tonight": EVENING_HOURS, "this morning": MORNING, "this afternoon": AFTERNOON,
             "this evening": EVENING_HOURS, "last night": EVENING_HOURS}  # fmt: skip


def week_period(d: datetime, offset: int = 0) -> Period:
    start = midnight(d) - timedelta(days=d.weekday()) + timedelta(weeks=offset)
    return Period(start, start + timedelta(weeks=1), "week")


def weekend_period(now: datetime, week_offset: int) -> Period:
    start = week_period(now, week_offset).at + timedelta(days=5)
    return Period(start, start + timedelta(days=2), "day")


def month_start(now: datetime, year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return midnight(now).replace(year=year, month=month, day=1)


def month_period(now: datetime, offset: int = 0, year: int | None = None, month: int | None = None) -> Period:
    start = month_start(now, year or now.year, (month or now.month) + offset)
    return Period(start, month_start(start, start.year, start.month + 1), "month")


def year_period(now: datetime, year: int) -> Period | None:
    if not 1 <= year <= 9998:
        return None
    start = midnight(now).replace(year=year, month=1, day=1)
    return Period(start, start.replace(year=year + 1), "year")


def date_period(now: datetime, year: int | None, month: int | None, day: int | None) -> Period | None:
    """A calendar day, or a whole month when ``day`` is None; None when it does not exist."""
    if month is None or not 1 <= month <= 12 or (year is not None and not 1 <= year <= 9998):
        return None
    if day is None:
        return month_period(now, 0, year or now.year, month)
    try:
        start = midnight(now).replace(year=year or now.year, month=month, day=day)
    except ValueError:  # 2月30日
        return None
    return Period(start, start + timedelta(days=1), "day")


def shifted(now: datetime, amount: int, unit: str) -> Period | None:
    """The period ``amount`` units away: 3天前 is the whole day three days ago."""
    if unit in ("minute", "hour"):
        step, base = timedelta(minutes=1), now.replace(second=0, microsecond=0)
        if unit == "hour":
            step, base = timedelta(hours=1), base.replace(minute=0)
        return Period(base + amount * step, base + (amount + 1) * step, unit)
    if unit == "day":
        return day_period(now, amount)
    if unit == "week":
        return week_period(now, amount)
    return month_period(now, amount) if unit == "month" else year_period(now, now.year + amount)


def clock_period(now: datetime, hour: int | None, minute: int) -> Period | None:
    if hour is None or not 0 <= hour <= 24 or not 0 <= minute <= 59:
        return None
    start = midnight(now) + timedelta(hours=hour, minutes=minute)
    step = timedelta(minutes=1) if minute else timedelta(hours=1)
    return Period(start, start + step, "minute" if minute else "hour", clock=(hour, minute))
