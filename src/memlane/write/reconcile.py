"""Reconcile a judged candidate with what the user's memory already holds.

A new item is compared with a :class:`Pool`: the user's active memories as the write plan sees them,
the store with the plan's own earlier changes laid over it, so the statements of one message
reconcile with each other too ("我最近开始喝冷萃了，不喝美式了"). In order:

- **the same words** (normalised text) merge into the existing item and strengthen it;
- **a slot** (``home_city``, ``employer``, ``family:children``...) decides by its spec
  (:mod:`memlane.profile`): the same value merges (in the fuller wording, when the old one only states
  the value), unless the new statement says more than the value and than each memory of it, which
  then stays a memory of its own for the profile to quote; a value that changes a one-value slot, or the
  same value in a slot it excludes (``preferred_channel`` and ``avoid_channel``), supersedes;
- **the objects** of a preference, dislike or constraint: the same object liked and now not (or the
  reverse) by the same person (the user, or one relative) supersedes, and so does a kind of a thing
  refused (我不喝酒, then 开始喝点红酒了) or a whole kind refused after one of it was liked, and a
  preference that says it *replaces* its kind (换成喝茶 / switched to tea); 美式 and 美式咖啡 are one object;
- **a called-off plan** settles the planned event it names (取消了, cancelled, "dropped out of the
  marathon"), and a plan moved to another time (改到下周三, rebooked for tuesday) supersedes it;
- **a change of mind** that names what it leaves behind ("不考上财了", "咖啡不喝了", "恐怖片看腻了",
  "没空爬山了", "switched from duolingo to wanikani", "sold all my canon gear") supersedes the
  current memories that hold it (:mod:`memlane.write.changes`), and **a switch** that names only the
  new choice ("I switched to Trader Joe's", "最近改坐地铁了") the memories of another choice of its
  kind (:mod:`memlane.write.choices`); where the rules name nothing, a statement the learned ending
  head is sure says something ended ("健身卡到期没续", "let my climbing membership lapse") retires the
  nearest memory that shares a word with it (:mod:`memlane.write.ended`);
- **a resolution** settles the open complaint it refers to;
- **a near duplicate** (close in meaning) merges only when one statement's content words are all in
  the other: "关注游戏性能" into "关注iPhone游戏性能", with the wording that says more. Statements with a
  word of their own each (三星 and 防抖, tea 9 and tea 0, piano and violin) are different memories.

A weaker claim (inferred, less confident) never overwrites an explicit one, and nothing overwrites
what was said after it. A masked memory (its values replaced by placeholders) merges only with the
same masked words, and a sealed one only when the originals are the same: masked texts look alike
whatever they hid.

Where the rules only guess, the match says so: its ``doubts`` are the near memories it could not
settle. :class:`Reconciler` is the port the write path uses; a second opinion (the LLM reconciler)
rules on every doubt of one call at once through :meth:`Reconciler.review`, and :func:`settle` turns
its rulings into the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Literal

from memlane.domain import Category, EventStatus, Flag, Kind, MemoryItem
from memlane.profile import spec
from memlane.read.profile_lines import says_more
from memlane.settings import Settings
from memlane.store import Stores
from memlane.text.lang import normalize
from memlane.vocabulary import MemoryQuery
from memlane.write.changes import denied, kind_of, may_retire, retired
from memlane.write.choices import rivals
from memlane.write.ended import ended_by_meaning
from memlane.write.episodes import happened_plan, open_plan, resolved_complaint, retimed_habit
from memlane.write.extract.reference import kin_subject
from memlane.write.judge.ending import EndingHead
from memlane.write.matches import Kin, Match, Originals, Ruling, Rulings, retire
from memlane.write.notes import note
from memlane.write.pool import Pool
from memlane.write.wording import covers, masked, shared, things

# the match types are defined in matches.py and offered here too, with the port that decides them
__all__ = ["Kin", "Match", "Originals", "Reconciler", "Ruling", "Rulings", "find_match", "retire", "settle"]

# categories one statement can update or contradict across; others only within themselves
_FAMILIES = (
    {Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT},
    {Category.ROUTINE, Category.FACT},
    {Category.EVENT, Category.COMPLAINT, Category.PLAN},
)
_LIKES = (Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT)


def _no_originals(item: MemoryItem) -> str | None:
    return None


def _kin(a: Category, b: Category) -> bool:
    return a is b or any(a in family and b in family for family in _FAMILIES)


def _same_day(a: MemoryItem, b: MemoryItem) -> bool:
    if a.valid_from is None or b.valid_from is None:
        return a.valid_from is None and b.valid_from is None
    return a.valid_from.date() == b.valid_from.date()


def _same_original(item: MemoryItem, old: MemoryItem, originals: Originals) -> bool:
    """For masked texts: the same only when nothing was hidden behind the masks, or the same was."""
    mine, theirs = originals(item), originals(old)
    if mine is None and theirs is None:
        return True  # both redacted for good: the same words are all either holds
    return mine is not None and theirs is not None and normalize(mine) == normalize(theirs)


def _by_slot(pool: Pool, item: MemoryItem) -> Match | None:
    if item.slot is None or item.value is None:
        return None
    rules = spec(item.slot)
    same_slot = pool.query(MemoryQuery(slot=item.slot))
    same = [m for m in same_slot if m.value == item.value]
    if same and _own_wording(item, same):
        # the same value in words of its own ("i sleep during the day and calls wake me up" beside
        # "don't call"): a memory of its own, so the profile can quote what the value leaves out
        return Match(Kin.NEW, why=note("own_words", item.text, slot=item.slot))
    if same:
        fuller = [m for m in same if not says_more(m) and covers(m.text, item.text)]
        wording: Literal["old", "new"] = "new" if fuller and says_more(item) else "old"
        why = note("same_slot", item.text, slot=item.slot)
        return Match(Kin.MERGE, ((fuller or same)[0],), 1.0, why, wording=wording)
    changed = [m for m in same_slot if m.value is not None and rules.changes(m.value, item.value)]
    for other in rules.exclusive:
        changed += [m for m in pool.query(MemoryQuery(slot=other)) if m.value == item.value]
    if changed:
        return retire(item, changed, note("new_value", item.text, slot=item.slot))
    return None


def _own_wording(item: MemoryItem, same: Sequence[MemoryItem]) -> bool:
    """Whether ``item`` says more than its slot's value, and more than each memory of that value says
    (and than the value alone, where a memory only states it)."""
    if not says_more(item):
        return False
    return not any(
        covers(item.text, m.text) or (not says_more(m) and covers(m.text, item.text)) for m in same
    )


def _by_objects(pool: Pool, item: MemoryItem, named: list[str], change: str | None) -> Match | None:
    wanted = {normalize(o) for o in named if o}
    if not wanted or item.category not in _LIKES:
        return None
    related = pool.query(MemoryQuery(categories=tuple(c.value for c in _LIKES)))
    flipped = [
        m
        for m in related
        if m.polarity != item.polarity and (shared(things(m), wanted) or _narrows(m, named))
    ]
    if change == "replace" and item.polarity > 0 and item.slot:
        # 换成喝茶 / switched to tea: the kind's other favourites are no longer current
        flipped += [
            m
            for m in related
            if m.slot == item.slot and m.polarity > 0 and not shared(things(m), wanted) and m not in flipped
        ]
    # what one person likes is no change of another's mind ("I quit piano" leaves "my daughter plays piano")
    whose = kin_subject(item.text)
    flipped = [m for m in flipped if kin_subject(m.text) == whose]
    if not flipped:
        return None
    shown = {normalize(o): o for o in named if o}  # each name as the user wrote it
    names = ", ".join(sorted(shown[w] for w in wanted if any(shared({w}, things(m)) for m in flipped)))
    why = note("changed_mind", item.text, names=names) if names else note("changed_mind_it", item.text)
    return retire(item, flipped, why)


def _narrows(old: MemoryItem, named: list[str]) -> bool:
    """Whether one of two opposite statements refuses a whole kind of thing and the other likes one of
    that kind: "我不喝酒" and now 开始喝点红酒了, or "I love red wine" and now "I don't drink
    alcohol". Liking a whole kind and refusing one of it is no change of mind."""
    held = [o.lower() for o in old.entities if o]
    said = [o.lower() for o in named if o]
    if old.polarity < 0:
        return any(kind_of(g, s) for g in held for s in said)
    return any(kind_of(g, s) for g in said for s in held)


