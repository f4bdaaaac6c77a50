"""A namespaced key-value store of items on a :class:`~memlane.Memory`: what LangGraph's ``BaseStore``
and its REST routes need, with no framework imported.

Each item is two things in memlane. Its **record** holds the item as the application wrote it
(namespace, key, the value dict, times, TTL): a row of the user's conversation log (``kind = log``),
addressed by a ``slot`` unique to (namespace, key), so that every deletion path of memlane reaches it
and ``list()`` does not show it as a memory. Its **memories** are its texts written with
:meth:`Memory.remember <memlane.Memory.remember>`: judged (sensitive data never kept), deduplicated
and reconciled with what the user's memory holds, and found by memlane's hybrid search. A record's
``provenance`` is its memories' message ids, so deleting such a memory (the user's own "forget")
deletes the item too.

::

    items = Items(Memory(":memory:"))
    items.put(("u1", "memories"), "m1", {"text": "I prefer email to phone calls"})
    items.search(("u1",), query="how should we contact the user?")[0].value
    # {'text': 'I prefer email to phone calls'}

``Item.value`` comes back as it was put, except for sensitive values (ID and card numbers, keys,
phone numbers...), which are masked in the record as they are in every memory.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from memlane import validate
from memlane.clock import utcnow
from memlane.domain import Decision, Kind, MemoryItem, Status, new_id
from memlane.errors import InvalidInput, NotFound
from memlane.integrations.finding import Finder
from memlane.integrations.namespaces import (
    TAG,
    NamespaceScope,
    address,
    check_labels,
    check_namespace,
    item_tag,
    item_texts,
    matches,
    prefix_tags,
)
from memlane.integrations.records import StoredItem, checked_value, item_of, live, new_record, tokens
from memlane.memory import Memory
from memlane.vocabulary import MemoryQuery

MAX_TTL_MINUTES = 100 * 366 * 24 * 60
"""The longest TTL an item may have (a century; a longer one is no TTL, which ``ttl=None`` says)."""

Index = bool | Sequence[str] | None
"""What of a value becomes memories: None the store's ``fields``, False nothing, or JSON paths."""


