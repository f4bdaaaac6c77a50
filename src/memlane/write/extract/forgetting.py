"""A request to forget what the user said about something: "忘掉我住哪", "把我的地址删了吧",
"别记我喜欢喝美式了", "forget what I said about hiking", "delete my email".

"别记这个" and "forget what I just said" take back the message before (:data:`lexicon.FORGET`);
these name what to forget instead, and :func:`topic` returns it ("我住哪", "hiking", "email"). Only
a whole clause said to the assistant counts: "我忘了带钥匙", "I forgot my password", "don't forget
my birthday" and "删掉这个文件" are no such request.

>>> topic("把我的地址删了吧"), topic("forget what I said about hiking"), topic("我忘了带钥匙")
('地址', 'hiking', None)
"""

from __future__ import annotations

import re

_ZH_ASK = r"^(?:(?:那|那就|以后|还有|另外|对了)[，,\s]*)?(?:请|麻烦)?(?:你)?(?:帮我)?"
_ZH_TOPIC = r"(?P<topic>(?:我|关于|有关)[^，。！？!?,.;；]{1,24}?)"
_ZH_WHAT = r"(?:的事情?|这件事|那件事|的内容|的信息|的记忆|的那些|相关的)?"
_ZH_END = r"(?:吧|了|哈|哦|啊|好吗|可以吗)*$"
_FORGET_ZH = r"(?:忘掉|忘了|忘记|删掉|删了|删除|清除|清掉|抹掉)"
_ZH = (
    # 忘掉我住哪 / 删除我的手机号 / 忘了我说过的关于前任的事吧
    re.compile(_ZH_ASK + _FORGET_ZH + r"(?:吧)?" + _ZH_TOPIC + _ZH_WHAT + _ZH_END),
    # 把我的地址删了吧 / 把我生日忘了吧
    re.compile(_ZH_ASK + "把" + _ZH_TOPIC + _ZH_WHAT + "(?:给)?" + _FORGET_ZH + _ZH_END),
    # 别记我喜欢喝美式了 / 以后不要再记着我在哪上班了
    re.compile(
        _ZH_ASK
        + r"(?:别|不要|不用)(?:再)?(?:记|记着|记住|记录|保存|存)(?:着)?"
        + _ZH_TOPIC
        + _ZH_WHAT
        + _ZH_END
    ),
)
_EN_ASK = (
    r"^(?:(?:ok|okay|actually|also|and|oh|hey|so)[\s,]+)*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?"
)
_EN_VERB = (
    r"(?:forget|delete|erase|remove|wipe|clear|drop"
    r"|(?:don'?t|do\s+not|stop)\s+(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|sav(?:e|ing)))\s+"
)
_EN_END = r"(?:\s+(?:from|in)\s+(?:your\s+)?memory)?(?:\s+(?:anymore|any\s+more|please|now))*[\s.!]*$"
_EN = tuple(
    re.compile(_EN_ASK + _EN_VERB + lead + r"(?P<topic>" + what + r")" + _EN_END, re.IGNORECASE)
    for lead, what in (
        # forget what I said about hiking / erase everything about my ex ("forget about work" is no
        # request: "forget about it, it's the weekend")
        (
            r"(?:(?:everything|anything|all)\s+(?:(?:i\s+(?:said|told\s+you|mentioned)\s+)?about\s+)?"
            r"|(?:what|that)\s+i\s+(?:said|told\s+you|mentioned)\s+about\s+)",
            r"[^,.;!?]{1,40}?",
        ),
        # forget my email / don't remember that I like jazz anymore / stop remembering where I work
        (r"(?:the\s+fact\s+)?", r"(?:my|that\s+i|where\s+i)\s+[^,.;!?]{1,40}?"),
    )
)
# what a topic says besides the thing: whose it is, and the words around it
_ZH_WRAP = re.compile(
    r"^(?:关于|有关)?(?:我的?)?(?:(?:说|讲|提|提到|告诉你)(?:过)?的)?(?:那个|那些|这个)?(?:关于|有关)?(?:我的?)?"
)
_EN_WRAP = re.compile(r"^(?:my|that\s+i|where\s+i)\s+", re.IGNORECASE)
# what was just said ("忘掉我刚才说的"): :data:`lexicon.FORGET` takes that message back
_DEICTIC = re.compile(
    r"^(?:(?:这个|那个|这些|那些|it|that|this|them|those)$|刚才|刚刚|上面|前面|之前说|上一条)", re.IGNORECASE
)


def topic(text: str) -> str | None:
    """What ``text`` (one clause) asks memlane to forget, or None when it asks no such thing."""
    said = text.strip()
    for patterns, wrap in ((_ZH, _ZH_WRAP), (_EN, _EN_WRAP)):
        for pattern in patterns:
            m = pattern.match(said)
            if m is None:
                continue
            what = wrap.sub("", m.group("topic").strip()).strip()
            if what and not _DEICTIC.match(what):
                return what
    return None
