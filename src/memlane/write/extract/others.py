"""Whose a clause is: someone other than the user, when its subject says so (他喜欢猫, "you look
busy", "their kitchen is huge") and it does not speak of the user too."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memlane.text.timeparse import TimeMention

# 这 / 那 name someone or something else ("这家店", "那个人"), unless they start a time or a degree:
# "这几天累得睡不好", "那阵子天天加班", "这么晚还在改稿" are the user's
_TIME_OR_DEGREE = (
    r"(?:[几两]天|阵子?|段(?:时间|日子)|些(?:天|日子|年)|周|礼拜|星期|个?月|会儿?|时候?|次|回|么|天|年)"
)
# …and someone there is, or the people next door: "前面有个大叔跟工作人员吵起来了", "隔壁的狗叫了一晚上"
_SOMEONE_THERE = (
    r"(?:前面|后面|旁边|对面|路上)?有(?:人|(?:个|一个|位|一位|些|几个)(?:大叔|大爷|阿姨|大妈|大姐|大哥|小哥|小伙子?"
    r"|姑娘|小姐姐|老人|老太太|老头|小孩|孩子|熊孩子|男的|女的|人|哥们|司机|乘客|顾客|家长|路人|老外|外国人))"
    r"|(?:隔壁|邻居|楼上|楼下|对门)(?:的|家)"
)
_ZH_OTHER = re.compile(
    rf"^(?:你们?|您|他们?|她们?|它们?|大家|别人|人家|(?:这|那)(?!{_TIME_OR_DEGREE})|{_SOMEONE_THERE})"
)
_EN_OTHER = re.compile(
    r"(?i)^(?:you|he|she|they|it|its|it's|this|that|these|those|there|there's|his|her|their|your)\b"
)
EN_SELF = re.compile(r"(?i)\b(?:i|me|my|mine|i'm|i've|i'd|i'll|im)\b")
# …and the household or team the user is one of: "she pushed our inspection to may 6" is the user's
_EN_US = re.compile(r"(?i)\b(?:we|us|our|ours|we're|we've|we'll|we'd)\b")


def about_other(text: str, lang: str, times: Sequence[TimeMention] = ()) -> bool:
    """The clause's subject is someone other than the user (他喜欢猫 / you look busy), read after
    the time it starts with: "这周末想去爬山" starts with 这 as a time word, "这周末他要来" is his."""
    lead = next((t.end for t in times if t.start == 0), 0)
    text = text[lead:].lstrip(" ，,")
    if lang == "zh":
        return _ZH_OTHER.match(text) is not None and "我" not in text
    return _EN_OTHER.match(text) is not None and EN_SELF.search(text) is None and _EN_US.search(text) is None
