"""What a change of mind retires: the thing a statement says the user has left behind.

"不考上财了，改考本校", "switched from duolingo to wanikani", "sold all my canon gear", "咖啡我戒了",
"we moved out of the parish hall": each names what no longer holds. :func:`left_behind` finds those
words; :func:`retired` finds the user's current memories that hold them, which the new statement
supersedes. Only memories of what can change (preferences, routines, background, plans, profile
facts) are retired, never events that happened, and never one that also names what the user now
has ("I use wanikani with duolingo for grammar" is not retired by "switched from duolingo").

>>> left_behind("决定了，不考上财了，改考本校")
['考上财']
>>> left_behind("switched from duolingo to wanikani, duolingo was too gamey")
['duolingo']
>>> left_behind("big news, sold all my canon gear and switched to sony")
['canon gear']
>>> left_behind("咖啡我戒了哈")
['咖啡']
>>> left_behind("我喜欢喝美式")
[]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memlane.domain import Category, Kind, MemoryItem
from memlane.text.keywords import content_words
from memlane.text.lang import normalize
from memlane.vocabulary import MemoryQuery
from memlane.write.pool import Pool

_ZH = [
    re.compile(r"从(?P<old>[^，。,.!！？?；;]{1,12}?)(?:改成|换成|改为|换到|搬到|转到|改到|到)"),
    re.compile(r"(?:不再|再也不)(?P<old>[^，。,.!！？?；;了]{1,12})"),
    re.compile(r"不(?!好意思|客气|错|行|用|对|过|少|多|久|然|如)(?P<old>[^，。,.!！？?；;不了]{2,12})了"),
    re.compile(r"(?P<old>[^，。,.!！？?；;我]{1,8}?)(?:我)?(?:戒了|戒掉了|戒掉|不要了|卖了|卖掉了)"),
    re.compile(r"(?:戒了|戒掉了?|卖掉了?|辞掉了?|退掉了?)(?P<old>[^，。,.!！？?；;了]{1,12})"),
    re.compile(r"(?:离开了?|辞了|退了)(?P<old>[^，。,.!！？?；;了]{2,12})"),
]
_EN = [
    re.compile(
        r"\b(?:switched|moved|changed|went|transferred|converted)\s+(?:over\s+)?from\s+"
        r"(?P<old>[\w' -]{2,40}?)\s+(?:to|for|over\s+to)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:quit|stopped|gave\s+up|dropped|ditched|sold(?:\s+off)?(?:\s+all)?|left|"
        r"no\s+longer\s+(?:use|drink|eat|play|do|go\s+to|work\s+at|buy\s+from))\s+"
        r"(?:my\s+|the\s+|using\s+|drinking\s+|eating\s+|playing\s+|doing\s+)*(?P<old>[\w' -]{2,30}?)"
        r"(?=\s*(?:[,.!?;]|$|\b(?:and|for|to|because|so|after|but|last|this|yesterday|recently|ago)\b))",
        re.IGNORECASE,
    ),
    re.compile(r"\binstead\s+of\s+(?P<old>[\w' -]{2,30}?)(?=\s*(?:[,.!?;]|$))", re.IGNORECASE),
    re.compile(
        r"\b(?:not|don't|do\s+not|no)\s+(?:\w+\s+){0,2}?(?P<old>[\w'-]{3,20})\s+any\s*more\b", re.IGNORECASE
    ),
]
# words that say how, not what: a left-behind thing is named by its other words
_HOW = frozenset(
    "考 喝 吃 用 去 做 买 玩 住 跑 学 打 想 要 在 再 了 all my the a an gear stuff using use drink eat "
    "play go work job it that this thing things last month week year ago".split()
)
# what a change of mind can retire: what holds until it changes, not what happened
_CHANGEABLE = (
    Category.PREFERENCE,
    Category.DISLIKE,
    Category.CONSTRAINT,
    Category.ROUTINE,
    Category.FACT,
    Category.PLAN,
    Category.JOB,
    Category.LOCATION,
    Category.STYLE,
)


_CJK = re.compile(r"[\u4e00-\u9fff]")


def left_behind(text: str) -> list[str]:
    """The phrases ``text`` says the user no longer has, does or wants (none for a plain statement)."""
    found: list[str] = []
    for pattern in [*_ZH, *_EN]:
        for m in pattern.finditer(text):
            phrase = m.group("old").strip(" ,，'")
            if phrase and phrase not in found and _named(phrase):
                found.append(phrase)
    return found


def _named(phrase: str) -> bool:
    return bool(_terms(phrase))


def _terms(phrase: str) -> set[str]:
    return {w for w in content_words(phrase) if w not in _HOW and len(w) > 1}


def _holds(text: str, terms: set[str]) -> bool:
    """Whether ``text`` names any of ``terms``: a Chinese term anywhere in it (segmentation cuts
    太湖边 as 太/湖边), another as one of its words."""
    words, folded = content_words(text), normalize(text)
    return any(t in folded if _CJK.search(t) else t in words for t in terms)


def retired(pool: Pool, item: MemoryItem, exclude: Sequence[MemoryItem] = ()) -> list[MemoryItem]:
    """The user's current memories that ``item`` (a statement of a change) says no longer hold."""
    phrases = left_behind(item.text)
    if not phrases:
        return []
    old = set().union(*(_terms(p) for p in phrases))
    now = _terms(item.text) - old - set().union(*(content_words(p) for p in phrases))
    held = pool.query(
        MemoryQuery(
            kinds=(Kind.SEMANTIC, Kind.PROFILE, Kind.EPISODIC),
            categories=tuple(c.value for c in _CHANGEABLE),
        )
    )
    skip = {m.id for m in exclude} | {item.id}
    return [
        m
        for m in held
        if m.id not in skip
        and m.category in _CHANGEABLE
        and _holds(m.text, old)
        and not left_behind(m.text)
        and not (now and _holds(m.text, now))
    ]
