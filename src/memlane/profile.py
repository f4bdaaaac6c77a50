"""The profile: typed slots derived from the memories that state them.

A slot's value is never stored on its own. It is the value of the newest active profile memory that
states it (``MemoryItem.slot`` / ``value``), so a memory that is edited, marked wrong or outdated,
superseded, expired, withdrawn or deleted takes its value with it at once (:func:`derive`). The
slot versions a store keeps (``SlotVersion``) are the profile's history: :func:`sync` appends one
whenever the derived value of a slot changes, pointing at the memory that set it, or retracting the
value (``value=None``) when no memory states it any more.

Each slot has a :class:`SlotSpec`: whether it belongs in the profile, whether it holds one value at a
time (a new value supersedes the old one), which values it accepts, and which other slots the same
value contradicts (``preferred_channel = email`` and ``avoid_channel = email``). A value a spec
refuses (a masked fragment such as ``"址]"``, a street address as a city) is never a slot value.

>>> city = spec("home_city")
>>> city.valid("杭州"), city.valid("[已隐藏:住址]"), city.valid("文三路138号")
(True, False, False)
>>> spec("family:son").single
False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from memlane.domain import Actor, HistoryRecord, Kind, MemoryItem, SlotVersion, Status
from memlane.store import Stores
from memlane.vocabulary import MemoryQuery

_MASK = re.compile(r"[\[\]【】]|已隐藏|redacted", re.IGNORECASE)
_ADDRESS_PART = re.compile(r"[路街巷弄号栋幢室楼]|单元|小区|花园|公寓|大厦|胡同|新村|\d")
_SENTENCE = re.compile(r"[，。！？；,.!?;:：]")


def _text(limit: int, words: int = 6) -> Callable[[Any], bool]:
    """A short phrase: no mask, no sentence punctuation, at most ``limit`` characters and ``words`` words."""

    def check(value: Any) -> bool:
        return (
            isinstance(value, str)
            and 0 < len(value.strip()) <= limit
            and len(value.split()) <= words
            and not _MASK.search(value)
            and not _SENTENCE.search(value)
        )

    return check


def _place(value: Any) -> bool:
    """A city, region or country: short, and not a street address."""
    return _text(20, 4)(value) and not _ADDRESS_PART.search(value)


def _name(value: Any) -> bool:
    return _text(30, 4)(value) and not any(c.isdigit() for c in value)


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda value: value in values


def _flag(value: Any) -> bool:
    return value is True


def _hour(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"\d\d:00", value) is not None


def _birthday(value: Any) -> bool:
    if not isinstance(value, str) or not re.fullmatch(r"(?:\d{4}-)?\d{2}-\d{2}", value):
        return False
    year, month, day = ([2000] + [int(p) for p in value.split("-")])[-3:]
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _anything(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and _MASK.search(value))


def _counted_differently(old: Any, new: Any) -> bool:
    """Two statements about one relation disagree only on how many there are (两个孩子 → 三个孩子)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return False
    return "count" in old and "count" in new and old["count"] != new["count"]


def _differs(old: Any, new: Any) -> bool:
    return bool(old != new)


def _never(old: Any, new: Any) -> bool:
    return False


@dataclass(frozen=True)
class SlotSpec:
    """What one slot (or family of slots, named by a prefix ending in ``:``) holds."""

    name: str
    profile: bool  # shown by Memory.profile()
    single: bool  # one value at a time: a memory with another value supersedes the old one
    check: Callable[[Any], bool] = _anything
    exclusive: tuple[str, ...] = ()  # other slots that the same value contradicts
    contradicts: Callable[[Any, Any], bool] | None = None  # when two values disagree (default: single)

    def valid(self, value: Any) -> bool:
        """Whether ``value`` can be this slot's value."""
        return self.check(value)

    def changes(self, old: Any, new: Any) -> bool:
        """Whether a statement of ``new`` retires one of ``old`` (a new value of a one-value slot)."""
        rule = self.contradicts or (_differs if self.single else _never)
        return rule(old, new)


