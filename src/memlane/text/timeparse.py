"""Time expressions in Chinese and English, resolved against the time a message was sent.

:func:`find_times` turns 昨天 / 上周三 / 6月10号 / 下午3点 / last Friday / 3 weeks ago / June 10th into
periods ``[at, end_at)``; a date followed by a clock time (明天下午3点, tomorrow at 9am) is one mention.
(:mod:`memlane.text.recurrence` names a repeating schedule: 每周一, weekdays at 9.)

Weeks start on Monday. A date without a year (6月10日, June 10) is taken in the reference year, so
it may lie in the past or the future; ``direction`` says which. Outputs keep the reference's tzinfo.

>>> from datetime import datetime
>>> [m.at.date().isoformat() for m in find_times("上周三去了医院", datetime(2024, 6, 14))]
['2024-06-05']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from memlane.text.periods import (
    EN_PARTS,
    ZH_PARTS,
    Period,
    clock_period,
    date_period,
    day_period,
    month_period,
    shifted,
    week_period,
    weekend_period,
    year_period,
)
from memlane.text.timewords import (
    AMPM,
    CN,
    EN_DAY,
    EN_DAYS,
    EN_MONTHS,
    EN_NUM,
    EN_NUMBERS,
    EN_REL,
    EN_WEEKDAYS,
    EVENING_PARTS,
    MON,
    MONTH,
    WEEKDAY,
    ZH_DAYS,
    ZH_NUM,
    ZH_REL,
    ZH_UNITS,
    ZH_WEEKDAYS,
    ZH_YEARS,
    normalised,
    number,
)

__all__ = ["TimeMention", "find_times", "number", "raw_mentions"]  # number: the numerals of timewords


@dataclass(frozen=True)
class TimeMention:
    """One time expression found in a text and the period it names."""

    start: int  # span in the text
    end: int
    text: str  # the matched expression
    at: datetime  # start of the period it names (last week -> Monday 00:00 of last week)
    end_at: datetime  # end of the period (exclusive)
    granularity: str  # "minute" | "hour" | "day" | "week" | "month" | "year"
    direction: int  # -1 past, 0 present, +1 future (relative to the reference)


_Handler = Callable[[re.Match[str], datetime], "Period | None"]

# -- handlers: one per pattern below, from a match to a period ---------------------------------------


def _zh_day(m: re.Match[str], now: datetime) -> Period | None:
    return day_period(now, ZH_DAYS[m.group(0)], ZH_PARTS.get(m.group(0)))


def _zh_week(m: re.Match[str], now: datetime) -> Period | None:
    rel, day = m.group("rel"), m.group("wd")
    offset = ZH_REL.get(rel or "", 0)
    if day is None:
        return week_period(now, offset) if rel else None
    return (
        weekend_period(now, offset)
        if day == "末"
        else day_period(week_period(now, offset).at, ZH_WEEKDAYS[day])
    )


def _zh_month(m: re.Match[str], now: datetime) -> Period | None:
    rel, part = m.group("rel"), m.group("part")
    if not rel and not part:
        return None
    period = month_period(now, ZH_REL.get(rel or "", 0))
    if not part:
        return period
    first = {"初": 0, "中": 10}.get(part, 20)  # 月初 / 月中 / 月底: thirds of the month
    start = period.at + timedelta(days=first)
    return Period(start, period.end_at if first == 20 else start + timedelta(days=10), "day")


def _zh_year(m: re.Match[str], now: datetime) -> Period | None:
    return year_period(now, now.year + ZH_YEARS[m.group(0)])


def _zh_ago(m: re.Match[str], now: datetime) -> Period | None:
    unit = ZH_UNITS[m.group("unit").lstrip("个")] if m.group("unit") != "个月" else "month"
    if m.group("n") == "半":  # 半年前 is six months ago, 半个月前 two weeks
        unit, amount = {"year": ("month", 6), "month": ("week", 2)}.get(unit, (unit, 0))
    else:
        amount = number(m.group("n")) or 0
    sign = -1 if m.group("dir") in ("前", "以前", "之前") else 1
    return shifted(now, sign * amount, unit) if amount else None


def _zh_date(m: re.Match[str], now: datetime) -> Period | None:
    year, day = m.group("y"), m.group("d")
    return date_period(now, int(year) if year else None, number(m.group("m")), number(day) if day else None)


def _day_of_month(m: re.Match[str], now: datetime) -> Period | None:
    """A day named by its number alone ("on the 20th", "20号"): this month's."""
    return date_period(now, None, now.month, number(m.group("d")))


