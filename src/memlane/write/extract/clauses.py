"""Split a message into clauses: the unit one candidate memory is made from.

Where a message splits is :mod:`~memlane.write.extract.separators`' job: its stops, a comma in front
of a new English clause, and the words that open a clause run on without a stop. The enumeration comma
、 never splits: it only ever separates the items of a list (喜欢美式、拿铁). Placeholders left by
redaction (``[已隐藏:身份证号]``) are opaque: nothing inside them splits. Each clause then loses the
openers that carry nothing (嗯, "and", "so," …) and says whether it asks something.

A request to remember (记住 / remember that) is taken off the front of a clause and marks that clause,
or, when it stands alone (记住：…), the rest of its sentence.

Each clause knows where it stands in the text (``start``, ``end``), so that what is stored is the
user's own characters: two clauses joined into one memory are the span from the first to the last,
separators and all. The separators are found on the text with full-width forms folded (，→ ,), which
keeps every offset, since each such character has one half-width twin.

>>> [c.text for c in split_clauses("我最近开始喝冷萃了，不喝美式了。")]
['我最近开始喝冷萃了', '不喝美式了']
>>> [(c.text, c.remember) for c in split_clauses("Remember: I'm vegan, but I eat eggs")]
[("I'm vegan", True), ('I eat eggs', True)]
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memlane.text.lang import fold, has_cjk

from .asking import A_NOT_A, ASKED_EN, ASKED_ZH, GOING_ON, NOT_ASKED_ZH, QUESTION_END, SAID_AFTER_ASKED
from .separators import segments

MAX_CLAUSE = 300  # characters: a longer run without punctuation is pasted text, not a statement


@dataclass(frozen=True)
class Clause:
    """One clause of a message, trimmed, with what its punctuation and opening words said."""

    text: str
    question: bool = False  # ended with ? / ？ or 吗 / 呢, or asks by its shape or its words
    remember: bool = False  # the user asked to remember it
    start: int = 0  # where the clause's text stands in the message
    end: int = 0
    elaborates: bool = False  # opens with 尤其是 / especially: it says more about the clause before


# Openers that carry nothing. "and" / "but" / "plus" always go; the others only before a comma or a new
# subject, so that "so tired" keeps its "so".
_FILLER = re.compile(
    r"^(?:嗯+|呃+|额|对了|另外|其实|然后|所以|不过|哦+|噢|啊+|话说|顺便说一下|顺便|说实话|老实说|就是说"
    r"|还有(?=我|就是)|(?i:(?:and|but|plus)\s)|(?i:(?:so|also|actually|oh|well|btw|by\s+the\s+way|then|um+|uh+"
    r"|anyway|honestly|ah|hmm+)(?=\s*,|\s+(?:i|i'm|i've|i'd|my|we)\b)))[，,\s]*"
)
_REMEMBER = re.compile(
    r"^(?:请|麻烦你?|你)?(?:帮我|给我)?(?:一定)?(?:要)?(?:记住|记下来?|记着|记一下|记好|牢记|别忘了|不要忘了)"
    r"(?:了|哦|啊|一下|下来)?[，,:：\s]*"
    r"|^(?i:(?:please\s+)?(?:remember|note|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget|make\s+a\s+note|"
    r"take\s+note|memori[sz]e|save\s+this)(?:\s+that|\s+this)?\b)[\s,:\-]*"
)
_TRIM = " ,;，；\t\r\n\"'“”‘’()（）<>《》「」『』-—–~～*·•、"
# Openers of a clause that says more about the one before it ("我比较看重拍照，尤其是长焦")
_MORE = (
    r"(?:尤其是|尤其|特别是|主要是|比如说?|例如|像是|包括|甚至|特别喜欢的是)"
    # …or what it aims at ("最近在准备考研，目标是北师大的心理学", "在备考雅思，目标7分")
    r"|(?:我的)?目标(?:是|院校是)?"
    r"|(?i:(?:especially|particularly|in\s+particular|for\s+example|for\s+instance|e\.g\.|such\s+as"
    r"|including|mostly|above\s+all|aiming\s+for|the\s+goal\s+is|my\s+goal\s+is"
    # …or sets right what it names ("found my sat score on the college board site, its 1210 not 1180")
    r"|it'?s\s+(?:[\w.$€£%-]+\s+){1,3}not)\b)"
)
# …or makes an exception to it ("I'm into true crime, nothing with gore though", "喜欢看电影，但除了恐怖片")
EXCEPTION = re.compile(
    r"(?:但|不过|可是)?除了|(?i:(?:nothing\s+with|except|apart\s+from|other\s+than|just\s+not)\b)"
)
ELABORATION = re.compile(f"{_MORE}|{EXCEPTION.pattern}")

# where a run-on said with spaces for stops ("我在犹豫 要不要换工作": no split) starts its last part
_LAST_PART = re.compile(r"\s+(?=[\u4e00-\u9fff])")


def _chop(start: int, end: int, text: str) -> list[tuple[int, int]]:
    """Pieces of at most MAX_CLAUSE characters, cut at white space where there is some."""
    pieces: list[tuple[int, int]] = []
    while end - start > MAX_CLAUSE:
        cut = text.rfind(" ", start + MAX_CLAUSE // 2, start + MAX_CLAUSE)
        cut = cut if cut > start else start + MAX_CLAUSE
        pieces.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    return [*pieces, (start, end)]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause ``text[start:end]`` without the blanks, dashes and marks around it; a bracket or a
    quote that closes one the clause opens stays ("最近在看《三体》", 'I loved "Dune"')."""
    while True:
        while start < end and text[start] in _TRIM and not _closed(text, start, end):
            start += 1
        while end > start and text[end - 1] in _TRIM and not _opened(text, start, end):
            end -= 1
        if not _wrapped(text, start, end):
            return start, end
        start, end = start + 1, end - 1  # “好的”: a pair around the whole clause is no part of it


