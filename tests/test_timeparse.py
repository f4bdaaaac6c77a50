"""Time expressions resolved against a reference time, and recurrences named in one normal form."""

from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta, timezone

import pytest

from memlane.text.recurrence import recurrence
from memlane.text.timeparse import TimeMention, find_times, number

# Friday 14 June 2024, 15:30; the week runs Monday 10 June to Sunday 16 June.
NOW = datetime(2024, 6, 14, 15, 30)


def only(text: str, now: datetime = NOW) -> TimeMention:
    found = find_times(text, now)
    assert len(found) == 1, found
    return found[0]


def starts(text: str) -> str:
    return only(text).at.isoformat(sep=" ", timespec="minutes")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("今天", "2024-06-14"),
        ("昨天", "2024-06-13"),
        ("前天", "2024-06-12"),
        ("大前天", "2024-06-11"),
        ("明天", "2024-06-15"),
        ("后天", "2024-06-16"),
        ("大后天", "2024-06-17"),
        ("today", "2024-06-14"),
        ("yesterday", "2024-06-13"),
        ("tomorrow", "2024-06-15"),
        ("the day before yesterday", "2024-06-12"),
        ("the day after tomorrow", "2024-06-16"),
    ],
)
def test_relative_days_resolve_to_that_whole_day(text: str, day: str) -> None:
    mention = only(text)
    assert mention.at.date().isoformat() == day
    assert mention.end_at - mention.at == timedelta(days=1)
    assert mention.granularity == "day"


def test_last_week_resolves_to_previous_monday() -> None:
    mention = only("上周")
    assert (mention.at, mention.end_at) == (datetime(2024, 6, 3), datetime(2024, 6, 10))
    assert mention.granularity == "week"
    assert mention.direction == -1