def find_match(
    pool: Pool,
    item: MemoryItem,
    objects: list[str],
    threshold: float,
    floor: float | None = None,
    *,
    change: str | None = None,
    originals: Originals = _no_originals,
    ending: EndingHead | None = None,
) -> Match:
    """How ``item`` (not yet stored, with its embedding) relates to the memories of ``pool``.

    Near memories of a kindred category from ``floor`` (the threshold unless given) up to the
    threshold, and near ones the rules cannot tell apart, become the match's ``doubts``.
    """
    hidden = masked(item)
    exact = [
        m
        for m in pool.query(MemoryQuery(norm=normalize(item.text), kinds=(item.kind,)))
        if not (hidden or masked(m)) or _same_original(item, m, originals)
    ]
    if exact:
        return Match(Kin.MERGE, (exact[0],), 1.0, note("same_words", item.text))
    if hidden:
        return Match(Kin.NEW, why=note("masked", item.text))

    for decided in (_by_slot(pool, item), _by_objects(pool, item, objects, change)):
        if decided is not None:
            return decided
    # a plan called off or moved first: "I dropped out of the marathon" leaves no habit behind
    if item.category is Category.PLAN and (item.event_status is EventStatus.CANCELLED or change == "replace"):
        plan = open_plan(pool, item)
        if plan is not None and item.event_status is EventStatus.CANCELLED:
            return Match(Kin.RESOLVE, (plan,), why=note("called_off", item.text))
        if plan is not None:
            return retire(item, [plan], note("moved", item.text))
    # …and a plan of how things will be from a time on: the habit it gives a new time or a new way
    if item.category is Category.PLAN and item.event_status is not EventStatus.CANCELLED:
        habit = retimed_habit(pool, item)
        if habit is not None:
            return retire(item, [habit], note("moved", item.text))
    left = [m for m in retired(pool, item) or denied(pool, item) or rivals(pool, item) if may_retire(m, item)]
    if left:
        return retire(item, left, note("no_longer", item.text))

    if item.category is Category.COMPLAINT and item.event_status is EventStatus.RESOLVED:
        solved = resolved_complaint(pool, item)
        if solved is not None:
            return Match(Kin.RESOLVE, (solved,), why=note("solved", item.text))
    if item.kind is Kind.EPISODIC and item.event_status is EventStatus.DONE:
        happened = happened_plan(pool, item)
        if happened is not None:
            return Match(Kin.FULFIL, (happened,), why=note("happened", item.text))
    left, sure = ended_by_meaning(pool, item, ending)
    if left:
        return retire(item, left, note("ended", item.text, score=sure))

    if item.embedding is None:
        return Match(Kin.NEW)
    floor = threshold if floor is None else min(floor, threshold)
    doubts: list[MemoryItem] = []
    for score, old in pool.near(item.embedding, item.kind):
        if score < floor:
            break
        if masked(old) or old.supersedes == item.id:
            continue
        if item.kind is Kind.EPISODIC and not _same_day(item, old):
            continue  # another day, another event
        if old.slot and item.slot and old.slot == item.slot and old.value != item.value:
            continue  # another value of a subject that holds many
        if score < threshold or not _kin(old.category, item.category):
            if _kin(old.category, item.category):
                doubts.append(old)  # close, but not enough for the rules to call it the same
            continue
        if old.polarity != item.polarity:
            doubts.append(old)  # the opposite by the embedding alone: the objects did not say so
            continue
        if covers(item.text, old.text):
            return Match(Kin.MERGE, (old,), score, note("says_same", item.text, score=score))
        if covers(old.text, item.text):
            why = note("says_more", item.text, score=score)
            return Match(Kin.MERGE, (old,), score, why, wording="new")
        doubts.append(old)  # close in meaning, but each says something of its own: 三星 and 防抖
    return Match(Kin.NEW, doubts=tuple(doubts))