def _year_only(m: re.Match[str], now: datetime) -> Period | None:
    return year_period(now, int(m.group("y")))


def _zh_clock(m: re.Match[str], now: datetime) -> Period | None:
    digits, part, mm, after = m.group("h"), m.group("part") or "", m.group("mm") or "", m.group("after")
    # 一点 / 两点 also mean "a little" / "two points": a Chinese numeral needs more evidence than a digit
    if not (part or mm or after == "钟" or (digits.isdigit() and after is not None)):
        return None
    minute = {"": 0, "整": 0, "半": 30, "一刻": 15, "三刻": 45}.get(mm)
    hour = number(digits)
    if hour is not None and hour < 12 and (part in EVENING_PARTS or (part == "中午" and hour < 11)):
        hour += 12
    elif hour == 12 and part in ("凌晨", "半夜"):
        hour = 0
    return clock_period(now, hour, number(mm.rstrip("分")) or 0 if minute is None else minute)


def _en_day(m: re.Match[str], now: datetime) -> Period | None:
    words = normalised(m.group(0))
    return day_period(now, EN_DAYS[words], EN_PARTS.get(words))


def _en_unit(m: re.Match[str], now: datetime) -> Period | None:
    offset = EN_REL[m.group("rel").lower().split()[-1]]
    unit = m.group("unit").lower()
    return weekend_period(now, offset) if unit == "weekend" else shifted(now, offset, unit)


def _en_weekday(m: re.Match[str], now: datetime) -> Period | None:
    rel = (m.group("rel") or "this").lower().split()[-1]
    weekday, today = EN_WEEKDAYS[m.group("wd").lower().rstrip(".")], now.weekday()
    if rel in ("last", "past"):  # the most recent one before today
        return day_period(now, -((today - weekday - 1) % 7 + 1))
    if rel in ("next", "coming"):  # the first one after today
        return day_period(now, (weekday - today - 1) % 7 + 1)
    return day_period(week_period(now).at, weekday)


def _en_ago(m: re.Match[str], now: datetime) -> Period | None:
    n = normalised(m.group("n")).removeprefix("a ").removesuffix(" of")
    amount = EN_NUMBERS.get(n) or number(n)
    if not amount or (m.group("pre") is None and m.group("dir") is None):  # "for 3 days" is a duration
        return None
    future = m.group("pre") is not None or m.group("dir") in ("later", "from now")
    return shifted(now, amount if future else -amount, m.group("unit").lower())


def _en_date(m: re.Match[str], now: datetime) -> Period | None:
    groups = m.groupdict()
    year = groups.get("y") or groups.get("y2")
    day = groups.get("d") or groups.get("d2")
    month = EN_MONTHS[m.group("mon").lower().rstrip(".")[:3]]
    return date_period(now, int(year) if year else None, month, int(day) if day else None)


def _en_clock(m: re.Match[str], now: datetime) -> Period | None:
    special = (m.groupdict().get("special") or "").lower()
    if special:
        return clock_period(now, 12 if special == "noon" else 0, 0)
    hour, ampm = int(m.group("h")), (m.group("ampm") or "").lower()
    if ampm.startswith("p") and hour < 12:
        hour += 12
    elif ampm.startswith("a") and hour == 12:
        hour = 0
    return clock_period(now, hour, int(m.group("mm") or 0))


# -- patterns ---------------------------------------------------------------------------------------