@pytest.mark.parametrize(
    ("text", "start", "granularity"),
    [
        ("这周", "2024-06-10 00:00", "week"),
        ("本周", "2024-06-10 00:00", "week"),
        ("下周", "2024-06-17 00:00", "week"),
        ("上上周", "2024-05-27 00:00", "week"),
        ("上周三", "2024-06-05 00:00", "day"),
        ("下周一", "2024-06-17 00:00", "day"),
        ("下个星期五", "2024-06-21 00:00", "day"),
        ("周末", "2024-06-15 00:00", "day"),
        ("上周末", "2024-06-08 00:00", "day"),
        ("last week", "2024-06-03 00:00", "week"),
        ("this week", "2024-06-10 00:00", "week"),
        ("next week", "2024-06-17 00:00", "week"),
        ("this weekend", "2024-06-15 00:00", "day"),
        ("last Friday", "2024-06-07 00:00", "day"),
        ("next Monday", "2024-06-17 00:00", "day"),
        ("last Sunday", "2024-06-09 00:00", "day"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_weeks_and_weekdays(text: str, start: str, granularity: str) -> None:
    assert starts(text) == start
    assert only(text).granularity == granularity


def test_weekend_spans_saturday_and_sunday() -> None:
    mention = only("这周末")
    assert (mention.at, mention.end_at) == (datetime(2024, 6, 15), datetime(2024, 6, 17))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("上个月", "2024-05-01", "2024-06-01"),
        ("这个月", "2024-06-01", "2024-07-01"),
        ("下个月", "2024-07-01", "2024-08-01"),
        ("last month", "2024-05-01", "2024-06-01"),
        ("next month", "2024-07-01", "2024-08-01"),
        ("去年", "2023-01-01", "2024-01-01"),
        ("今年", "2024-01-01", "2025-01-01"),
        ("明年", "2025-01-01", "2026-01-01"),
        ("前年", "2022-01-01", "2023-01-01"),
        ("last year", "2023-01-01", "2024-01-01"),
        ("next year", "2025-01-01", "2026-01-01"),
        ("June 2024", "2024-06-01", "2024-07-01"),
        ("2024年6月", "2024-06-01", "2024-07-01"),
    ],
)
def test_months_and_years_cover_the_whole_period(text: str, start: str, end: str) -> None:
    mention = only(text)
    assert (mention.at.date().isoformat(), mention.end_at.date().isoformat()) == (start, end)


def test_december_plus_one_month_rolls_into_next_year() -> None:
    mention = only("下个月", datetime(2024, 12, 20))
    assert (mention.at, mention.end_at) == (datetime(2025, 1, 1), datetime(2025, 2, 1))


@pytest.mark.parametrize(
    ("text", "start", "granularity"),
    [
        ("3天前", "2024-06-11 00:00", "day"),
        ("三天前", "2024-06-11 00:00", "day"),
        ("十天后", "2024-06-24 00:00", "day"),
        ("两周前", "2024-05-27 00:00", "week"),
        ("2个月前", "2024-04-01 00:00", "month"),
        ("五年前", "2019-01-01 00:00", "year"),
        ("半年前", "2023-12-01 00:00", "month"),
        ("3 days ago", "2024-06-11 00:00", "day"),
        ("two weeks ago", "2024-05-27 00:00", "week"),
        ("a year ago", "2023-01-01 00:00", "year"),
        ("in 3 days", "2024-06-17 00:00", "day"),
        ("in two weeks", "2024-06-24 00:00", "week"),
        ("2 hours ago", "2024-06-14 13:00", "hour"),
    ],
)
def test_counted_offsets_in_both_languages(text: str, start: str, granularity: str) -> None:
    assert starts(text) == start
    assert only(text).granularity == granularity


@pytest.mark.parametrize(
    "text",
    [
        "2024年6月10日",
        "6月10日",
        "6月10号",
        "2024-06-10",
        "2024/6/10",
        "10 June 2024",
        "June 10th",
        "June 10",
    ],
)
def test_calendar_dates(text: str) -> None:
    mention = only(text)
    assert mention.at == datetime(2024, 6, 10)
    assert mention.granularity == "day"
    assert mention.direction == -1


def test_on_10_june_keeps_its_date_and_chinese_numerals_work() -> None:
    assert only("on 10 June I moved").at == datetime(2024, 6, 10)
    assert only("十月一号").at == datetime(2024, 10, 1)


def test_a_date_without_a_year_is_in_the_reference_year() -> None:
    mention = only("12月25日")
    assert mention.at == datetime(2024, 12, 25)
    assert mention.direction == 1


@pytest.mark.parametrize(
    ("text", "start", "granularity"),
    [
        ("早上9点", "2024-06-14 09:00", "hour"),
        ("下午3点", "2024-06-14 15:00", "hour"),
        ("晚上8点半", "2024-06-14 20:30", "minute"),
        ("9:30", "2024-06-14 09:30", "minute"),
        ("at 9am", "2024-06-14 09:00", "hour"),
        ("9:30 pm", "2024-06-14 21:30", "minute"),
        ("12am", "2024-06-14 00:00", "hour"),
    ],
)
def test_clock_times_fall_on_the_reference_day(text: str, start: str, granularity: str) -> None:
    assert starts(text) == start
    assert only(text).granularity == granularity


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("明天下午3点", "2024-06-15 15:00"),
        ("今晚8点", "2024-06-14 20:00"),
        ("下周一早上9点", "2024-06-17 09:00"),
        ("tomorrow at 9am", "2024-06-15 09:00"),
        ("9am tomorrow", "2024-06-15 09:00"),
    ],
)
def test_a_date_and_its_clock_time_are_one_mention(text: str, start: str) -> None:
    mention = only(text)
    assert mention.text == text
    assert mention.at.isoformat(sep=" ", timespec="minutes") == start


@pytest.mark.parametrize(("text", "direction"), [("上周", -1), ("今天", 0), ("this week", 0), ("明年", 1)])
def test_direction_is_relative_to_the_reference(text: str, direction: int) -> None:
    assert only(text).direction == direction


