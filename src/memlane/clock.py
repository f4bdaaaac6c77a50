"""Time values: every instant memlane stores is timezone-aware; naive datetimes are read as UTC.

The core never reads the wall clock on its own: callers pass ``at=`` / ``now=``, and only the edges
(the facade's defaults, the CLI) call :func:`utcnow`. Instants are stored in UTC; a day or a month a
person reads (a block's labels, a summary's title) is in the timezone of the time the caller gave
(:func:`local`): "10月18号" said at +08:00 is shown as the 18th, not as the 17th in UTC.
"""

from __future__ import annotations

from datetime import datetime, timezone


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(timezone.utc)


def aware(value: datetime) -> datetime:
    """``value`` with a timezone: naive datetimes are taken to be UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def to_epoch(value: datetime | None) -> float | None:
    """Seconds since the epoch, for storage and comparison across timezones."""
    return None if value is None else aware(value).timestamp()


def from_epoch(value: float | None) -> datetime | None:
    """The UTC datetime for stored epoch seconds."""
    return None if value is None else datetime.fromtimestamp(value, timezone.utc)


def local(value: datetime, like: datetime) -> datetime:
    """``value`` in the timezone of ``like`` (the time a caller gave: its day is the one they live in).

    >>> from datetime import timedelta
    >>> shanghai = timezone(timedelta(hours=8))
    >>> local(datetime(2025, 10, 17, 16, tzinfo=timezone.utc), datetime(2025, 8, 3, 9, tzinfo=shanghai)).day
    18
    """
    return aware(value).astimezone(aware(like).tzinfo)
