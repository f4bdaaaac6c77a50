"""The words and numerals of time in Chinese and English, and the pattern pieces built from them.

:mod:`memlane.text.timeparse` matches these against a text; :mod:`memlane.text.periods` turns what
they name into periods.
"""

from __future__ import annotations

import re

# fmt: off
ZH_DIGITS = dict(zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
ZH_WEEKDAYS = {**dict(zip("一二三四五六日天", (0, 1, 2, 3, 4, 5, 6, 6), strict=True)),
                **{str(i + 1): i for i in range(7)}}
ZH_DAYS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨晚": -1, "昨夜": -1, "今天": 0, "今日": 0,
            "今早": 0, "今晚": 0, "今夜": 0, "明天": 1, "明日": 1, "明早": 1, "明晚": 1, "后天": 2,
            "大后天": 3}
ZH_YEARS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2, "大后年": 3}
ZH_REL = {"上上": -2, "上": -1, "这": 0, "本": 0, "今": 0, "下": 1, "下下": 2}
ZH_UNITS = {"分钟": "minute", "小时": "hour", "钟头": "hour", "天": "day", "日": "day", "周": "week",
             "星期": "week", "礼拜": "week", "个月": "month", "年": "year"}
DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
EN_WEEKDAYS = {**{n: i for i, n in enumerate(DAY_NAMES)}, **{n[:3]: i for i, n in enumerate(DAY_NAMES)},
                "tues": 1, "thur": 3, "thurs": 3}
EN_MONTHS = {n: i + 1 for i, n in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
               "thirty": 30, "couple": 2, "few": 3}
EN_DAYS = {"the day before yesterday": -2, "yesterday": -1, "last night": -1, "today": 0, "tonight": 0,
            "this morning": 0, "this afternoon": 0, "this evening": 0, "tomorrow": 1, "tmr": 1, "tmrw": 1,
            "the day after tomorrow": 2}
# fmt: on
EN_REL = {"last": -1, "past": -1, "previous": -1, "this": 0, "coming": 1, "next": 1}
EVENING_PARTS = ("下午", "傍晚", "晚上", "夜里", "深夜")


def number(text: str) -> int | None:
    """An Arabic or Chinese numeral below 10000 as an int (``"二十三"`` -> 23); None if it is neither.

    >>> number("12"), number("十"), number("两"), number("二十三"), number("二〇二四")
    (12, 10, 2, 23, 2024)
    """
    if re.fullmatch(r"[0-9]{1,4}", text):
        return int(text)
    if not text or any(c not in ZH_DIGITS and c not in "十百" for c in text):
        return None
    total, current = 0, 0
    for c in text:
        if c in ZH_DIGITS:  # 二〇二四 reads digit by digit, 二十三 by place
            current = current * 10 + ZH_DIGITS[c] if "十" not in text and "百" not in text else ZH_DIGITS[c]
        else:
            total, current = total + (current or 1) * (100 if c == "百" else 10), 0
    return total + current


def normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower())


ZH_NUM = r"\d{1,4}|[零〇一二两三四五六七八九十百]{1,4}"
CN = r"[零一二两三四五六七八九十]{1,3}"
MON = r"january|february|march|april|may|june|july|august|september|october|november|december"
MONTH = rf"(?P<mon>(?i:{MON}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?)"
WEEKDAY = (
    r"(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"  # short forms capitalised: "I sat"
    r"|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?"
)
EN_NUM = (
    r"\d{1,4}|(?:a\s+)?(?:couple|few)(?:\s+of)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve|fifteen|twenty|thirty"
)
EN_DAY = "|".join(k.replace(" ", r"\s+") for k in sorted(EN_DAYS, key=len, reverse=True))
AMPM = r"[ap]\.?m\b\.?"