_CHANNELS = (
    "email",
    "phone",
    "sms",
    "wechat",
    "qq",
    "whatsapp",
    "telegram",
    "wecom",
    "dingtalk",
    "feishu",
    "slack",
    "teams",
)
_SPECS = [
    SlotSpec("name", True, True, _name),
    SlotSpec("nickname", True, True, _name),
    SlotSpec("english_name", True, True, _name),
    SlotSpec("surname", True, True, _name),
    SlotSpec("birthday", True, True, _birthday),
    SlotSpec("home_city", True, True, _place),
    SlotSpec("hometown", True, True, _place),
    SlotSpec("work_city", True, True, _place),
    SlotSpec("employer", True, True, _text(40)),
    SlotSpec("job", True, True, _text(30)),
    SlotSpec("industry", True, True, _text(30)),
    SlotSpec("work_mode", True, True, _one_of("remote", "office", "hybrid")),
    SlotSpec("marital_status", True, True, _one_of("married", "single", "divorced", "widowed", "engaged")),
    SlotSpec(
        "diet", True, True, _one_of("vegetarian", "vegan", "omnivore", "pescatarian", "halal", "kosher")
    ),
    SlotSpec("preferred_channel", True, True, _one_of(*_CHANNELS), exclusive=("avoid_channel",)),
    SlotSpec("avoid_channel", True, False, _one_of(*_CHANNELS), exclusive=("preferred_channel",)),
    SlotSpec("no_call_on_weekends", True, True, _flag),
    SlotSpec("no_call_at_night", True, True, _flag),
    SlotSpec("no_call_during_work", True, True, _flag),
    SlotSpec("no_call_after", True, True, _hour),
    SlotSpec("no_call_before", True, True, _hour),
    SlotSpec("language", True, True, _text(10, 1)),
    SlotSpec("response_style", True, True, _one_of("concise", "detailed")),
    SlotSpec("tone", True, True, _one_of("formal", "casual")),
    SlotSpec("plain_language", True, True, _flag),
    # subject keys of semantic memories: not in the profile, but they still decide what supersedes
    SlotSpec("family:", False, False, contradicts=_counted_differently),
    SlotSpec("routine:", False, True),
    SlotSpec("budget:", False, True),
    SlotSpec("favorite:", False, True),  # one favourite of a kind at a time: favorite:show
    SlotSpec("pet:", False, False),
    SlotSpec("drink", False, False),
    SlotSpec("food", False, False),
    SlotSpec("allergy", False, False),
    SlotSpec("learning", False, False),
]
_BY_NAME = {s.name: s for s in _SPECS}
_DEFAULT = SlotSpec("", False, False)


def spec(slot: str) -> SlotSpec:
    """The spec of ``slot`` (by name, then by its ``prefix:``); an unknown slot is a many-valued subject
    key outside the profile."""
    found = _BY_NAME.get(slot)
    if found is None and ":" in slot:
        found = _BY_NAME.get(slot.split(":", 1)[0] + ":")
    return found or _DEFAULT


def holds(slot: str, value: Any) -> bool:
    """Whether ``value`` may stand in ``slot``: a profile slot needs a value its spec accepts; a subject
    key outside the profile may go without one (``drink`` names what a preference is about)."""
    rules = spec(slot)
    if value is None:
        return not rules.profile
    return rules.valid(value)


def in_profile(item: MemoryItem) -> bool:
    """Whether ``item`` is an active memory whose slot value belongs in the profile."""
    return (
        item.status is Status.ACTIVE
        and item.kind is Kind.PROFILE
        and item.slot is not None
        and item.value is not None
        and spec(item.slot).profile
    )


def derive(memories: Iterable[MemoryItem]) -> dict[str, Any]:
    """Slot → value of the profile memories among ``memories`` (newest first, as stores list them):
    the newest value of a one-value slot, every value (newest first) of a many-valued one."""
    out: dict[str, Any] = {}
    for item in memories:
        if not in_profile(item):
            continue
        assert item.slot is not None
        if spec(item.slot).single:
            out.setdefault(item.slot, item.value)
        elif item.value not in out.setdefault(item.slot, []):
            out[item.slot].append(item.value)
    return dict(sorted(out.items()))


