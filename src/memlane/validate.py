"""Checks on everything a caller passes in, so that bad input fails early, clearly, and writes nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from memlane.clock import aware
from memlane.domain import Kind, Message, Status
from memlane.errors import InvalidInput, TextTooLong
from memlane.privacy import sensitive
from memlane.settings import Settings
from memlane.text.lang import clean

ROLES = ("user", "assistant", "system")
# the times memlane accepts: far enough either way for any life, and far enough inside what a
# datetime can hold that an expiry or a period computed from them never overflows
EARLIEST = datetime(1900, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(3000, 1, 1, tzinfo=timezone.utc)


def _unicode(value: str, what: str) -> str:
    """``value`` if UTF-8 can encode it; a lone surrogate (``"\\ud800"``, which JSON can carry) no
    store can save."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} is not valid Unicode (a lone surrogate at character {exc.start}); send UTF-8 text"
        ) from None
    return value


def identifier(value: object, what: str, settings: Settings) -> str:
    """A user, session or memory id: a non-empty printable string of bounded length."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise InvalidInput(f"{what} must not be empty")
    if len(value) > settings.max_id_chars:
        raise InvalidInput(f"{what} is longer than {settings.max_id_chars} characters")
    if not value.isprintable():
        raise InvalidInput(f"{what} must not contain control characters")
    return _unicode(value, what)


def label(value: object, what: str, settings: Settings) -> str:
    """An identifier that is stored as it is and shown wherever its records are (a session id, a
    speaker's name, a tag): checked like :func:`identifier`, and refused when it holds sensitive
    data, which memlane masks in text but could not mask in a name without changing it.

    >>> label("13800138000", "session_id", Settings())
    Traceback (most recent call last):
    ...
    memlane.errors.InvalidInput: session_id holds a phone number; it is stored as it is: leave it out
    """
    checked = identifier(value, what, settings)
    found = sorted({f.kind for f in sensitive.scan(checked)})
    if found:
        raise InvalidInput(f"{what} holds {sensitive.described(found)}; it is stored as it is: leave it out")
    return checked


def labels(values: object, what: str, settings: Settings) -> list[str]:
    """A list of tags, each checked by :func:`label`."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidInput(f"{what} must be a list of strings")
    return [label(v, f"{what}[{i}]", settings) for i, v in enumerate(values)]


def caller(value: object, settings: Settings) -> str | None:
    """The name of the application or component making a call (for the audit log), or None."""
    return None if value is None else identifier(value, "caller", settings)


def text(value: object, settings: Settings, what: str = "text") -> str:
    """Message or memory text: decoded, cleaned, non-empty, within the length limit."""
    if isinstance(value, bytes | bytearray):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{what} is not valid UTF-8 (byte {exc.start}); decode it first") from None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    _unicode(value, what)
    if len(value) > settings.max_text_chars:
        raise TextTooLong(
            f"{what} has {len(value):,} characters; the limit is {settings.max_text_chars:,} "
            "(split it into messages, or raise MEMLANE_MAX_TEXT_CHARS)"
        )
    cleaned = clean(value.replace("\ufffd", ""))
    if not cleaned:
        raise InvalidInput(f"{what} is empty")
    return cleaned


def when(value: object, default: datetime) -> datetime:
    """A message time: a datetime (naive means UTC) from 1900 up to the year 3000, or ``default``
    when None.

    >>> when(datetime(9999, 12, 31), datetime(2025, 1, 1))
    Traceback (most recent call last):
    ...
    memlane.errors.InvalidInput: at must be from 1900-01-01 up to 3000-01-01 (UTC), not 9999-12-31T00:00:00
    """
    if value is None:
        return default
    if not isinstance(value, datetime):
        raise InvalidInput(f"at must be a datetime, not {type(value).__name__}")
    try:
        moment = aware(value)
        inside = EARLIEST <= moment < LATEST
    except OverflowError:  # an offset that pushes it past what a datetime holds
        inside = False
    if not inside:
        raise InvalidInput(
            f"at must be from {EARLIEST.date()} up to {LATEST.date()} (UTC), not {value.isoformat()}"
        )
    return moment


def messages(value: object, role: str, at: datetime, settings: Settings) -> list[Message]:
    """A string, or a list of ``{"role", "content"}`` mappings (or :class:`Message`), as messages."""
    if isinstance(value, str | bytes | bytearray):
        return [Message(role=role, content=text(value, settings), at=at)]
    if not isinstance(value, Sequence) or not value:
        raise InvalidInput("messages must be a non-empty string or a non-empty list of {role, content}")
    out: list[Message] = []
    for i, item in enumerate(value):
        if isinstance(item, Message):
            out.append(item)
            continue
        if not isinstance(item, Mapping):
            raise InvalidInput(f"messages[{i}] must be a mapping with role and content")
        out.append(_message(item, i, at, settings))
    return out


def _message(item: Mapping[str, Any], i: int, at: datetime, settings: Settings) -> Message:
    role = item.get("role", "user")
    if role not in ROLES:
        raise InvalidInput(f"messages[{i}].role must be one of {', '.join(ROLES)}, not {role!r}")
    name = item.get("name")
    if name is not None:  # the log keeps it as it is, and tags the turn with it
        name = label(name, f"messages[{i}].name", settings)
    extra: dict[str, Any] = {}
    if "id" in item:
        extra["id"] = identifier(item["id"], f"messages[{i}].id", settings)
    metadata = item.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise InvalidInput(f"messages[{i}].metadata must be a mapping")
    return Message(
        role=role,
        content=text(item.get("content"), settings, f"messages[{i}].content"),
        at=when(item.get("at"), at),
        name=name,
        metadata=dict(metadata),
        **extra,
    )


def kinds(values: Sequence[str]) -> tuple[Kind, ...]:
    """Kind names as :class:`Kind` values."""
    try:
        return tuple(Kind(k) for k in values)
    except ValueError:
        raise InvalidInput(f"kinds must be among {', '.join(k.value for k in Kind)}") from None


MAX_OFFSET = 10**12  # far beyond any store, well inside a database integer


def page(limit: object, offset: object) -> tuple[int, int]:
    """``limit`` (1 or more) and ``offset`` (0 to :data:`MAX_OFFSET`) of a listing, checked."""
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_OFFSET:
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_OFFSET}, not {limit!r}")
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= MAX_OFFSET:
        raise InvalidInput(f"offset must be a whole number from 0 to {MAX_OFFSET}, not {offset!r}")
    return limit, offset


def status(value: str) -> Status:
    """A status name as a :class:`Status`."""
    try:
        return Status(value)
    except ValueError:
        raise InvalidInput(f"status must be one of {', '.join(s.value for s in Status)}") from None