def settle(match: Match, item: MemoryItem, rulings: Rulings) -> Match:
    """The match for ``item`` once every doubt of ``match`` has a ruling; ``match`` when any has none.

    The same as a near memory merges into it; an update or a contradiction supersedes (a weaker
    claim still never overwrites an explicit one); unrelated to all of them, the item is new.
    """
    found = [(m, rulings.get((item.id, m.id))) for m in match.doubts]
    ruled = [(m, r) for m, r in found if r is not None]
    if not match.doubts or len(ruled) < len(found):
        return match
    same = [(m, r) for m, r in ruled if r.relation == "same"]
    if same:
        old, ruling = same[0]
        wording: Literal["old", "new"] = "new" if covers(old.text, item.text) else "old"
        return Match(Kin.MERGE, (old,), why=ruling.reason, wording=wording)
    changed = [(m, r) for m, r in ruled if r.relation in ("update", "contradict")]
    if changed:
        return retire(item, [m for m, _ in changed], "; ".join(r.reason for _, r in changed))
    return Match(Kin.NEW, why="; ".join(dict.fromkeys(r.reason for _, r in ruled)))


class Reconciler:
    """The rule reconciler, and the port a second opinion plugs into.

    :meth:`review` is asked, before anything is written, about all the new items of one call; the
    rules have no second opinion and return no rulings. :meth:`match` then settles each item, using
    the rulings where they cover every doubt and the rules' own guess elsewhere.
    """

    band = 0.05
    """How far under the duplicate threshold a near memory is still worth a second opinion."""

    def __init__(self, settings: Settings) -> None:
        self.threshold = settings.duplicate_similarity
        self.learned = settings.learned_judge

    @cached_property
    def ending(self) -> EndingHead | None:
        """What reads a change of mind in words no rule knows (learned: off with the learned judge),
        read on the first write that asks."""
        return EndingHead.bundled() if self.learned else None

    def ends_one(self, stores: Stores, memory: MemoryItem) -> bool:
        """Whether ``memory`` (not yet stored, with its vector) says, by the ending head's reading, that a
        current memory of its user no longer holds (:func:`ended_by_meaning`)."""
        return bool(ended_by_meaning(Pool(stores, memory.user_id), memory, self.ending)[0])

    def review(self, stores: Stores, pending: Sequence[tuple[MemoryItem, list[str]]]) -> Rulings:
        """Rulings on the doubts of ``pending`` (new items with their objects); none from the rules."""
        return {}

    def match(
        self,
        pool: Pool,
        item: MemoryItem,
        objects: list[str],
        rulings: Rulings | None = None,
        *,
        change: str | None = None,
        originals: Originals = _no_originals,
    ) -> Match:
        """How ``item`` relates to the pool's memories, with ``rulings`` settling the rules' doubts."""
        if not rulings:
            return find_match(
                pool, item, objects, self.threshold, change=change, originals=originals, ending=self.ending
            )
        return settle(self.doubts(pool, item, objects, change=change, originals=originals), item, rulings)

    def doubts(
        self,
        pool: Pool,
        item: MemoryItem,
        objects: list[str],
        *,
        change: str | None = None,
        originals: Originals = _no_originals,
    ) -> Match:
        """The rules' match with every near memory a second opinion should see (none for instructions)."""
        # text that reads as an instruction is never put before a model
        floor = None if Flag.INSTRUCTION in item.flags else self.threshold - self.band
        return find_match(
            pool, item, objects, self.threshold, floor, change=change, originals=originals, ending=self.ending
        )
