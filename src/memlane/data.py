"""One serialisation for every core dataclass: :func:`to_data` turns one into JSON-ready data and
:func:`from_data` reads it back, both driven by the dataclass's own field types.

Times are ISO 8601 (or epoch seconds, for storage: ``times="epoch"``; or datetimes, for a pydantic
model at the edge, which writes them itself: ``times="native"``), enums their values, frozensets
sorted lists, nested dataclasses nested objects. A field whose metadata says ``data=False`` (a
memory's embedding) is left out. Reading takes defaults for missing keys and refuses unknown ones::

    >>> from datetime import datetime, timezone
    >>> from memlane.domain import HistoryRecord
    >>> at = datetime(2025, 3, 3, tzinfo=timezone.utc)
    >>> r = HistoryRecord(user_id="u1", target_id="m1", op="add", at=at, id="h1")
    >>> to_data(r)["at"]
    '2025-03-03T00:00:00+00:00'
    >>> from_data(HistoryRecord, to_data(r)) == r
    True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from datetime import datetime
from enum import Enum
from typing import Any, Literal, TypeVar, Union

from memlane.clock import from_epoch, to_epoch
from memlane.errors import InvalidInput

T = TypeVar("T")
Times = Literal["iso", "epoch", "native"]


_FIELDS: dict[type, tuple[tuple[str, Any, bool], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, type, serialised) of each field of a dataclass, worked out once per class."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        found = _FIELDS[cls] = tuple((f.name, hints[f.name], f.metadata.get("data", True)) for f in fields)
    return found


def _out(value: Any, times: Times) -> Any:
    if isinstance(value, datetime):
        if times == "native":
            return value
        return value.isoformat() if times == "iso" else to_epoch(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(_out(v, times) for v in value)
    if isinstance(value, list | tuple):
        return [_out(v, times) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_data(value, times=times)
    return value


def to_data(obj: Any, *, times: Times = "iso") -> dict[str, Any]:
    """The dataclass ``obj`` as JSON-ready data."""
    return {name: _out(getattr(obj, name), times) for name, _, kept in _fields(type(obj)) if kept}


_READERS: dict[Any, Callable[[Any], Any]] = {}
_READS: dict[type, dict[str, Callable[[Any], Any]]] = {}  # a dataclass's field readers, by name


def _reader(kind: Any) -> Callable[[Any], Any]:
    """How a stored value becomes a field of type ``kind``, worked out once per type."""
    found = _READERS.get(kind)
    if found is None:
        found = _READERS[kind] = _make_reader(kind)
    return found


def _time(value: Any) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return from_epoch(value)
    return datetime.fromisoformat(str(value))


def _make_reader(kind: Any) -> Callable[[Any], Any]:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (Union, types.UnionType):
        inner = _reader(next(a for a in args if a is not type(None)))
        return lambda value: None if value is None else inner(value)
    if kind is datetime:
        return _time
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return lambda value: from_data(kind, value)
    if origin in (list, tuple, frozenset):
        item = _reader(args[0]) if args else None

        def sequence(value: Any) -> Any:
            if isinstance(value, str | bytes | Mapping):
                raise TypeError(f"expected a list, not {type(value).__name__}")
            items = [item(v) for v in value] if item is not None else list(value)
            return origin(items) if origin is not list else items

        return sequence
    if origin is dict:
        return dict
    if kind in (str, int, float, bool):
        return typing.cast("Callable[[Any], Any]", kind)
    return lambda value: value


def from_data(cls: type[T], data: Any, *, where: str | None = None) -> T:
    """The ``cls`` that :func:`to_data` described; :class:`InvalidInput` naming ``where`` (or the
    class) when the data does not fit."""
    label = where or cls.__name__
    if not isinstance(data, dict | Mapping):
        raise InvalidInput(f"{label} must be an object")
    reads = _READS.get(cls)
    if reads is None:
        reads = _READS[cls] = {name: _reader(kind) for name, kind, _ in _fields(cls)}
    if not reads.keys() >= data.keys():
        raise InvalidInput(f"{label}: unknown fields {', '.join(sorted(data.keys() - reads.keys()))}")
    try:
        return cls(**{name: reads[name](value) for name, value in data.items()})
    except (KeyError, TypeError, ValueError, AttributeError, StopIteration) as exc:
        raise InvalidInput(f"{label}: {exc}") from None
