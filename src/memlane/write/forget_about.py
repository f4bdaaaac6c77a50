"""A request to forget what the user said about something ("忘掉我住哪", "forget what I said about
hiking"): the memories it names, and the decision that says what went.

The extractor finds the request and its topic (:mod:`memlane.write.extract.forgetting`). A topic
that names a part of the profile ("住址", "my email", "where I work") names its slots and the masked
values of its kind, in every version; any other topic names the memories that say each of its
words ("喜欢喝美式", "hiking"). What is named is deleted as :meth:`Memory.delete` deletes: with the
log turns it came from, what was built from it and every copy, in the write's own transaction.
Nothing else goes: a topic with no memory behind it deletes nothing, and the reason says so::

    用户要求忘掉关于住哪的内容：删除了 2 条记忆
    the user asked to forget what they said about hiking: nothing was held about it
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from memlane.domain import Action, Category, Decision, Kind, MemoryItem
from memlane.lifecycle.copies import EVERY_STATUS, derived
from memlane.privacy.sensitive import KINDS
from memlane.store import Stores
from memlane.text.keywords import content_words
from memlane.text.lang import has_cjk, normalize, said
from memlane.vocabulary import MemoryQuery
from memlane.write.extract.forgetting import part

_KEPT = (Kind.SEMANTIC, Kind.EPISODIC, Kind.PROFILE)


def matching(stores: Stores, user_id: str, topic: str) -> list[MemoryItem]:
    """The user's memories (of every status, not what was built from them) that ``topic`` names."""
    held = stores.records.query(user_id, MemoryQuery(kinds=_KEPT, statuses=EVERY_STATUS))
    named = names(topic)
    return [m for m in held if not derived(m) and named(m.slot, m.text)]


def names(topic: str) -> Callable[[str | None, str], bool]:
    """Whether ``topic`` names what has a slot and a text: for a part of the profile, its slots and
    its masked values; else each of the topic's words said (nothing, for a topic with no word)."""
    named = part(topic)
    if named is not None:
        slots, kinds = named
        masks = [KINDS[k].placeholder(lang) for k in kinds for lang in ("zh", "en")]
        return lambda slot, text: slot in slots or any(mask in text for mask in masks)
    words = content_words(topic)
    return lambda slot, text: bool(words) and _says(words, text)


def _says(words: set[str], text: str) -> bool:
    """Whether ``text`` holds each of ``words`` (a Chinese word anywhere in it, as segmenting may
    cut it otherwise; an English one as a word of its own: "ex" is not in "next")."""
    own, folded = content_words(text), normalize(text)
    return all(w in own or (has_cjk(w) and len(w) > 1 and w in folded) for w in words)


def requested(decisions: Sequence[Decision]) -> bool:
    """Whether any of ``decisions`` is the user asking to forget something by what it is about."""
    return any(_request(d) for d in decisions)


def _request(d: Decision) -> bool:
    c = d.candidate
    return c is not None and c.category is Category.FORGET and bool(c.objects) and c.role == "user"


def asked(
    stores: Stores, user_id: str, decisions: Sequence[Decision]
) -> tuple[list[Decision], tuple[str, ...]]:
    """The decisions with each request to forget something saying what went (and what the same
    message said of its topic dropped: "我住在深圳，别记我住哪"), and the ids of the memories to delete."""
    out = list(decisions)
    ids: list[str] = []
    for i, d in enumerate(decisions):
        c = d.candidate
        if c is None or not _request(d):
            continue
        found = [m.id for m in matching(stores, user_id, c.objects[0]) if m.id not in ids]
        ids += found
        out[i] = replace(d, reason=_reason(c.objects[0], len(found), c.lang))
        named = names(c.objects[0])
        for j, other in enumerate(out):
            o = other.candidate
            if j != i and o is not None and o.message_id == c.message_id and named(o.slot, o.text):
                out[j] = replace(other, action=Action.DISCARD, reason=out[i].reason, expires_at=None)
    return out, tuple(ids)


def _reason(topic: str, count: int, lang: str) -> str:
    if count:
        return said(
            lang,
            f"the user asked to forget what they said about {topic}: "
            f"{count} {'memory' if count == 1 else 'memories'} deleted",
            f"用户要求忘掉关于{topic}的内容：删除了 {count} 条记忆",
        )
    return said(
        lang,
        f"the user asked to forget what they said about {topic}: nothing was held about it",
        f"用户要求忘掉关于{topic}的内容：没有相关的记忆",
    )
