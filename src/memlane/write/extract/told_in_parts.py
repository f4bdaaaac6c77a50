"""A change or a piece of news told in parts, which the write path keeps as one statement: a clause that
only announces the next ("from now on", "just for today", "口味变了", "中签啦") and what it announces;
what a change of mind left behind, why, and what replaced it ("我现在不跑步了，膝盖伤了，改游泳了").
:mod:`memlane.write.extract.joins` asks these when it decides which clauses are one.
"""

from __future__ import annotations

import re

from memlane.domain import Candidate, Category
from memlane.text.lang import fold

from .clauses import Clause
from .leaving import USED_TO, left_behind, left_job


def only(pattern: re.Pattern[str], text: str) -> bool:
    """Whether a clause is nothing but what ``pattern`` matches (a hedge, an amount), its
    punctuation aside."""
    return pattern.fullmatch(fold(text).strip(" .!~,，。！")) is not None


def says_what(p: Candidate, c: Candidate) -> bool:
    """Whether ``c`` says what the clause before only announces: from when or for how long it holds
    ("from now on, answer in English", "just for today, reply in English": then for this conversation
    only), that something changed ("口味变了，现在更喜欢粤菜"), or that news came
    ("中签啦！！上马11月30号", "I got in! classes start in September"). The change or the news is the
    statement after it, in the words of both ("中签啦" alone says nothing a later conversation could
    use, and was dropped as small talk)."""
    if c.hedged:
        return False
    if only(_FROM_NOW_ON, p.text) or only(FOR_NOW_ONLY, p.text):
        return True  # "from now on, answer in English", "just for today, …": when it holds is all it says
    if only(_CHANGED_ONLY, p.text):
        return c.category not in _NOT_A_STATE
    return only(_NEWS_ONLY, p.text) and c.category not in _NOT_NEWS


# a clause that only says the next holds for now: "just for today", "for this week only", "this time",
# "for tonight's dinner", 这次, 今天先
FOR_NOW_ONLY = re.compile(
    r"(?:就|只)?(?:这次|这一次|这回|今天|今晚|这周|这几天)(?:先|就|只|的话)?"
    r"|(?i:(?:(?:just|only)\s+)?for\s+(?:today|tonight|now|this\s+(?:week|time|once|conversation|chat))"
    r"(?:\s+only)?|(?:today|tonight|this\s+week)\s+only|(?:just\s+)?this\s+(?:once|time)"
    r"|(?:just\s+)?for\s+(?:today|tonight|this(?:\s+week)?)(?:'?s)?(?:\s+\w+){1,2})"
)

# what may say why the user changed, between what they left and what replaced it: a hurt, a feeling, a
# problem, a fact ("膝盖伤了", "it made me jittery", "too expensive"), not a thing of its own to keep
_A_REASON = {
    Category.OTHER,
    Category.FACT,
    Category.EVENT,
    Category.MOOD,
    Category.COMPLAINT,
    Category.DISLIKE,
    Category.CONTEXT,
}


def why_it_changed(
    prev: tuple[Candidate, Clause], middle: tuple[Candidate, Clause], nxt: tuple[Candidate, Clause]
) -> bool:
    """Whether ``middle`` says why the user left what ``prev`` left behind, for what ``nxt`` says
    replaced it ("我现在不跑步了，膝盖伤了，改游泳了", "I quit coffee, it made me jittery, it's green tea
    now"): the three are one change, and its reason is the user's too."""
    (p, _), (m, clause), (n, after) = prev, middle, nxt
    return (
        m.category in _A_REASON
        and m.slot is None
        and not m.objects
        and not m.hedged
        and not clause.question
        and m.role == p.role
        and m.lang == p.lang
        and goes_on_to_what_replaced(p, n, after)
    )