class Items:
    """Namespaced items over one :class:`~memlane.Memory` (for the service, one tenant's).

    ``scope`` says which namespace label is the user; ``fields`` are the JSON paths whose text is
    remembered (default: a ``text``/``content``/``memory``/``data`` field, else every string);
    ``caller`` names this surface in the audit log; ``clock`` gives the time (tests move it).
    """

    def __init__(
        self,
        memory: Memory,
        *,
        scope: NamespaceScope | None = None,
        fields: Sequence[str] | None = None,
        caller: str = "langgraph",
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.memory = memory
        self.scope = scope or NamespaceScope()
        self.fields = list(fields) if fields is not None else None
        self.caller = caller
        self.clock = clock
        self.finder = Finder(memory, caller)

    # -- one item ---------------------------------------------------------------------------------

    def put(
        self,
        namespace: Sequence[str],
        key: str,
        value: Mapping[str, Any] | None,
        *,
        index: Index = None,
        ttl: float | None = None,
    ) -> None:
        """Store ``value`` under (namespace, key), replacing what was there; ``None`` deletes it.
        ``ttl`` is in minutes from the last read or write."""
        ns = check_namespace(namespace)
        key = _key(key)
        if value is None:
            self.delete(ns, key)
            return
        uid = self._user(ns)
        body = checked_value(value, self.memory.settings.max_text_chars)
        if ttl is not None and (
            not isinstance(ttl, int | float) or isinstance(ttl, bool) or not 0 < ttl <= MAX_TTL_MINUTES
        ):
            raise InvalidInput(
                f"ttl must be a number of minutes above 0 and up to {MAX_TTL_MINUTES}, not {ttl!r}"
            )
        if not self.memory.consent(uid).enabled:
            return  # the user turned memory off: nothing is kept, as Memory.add keeps nothing
        now = self.clock()
        if isinstance(index, str):
            index = [index]
        fields = self.fields if index is None or index is True else list(index) if index else []
        texts = item_texts(body, fields)
        found = self._records(uid, ns, key)
        old = found[0] if found else None
        record_id = old.id if old is not None else new_id()

        def write(memories: list[str], provenance: list[str]) -> None:
            for stale in found[1:]:  # two writers raced on one key: the newest record stays
                self.memory.stores.records.delete(uid, [stale.id])
            record = new_record(record_id, uid, ns, key, body, texts, memories, provenance, now, ttl, old)
            self.memory.stores.records.put(record, tokens(record))

        if old is not None and old.value.get("texts") == texts:
            write(list(old.value.get("memories", [])), list(old.provenance))
        else:
            for record in found:
                self._forget_memories(uid, record)
            self._remember(uid, ns, record_id, texts, now, write)

    def get(self, namespace: Sequence[str], key: str, *, refresh_ttl: bool = True) -> StoredItem | None:
        """The item, or None when there is none (or its TTL has passed)."""
        ns = check_labels(namespace)
        uid = self._user(ns)
        now = self.clock()
        found = [r for r in self._records(uid, ns, _key(key)) if live(r, now)]
        if not found:
            return None
        if refresh_ttl:
            self._refresh(found[:1], now)
        return item_of(found[0])

    def delete(self, namespace: Sequence[str], key: str) -> None:
        """Remove the item and the memories only it stated; deleting what is not there is no error."""
        ns = check_labels(namespace)
        uid = self._user(ns)
        found = self._records(uid, ns, _key(key))
        for record in found:
            self._forget_memories(uid, record)
        if found:
            self.memory.stores.records.delete(uid, [r.id for r in found])

    # -- many items -------------------------------------------------------------------------------

    def search(
        self,
        namespace_prefix: Sequence[str],
        *,
        query: str | None = None,
        filter: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool = True,
    ) -> list[StoredItem]:
        """Items under the prefix that pass ``filter``. With a ``query``, memlane's hybrid search ranks
        them (``score`` set, best first) and the items it does not find follow unscored; without one,
        the most recently updated come first."""
        prefix = check_labels(namespace_prefix, "namespace_prefix")
        limit, offset = _page(limit, offset)
        text = validate.text(query, self.memory.settings, "query") if query is not None else None
        if filter is not None and not isinstance(filter, Mapping):
            raise InvalidInput(f"filter must be a mapping of field to value, not {type(filter).__name__}")
        now = self.clock()
        one = self.scope.user_in(prefix)
        if one is not None and not filter:
            found = self.finder.within(one, prefix, text, offset + limit, now)
        else:
            found = self.finder.scan(self._users(prefix), prefix, text, filter, offset + limit, now)
        page = found[offset : offset + limit]
        if refresh_ttl:
            self._refresh([r for r, _ in page], now)
        return [item_of(r, score) for r, score in page]

    def list_namespaces(
        self,
        *,
        prefix: Sequence[str] | None = None,
        suffix: Sequence[str] | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """The namespaces holding items, sorted; ``"*"`` in ``prefix``/``suffix`` matches any label and
        ``max_depth`` cuts longer namespaces to that many labels."""
        start = check_labels(prefix or (), "prefix")
        end = check_labels(suffix or (), "suffix")
        if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
            raise InvalidInput(f"max_depth must be a whole number of 1 or more, not {max_depth!r}")
        limit, offset = _page(limit, offset)
        now = self.clock()
        found: set[tuple[str, ...]] = set()
        literal = tuple(start[: start.index("*")] if "*" in start else start)
        for uid in self._users(start):
            for record in self.finder.under(uid, literal):
                ns = tuple(record.value["namespace"])
                if live(record, now) and matches(ns, prefix=start or None, suffix=end or None):
                    found.add(ns[:max_depth] if max_depth is not None else ns)
        return sorted(found)[offset : offset + limit]

    def sweep(self) -> int:
        """Delete every item whose TTL has passed (with the memories only it stated); returns how many."""
        now = self.clock()
        count = 0
        for uid in list(self.memory.stores.records.users()):
            due = MemoryQuery(kinds=(Kind.LOG,), tags=(TAG,), expires_before=now)
            for record in self.memory.stores.records.query(uid, due):
                if record.slot and record.slot.startswith(TAG):
                    self._forget_memories(uid, record)
                    count += self.memory.stores.records.delete(uid, [record.id]) or 1
        return count

    # -- helpers ----------------------------------------------------------------------------------

    def _user(self, ns: tuple[str, ...]) -> str:
        return validate.identifier(self.scope.user_of(ns), "the namespace's user label", self.memory.settings)

    def _users(self, prefix: Sequence[str]) -> list[str]:
        one = self.scope.user_in(prefix)
        return [one] if one is not None else sorted(self.memory.stores.records.users())

    def _records(self, uid: str, ns: tuple[str, ...], key: str) -> list[MemoryItem]:
        """The records at (namespace, key), newest first (more than one only after a race)."""
        # by the slot alone, so that the store looks it up in its (user, slot) index rather than
        # reading every log row of the user by (user, status, kind)
        at = MemoryQuery(statuses=(), slot=address(ns, key))
        found = self.memory.stores.records.query(uid, at)
        return [r for r in found if r.kind is Kind.LOG and r.status is Status.ACTIVE]

    def _remember(
        self,
        uid: str,
        ns: tuple[str, ...],
        record_id: str,
        texts: list[str],
        now: datetime,
        write: Callable[[list[str], list[str]], None],
    ) -> None:
        """Remember each text, tagged with the namespace and the item's record, then ``write`` the
        record with the memories' ids and the message ids they were written from: in the transaction
        of the last text's memory, so that the record and that memory are stored together or not at
        all."""
        memories: list[str] = []
        messages: list[str] = []
        written: list[bool] = []

        def keep(decision: Decision) -> None:
            if decision.memory is None:  # discarded (sensitive) or weaker than what is known
                return
            memories.append(decision.memory.id)
            said = decision.candidate.message_id if decision.candidate is not None else None
            if said:  # the message remember() wrote from (also when it merged into an older memory)
                messages.append(said)

        def keep_and_write(decision: Decision) -> None:
            keep(decision)
            write(list(dict.fromkeys(memories)), messages)
            written.append(True)

        # the item's tag is made here from a random id, in letters only: it holds nothing to check
        labels = [*validate.labels(prefix_tags(ns), "namespace", self.memory.settings), item_tag(record_id)]
        for i, text in enumerate(texts):
            also = keep_and_write if i == len(texts) - 1 else keep
            self.memory._remember(text, user_id=uid, labels=labels, at=now, caller=self.caller, also=also)
        if not written:  # nothing to remember, or memory was turned off meanwhile
            write(list(dict.fromkeys(memories)), messages)

    def _forget_memories(self, uid: str, record: MemoryItem) -> None:
        """Delete the memories that only this record stated; a memory other items or conversations
        also stated stays."""
        own = set(record.provenance)
        for memory_id in record.value.get("memories", []):
            memory = self.memory.stores.records.get(uid, memory_id)
            if memory is None or not set(memory.provenance) <= own:
                continue
            with contextlib.suppress(NotFound):  # deleted meanwhile
                self.memory.delete(memory_id, user_id=uid, at=self.clock(), caller=self.caller)

    def _refresh(self, records: list[MemoryItem], now: datetime) -> None:
        for record in records:
            ttl = record.value.get("ttl")
            if ttl is not None:
                record.expires_at = now + timedelta(minutes=float(ttl))
                self.memory.stores.records.put(record, tokens(record))


def _key(key: object) -> str:
    if not isinstance(key, str):
        raise InvalidInput(f"an item's key must be a string, not {type(key).__name__}")
    return key


def _page(limit: object, offset: object) -> tuple[int, int]:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 10_000:
        raise InvalidInput(f"limit must be a whole number from 0 to 10000, not {limit!r}")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise InvalidInput(f"offset must be a whole number of 0 or more, not {offset!r}")
    return limit, offset