# fmt: off
_PATTERNS: tuple[tuple[str, _Handler], ...] = (
    # Chinese
    ("|".join(sorted(ZH_DAYS, key=len, reverse=True)), _zh_day),
    (r"(?P<rel>上上|下下|上|下|这|本|今)?个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7末])?", _zh_week),
    (r"(?:(?P<rel>上上|下下|上|下|这|本)个?|(?<![\d零〇一二两三四五六七八九十个]))"
     r"月(?P<part>初|中|底|末)?", _zh_month),
    ("|".join(sorted(ZH_YEARS, key=len, reverse=True)), _zh_year),
    (rf"(?P<n>{ZH_NUM}|半)(?P<unit>分钟|个?小时|个?钟头|天|日|个?周|个?星期|个?礼拜|个月|年)"
     r"(?P<dir>[以之]?[前后])", _zh_ago),
    (rf"(?:(?P<y>\d{{4}})年)?(?P<m>{ZH_NUM})月份?(?:(?P<d>{ZH_NUM})[日号])?", _zh_date),
    # (not a year that describes a thing or a person: "Nissan Urvan 2019年的", "我是1990年的"; but
    # "2019年的夏天", "2019年的时候" are times)
    (r"(?P<y>\d{4})年(?![前后底初中])(?!的(?!时候|那|夏天|春天|秋天|冬天|暑假|寒假|春节|国庆|年[底初]|上半年|下半年))",
     _year_only),
    # a day of the month alone: 20号 (not line 3 of the metro, a building, a seat: 3号线, 1号楼)
    (rf"(?<![\d月年])(?P<d>[12]?\d|3[01]|{ZH_NUM})号(?!线|楼|房|门|位|床|桌|机|车|厅|院|馆|码|牌|选手|球|口|窗|店|柜|箱|站|台)",
     _day_of_month),
    (r"(?P<part>凌晨|清晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|深夜|半夜)?"
     rf"(?P<h>\d{{1,2}}|{CN})[点點时](?P<mm>半|整|[一三]刻|(?:\d{{1,2}}|{CN})分)?"
     r"(?P<after>钟|(?=\W|[开到前后左起以之去来见的上下出]|$))?", _zh_clock),
    # both
    (r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)", _zh_date),
    (rf"(?<![\d:])(?P<h>[01]?\d|2[0-3])[:：](?P<mm>[0-5]\d)(?![\d:])(?:\s*(?P<ampm>{AMPM}))?", _en_clock),
    # English
    (rf"(?i)\b(?:{EN_DAY})\b", _en_day),
    (r"(?i)\b(?:the\s+)?(?P<rel>last|past|previous|this|next|(?:this\s+)?coming)\s+"
     r"(?P<unit>week(?:end)?|month|year)\b", _en_unit),
    (rf"(?:\b(?P<rel>(?i:last|past|this|next|on|(?:this\s+)?coming))\s+)?\b(?P<wd>{WEEKDAY})(?![a-z])",
     _en_weekday),
    (rf"(?i)(?:\b(?P<pre>in|within|after)\s+)?\b(?P<n>{EN_NUM})\s+(?P<unit>minute|hour|day|week|month|year)s?"
     r"(?:\s+(?P<dir>ago|later|from\s+now|before|earlier))?\b", _en_ago),
    (rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}(?:,?\s+(?P<y>\d{{4}}))?\b", _en_date),
    # "April 5th", "April the 5th" (an ordinal after "the": not "in April the 5 of us went")
    (rf"\b{MONTH}\s+(?:(?:(?P<d>\d{{1,2}})(?!\d)|the\s+(?P<d2>\d{{1,2}})(?=st|nd|rd|th))(?:st|nd|rd|th)?"
     rf"(?:,?\s+(?P<y>\d{{4}}))?|(?P<y2>\d{{4}}))\b",
     _en_date),
    (r"(?i)\b(?:in|during|since|of|by|until)\s+(?P<y>(?:19|20)\d\d)\b", _year_only),
    (rf"(?i)\b(?:in|during|since|of|by|until)\s+(?P<mon>{MON})\b", _en_date),
    # "pushed to April", "flights for June" (not "talked to May", "gave it to March")
    (rf"(?i)\b(?:till|to|for|around)\s+(?!may\b|march\b)(?P<mon>{MON})\b(?!\s*\d)", _en_date),
    (r"(?i)\b(?:on\s+|by\s+|until\s+|till\s+|for\s+)?the\s+(?P<d>[12]?\d|3[01])(?:st|nd|rd|th)\b"
     # …where nothing it counts follows ("the 2nd time", "the 3rd floor")
     r"(?=\s*(?:$|[,.!?;:)]|(?:at|and|or|but|so|to|through|till|until|in|is|was|when|after|before|if|then|too"
     r"|with|from|i|we|my|lol)\b))", _day_of_month),
    (rf"(?i)\b(?:at\s+)?(?:(?P<special>noon|midnight)|(?P<h>1[0-2]|0?\d)(?::(?P<mm>[0-5]\d))?\s*"
     rf"(?P<ampm>{AMPM}|o'clock))", _en_clock),
)
# fmt: on
_RULES = tuple((re.compile(pattern), handler) for pattern, handler in _PATTERNS)
# 每周一 and every Monday are schedules, not dates; 一周一次 holds 周一 but names no day
_NOT_A_DATE_AFTER = re.compile(r"(?:每个?|每逢|隔|(?i:every|each)\s+)$|[0-9一二两三四五六七八九十几个]$")
_SCHEDULE_SENSITIVE = (_zh_week, _en_weekday, _en_unit)


