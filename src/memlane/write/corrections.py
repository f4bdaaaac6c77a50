"""A correction of something the user said: "Actually I meant Berlin, not Munich", "不是杭州，是苏州",
"杭州说错了，应该是苏州", "my name isn't Bob, it's Rob".

Such a message says which words were wrong and which are right. :func:`correction` reads the pair
from the whole message (it spans a comma); :func:`target` finds the user's most recent memory that
says the wrong words, and the write path corrects that memory as :meth:`Memory.update` does (its
slot follows: "I live in Munich" becomes "I live in Berlin", and home_city with it). The message
itself stores nothing. With no memory that says the wrong words, the message is read as any other.

>>> correction("Actually I meant Berlin, not Munich"), correction("不是杭州，是苏州")
(('Berlin', 'Munich'), ('苏州', '杭州'))
>>> correction("my name isn't Bob, it's Rob")
('Rob', 'Bob')
>>> correction("I want tea, not coffee") is None  # a preference: nothing said is corrected
True
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memlane.domain import Action, Candidate, Category, Decision, Kind, MemoryItem, Message
from memlane.lifecycle.copies import derived
from memlane.store import Stores
from memlane.text.lang import detect, said
from memlane.vocabulary import MemoryQuery

_EN_OOPS = r"(?:(?:sorry|oops|actually|no|nope|wait|correction|my\s+bad|typo|ugh)\b[\s,.:;!-]*)"
_EN_SORRY = rf"^{_EN_OOPS}*"
_EN_MEANT = r"(?:i\s+meant(?:\s+to\s+say)?|i\s+mean|(?:it|that)\s+should\s+(?:be|say|read)|should\s+be)"
_WORDS = r"[^,.;:!?]{1,40}?"
_ZH_SORRY = r"^(?:(?:不对|错了|说错了|打错了|写错了|更正一下|纠正一下|抱歉|不好意思|哦不|啊不)[，,。\s!！]*)*"
_ZH_WORDS = r"[^，,。；;！!？?]{1,20}?"
_END = r"[\s.!。！]*$"
_PATTERNS = (
    # I meant Berlin, not Munich / that should read 8 pm, not 6 pm
    re.compile(
        _EN_SORRY + _EN_MEANT + rf"\s+(?P<new>{_WORDS})\s*[,;-]?\s*not\s+(?P<old>{_WORDS})" + _END, re.I
    ),
    # sorry, not Munich, I meant Berlin
    re.compile(
        _EN_SORRY + rf"not\s+(?P<old>{_WORDS})\s*[,;-]\s*{_EN_MEANT}\s+(?P<new>{_WORDS})" + _END, re.I
    ),
    # I said Munich but I meant Berlin
    re.compile(
        _EN_SORRY + rf"i\s+said\s+(?P<old>{_WORDS}),?\s+but\s+{_EN_MEANT}\s+(?P<new>{_WORDS})" + _END, re.I
    ),
    # my name isn't Bob, it's Rob / the meeting's not on Monday, it's on Tuesday
    re.compile(
        _EN_SORRY
        + r"(?:(?:my|the|our)\s+[\w' -]{1,30}?\s*(?:isn'?t|is\s+not|'s\s+not|wasn'?t|was\s+not)"
        + rf"|it'?s\s+not|it\s+is\s+not|it\s+isn'?t)\s+(?P<old>{_WORDS})\s*[,;-]?\s*"
        + rf"(?:it'?s|it\s+is|its)\s+(?P<new>{_WORDS})"
        + _END,
        re.I,
    ),
    # sorry, it's Rob, not Bob (said unprompted, "it's fine, not a big deal" corrects nothing)
    re.compile(
        rf"^{_EN_OOPS}+"
        + rf"(?:it'?s|it\s+is|its)\s+(?P<new>{_WORDS})\s*[,;-]?\s*not\s+(?P<old>{_WORDS})"
        + _END,
        re.I,
    ),
    # 是苏州，不是杭州 / 我说的是苏州不是杭州
    re.compile(
        _ZH_SORRY
        + r"(?:我)?(?:说的|指的|想说的)?(?:应该)?"
        + rf"是(?P<new>{_ZH_WORDS})[，,\s]*(?:而)?不是(?P<old>{_ZH_WORDS})"
        + _END
    ),
    # 不是杭州，是苏州
    re.compile(_ZH_SORRY + rf"不是(?P<old>{_ZH_WORDS})[，,\s]*(?:而|应该)?是(?P<new>{_ZH_WORDS})" + _END),
    # 杭州说错了，应该是苏州
    re.compile(
        rf"^(?P<old>{_ZH_WORDS})(?:说错了|打错了|写错了)[，,。\s]*(?:应该)?是(?P<new>{_ZH_WORDS})" + _END
    ),
)
# wrong words with a subject are an explanation, not a slip: 不是我不想去，是没时间
_SUBJECT = re.compile(r"^(?:我|你|他|她|它|我们|i\b|you\b|he\b|she\b|we\b|they\b|that\b)", re.I)
_RECENT = 50  # the most recent memories a correction may be of
_FRESH = timedelta(days=1)


def correction(text: str) -> tuple[str, str] | None:
    """The right words and the wrong ones, when ``text`` (a whole message) corrects what was said."""
    said = text.strip()
    for pattern in _PATTERNS:
        m = pattern.match(said)
        if m is not None:
            new, old = m.group("new").strip(), m.group("old").strip()
            if new and old and new.casefold() != old.casefold() and not _SUBJECT.match(old):
                return new, old
    return None


def target(stores: Stores, user_id: str, old: str, at: datetime) -> MemoryItem | None:
    """The user's most recent active memory that says ``old``, said in the day before ``at`` (a slip
    is corrected while it is fresh; "不是今天，是明天" a week on is about something else)."""
    wanted, since = old.casefold(), at - _FRESH
    recent = stores.records.query(
        user_id, MemoryQuery(kinds=(Kind.SEMANTIC, Kind.EPISODIC, Kind.PROFILE), limit=_RECENT)
    )
    return next(
        (
            m
            for m in recent
            if not derived(m)
            and wanted in m.text.casefold()
            and (m.created_at is None or m.created_at >= since)
        ),
        None,
    )


def corrected(item: MemoryItem, new: str, old: str) -> str:
    """``item``'s text with the wrong words replaced by the right ones (the first time they appear)."""
    at = item.text.casefold().index(old.casefold())
    return item.text[:at] + new + item.text[at + len(old) :]


def corrects(stores: Stores, user_id: str, message: Message) -> tuple[Decision, tuple[str, str]] | None:
    """For a user's message that corrects one of their memories: its decision (nothing of it is
    stored; the reason says what now reads otherwise) and the memory's id with its corrected text."""
    pair = correction(message.content) if message.role == "user" else None
    item = target(stores, user_id, pair[1], message.at) if pair is not None else None
    if pair is None or item is None:
        return None
    text = corrected(item, *pair)
    lang = detect(message.content)
    candidate = Candidate(
        text=message.content, category=Category.REQUEST, lang=lang, role="user", message_id=message.id
    )
    reason = said(
        lang, f"a correction of “{item.text}”: it now says “{text}”", f"更正了“{item.text}”：现在是“{text}”"
    )
    decision = Decision(
        action=Action.DISCARD,
        text=message.content,
        reason=reason,
        category=Category.REQUEST,
        confidence=1.0,
        candidate=candidate,
        related=(item.id,),
    )
    return decision, (item.id, text)
