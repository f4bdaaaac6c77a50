"""Which clauses of a message are one statement: an elaboration and what it elaborates, a guess and
its hedge, an amount or a companion and what it measures or accompanies, a place and the event it is
the place of, a relative or the moment and what a Chinese clause with no subject of its own goes on to
say of them in the same sentence, what a change of mind left behind, why, and what replaced it, news
and what it is, and a complaint told in two parts. Joined, they are one candidate, whose text is the
user's own span of both::

    joined(found, message.content, message.at)  # found: (candidate, clause) in text order
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from memlane.domain import Candidate, Category, EventStatus
from memlane.text.lang import fold

from .clauses import ELABORATION, EXCEPTION, Clause
from .dated import in_its_week, its_time
from .leaving import USED_TO, left_behind, left_job
from .lexicon import (
    AGE_AFTER_NAME,
    AMOUNT_ONLY,
    BARE_HEDGE,
    COMPANY_ONLY,
    CONSEQUENCE,
    EMPHASIS_ONLY,
    PLACE_ONLY,
    SCHEDULE_ONLY,
)
from .rule import Context, en_objects, zh_objects
from .work_zh import names_place

# where a sentence ends: what follows it is a statement of its own, not more about the relative or the
# moment the sentence before named ("我现在在公园下棋呢 抽空问你一句。屏幕换好了…": the screen was fixed)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?:\s|$)")

# what a candidate carries at most
MAX_ENTITIES = 6
MAX_TAGS = 6

# things that join the clause before: what an elaboration adds to, and complaints told in two parts
_HOLDS_MORE = {
    Category.PREFERENCE,
    Category.DISLIKE,
    Category.CONSTRAINT,
    Category.FACT,
    Category.ROUTINE,
    Category.EVENT,
    Category.PLAN,
    Category.FAMILY,
}

# a clause that only qualifies the one before (how sure, how much or long, who with, how strongly,
# when it recurs) names no thing of its own: "…，大概一周" adds no object "大概一周"
_QUALIFIERS = (BARE_HEDGE, AMOUNT_ONLY, COMPANY_ONLY, EMPHASIS_ONLY, SCHEDULE_ONLY)

# what says how far a plan has got: not yet ("还没开始写", "haven't prepped yet")
_NOT_YET = re.compile(r"^(?:但是?|不过|可)?我?都?(?:还没有?|尚未)|(?i:\byet\W*$)")
_HOW_FAR = {Category.OTHER, Category.FACT, Category.CONTEXT}

# what an exception is made to: a lasting taste or rule, not a plan or an event ("anywhere except Termini")
_LASTING = {Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT, Category.FACT, Category.ROUTINE}


def _joins(prev: tuple[Candidate, Clause], nxt: tuple[Candidate, Clause], content: str, at: datetime) -> bool:
    (p, before), (c, clause) = prev, nxt
    if p.category is Category.HYPOTHETICAL:  # 要是我中了彩票，我就飞去火星: the consequence is imagined too
        return CONSEQUENCE.match(fold(clause.text)) is not None
    if p.role != c.role:
        return False
    if _only(BARE_HEDGE, clause.text):
        return True  # "…, but don't quote me", "…，还没想好": the clause before is a guess
    if _only(AMOUNT_ONLY, clause.text) or _only(COMPANY_ONLY, clause.text):
        return True  # "我有个女儿，今年5岁", "我开始吃素了，跟我姐一起": how old, how long, who with
    if p.category in _HOLDS_MORE and _only(EMPHASIS_ONLY, clause.text):
        return True  # "我不吃香菜，一点都不行", "no nuts, not even a little": how strongly
    if p.slot == "name" and _only(AGE_AFTER_NAME, clause.text):
        return True  # "I'm Marcus, 41, …": how old the user just named is
    if c.slot is None and _only(SCHEDULE_ONLY, clause.text):
        return True  # "我最近在练游泳，每周二四晚上去": when (a routine the rules read keeps its own slot)
    if p.category in (Category.EVENT, Category.PLAN, Category.CONTEXT) and _a_place(clause.text):
        return True  # "10月18号办婚礼，在厦门": where the event of the clause before takes place
    if _why_not(p, c):
        return True  # "no pork pls, i don't eat it": why the thing is ruled out is the user's own
    if _but_not_when(p, c, clause, content[before.end : clause.start]):
        return True  # "我喜欢喝咖啡，但是下午不能喝", "I love coffee but not after 2pm": when it is not
    if p.category is Category.PLAN and its_time(clause.text, c.lang, at) is not None:
        return True  # "医生让两周后复查，约的10月18号上午": when the plan before is, and nothing else
    if p.lang != c.lang:
        return False
    if p.category is Category.PLAN and _NOT_YET.search(clause.text) and c.category in _HOW_FAR:
        return True  # "下周五要交季度报告，还没开始写": how far the plan has got is part of it
    if _goes_on_to_what_replaced(p, c, clause) or _says_what(p, c):
        return True  # "跑步停了，现在改游泳": what was left, and what replaced it; "口味变了，现在更喜欢粤菜"
    if (
        p.category in (Category.FAMILY, Category.CONTEXT)
        and c.lang == "zh"
        and not _SENTENCE_END.search(content[before.end : clause.start])
        and _goes_on(p, c, clause)
    ):
        # "我老婆是老师，暑假比较闲", "我有两个孩子，大的7岁小的3岁": of them, not of the user;
        # "我在高铁上，信号不太好": of this moment, not of the user's life
        return True
    if EXCEPTION.match(clause.text) and p.category not in _LASTING:
        return False  # "for dinner tonight something light, nothing with cream": this one request's
    if clause.elaborates and p.category in _HOLDS_MORE and not _OWN_SUBJECT.match(_after_lead(clause.text)):
        return c.category in (Category.OTHER, p.category) or (c.slot is None and c.category in _HOLDS_MORE)
    if p.event_status is EventStatus.CANCELLED and c.event_status is EventStatus.CANCELLED:
        return True  # "云南去不成了，行程先取消吧": one plan called off, said twice
    if _its_problem(p, c, clause, content[before.end : clause.start]):
        return True  # "I ordered new headphones but they never arrived": the problem is the thing's
    return (
        c.category is Category.COMPLAINT
        and p.category is Category.COMPLAINT
        and p.event_status == c.event_status
    )


# what a problem with nothing of its own is said of: the thing the clause before named ("they never
# arrived", "it didn't work for me", 一直没到, 但是我没收到), not a thing of its own
_EN_THING_SUBJECT = re.compile(r"(?i)^(?:it|it's|its|they|they're|theyre|that|this|these|those)\b")
_ZH_NOTHING_NAMED = re.compile(
    r"^(?:我|它)?(?:一直|还|都|也|就|根本|到现在|至今|压根)*(?:没有?|不)[\u4e00-\u9fff]{0,3}?[了啊呀啦呢]*$"
)
# what such a problem may be of: something that happened or was to happen, or a thing no rule read as
# the user's (a lasting like or fact stays itself: "I love my job but it's exhausting")
_HAS_A_THING = {Category.EVENT, Category.PLAN, Category.OTHER}
_CONTRAST = re.compile(r"(?i)\bbut\b|\bhowever\b|但是?|可是|不过")


def _its_problem(p: Candidate, c: Candidate, clause: Clause, between: str) -> bool:
    """Whether ``c`` is a problem (or, after a "but", anything) said of the thing the clause before
    named, by a pronoun or by naming nothing: one statement, kept as the problem ("I ordered new
    headphones but they never arrived"), or dropped as the clause before was ("快递显示已签收但是我没收到":
    "我没收到" alone is no fact of the user's)."""
    if p.category not in _HAS_A_THING or _SENTENCE_END.search(between):
        return False
    if c.category is not Category.COMPLAINT and not (
        _CONTRAST.search(between) and c.category in (Category.FACT, Category.OTHER)
    ):
        return False
    said = fold(clause.text).strip(" .!~,，。！")
    return bool(_EN_THING_SUBJECT.match(said) if c.lang == "en" else _ZH_NOTHING_NAMED.match(said))


def _says_what(p: Candidate, c: Candidate) -> bool:
    """Whether ``c`` says what the clause before only announces: from when it holds ("from now on,
    answer in English"), that something changed ("口味变了，现在更喜欢粤菜"), or that news came
    ("中签啦！！上马11月30号", "I got in! classes start in September"). The change or the news is the
    statement after it, in the words of both ("中签啦" alone says nothing a later conversation could
    use, and was dropped as small talk)."""
    if c.hedged:
        return False
    if _only(_FROM_NOW_ON, p.text) or _only(_FOR_NOW_ONLY, p.text):
        return True  # "from now on, answer in English", "just for today, …": when it holds is all it says
    if _only(_CHANGED_ONLY, p.text):
        return c.category not in _NOT_A_STATE
    return _only(_NEWS_ONLY, p.text) and c.category not in _NOT_NEWS


# a clause that only says the next holds for now: "just for today", "for this week only", 这次, 今天先
_FOR_NOW_ONLY = re.compile(
    r"(?:就|只)?(?:这次|这一次|这回|今天|今晚|这周|这几天)(?:先|就|只|的话)?"
    r"|(?i:(?:(?:just|only)\s+)?for\s+(?:today|tonight|now|this\s+(?:week|time|once|conversation|chat))"
    r"(?:\s+only)?|(?:today|tonight|this\s+week)\s+only|just\s+this\s+(?:once|time))"
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


def _why_it_changed(
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
        and _goes_on_to_what_replaced(p, n, after)
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
_NO_HABIT = {Category.OTHER, Category.EVENT, Category.CONTEXT, Category.FACT}


def _goes_on_to_what_replaced(p: Candidate, c: Candidate, clause: Clause) -> bool:
    """Whether ``clause`` says what replaced the thing the clause before left behind ("我从腾讯离职了，
    现在在字节", "I've gone off oat milk, it's almond milk for me these days"): one change, kept as one
    memory, which retires the old choice and holds the new. A clause that fills a slot of its own
    ("…，现在在字节上班") is left to set it."""
    if c.slot is not None or c.category in _NOT_A_STATE or c.hedged:
        return False
    if _NOW_ON.search(fold(clause.text).strip(" .!~,，。！")) is None:
        return False  # read first: what was left behind takes many patterns and a segmentation
    return bool(left_behind(p.text)) or left_job(p.text) is not None or USED_TO.match(p.text) is not None


# what a Chinese clause opens with when it names its own subject
_ZH_SUBJECT = re.compile(r"^(?:我|本人|你|您|他|她|它|咱|大家|这|那)")


def _goes_on(p: Candidate, c: Candidate, clause: Clause) -> bool:
    """Whether a Chinese clause goes on about what the clause before was about (the user's relative,
    the moment): it names no subject of its own, and the rules found nothing of the user's in it but
    what dropping 我 made, or what is the relative's or the moment's (not "…，没空爬山了")."""
    if c.slot is not None or _ZH_SUBJECT.match(fold(clause.text)):
        return False
    theirs = {
        # of a relative, a like too: "我有个女儿，特别喜欢画画"
        Category.FAMILY: (Category.PREFERENCE, Category.DISLIKE, Category.ROUTINE),
        # of the moment, a problem too: "我在机场，航班延误了" (nothing to follow up on next week)
        Category.CONTEXT: (Category.COMPLAINT,),
    }.get(p.category, ())
    return c.category in (Category.FACT, Category.OTHER, *theirs)


def _a_place(text: str) -> bool:
    """Whether a clause is nothing but a place ("在厦门", "in Lisbon"), not what is going on (在等抽签)."""
    m = PLACE_ONLY.fullmatch(text.strip(" .!~,，。！"))
    if m is None:
        return False
    where = m.group("where")
    return where is None or names_place(where)


# what a clause says of the thing the clause before named, by pointing back at it
_POINTS_BACK = {"it", "them", "that", "those", "那个", "这个", "它"}


def _why_not(p: Candidate, c: Candidate) -> bool:
    """Whether ``c`` says the user does not take the thing ``p`` rules out, by pointing back at it:
    "no pork pls, i don't eat it", "no fish, cant stand it", "不要香菜，我吃不了那个"."""
    return (
        p.category in (Category.CONSTRAINT, Category.CONDITION)
        and bool(p.objects)
        and c.category in (Category.DISLIKE, Category.CONSTRAINT)
        and c.lang == p.lang
        and (not c.objects or all(o.lower() in _POINTS_BACK for o in c.objects))
    )


# what a like's exception says after "but": when or how much the user does not have the thing ("但是下午
# 不能喝", "不过晚上不吃", "but can't have it after 2pm", "but not after 2pm"), with no subject of its own
_HOW_MUCH = re.compile(r"太?多了?|太晚|太频繁|太勤|太久")
_BUT = re.compile(r"但是?|不过|可是|(?i:\bbut\b)")
_NOT_WHEN = re.compile(
    r"^(?:[早上中下晚]午?上?|周末|平时|工作日|睡前|饭后|空腹|晚饭后|[0-9一二两三四五六七八九十]+点(?:以?后)?"
    r"|(?:周|星期|礼拜)[一二三四五六日天])?"
    r"(?:就|也|都|一般)?(?:不能|不敢|不|别|少|没法)"
    r"|(?i:^(?:(?:just\s+)?not|never|only|rarely|no\s+more\s+than)\s+(?:after|before|at|on|in|during|too|more|much"
    r"|every|past|around|with|once|twice|\d)"
    r"|^(?:i\s+)?(?:can'?t|cannot|don'?t|shouldn'?t)\s+(?:have|eat|drink|do|take)\s+(?:it|them|that|much|too))"
)


def _but_not_when(p: Candidate, c: Candidate, clause: Clause, between: str) -> bool:
    """Whether ``clause`` says, after "but", when or how much the user does not have what the like or
    habit before it names: one statement, the like with its exception."""
    return (
        p.category in (Category.PREFERENCE, Category.ROUTINE)
        # "…but not on Sundays" reads as a routine, "但是不能吃太多" as a dislike of "太多": no new thing
        and (c.slot is None or c.category in (Category.ROUTINE, Category.DISLIKE))
        and all(_HOW_MUCH.fullmatch(o) for o in c.objects)
        and not clause.question
        and _BUT.search(between) is not None
        and _NOT_WHEN.search(fold(clause.text)) is not None
    )


def _only(pattern: re.Pattern[str], text: str) -> bool:
    """Whether a clause is nothing but what ``pattern`` matches (a hedge, an amount), its
    punctuation aside."""
    return pattern.fullmatch(fold(text).strip(" .!~,，。！")) is not None


def joined(
    found: list[tuple[Candidate, Clause]], content: str, at: datetime
) -> list[tuple[Candidate, Clause]]:
    """Join each elaboration to the clause it elaborates, and consecutive clauses of one complaint
    (物流太慢了，到现在还没到), into one candidate whose text is the user's span of both; then put a
    plan dated by a weekday alone in the week of the plan before it (:func:`in_its_week`)."""
    out: list[tuple[Candidate, Clause]] = []
    for i, item in enumerate(found):
        if out and i + 1 < len(found) and _why_it_changed(out[-1], item, found[i + 1]):
            (prev, first), (c, clause) = out[-1], item
            because = replace(
                prev,
                text=content[first.start : clause.end],
                tags=list(dict.fromkeys([*prev.tags, *c.tags]))[:MAX_TAGS],
                clauses=prev.clauses + c.clauses,
            )
            out[-1] = (because, replace(first, end=clause.end))
            continue
        if not out or not _joins(out[-1], item, content, at):
            out.append(item)
            continue
        (prev, first), (c, clause) = out[-1], item
        if c.category is Category.COMPLAINT and _its_problem(
            prev, c, clause, content[first.end : clause.start]
        ):
            prev = replace(c, objects=prev.objects, tags=prev.tags, entities=prev.entities)  # the problem
        why_not = _why_not(prev, c)
        if why_not:  # ruled out for good, by the user's own dislike: not this request's only
            prev = replace(prev, category=Category.CONSTRAINT, session_only=False)
        if _says_what(prev, c):
            whole = replace(
                c,
                text=content[first.start : clause.end],
                clauses=prev.clauses + c.clauses,
                session_only=c.session_only or _only(_FOR_NOW_ONLY, prev.text),
            )
            out[-1] = (whole, replace(first, end=clause.end))
            continue
        extra: list[str] = []  # what replaced the thing, or the thing "it" points back at, is no new object
        if _goes_on_to_what_replaced(prev, c, clause):
            if prev.category in _NO_HABIT and USED_TO.match(prev.text):
                prev = replace(prev, category=Category.ROUTINE, event_time=None, event_status=None)
        elif (
            not why_not
            and not _but_not_when(prev, c, clause, content[first.end : clause.start])
            and not any(_only(only, clause.text) for only in _QUALIFIERS)
        ):
            extra = c.objects or ([] if c.category is prev.category else _elaborated(clause.text, c.lang, at))
        # a plan's time said after it is its time ("…两周后复查，约的10月18号上午"), unless it falls
        # before the time the plan already has ("下周末去杭州，定在周六": that weekend's Saturday)
        when = its_time(clause.text, c.lang, at) if prev.category is Category.PLAN else None
        if when is not None and prev.event_time is not None and when.at < prev.event_time:
            when = None
        joined = replace(
            prev,
            text=content[first.start : clause.end],
            objects=list(dict.fromkeys([*prev.objects, *extra])),
            tags=list(dict.fromkeys([*prev.tags, *c.tags]))[:MAX_TAGS],
            entities=list(dict.fromkeys([*prev.entities, *c.entities]))[:MAX_ENTITIES],
            event_time=when.at if when is not None else prev.event_time or _its_time(prev, c),
            hedged=prev.hedged or c.hedged or _only(BARE_HEDGE, clause.text),
            remember_request=prev.remember_request or c.remember_request,
            clauses=prev.clauses + c.clauses,
        )
        out[-1] = (joined, replace(first, end=clause.end))
    return in_its_week(out, at)


_ELABORATION_LEAD = re.compile(r"^(?:" + ELABORATION.pattern + r")\s*")

_OWN_SUBJECT = re.compile(r"(?:我|本人)|(?i:(?:i|i'm|i've|my|we)\b)")


def _after_lead(text: str) -> str:
    return _ELABORATION_LEAD.sub("", fold(text)).strip(" ,，.")


def _its_time(prev: Candidate, c: Candidate) -> datetime | None:
    """The time of what ``c`` joins, when the candidate it joins has none: ``c``'s, unless what it
    joins lasts ("I love coffee but not after 2pm" is no plan for 2pm)."""
    return None if prev.category in _LASTING else c.event_time


def _elaborated(text: str, lang: str, at: datetime) -> list[str]:
    """What an elaboration names (尤其是长焦 → 长焦), as objects of the memory it joins."""
    rest = _after_lead(text)
    if not rest:
        return []
    ctx = Context(rest, lang, at)
    return (zh_objects if lang == "zh" else en_objects)(rest, ctx)
