"""Repeating schedules in Chinese and English, in one normal, readable form.

:func:`recurrence` names the schedule a text describes (每周一, weekdays at 9, on Mondays and
Thursdays, a bare Chinese weekday with a class: 周六上午有瑜伽课), or None when it names one day.

>>> recurrence("工作日早上9点开会")
'weekdays 09:00'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from memlane.text.timeparse import raw_mentions
from memlane.text.timewords import DAY_NAMES, EN_NUMBERS, EN_WEEKDAYS, WEEKDAY, ZH_WEEKDAYS, number

__all__ = ["recurrence"]


def _days(m: re.Match[str]) -> str:
    """every monday, thursday — from 每周一四 or "on Mondays and Thursdays"."""
    days = m.groupdict().get("days")
    found = (
        [ZH_WEEKDAYS[c] for c in days if c in ZH_WEEKDAYS]
        if days
        else [EN_WEEKDAYS[n.lower().rstrip(".")] for n in re.findall(WEEKDAY, m.group(0))]
    )
    return "every " + ", ".join(DAY_NAMES[d] for d in sorted(set(found)))


_ZH_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "个月": "month",
    "年": "year",
}


def _every_n(m: re.Match[str]) -> str:
    n = m.group("n") or m.group("n2")
    amount = EN_NUMBERS.get(n.lower()) or number(n) or 1
    unit = m.group("unit") or m.group("unit2")
    unit = _ZH_UNITS.get(unit, unit.lower().rstrip("s"))
    return f"every {amount} {unit}s" if amount > 1 else f"every {unit}"


def _times(m: re.Match[str]) -> str:
    """How often in a period: "3 times a week" from 每周三次, 一周跑两次, "3x a week", "twice a week";
    "3 mornings a week" keeps its part of the day."""
    n = m.group("n") or m.group("n2")
    amount = {"once": 1, "twice": 2}.get(n.lower()) or EN_NUMBERS.get(n.lower()) or number(n) or 1
    unit = _ZH_UNITS.get(m.group("unit") or "") or (m.group("unit2") or "week").lower()
    part = (m.group("part") or "").lower()
    if part and part.rstrip("s") != "day":
        return f"{amount} {part.rstrip('s')}{'s' if amount > 1 else ''} a {unit}"
    return f"{amount} time{'s' if amount > 1 else ''} a {unit}"


def _day_range(m: re.Match[str]) -> str:
    """Each day from one weekday to another: "monday to thursday", 周一到周四 (Monday to Friday:
    weekdays)."""
    a, b = (m.group(k) or m.group(f"{k}2") for k in ("a", "b"))
    first, last = (ZH_WEEKDAYS[d] if d in ZH_WEEKDAYS else EN_WEEKDAYS[d.lower().rstrip(".")] for d in (a, b))
    if (first, last) == (0, 4):
        return "weekdays"
    days = range(first, last + 1) if first <= last else [*range(first, 7), *range(last + 1)]
    return "every " + ", ".join(DAY_NAMES[d] for d in days)


def _month_day(m: re.Match[str]) -> str:
    return f"every month day {number(m.group('d'))}"


_WD = rf"(?:{WEEKDAY})"
# fmt: off
# what is had or attended again and again: a class, a lesson, a practice (上班 is left out: "周六要上班"
# is often one Saturday)
_LESSON = (
    r"[^，。,.;；！？]{0,8}?(?:(?:有|上|去|要|得)[^，。,.;；！？]{0,8}?(?:课|兴趣班|补习班|培训班|辅导班)"
    r"|训练|练习|排练|例会)"
)
# what is had or attended on the days of a range, again and again
_REGULAR = r"课|上班|上学|值班|营业|开门|训练|练习"
_REGULAR_EN = r"class(?:es)?|lessons?|practices?|training|shifts?|work|school|gym|office|open"
_RECURRENCE_PATTERNS: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    # how often, before the weekdays: 每周三次 is three times a week, not each Wednesday
    (r"(?:每|一)个?(?P<unit>天|日|周|星期|礼拜|月|年)[^，。,.;；！？\d一两二三四五六七八九十]{0,3}?"
     r"(?P<n>\d{1,2}|[一两二三四五六七八九十]{1,2})(?:次|回|趟)"
     r"|(?i:\b(?P<n2>once|twice|\d{1,2}|one|two|three|four|five|six|seven)\s*(?:x|times?)?\s+"
     r"(?:(?P<part>mornings?|evenings?|nights?|afternoons?|days?)\s+)?(?:a|per|each|every)\s+"
     r"(?P<unit2>day|week|month|year)\b)", _times),
    # from one weekday to another, for what is had or attended again and again ("english class …
    # monday to thursday", 周一到周四上课, 每周一到周四); not a trip's days ("周五到周日去露营")
    (rf"(?:每个?|(?=[^，。,.;；！？]*?(?:{_REGULAR})))(?:周|星期|礼拜)(?P<a>[一二三四五六日天])(?:到|至|-|~)"
     rf"(?:周|星期|礼拜)?(?P<b>[一二三四五六日天])"
     rf"|^(?=.*\b(?:{_REGULAR_EN})\b).*?\b(?P<a2>{_WD})\s*(?:-|–|to|through|thru|till|until)\s*(?P<b2>{_WD})(?![a-z])",
     _day_range),
    (r"工作日|(?:周|星期|礼拜)一(?:到|至|-|~)(?:周|星期|礼拜)?五"
     r"|(?i:\bweekdays?\b|\bmon(?:day)?\s*(?:-|to|through|thru)\s*fri(?:day)?\b)", "weekdays"),
    (r"每个?(?:周末|礼拜天|星期天|周日)|每逢周末"
     # a bare 周末 with a word of habit is each of them: 周末一般去爬山, 周末开始自驾去郊外玩
     r"|(?<![这下本上今明后个])周末(?=[^，。,.;；！？]{0,3}?(?:一般|通常|都|常常?|经常|总是?|开始|习惯|基本|大多|多半))"
     r"|(?i:\b(?:every|each)\s+weekend\b|\bweekends\b)", "every weekend"),
    (r"(?:每个?|每逢)(?:周|星期|礼拜)"
     r"(?P<days>[一二三四五六日天1-7](?:[、和及,，]?[一二三四五六日天1-7])*)", _days),
    # Chinese has no plural: a bare weekday with a class or a practice is each of them ("周六上午有瑜伽课",
    # "他周末有游泳课"), one with 这/下/本 is one day ("下周六有个培训课")
    (rf"(?<![这下本上今明后个])(?:周末|(?:周|星期|礼拜)(?P<days>[一二三四五六日天](?:[、和及]?(?:周|星期|礼拜)?[一二三四五六日天])*))"
     rf"{_LESSON}", lambda m: _days(m) if m.group("days") else "every weekend"),
    # "on Monday" is one Monday; "on Mondays" and "every Monday" are each of them
    (rf"\b(?i:every|each)\s+{_WD}s?(?:(?:\s*,\s*|\s+and\s+){_WD}s?)*"
     rf"|\b{_WD}s\b(?:(?:\s*,\s*|\s+and\s+){_WD}s\b)*", _days),
    (r"每月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[号日]", _month_day),
    (r"每隔?(?P<n>\d+|[两二三四五六七八九十]+)个?(?P<unit>天|周|个月|年)"
     r"|(?i:\bevery\s+(?P<n2>\d+|two|three|four|five|six|ten)\s+(?P<unit2>day|week|month|year)s\b)",
     _every_n),
    (r"隔天|每隔一天|(?i:\bevery\s+other\s+day\b)", "every 2 days"),
    (r"每天早上|每天早晨|每天上午|每早"
     r"|(?i:\b(?:every|each)\s+morning\b|\bin\s+the\s+mornings\b)", "every morning"),
    (r"每天晚上|每晚|每个晚上|每天夜里"
     r"|(?i:\b(?:every|each)\s+(?:evening|night)\b|\bnightly\b)", "every evening"),
    (r"每天|每日|天天|每一天|(?i:\b(?:every|each)\s*day\b|\bdaily\b)", "every day"),
    (r"每个?(?:周|星期|礼拜)|(?i:\b(?:every|each)\s+week\b|\bweekly\b)", "every week"),
    (r"每个?月|(?i:\b(?:every|each)\s+month\b|\bmonthly\b)", "every month"),
    (r"每年|(?i:\b(?:every|each)\s+year\b|\byearly\b|\bannually\b)", "every year"),
)
_PARTS = tuple((re.compile(rf"{zh}|(?i:\b{en}s?\b)"), en) for zh, en in (
    ("早上|早晨|清晨|上午", "morning"), ("中午", "noon"), ("下午", "afternoon"), ("傍晚|晚上", "evening"),
    ("夜里|深夜", "night")))
# fmt: on
_RECURRENCES = tuple((re.compile(pattern), name) for pattern, name in _RECURRENCE_PATTERNS)


def recurrence(text: str) -> str | None:
    """The schedule a text describes, in one normal form; None when it names none.

    >>> recurrence("每周一健身"), recurrence("I go swimming every Monday"), recurrence("weekdays at 9am")
    ('every monday', 'every monday', 'weekdays 09:00')
    """
    for pattern, name in _RECURRENCES:
        m = pattern.search(text)
        if m is None:
            continue
        base = name(m) if callable(name) else name
        clock = next((p.clock for _, _, p in raw_mentions(text, datetime(2000, 1, 3)) if p.clock), None)
        parts = [part for part_pattern, part in _PARTS if part_pattern.search(text)]
        if clock is not None:
            hour, minute = clock
            if hour < 12 and ("evening" in parts or "night" in parts or "afternoon" in parts):
                hour += 12  # 每周三晚上7点
            day_base = base.replace(" morning", " day").replace(" evening", " day")
            return f"{day_base} {hour:02d}:{minute:02d}"
        if parts and not base.endswith(("morning", "evening")) and " a " not in base:
            return f"every {parts[0]}" if base == "every day" else f"{base} {parts[0]}"
        return base
    return None
