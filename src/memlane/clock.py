"""Time values: every instant memlane stores is timezone-aware; naive datetimes are read as UTC.

The core never reads the wall clock on its own: callers pass ``at=`` / ``now=``, and only the edges
(the facade's defaults, the CLI) call :func:`utcnow`.
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
