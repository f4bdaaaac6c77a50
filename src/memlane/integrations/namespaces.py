"""Namespaces, filters and text paths of a namespaced item store (LangGraph's), with no framework
imported: the rules the LangGraph adapter and the REST routes share.

A namespace is a tuple of labels, such as ``("u1", "memories")``. :class:`NamespaceScope` says which
label names memlane's user (the first, unless told otherwise); every label, the user's too, becomes a
tag of the item and of the memories made from it (``langgraph:u1``, ``langgraph:u1.memories``), so a
prefix of the namespace is a tag filter. The tenant is not a label: the service takes it from the API
key, and an application with tenants builds one :class:`~memlane.Memory` per tenant.

>>> NamespaceScope(user=1).user_of(("memories", "u1"))
'u1'
>>> prefix_tags(("u1", "memories"))
['langgraph', 'langgraph:u1', 'langgraph:u1.memories']
>>> matches(("u1", "memories", "food"), prefix=("u1", "*"), suffix=("food",))
True
>>> passes({"score": 4.5, "kind": "pref"}, {"score": {"$gte": 4}, "kind": "pref"})
True
>>> texts_at({"facts": [{"text": "likes tea"}, {"text": "walks daily"}]}, "facts[*].text")
['likes tea', 'walks daily']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memlane.errors import InvalidInput

TAG = "langgraph"  # every item, and every memory made from one, carries this tag
_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
# fields whose text is the item's, when neither the store nor the put names any
_TEXT_FIELDS = ("text", "content", "memory", "data")


def check_labels(namespace: Sequence[object], what: str = "namespace") -> tuple[str, ...]:
    """``namespace`` as a tuple of labels, each a non-empty string without ``.`` or NUL (LangGraph's
    rules)."""
    if isinstance(namespace, str) or not isinstance(namespace, Sequence):
        raise InvalidInput(f"{what} must be a list of strings, not {type(namespace).__name__}")
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidInput(f"{what} labels must be strings, not {type(label).__name__} ({label!r})")
        if not label:
            raise InvalidInput(f"{what} labels must not be empty: {tuple(namespace)!r}")
        if "." in label:
            raise InvalidInput(f"{what} label {label!r} contains a period, which namespaces cannot hold")
        if "\x00" in label:
            raise InvalidInput(f"{what} label {label!r} contains a NUL byte")
    return tuple(str(label) for label in namespace)


def check_namespace(namespace: Sequence[object]) -> tuple[str, ...]:
    """A namespace an item can be put in: labels as :func:`check_labels`, at least one, and a first
    label other than ``"langgraph"`` (reserved by LangGraph)."""
    labels = check_labels(namespace)
    if not labels:
        raise InvalidInput("namespace must not be empty")
    if labels[0] == "langgraph":
        raise InvalidInput(f'the first label of a namespace cannot be "langgraph": {labels!r}')
    return labels


@dataclass(frozen=True)
class NamespaceScope:
    """Which label of a namespace names memlane's user: ``user=0`` for ``("u1", "memories")``,
    ``user=1`` for ``("memories", "u1")``."""

    user: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.user, int) or self.user < 0:
            raise InvalidInput(f"the user label's position must be 0 or more, not {self.user!r}")

    def user_of(self, namespace: tuple[str, ...]) -> str:
        """The user a full namespace belongs to."""
        if len(namespace) <= self.user:
            raise InvalidInput(
                f"namespace {namespace!r} has no label at position {self.user} to name the user "
                f"(the store maps label {self.user} to memlane's user_id)"
            )
        return namespace[self.user]

    def user_in(self, prefix: Sequence[str]) -> str | None:
        """The one user a prefix or pattern limits itself to, or None when it spans users."""
        if len(prefix) > self.user and prefix[self.user] != "*":
            return prefix[self.user]
        return None


def path(namespace: Sequence[str]) -> str:
    """A namespace as one string, labels joined by ``.`` (which no label holds), as LangGraph's REST API
    writes it."""
    return ".".join(namespace)


def prefix_tags(namespace: Sequence[str]) -> list[str]:
    """The tags of an item in ``namespace``: :data:`TAG` and one per prefix of the namespace."""
    return [TAG, *(f"{TAG}:{path(namespace[: i + 1])}" for i in range(len(namespace)))]


def prefix_tag(prefix: Sequence[str]) -> str:
    """The tag every item under ``prefix`` carries."""
    return f"{TAG}:{path(prefix)}" if prefix else TAG


_ITEM = f"{TAG}-item:"
# a record id is hex; its digits go into a tag as the letters g-p, since a run of digits in a tag
# reads as a phone or card number, which memlane refuses to store in a tag
_DIGITS_AS_LETTERS = str.maketrans("0123456789", "ghijklmnop")
_LETTERS_AS_DIGITS = str.maketrans("ghijklmnop", "0123456789")


def item_tag(record_id: str) -> str:
    """The tag each memory made from an item carries, naming the item's record: a search's hits name
    the records they found, which are then read by id.

    >>> item_tag("0a19")
    'langgraph-item:gahp'
    >>> tagged_items(["langgraph:u1", item_tag("0a19")])
    ['0a19']
    """
    return _ITEM + record_id.translate(_DIGITS_AS_LETTERS)


def tagged_items(tags: Sequence[str]) -> list[str]:
    """The record ids that :func:`item_tag` wrote into ``tags``."""
    return [t[len(_ITEM) :].translate(_LETTERS_AS_DIGITS) for t in tags if t.startswith(_ITEM)]


def address(namespace: Sequence[str], key: str) -> str:
    """An item's unique address (its record's ``slot``): JSON, so no label or key can forge another's."""
    return f"{TAG}:" + json.dumps([list(namespace), key], ensure_ascii=False, separators=(",", ":"))