def _wrapped(text: str, start: int, end: int) -> bool:
    if end - start < 2:
        return False
    first, last = text[start], text[end - 1]
    closer = first if first in "\"'" else _PAIRS.get(first)
    return closer == last and last not in text[start + 1 : end - 1]


_PAIRS = {"《": "》", "「": "」", "『": "』", "（": "）", "(": ")", "“": "”", "‘": "’", "<": ">"}
_OPENER = {close: open_ for open_, close in _PAIRS.items()}


def _closed(text: str, start: int, end: int) -> bool:
    """Whether the mark at ``start`` opens a pair the clause closes."""
    mark = text[start]
    if mark in "\"'":
        return text.count(mark, start + 1, end) % 2 == 1
    return mark in _PAIRS and _PAIRS[mark] in text[start + 1 : end]


def _opened(text: str, start: int, end: int) -> bool:
    """Whether the mark before ``end`` closes a pair the clause opens."""
    mark = text[end - 1]
    if mark in "\"'":
        return text.count(mark, start, end - 1) % 2 == 1
    return mark in _OPENER and _OPENER[mark] in text[start : end - 1]


def split_clauses(text: str) -> list[Clause]:
    """The clauses of ``text`` in order; empty and punctuation-only stretches are dropped."""
    folded = fold(text)
    clauses: list[Clause] = []
    remember_rest = False
    for seg_start, seg_end, sentence_end, question in segments(folded):
        for start, end in _chop(seg_start, seg_end, folded):
            start, end = _trim(folded, start, end)
            # the patterns are anchored at the start of the piece: match them on the slice
            while (filler := _FILLER.match(folded[start:end])) and start + filler.end() < end:
                start, end = _trim(folded, start + filler.end(), end)
            remember = remember_rest
            marker = _REMEMBER.match(folded[start:end])
            if marker:
                rest = _trim(folded, start + marker.end(), end)
                if rest[0] >= rest[1]:
                    remember_rest = True
                    continue
                (start, end), remember = rest, True
            piece = folded[start:end]
            if any(unicodedata.category(c)[0] in "LNS" for c in piece):  # not just punctuation
                asks = question or _asked_at_end(piece) or _asked_by_shape(piece)
                more = ELABORATION.match(piece) is not None
                clauses.append(Clause(text[start:end], asks, remember, start, end, more))
        if sentence_end:
            remember_rest = False
    return clauses


def _asked_at_end(piece: str) -> bool:
    """Whether ``piece`` asks by its last word (吗, 呢, 附近有啥餐厅不), unless its 呢 only says what is
    going on ("在医院排队呢") and no question word asks ("你在哪呢")."""
    if QUESTION_END.search(piece) is None:
        return False
    return GOING_ON.search(piece) is None or ASKED_ZH.search(piece) is not None


# what says the user has not decided whether: a verb's yes-or-no after it asks nothing
_UNDECIDED = re.compile(r"(?:没想好|没决定|没定|不确定|犹豫|纠结|考虑)[^，。,]{0,4}?" + A_NOT_A.pattern)


def _asked_by_shape(piece: str) -> bool:
    """Whether the last part of ``piece`` asks by the shape of its verb (要不要, 有没有) or by a
    question word (附近哪有…, 开锁一般多少钱, "which sunscreen is better", "any lounges here"): in a
    run-on with spaces for stops, what comes before the question still says something."""
    last = _LAST_PART.split(piece)[-1]
    if A_NOT_A.search(last) is not None:
        return _UNDECIDED.search(last) is None  # "我还没想好要不要弄呢": not yet decided, not asked
    if has_cjk(last):
        return ASKED_ZH.search(last) is not None and NOT_ASKED_ZH.search(last) is None
    return ASKED_EN.match(last) is not None and SAID_AFTER_ASKED.search(last) is None