def raw_mentions(text: str, now: datetime) -> list[tuple[int, int, Period]]:
    found: list[tuple[int, int, Period]] = []
    for pattern, handler in _RULES:
        for m in pattern.finditer(text):
            if m.end() == m.start():
                continue
            schedule = handler in _SCHEDULE_SENSITIVE and not (handler is _zh_week and m.group("rel"))
            if schedule and _NOT_A_DATE_AFTER.search(text, max(0, m.start() - 6), m.start()):
                continue
            period = handler(m, now)
            if period is not None:
                found.append((m.start(), m.end(), period))
    # the longest mention wins where two overlap (下周一 over 周一, 2024年6月 over 2024年)
    kept: list[tuple[int, int, Period]] = []
    for item in sorted(found, key=lambda f: (f[0], f[0] - f[1])):
        if not kept or item[0] >= kept[-1][1]:
            kept.append(item)
        elif item[1] - item[0] > kept[-1][1] - kept[-1][0]:
            kept[-1] = item
    return kept


_JOIN = re.compile(r"\s*(?:的|,|，|(?i:at|on|@))?\s*")
_EVENING = ("晚", "夜", "night", "evening", "tonight", "afternoon")


def _with_clock(day: Period, clock: tuple[int, int], step: timedelta, day_text: str) -> Period:
    hour, minute = clock
    if hour < 12 and day_text.lower().endswith(_EVENING):  # 今晚8点, tomorrow evening at 8
        hour += 12
    start = day.at + timedelta(hours=hour, minutes=minute)
    return Period(start, start + step, "minute" if minute else "hour")


def _join(prev: Period, prev_text: str, period: Period, now: datetime) -> Period | None:
    """One period for two adjacent mentions (去年 + 6月10日, 明天 + 下午3点), or None."""
    if prev.granularity == "year" and period.granularity in ("month", "day") and period.at.year == now.year:
        shift = prev.at.year - period.at.year
        try:
            at, end_at = (
                period.at.replace(year=prev.at.year),
                period.end_at.replace(year=period.end_at.year + shift),
            )
        except ValueError:  # 去年2月29日
            return None
        return Period(at, end_at, period.granularity)
    day, clock = (prev, period) if prev.clock is None else (period, prev)
    if day.granularity == "day" and day.clock is None and clock.clock is not None:
        return _with_clock(day, clock.clock, clock.end_at - clock.at, prev_text if day is prev else "")
    return None


def find_times(text: str, now: datetime) -> list[TimeMention]:
    """Every time expression in ``text``, resolved against ``now``, in text order, without overlaps.

    >>> from datetime import datetime
    >>> [m.text for m in find_times("I moved last year and start at 9am tomorrow", datetime(2024, 6, 10))]
    ['last year', 'at 9am tomorrow']
    """
    merged: list[tuple[int, int, Period]] = []
    for start, end, period in raw_mentions(text, now):
        if merged and _JOIN.fullmatch(text[merged[-1][1] : start]):
            p_start, p_end, prev = merged[-1]
            joined = _join(prev, text[p_start:p_end], period, now)
            if joined is not None:
                merged[-1] = (p_start, end, joined)
                continue
        merged.append((start, end, period))
    out: list[TimeMention] = []
    for start, end, p in merged:
        if p.part is not None:  # a part of a day, alone: those hours
            p = Period(p.at + timedelta(hours=p.part[0]), p.at + timedelta(hours=p.part[1]), "hour")
        direction = -1 if p.end_at <= now else (1 if p.at > now else 0)
        out.append(TimeMention(start, end, text[start:end], p.at, p.end_at, p.granularity, direction))
    return out
