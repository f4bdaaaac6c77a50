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
from .leaving import USED_TO
from .lexicon import (
    AGE_AFTER_NAME,
    AMOUNT_ONLY,
    BARE_HEDGE,
    COMPANY_ONLY,
    CONSEQUENCE,
    EMPHASIS_ONLY,
    PLACE_ONLY,
    SCHEDULE_ONLY,
    THEIR_AGE,
)
from .rule import Context, en_objects, zh_objects
from .told_in_parts import FOR_NOW_ONLY, NO_HABIT, goes_on_to_what_replaced, only, says_what, why_it_changed
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
    if only(BARE_HEDGE, clause.text):
        return True  # "…, but don't quote me", "…，还没想好": the clause before is a guess
    if only(AMOUNT_ONLY, clause.text) or only(COMPANY_ONLY, clause.text):
        return True  # "我有个女儿，今年5岁", "我开始吃素了，跟我姐一起": how old, how long, who with
    if p.category in _HOLDS_MORE and only(EMPHASIS_ONLY, clause.text):
        return True  # "我不吃香菜，一点都不行", "no nuts, not even a little": how strongly
    if p.slot == "name" and only(AGE_AFTER_NAME, clause.text):
        return True  # "I'm Marcus, 41, …": how old the user just named is
    if (p.category is Category.FAMILY or (p.slot or "").startswith("pet:")) and only(THEIR_AGE, clause.text):
        return True  # "I have a cat named Mochi, she's 14": how old the pet or relative just named is
    if c.slot is None and only(SCHEDULE_ONLY, clause.text):
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
    if goes_on_to_what_replaced(p, c, clause) or says_what(p, c):
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
        and _CONTRAST.search(between) is not None
        and _NOT_WHEN.search(fold(clause.text)) is not None
    )


def joined(
    found: list[tuple[Candidate, Clause]], content: str, at: datetime
) -> list[tuple[Candidate, Clause]]:
    """Join each elaboration to the clause it elaborates, and consecutive clauses of one complaint
    (物流太慢了，到现在还没到), into one candidate whose text is the user's span of both; then put a
    plan dated by a weekday alone in the week of the plan before it (:func:`in_its_week`)."""
    out: list[tuple[Candidate, Clause]] = []
    for i, item in enumerate(found):
        if out and i + 1 < len(found) and why_it_changed(out[-1], item, found[i + 1]):
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
        if says_what(prev, c):
            whole = replace(
                c,
                text=content[first.start : clause.end],
                clauses=prev.clauses + c.clauses,
                session_only=c.session_only or only(FOR_NOW_ONLY, prev.text),
            )
            out[-1] = (whole, replace(first, end=clause.end))
            continue
        extra: list[str] = []  # what replaced the thing, or the thing "it" points back at, is no new object
        if goes_on_to_what_replaced(prev, c, clause):
            if prev.category in NO_HABIT and USED_TO.match(prev.text):
                prev = replace(prev, category=Category.ROUTINE, event_time=None, event_status=None)
        elif (
            not why_not
            and not _but_not_when(prev, c, clause, content[first.end : clause.start])
            and not any(only(pattern, clause.text) for pattern in _QUALIFIERS)
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
            hedged=prev.hedged or c.hedged or only(BARE_HEDGE, clause.text),
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