# what says a clause is the state a change led to: 现在改游泳, "it's almond milk for me these days"
_NOW_ON = re.compile(
    r"^(?:所以|但是?|不过|然后|而且)?我?(?:现在|如今|目前|改|换|转)"
    # what the user does instead at the time they did it: 游戏不玩了，晚上都在看书
    r"|^我?(?:晚上|周末|早上|中午|下午|平时|每天|最近|现在)?都(?:在|是|用|去|喝|吃|看|玩|听|骑|坐|改)"
    r"|(?i:^(?:so\s+|and\s+|but\s+)?(?:now|these\s+days|nowadays|instead)\b"
    r"|\b(?:now|these\s+days|nowadays|instead|again)$)"
)
# a clause that only says something changed ("口味变了", "my taste has changed"): the clause after it
# says what, and the two are one change
_CHANGED_ONLY = re.compile(
    r"(?:我的?)?(?:口味|喜好|爱好|习惯|想法|品味|胃口|作息|我)(?:也|都|真的|早就|完全)?(?:变了|改了)(?:啊|呀|哈|哦|不少|很多)*"
    r"|(?i:(?:my\s+)?(?:taste|tastes|habits?|preferences?)\s+(?:has\s+|have\s+)?changed(?:\s+a\s+lot)?"
    r"|i(?:'ve|\s+have)\s+changed\s+my\s+mind)"
)
# a clause that only says from when the next one holds: "from now on", 以后, 从现在开始
_FROM_NOW_ON = re.compile(
    r"(?:那|那就|所以)?(?:从现在(?:开始|起)|从今天(?:开始|起)|从今往后|以后|今后|往后)(?:呢|啊|的话)?"
    r"|(?i:(?:so\s+|and\s+)?(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|from\s+today(?:\s+on)?"
    r"|henceforth))"
)
# a clause that only says news came: an outcome the user waited for (中签了, 上岸啦, "I got in!"); the
# clause after it says what it is
_NEWS_ONLY = re.compile(
    r"(?:我|我们)?(?:终于|居然|竟然|也|真的|总算)?(?:被)?"
    r"(?:中签|上岸|考上|考过|录取|通过|中|拿到offer|拿到录取通知书?|批下来|下签)(?:了|啦|咯|喽)(?:啊|呀|哈|哦|耶)*"
    r"|(?i:(?:i|we)\s+(?:finally\s+)?(?:got\s+in|got\s+accepted|passed|got\s+the\s+(?:offer|spot|visa))"
    r"|(?:good|great)\s+news|it'?s\s+official)"
)
# what the news may not be: a feeling, a request, an imagined case, a condition of the task at hand
_NOT_NEWS = {
    Category.MOOD,
    Category.SMALLTALK,
    Category.REQUEST,
    Category.HYPOTHETICAL,
    Category.CONDITION,
    Category.BUDGET,
    Category.SENSITIVE,
}
# what such a clause may not be: besides what news may not be, a complaint or a plan is news itself,
# never the state a change led to
_NOT_A_STATE = _NOT_NEWS | {Category.COMPLAINT, Category.PLAN}


# what a clause of what the user used to do was read as, when it goes on to what they do now: a habit
# that changed ("以前开车上班，现在改骑车了"), not an event, a moment or nothing at all
NO_HABIT = {Category.OTHER, Category.EVENT, Category.CONTEXT, Category.FACT}


def goes_on_to_what_replaced(p: Candidate, c: Candidate, clause: Clause) -> bool:
    """Whether ``clause`` says what replaced the thing the clause before left behind ("我从腾讯离职了，
    现在在字节", "I've gone off oat milk, it's almond milk for me these days"): one change, kept as one
    memory, which retires the old choice and holds the new. A clause that fills a slot of its own
    ("…，现在在字节上班") is left to set it."""
    if c.slot is not None or c.category in _NOT_A_STATE or c.hedged:
        return False
    if _NOW_ON.search(fold(clause.text).strip(" .!~,，。！")) is None:
        return False  # read first: what was left behind takes many patterns and a segmentation
    return bool(left_behind(p.text)) or left_job(p.text) is not None or USED_TO.match(p.text) is not None
