"""Saying the user is not of a place or an employer: "我不是住杭州的" (not where they live), "I'm not
from Leeds" (not where they come from), "我已经不在阿里上班了" (not where or for whom they work). The
write path retires the slot memories that hold the place (:func:`memlane.write.changes.denied`);
being away for now (:data:`FOR_NOW`) or someone else elsewhere denies nothing.
"""

from __future__ import annotations

import re

# saying the user is not of a place or an employer: "我不是住杭州的", "我已经不在阿里上班了",
# "老家不是湖南的", "I never lived in Munich", "I'm not from Leeds", "I no longer work at Initech"
_NOT_ZH = r"(?:不|没有?|从没有?|从来(?:不|没有?)|并不|并没有?|不再|早就不|早不|已经不)(?:是|曾经?)?"
_NOT_EN = (
    r"\b(?:don'?t|do\s+not|doesn'?t|didn'?t|did\s+not|no\s+longer|never|not|haven'?t|have\s+not|"
    r"have\s+never|'ve\s+never|never\s+have|'m\s+not|am\s+not|isn'?t|aren'?t)\s+(?:\w+\s+)?"
)
_HOME, _WORK, _ORIGIN = ("home_city",), ("work_city", "employer"), ("hometown",)
# the words of each denial, around the place's name ({v}), and the slots it denies
_DENIALS_ZH = (
    (_NOT_ZH + r"(?:住在?|家在|生活在|定居在?|常住在?){v}{whole}", _HOME),
    (_NOT_ZH + r"(?:来自|出生在|生在){v}{whole}", _ORIGIN),
    (_NOT_ZH + r"在{v}市?(?:住|生活|待|呆)", _HOME),
    (_NOT_ZH + r"在{v}市?(?:工作|上班|干|任职|打工)", _WORK),
    (_NOT_ZH + r"在{v}市?了", _HOME + _WORK),
    (r"不是{v}市?(?:人|的)", _ORIGIN),
)
_DENIALS_EN = tuple(
    ("(?i:" + _NOT_EN + verb + r"\s+(?:the\s+)?{v}\b)", slots)
    for verb, slots in (
        (r"(?:live[sd]?|living|resid(?:e[sd]?|ing)|based)(?:\s+in)?", _HOME),
        (r"(?:grew\s+up|grown\s+up|from|born)(?:\s+in)?", _ORIGIN),
        (r"work(?:s|ed|ing)?\s+(?:in|at|for)", _WORK),
    )
)
# the place itself, not a part of it ("我不住杭州市区，住滨江" lives in 杭州)
_WHOLE = r"(?!市?区|郊|城区|市?中心|周边|附近|边上)"
# a time that makes a place said for now, not for good ("今晚不住家里", "not working in Leeds this week")
FOR_NOW = re.compile(
    r"今晚|今天|明天|这周|这几天|这两天|这个月|周末|暂时|临时|这次"
    r"|(?i:\b(?:tonight|today|tomorrow|this\s+(?:week|weekend|month|time)|for\s+now|temporarily)\b)"
)
# a clause about someone else ("我朋友不住杭州", "my brother doesn't live in Leeds")
_SOMEONE_ELSE = re.compile(
    r"他|她|它|们|朋友|同事|老板|领导|家人|爸|妈|老公|老婆|孩子|儿子|女儿|哥|姐|弟|妹"
    r"|(?i:\b(?:he|she|they|it|his|her|their|my\s+\w+|our\s+\w+)\b)"
)


def denies(text: str, value: str) -> frozenset[str]:
    """The slots ``text`` says the user is not of ``value`` in: where they live, work or come from
    ("我不是住杭州的": home_city; "I'm not from Leeds": hometown; "我不在阿里上班了": work_city and
    employer). Being away for now denies nothing: "这周我不在杭州", "I'm not in Munich this week".

    >>> sorted(denies("我不是住杭州的", "杭州")), sorted(denies("这周我不在杭州", "杭州"))
    (['home_city'], [])
    """
    name = value.strip().removesuffix("市")
    if len(name) < 2 or name.lower() not in text.lower() or FOR_NOW.search(text):
        return frozenset()
    v = re.escape(name)
    slots: set[str] = set()
    for pattern, denied in (*_DENIALS_ZH, *_DENIALS_EN):
        for m in re.finditer(pattern.format(v=v, whole=_WHOLE), text):
            if not _SOMEONE_ELSE.search(text[: m.start()]):
                slots.update(denied)
    return frozenset(slots)