def matches(
    namespace: tuple[str, ...],
    *,
    prefix: Sequence[str] | None = None,
    suffix: Sequence[str] | None = None,
) -> bool:
    """Whether a namespace starts with ``prefix`` and ends with ``suffix``; ``"*"`` matches any label."""
    for pattern, labels in ((prefix, namespace), (suffix, namespace[::-1])):
        if pattern is None:
            continue
        wanted = list(pattern) if pattern is prefix else list(pattern)[::-1]
        if len(labels) < len(wanted):
            return False
        if any(p != "*" and p != label for p, label in zip(wanted, labels, strict=False)):
            return False
    return True


def passes(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """Whether an item's value meets a filter: ``{"field": value}`` is equality (nested mappings and
    lists compared as JSON), ``{"field": {"$gt": 3}}`` a comparison (``$eq $ne $gt $gte $lt $lte``)."""
    if not conditions:
        return True
    if not isinstance(conditions, Mapping):
        raise InvalidInput(f"filter must be a mapping of field to value, not {type(conditions).__name__}")
    return all(_compare(value.get(field), wanted) for field, wanted in conditions.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_apply(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, Mapping) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _apply(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in _OPERATORS:
        raise InvalidInput(f"unknown filter operator {op!r}; use one of {', '.join(_OPERATORS)}")
    try:
        left, right = float(actual), float(operand)
    except (TypeError, ValueError):
        return False  # a missing or non-numeric field is not greater or smaller than anything
    return {"$gt": left > right, "$gte": left >= right, "$lt": left < right, "$lte": left <= right}[op]


_STEP = re.compile(r"([^.\[\]]+)|\[(\*|-?\d+)\]")


def texts_at(value: Any, field_path: str) -> list[str]:
    """The strings at a JSON path of LangGraph's syntax: ``"a.b"``, ``"a[0]"``, ``"a[-1]"``, ``"a[*].b"``,
    or ``"$"`` for the whole value (as JSON)."""
    if field_path == "$":
        return [json.dumps(value, ensure_ascii=False)]
    steps = [(name, index) for name, index in _STEP.findall(field_path)]
    if not steps:
        raise InvalidInput(f"index path {field_path!r} is not a field path such as 'text' or 'facts[*].text'")
    found: list[Any] = [value]
    for name, index in steps:
        nxt: list[Any] = []
        for node in found:
            if name and isinstance(node, Mapping) and name in node:
                nxt.append(node[name])
            elif index == "*" and isinstance(node, list):
                nxt.extend(node)
            elif index and index != "*" and isinstance(node, list) and -len(node) <= int(index) < len(node):
                nxt.append(node[int(index)])
        found = nxt
    return [s for node in found for s in _strings(node)]


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node] if node.strip() else []
    if isinstance(node, Mapping):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []  # numbers, booleans and nulls are data to filter on, not text to remember


def item_texts(value: Mapping[str, Any], fields: Sequence[str] | None) -> list[str]:
    """The texts of an item that become memories: those at ``fields``, or by default the value's
    ``text`` / ``content`` / ``memory`` / ``data`` string, else all its strings in one line."""
    if fields is not None:
        return list(dict.fromkeys(t for f in fields for t in texts_at(value, f)))
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return [text]
    leaves = _strings(dict(value))
    return ["; ".join(leaves)] if leaves else []