def test_tz_aware_reference_gives_tz_aware_times() -> None:
    tz = timezone(timedelta(hours=8))
    mention = only("上周三", datetime(2024, 6, 14, 15, 30, tzinfo=tz))
    assert mention.at == datetime(2024, 6, 5, tzinfo=tz)
    assert mention.at.tzinfo is tz


def test_naive_reference_gives_naive_times() -> None:
    assert only("昨天").at.tzinfo is None


def test_spans_point_at_the_expression_in_the_text() -> None:
    text = "我上周三去了医院，下个月去日本"
    found = find_times(text, NOW)
    assert [m.text for m in found] == ["上周三", "下个月"]
    assert all(text[m.start : m.end] == m.text for m in found)


@pytest.mark.parametrize(
    "text",
    [
        "简洁一点",
        "三点建议",
        "I sat down",
        "I may go",
        "I stayed for 3 days",
        "每周一健身",
        "一周一次",
        "every Monday",
        "",
        # an ordinal that counts something, a line or a building, a name
        "the 2nd time",
        "the 3rd floor",
        "坐3号线",
        "住1号楼",
        "I talked to May",
    ],
)
def test_words_that_only_look_like_times_are_not_times(text: str) -> None:
    assert find_times(text, NOW) == []


def test_impossible_dates_are_skipped() -> None:
    assert find_times("2月30日", NOW) == []
    assert find_times("2024-13-45", NOW) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("every Monday", "every monday"),
        ("weekdays 09:00", "weekdays 09:00"),
        ("每周一", "every monday"),
        ("每周一健身", "every monday"),
        ("工作日 9:00", "weekdays 09:00"),
        ("工作日早上9点开会", "weekdays 09:00"),
        ("每个周末", "every weekend"),
        ("每天", "every day"),
        ("每月", "every month"),
        ("每月10号", "every month day 10"),
        ("周一到周五", "weekdays"),
        ("每周一三五", "every monday, wednesday, friday"),
        ("每周三晚上上课", "every wednesday evening"),
        ("每天早上7点跑步", "every day 07:00"),
        ("every day", "every day"),
        ("every weekend", "every weekend"),
        ("every month", "every month"),
        ("on weekdays", "weekdays"),
        ("each morning", "every morning"),
        ("I go swimming every Monday", "every monday"),
        ("on Mondays and Thursdays", "every monday, thursday"),
        ("Monday to Friday at 9am", "weekdays 09:00"),
        ("every other day", "every 2 days"),
        ("每隔3天", "every 3 days"),
        # Chinese has no plural: a bare weekday with a class or a practice is each of them
        ("我周六上午有瑜伽课", "every saturday morning"),
        ("他周末要去上游泳课", "every weekend"),
        ("女儿周二和周四晚上有钢琴课", "every tuesday, thursday evening"),
        ("我们乐队礼拜天下午排练", "every sunday afternoon"),
        # …and a bare 周末 with a word of habit
        ("周末一般去爬山", "every weekend"),
        ("周末开始自驾去郊外玩", "every weekend"),
        # how often in a period: 每周三次 is three times a week, not each Wednesday
        ("每周三次", "3 times a week"),
        ("我一周跑两次步", "2 times a week"),
        ("我每个月回一次老家", "1 time a month"),
        ("twice a week", "2 times a week"),
        ("I go to the gym 3x a week", "3 times a week"),
        ("I've started doing crossfit 3 mornings a week", "3 mornings a week"),
        # from one weekday to another, for a class, a shift or work
        (
            "english class, morning 9 to 12, monday to thursday",
            "every monday, tuesday, wednesday, thursday morning",
        ),
        ("周一到周四上课", "every monday, tuesday, wednesday, thursday"),
        ("每周一到周三游泳", "every monday, tuesday, wednesday"),
        ("my shifts are friday to sunday", "every friday, saturday, sunday"),
    ],
)
def test_recurrence_is_normalised(text: str, expected: str) -> None:
    assert recurrence(text) == expected