def backing(memories: Iterable[MemoryItem]) -> dict[str, list[MemoryItem]]:
    """Slot → the profile memories that state its current value (newest first): every one of a
    many-valued slot's; of a one-value slot, the newest and those saying its value in other words
    ("以后回复我简短一点" beside "别啰嗦"), so the profile line quotes them and no memory line repeats it."""
    out: dict[str, list[MemoryItem]] = {}
    for item in memories:
        if in_profile(item):
            assert item.slot is not None
            held = out.setdefault(item.slot, [])
            if not held or not spec(item.slot).single or item.value == held[0].value:
                held.append(item)
    return out


def read(stores: Stores, user_id: str) -> dict[str, Any]:
    """The user's profile, derived from their active profile memories."""
    return derive(stores.records.query(user_id, MemoryQuery(kinds=(Kind.PROFILE,))))


def changes(
    stores: Stores,
    user_id: str,
    slots: Iterable[str],
    held: Mapping[str, Sequence[MemoryItem]],
    at: datetime,
    reason: str,
) -> list[tuple[SlotVersion, Any]]:
    """The slot versions to append, with the value each replaces, when the memories that hold
    ``slots`` are ``held`` (slot → its backing memories, newest first, as :func:`backing` gives):
    one for each slot whose value or backing memory differs from its last recorded version. A slot
    no memory holds any more gets a version with no value: a retraction.
    """
    out: list[tuple[SlotVersion, Any]] = []
    for slot in sorted({s for s in slots if s and spec(s).profile}):
        versions = stores.profile.slots(user_id, slot, current_only=False)
        last = versions[-1] if versions else None
        now = list(held.get(slot, ()))
        value = derive(now).get(slot)
        source = now[0] if now else None
        if last is None and source is None:
            continue
        if last is not None and last.value == value and last.memory_id == (source.id if source else None):
            continue
        version = SlotVersion(
            user_id=user_id,
            slot=slot,
            value=value,
            version=(last.version if last else 0) + 1,
            created_at=at,
            memory_id=source.id if source else None,
            message_ids=list(source.provenance) if source else [],
            reason=reason,
        )
        out.append((version, last.value if last is not None else None))
    return out


def record(stores: Stores, version: SlotVersion, before: Any, *, actor: Actor = Actor.SYSTEM) -> None:
    """Append ``version`` and the ``profile:<slot>`` history record that says what changed."""
    stores.profile.put(version)
    op = "retract" if version.memory_id is None else ("update" if before is not None else "add")
    stores.history.add(
        HistoryRecord(
            user_id=version.user_id,
            target_id=f"profile:{version.slot}",
            op=op,
            at=version.created_at,
            actor=actor,
            reason=version.reason,
            before=repr(before) if before is not None else None,
            after=repr(version.value) if version.value is not None else None,
        )
    )


def sync(
    stores: Stores,
    user_id: str,
    slots: Iterable[str],
    at: datetime,
    reason: str,
    *,
    actor: Actor = Actor.SYSTEM,
) -> list[SlotVersion]:
    """Record a version for each of ``slots`` whose value changed since its last version, as the
    store's memories now hold it; returns the versions written. Run it inside the transaction that
    changed the memories, after the change.
    """
    wanted = [s for s in slots if s and spec(s).profile]
    if not wanted:
        return []
    held = backing(stores.records.query(user_id, MemoryQuery(kinds=(Kind.PROFILE,))))
    found = changes(stores, user_id, wanted, held, at, reason)
    for version, before in found:
        record(stores, version, before, actor=actor)
    return [v for v, _ in found]


def slots_of(items: Sequence[MemoryItem]) -> set[str]:
    """The profile slots ``items`` state (their slot, if it belongs in the profile)."""
    return {m.slot for m in items if m.slot and spec(m.slot).profile}
