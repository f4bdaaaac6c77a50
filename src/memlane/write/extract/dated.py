"""The builders of what has a time: plans and events dated by the times a clause names (or by none, a
plan called off), a plan moved to another day, and a routine by its schedule; and what says only
when ("就这周六", "this saturday then"), which holds no action. How long a state has held ("结婚十年了")
and what never happened ("我从来没出过国") are facts about the user, not events.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TypeVar

from memlane.domain import Candidate, Category, EventStatus
from memlane.text.timeparse import TimeMention, find_times

from .events_en import IRREGULAR
from .holds import HABITUAL
from .rule import ZH_SUBJECT_WORDS, Build, Context, Draft

T = TypeVar("T")

# a day named by its month and date alone ("March 3rd", "3月3号"), with no year and nothing that puts
# it behind ("last", 去年, 上个月)
_YEARLESS_DAY = re.compile(
    r"(?i)^(?!.*(?:\d{4}|年|\blast\b|\bpast\b|上)).*(?:月|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b)"
)


# what may stand beside a time that says no action: "就这周六", "下周三下午", "this saturday then"
_FILLER = re.compile(
    r"(?i)\b(?:then|just|on|at|in|the|morning|afternoon|evening|night|works|ok|okay|maybe|probably)\b"
    r"|就|吧|呢|啊|呀|的话|那|上午|下午|中午|晚上|早上|傍晚|可以|行"
)


# how long a state of the user's has held, at the end of what was done to begin it: "结婚十年了",
# "我来深圳三年了", "we've been married 12 years", "been in this job 5 years" (not "moved here 3 years ago")
_HELD_FOR = re.compile(
    r"(?:[\d一二两三四五六七八九十几半]+|好几|十几)多?个?(?:年|月)多?了$"
    r"|(?i:\b(?:been|married|together)\b(?:\s+\w+){0,4}?\s+(?:for\s+)?(?:\d+|a|one|two|three|four|five|six|seven"
    r"|eight|nine|ten|twelve|fifteen|twenty|a\s+few|several|many)\+?\s+(?:years?|yrs?|months?)\b(?!\s+ago)"
    r"(?:\s+(?:now|this\s+\w+|already))?$)"
)


# what never happened is no event: "我从来没出过国", "从没坐过飞机", "我没去过日本"
_NEVER = re.compile(r"从来?没有?|从未|没有?[\u4e00-\u9fff]{1,6}过(?!敏)")


# what may stand beside the time a plan is booked for, said after the plan: "约的10月18号上午",
# "定在周五", "booked for the 18th", "it's on friday at 10"
_BOOKED = re.compile(
    r"(?i)约的?|约在|[定订排]在|[定订]的|预约的?|\b(?:booked|set|scheduled|it'?s|its|appointment'?s|for|is)\b"
)


# a day of the week named alone, with nothing that says which week: "on Tuesday", "周二"
_BARE_DAY = re.compile(
    r"(?i)^(?:on\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?$"
    r"|^(?:周|星期|礼拜)[一二三四五六日天]$"
)
# a month named alone, with nothing that says which year: "in January", "一月份", "1月"
_BARE_MONTH = re.compile(
    r"(?i)^(?:in\s+|by\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$"
    r"|^[0-9一二三四五六七八九十]{1,3}月份?$"
)
# a day of the month named alone: "on the 20th", "20号"
_BARE_DATE = re.compile(
    r"(?i)^(?:(?:on|by|until|till|for)\s+)?the\s+\d{1,2}(?:st|nd|rd|th)$|^[0-9一二三四五六七八九十]{1,3}号$"
)
# what says a clause speaks of the past: a past tense, 了, 过, a past day
_PAST = re.compile(
    r"(?i)\b(?:was|were|\w+ed|" + IRREGULAR + r")\b|了|过|刚|已经|昨|前天|上周|上个|上礼拜|上星期"
)
# what says a clause tells what was done: the user (or someone) and a past verb first, or 了 / 过 with
# nothing that puts it ahead ("we got married in October", "left my job in May", "我5月辞职了"; not "I'm
# scheduled to start in May", "我5月要结婚了")
_DONE_THEN = re.compile(
    r"(?i)^(?:(?:so|and|also|well|oh|yeah|actually)\s+)*(?:(?:i|we|he|she|they|(?:my|our)\s+\w+)\s+)?"
    r"(?:just\s+|finally\s+|already\s+|actually\s+)?(?:\w+ed|" + IRREGULAR + r")\b"
    r"|^(?!.*(?:要|会|打算|准备|将|想|计划|快|马上|预计|下个?月)).*(?:了|过)[啊呀哦嘛呢]?$"
)
# what a day named after it was booked for, whenever the booking was: "I booked a table for Tuesday",
# "订了周二的" (the day is ahead, though the booking is past)
_BOOKED_FOR = re.compile(
    r"(?i)\b(?:booked|reserved|scheduled|set\s+up|arranged|moved\s+it|pushed\s+it)\b.*\bfor\s*$|[订约定]了?$"
    # what the user signed up for, whatever is said between: "signed up for a marathon in October"
    r"|(?i:\b(?:signed\s+up|registered|enrolled|entered)\s+(?:for|in)\b.*$)"
)


def as_said(times: list[TimeMention], text: str) -> list[TimeMention]:
    """``times``, with a day of the week, of the month or a month named alone put in the week, month or
    year the clause speaks of. One already past is the coming one, when nothing in ``text`` speaks of
    the past or the day is what something was booked for: "I have a talk on Tuesday", "周二有个会" and
    "I booked a table for Tuesday", said on a Thursday, are next week's, "我3号去北京" said on the 5th
    next month's, and "I'm starting at Siemens in January", "一月份去日本", said in March, next year's
    (the day or month was read as this one's, and the clause as an event that was over); "I went to
    the gym on Tuesday" and "一月份去了日本" stay. A month still to come is last year's in a clause that
    says what was done then: "we got married in October", "我5月辞职了", said in March (they were
    plans)."""
    past = _PAST.search(text) is not None
    done = _DONE_THEN.search(text) is not None

    def booked(t: TimeMention) -> bool:
        return _BOOKED_FOR.search(text[: t.start]) is not None

    week = timedelta(days=7)
    out = []
    for t in times:
        day = _BARE_DAY.match(t.text.strip()) is not None
        date = _BARE_DATE.match(t.text.strip()) is not None
        month = t.granularity == "month" and _BARE_MONTH.match(t.text.strip()) is not None
        if t.direction < 0 and (day or date or month) and (not past or booked(t)):
            if day:
                t = replace(t, at=t.at + week, end_at=t.end_at + week, direction=1)
            elif date:
                t = replace(
                    t, at=_a_month_on(t.at), end_at=_a_month_on(t.at) + timedelta(days=1), direction=1
                )
            else:
                t = replace(t, at=_a_year_on(t.at), end_at=_a_year_on(t.end_at), direction=1)
        elif t.direction > 0 and month and done and not booked(t):
            t = replace(t, at=_a_year_on(t.at, -1), end_at=_a_year_on(t.end_at, -1), direction=-1)
        out.append(t)
    return out


def in_its_week(plans: list[tuple[Candidate, T]], at: datetime) -> list[tuple[Candidate, T]]:
    """``plans`` (the candidates of one message, in order, each with its clause), with a plan dated only
    by a day of the week named alone put on that day of the week or weekend the plan before it is for:
    "we're hosting my parents next weekend, they fly in from Pune on Saturday" (that weekend's
    Saturday, not this one), "下周去北京出差，周三的航班"."""
    out: list[tuple[Candidate, T]] = []
    week: TimeMention | None = None  # the week or weekend the plan before is for
    for c, clause in plans:
        times = find_times(c.text, at) if c.category is Category.PLAN else []
        if week is not None and times and all(_BARE_DAY.match(t.text.strip()) for t in times):
            day = week.at + timedelta(days=(times[0].at.weekday() - week.at.weekday()) % 7)
            c = replace(c, event_time=day) if day < week.end_at else c
        else:
            week = next((t for t in times if t.direction >= 0 and (t.end_at - t.at).days >= 2), None)
        out.append((c, clause))
    return out


@lru_cache(maxsize=64)  # joins asks whether a clause joins, then for its time
def its_time(text: str, lang: str, at: datetime) -> TimeMention | None:
    """The time ``text`` names when it says nothing else (but that something is booked then): "约的
    10月18号上午", "就这周六", "booked for the 18th"; None otherwise."""
    ctx = Context(text, lang, at, times=find_times(text, at))
    mention = ctx.time()
    return mention if mention is not None and just_a_time(ctx, _BOOKED) else None


def just_a_time(ctx: Context, *more: re.Pattern[str]) -> bool:
    """Whether the clause says only when: "下个月", "就这周六", "this saturday then" (and, beside the
    time, only what ``more`` matches)."""
    rest = _FILLER.sub("", ctx.without_times())
    for words in more:
        rest = words.sub("", rest)
    return len(re.sub(r"[\W_]", "", rest)) < 2


_CLOCK_ZH = re.compile(
    r"(?:早上|上午|中午|下午|晚上|凌晨|半夜)?[0-9零一二两三四五六七八九十]{1,3}(?:点|:\d{2})(?:半|一刻|[0-9]{1,2}分?)?"
)


def unless_a_habit(build: Build) -> Build:
    """``build`` for a Chinese clause dated only by a time of day, unless a word of habit makes it what
    the user usually does then ("我一般晚上12点睡" is no plan for midnight tonight)."""

    def dated(m: re.Match[str], ctx: Context) -> Draft | None:
        clock = ctx.times and all(_CLOCK_ZH.fullmatch(t.text.strip()) for t in ctx.times)
        return None if clock and HABITUAL.search(ctx.text) else build(m, ctx)

    return dated


def timed(status: EventStatus, direction: int | None, require_time: bool = False) -> Build:
    """A builder for plans and events: the first time of the wanted direction becomes ``event_time``.
    A plan's day said without a year that has passed this year is next year's ("I'll fly to Tokyo on
    March 3rd", said in September)."""

    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        if status is EventStatus.DONE and (_HELD_FOR.search(ctx.text) or _NEVER.search(ctx.text)):
            return Draft(category=Category.FACT)  # how long a state has held, or what never happened
        mention = ctx.time(direction) or (None if require_time else ctx.time())
        if mention is None and require_time:
            return None
        if require_time and just_a_time(ctx):
            return None  # no action
        if mention is None or not _dates(mention, status):
            return Draft(event_time=None, event_status=status)
        passed = status is EventStatus.PLANNED and mention.direction < 0
        at = _a_year_on(mention.at) if passed and _YEARLESS_DAY.search(mention.text) else mention.at
        return Draft(event_time=at, event_status=status)

    return build


def _dates(mention: TimeMention, status: EventStatus) -> bool:
    """Whether ``mention`` says when a done event happened. A period longer than a day that holds the
    message time (今年的马拉松, this month, 这周) says only that it happened in it, not at its start: the
    message time dates it better (dated on 1 January, 报名了今年的上海马拉松 would be rolled into January's
    digest)."""
    fine = mention.granularity in ("minute", "hour", "day")
    return status is EventStatus.PLANNED or mention.direction != 0 or fine


def _a_month_on(at: datetime) -> datetime:
    """The same day of the next month (its last day for a 31st)."""
    year, month = (at.year + 1, 1) if at.month == 12 else (at.year, at.month + 1)
    day = at.day
    while True:
        try:
            return at.replace(year=year, month=month, day=day)
        except ValueError:  # 31 April
            day -= 1


def _a_year_on(at: datetime, years: int = 1) -> datetime:
    """The same day ``years`` later (28 February for a 29th)."""
    try:
        return at.replace(year=at.year + years)
    except ValueError:
        return at.replace(year=at.year + years, day=28)


def moved_plan(m: re.Match[str], ctx: Context) -> Draft | None:
    """A plan moved to another time ("rebooked for next tuesday", 改到下周三): the plan at the time said
    after the words that move it (the time before them is the one it no longer has; the one after may
    start with their "to": "pushed to April")."""
    later = [t for t in ctx.times if t.end > m.end()]
    mention = later[0] if later else None
    return Draft(event_time=mention.at if mention else None, event_status=EventStatus.PLANNED)


_ZH_SCHEDULE = re.compile(
    # how often first: 每周三次 is no Wednesday ("我一周跑两次步": 跑步)
    r"(?:每个?|一个?)(?:周|星期|礼拜|天|月|年)(?=[^，。,\d一两二三四五六七八九十]{0,3}[\d一两二三四五六七八九十]{1,2}(?:次|回|趟))|"
    r"[\d一两二三四五六七八九十]{1,2}(?:次|回|趟)|"
    r"(?:每个?|每逢|每隔)?(?:周|星期|礼拜)[一二三四五六日天1-7、和及到至]*|工作日|每天|每日|天天|每一天|每个?月(?:\d{1,2}[号日])?|"
    r"每年|每晚|每早|每隔\S{1,3}?天|隔天|凌晨|清晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|\d{1,2}[:：]\d{2}|"
    r"[\d一二三四五六七八九十两]{1,3}[点时](?:半|\d{1,2}分?)?"
)
# what one character says as a whole activity: "每天十点就睡" sleeps at ten
_ZH_ONE_CHAR_ACTIVITY = frozenset("睡起跑游练学读写走骑")
_EN_SCHEDULE = re.compile(
    r"(?i)\b(?:once|twice|\d{1,2}\s*x|(?:\d{1,2}|one|two|three|four|five|six|seven)\s+times?)\s+(?:a|per)\s+\w+|"
    r"\b(?:\d{1,2}|one|two|three|four|five|six|seven)\s+(?:mornings?|evenings?|nights?|days?)\s+(?:a|per)\s+\w+|"
    r"\b(?:every|each|on)\s+(?:other\s+)?\w+|\b(?:weekdays?|weekends?|daily|weekly|monthly|yearly|annually|"
    r"mornings?|evenings?|nights?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b|\bat\s+\d{1,2}(?::\d{2})?\s*"
    r"(?:[ap]\.?m\b\.?)?|\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\b\.?|\b(?:i|we|usually|always|normally|typically|"
    r"regularly|go|have|do|in\s+the|to|and|through|thru|from)\b"
)


# a span of a few days that bounds what is done "every day" in it
# (not a week: "每周四上陶艺课，这周开始" starts a habit)
_FOR_A_FEW_DAYS = re.compile(r"这[几两]天|这阵子|这段时间")
# what sets a limit on what recurs rather than says the user does it
_A_LIMIT = re.compile(
    r"别|不要|不能|不得|不许|最多|不超过|(?i:\b(?:no\s+more\s+than|not\s+more\s+than|at\s+most|max(?:imum)?)\b)"
)
# what a clause says of a day when it judges it rather than says what the user does on it
_VERDICT = re.compile(
    r"(?:好|真|太|最|超|特别|巨)(?:烦|累|无聊|难熬|讨厌|痛苦|崩溃|丧)|烦死|讨厌|受不了|到崩溃"
    r"|(?i:\b(?:are|is|were|was)\s+(?:always\s+|just\s+|so\s+|such\s+|the\s+)*(?:worst|best|awful|terrible"
    r"|horrible|rough|brutal|the\s+pits|exhausting|draining|boring|a\s+drag|killing\s+me)\b"
    r"|\bsucks?\b|\bi\s+(?:hate|can'?t\s+stand|dread)\b)"
)


def routine(m: re.Match[str], ctx: Context) -> Draft | None:
    """A builder for routines: the clause's schedule, keyed by the activity left once the schedule is gone.

    每周一健身 -> ``routine:健身`` = ``every monday``; I go swimming every Monday -> ``routine:swimming``.
    """
    if ctx.schedule is None or _VERDICT.search(ctx.text):
        return None  # "ugh mondays are the worst", "周一好烦": a feeling about the day, no routine
    if _FOR_A_FEW_DAYS.search(ctx.text):
        return None  # "这几天天天加班": every day of these few, no habit
    if _A_LIMIT.search(ctx.text):
        return None  # "每天别超过6小时", "no more than 6 hours a day": a limit set, not what is done
    pattern = _ZH_SCHEDULE if ctx.lang == "zh" else _EN_SCHEDULE
    activity = re.sub(r"\s+", " ", pattern.sub(" ", ctx.without_times())).strip(" ,.，。!！")
    if ctx.lang == "zh":
        activity = ZH_SUBJECT_WORDS.sub("", activity.replace(" ", ""))
    if len(activity) < 2 and activity not in _ZH_ONE_CHAR_ACTIVITY:
        return None
    return Draft(slot=f"routine:{activity}", value=ctx.schedule, tags=["routine"])