@pytest.mark.parametrize(
    "text", ["biscuit has his first vet appointment on friday at 4", "Eli wore it at his party on Sunday"]
)
def test_on_one_weekday_is_no_schedule(text: str) -> None:
    assert recurrence(text) is None


@pytest.mark.parametrize(
    "text",
    [
        *("明天开会", "周末别给我打电话", "I moved last year", "", "😀"),
        *("下周六有个培训课", "这周日有课", "周六要上班", "这周末开始下雨"),  # one day, not each of them
        *("周五到周日去露营", "we're in Paris monday to thursday"),  # a trip's days
    ],
)
def test_no_recurrence_without_a_schedule(text: str) -> None:
    assert recurrence(text) is None


@pytest.mark.parametrize(
    ("text", "value"), [("12", 12), ("十", 10), ("两", 2), ("二十三", 23), ("二〇二四", 2024)]
)
def test_number_reads_arabic_and_chinese_numerals(text: str, value: int) -> None:
    assert number(text) == value


@pytest.mark.parametrize("text", ["", "几", "abc", "12345"])
def test_number_is_none_for_anything_else(text: str) -> None:
    assert number(text) is None


@pytest.mark.parametrize(
    "text",
    ["", "。。。", "😀" * 100, "\x00\x01\x02", "9" * 50_000, "上周明天" * 10_000, "a" * 50_000],
    ids=["empty", "punctuation", "emoji", "control", "digits", "dense", "letters"],
)
def test_odd_input_returns_a_list(text: str) -> None:
    assert isinstance(find_times(text, NOW), list)
    assert recurrence(text) is None or isinstance(recurrence(text), str)


def test_results_are_sorted_and_do_not_overlap() -> None:
    found = find_times("去年6月10日和明天下午3点，还有3天前", NOW)
    assert [m.text for m in found] == ["去年6月10日", "明天下午3点", "3天前"]
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("去年6月10日", date(2023, 6, 10)),
        ("明年3月", date(2025, 3, 1)),
        ("last year on June 2", date(2023, 6, 2)),
    ],
)
def test_a_relative_year_places_the_date_next_to_it(text: str, day: date) -> None:
    assert only(text).at.date() == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("on the 20th", "2024-06-20"),
        ("by the 3rd, then", "2024-06-03"),
        ("20号", "2024-06-20"),
        ("二十号", "2024-06-20"),
    ],
)
def test_a_day_of_the_month_alone_is_this_months(text: str, day: str) -> None:
    found = only(text)
    assert (found.at.date().isoformat(), found.granularity) == (day, "day")


@pytest.mark.parametrize(
    ("text", "day"),
    [("my flight is on April the 5th", "2024-04-05"), ("August the 3rd, 2025", "2025-08-03")],
)
def test_a_month_then_the_ordinal_day_is_that_date(text: str, day: str) -> None:
    found = only(text)
    assert (found.at.date().isoformat(), found.granularity) == (day, "day")


def test_a_month_then_the_and_a_count_is_only_the_month() -> None:
    assert only("in April the 5 of us went hiking").granularity == "month"


@pytest.mark.parametrize("text", ["pushed to August", "flights for July", "till September"])
def test_a_month_after_to_or_for_is_that_month(text: str) -> None:
    assert only(text).granularity == "month"


@pytest.mark.parametrize(
    "text", ["换了一架二手 Nissan Urvan 2019年的", "买了辆2018年的二手凯美瑞", "我是1990年的"]
)
def test_a_year_that_describes_a_thing_or_a_person_is_no_time(text: str) -> None:
    assert find_times(text, NOW) == []


@pytest.mark.parametrize("text", ["2019年的夏天我去了日本", "2019年的时候我在北京"])
def test_a_year_with_a_season_or_a_while_after_it_is_a_time(text: str) -> None:
    assert only(text).at.year == 2019
