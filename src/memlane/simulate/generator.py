"""A year in the life of one user, as chat messages in Chinese and English, with the truth attached.

The generator is deterministic for a seed. Besides the messages it says, for each stable fact, how
to ask about it and what a correct memory contains, and which statements a later one makes outdated,
so the simulation can score what memlane keeps.

What happens over the year: stable facts stated early and restated in other words now and then;
preferences that change (coffee, city); complaints that get resolved, and a run of repeated delivery
complaints; plans and trips; and much that should not be remembered: moods, small talk, one-off
context, conditions of a single task.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone


@dataclass(frozen=True)
class Fact:
    """A stable fact that is true at the end of the year, and how to check that it is remembered."""

    key: str
    question: str
    answers: tuple[str, ...]  # a recalled memory contains one of these


@dataclass
class Message:
    """One user message of the simulated year."""

    day: int
    session: str
    text: str
    states: str | None = None  # the fact key this message states (for outdated tracking)
    outdates: tuple[str, ...] = ()  # statement keys this message makes false


@dataclass
class Year:
    """The messages of the year in time order, and the truth to score against."""

    start: datetime
    messages: list[Message] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


# key -> paraphrases (the first is said first); a mix of languages, as bilingual users do
_STABLE: dict[str, tuple[list[str], str, tuple[str, ...]]] = {
    "name": (["我叫林小满", "叫我小满就好", "My name is Lin Xiaoman"], "我叫什么名字", ("小满", "xiaoman")),
    "job": (
        ["我是一名产品经理", "I work as a product manager", "我在公司做产品经理"],
        "我做什么工作",
        ("产品经理", "product manager"),
    ),
    "pet": (["我养了一只猫叫年糕", "我家的猫叫年糕"], "我养了什么宠物", ("猫", "年糕")),
    "diet": (["我不吃香菜", "我一直不吃香菜"], "我有什么忌口", ("香菜",)),
    "channel": (["优先邮件联系我", "有事请发邮件联系我"], "怎么联系我比较好", ("邮件", "email")),
    "weekend": (["周末别给我打电话", "周末请不要给我打电话"], "周末可以给我打电话吗", ("周末",)),
    "swim": (
        ["我每周三晚上去游泳", "I go swimming every Wednesday evening"],
        "我有什么运动习惯",
        ("游泳", "swim"),
    ),
    "style": (["回复简洁一点", "keep answers short please"], "我喜欢什么样的回复", ("简洁", "concise")),
}

# preferences that change: (month, statement key, text, statement keys it makes false, the fact it states)
_CHANGES: list[tuple[int, str, str, tuple[str, ...], Fact]] = [
    (0, "drink:americano", "我平时喜欢喝美式", (), Fact("drink:americano", "我平时喝什么咖啡", ("美式",))),
    (0, "city:shanghai", "我住在上海", (), Fact("city:shanghai", "我住在哪个城市", ("上海",))),
    (
        4,
        "drink:coldbrew",
        "我最近开始喝冷萃了，不喝美式了",
        ("drink:americano",),
        Fact("drink:coldbrew", "我平时喝什么咖啡", ("冷萃",)),
    ),
    (
        6,
        "city:hangzhou",
        "我搬到杭州了",
        ("city:shanghai",),
        Fact("city:hangzhou", "我住在哪个城市", ("杭州",)),
    ),
    (
        8,
        "drink:latte",
        "现在改喝拿铁了，不喝冷萃了",
        ("drink:coldbrew",),
        Fact("drink:latte", "我平时喝什么咖啡", ("拿铁",)),
    ),
]

# (month, day in month, text, outdated statement keys)
_EPISODES: list[tuple[int, int, str, str | None, tuple[str, ...]]] = [
    (1, 10, "上周买的耳机到现在还没到，物流太慢了", "complaint:earphones", ()),
    (1, 20, "耳机收到了，问题解决了", None, ("complaint:earphones",)),
    (2, 5, "下个月去日本玩", None, ()),
    (3, 12, "上周去了日本，玩得很开心", None, ()),
    (5, 3, "my order still hasn't arrived, the delivery is so slow", "complaint:order", ()),
    (5, 15, "it's fixed now, the order finally arrived", None, ("complaint:order",)),
    (9, 8, "快递又延迟了，物流太慢", None, ()),
    (10, 8, "物流太慢了，快递延迟好几天", None, ()),
    (11, 8, "快递延迟，物流慢得离谱", None, ()),
]

_NOISE = [
    "今天好累",
    "我今天有点烦",
    "哈哈，谢谢",
    "好的",
    "我现在在地铁上",
    "I'm a bit tired today",
    "thanks!",
    "I'm on the train right now",
    "这次预算500元以内",
    "要红色的",
    "ok",
    "你好",
    "帮我看看明天的天气",
    "推荐一部电影吧",
    "what should I cook tonight?",
]


def generate(days: int = 365, seed: int = 7, start: datetime | None = None) -> Year:
    """The messages of ``days`` days (about four a day on active days) and the truth at the end."""
    rng = random.Random(seed)
    year = Year(start=start or datetime(2025, 1, 6, 9, 0, tzinfo=timezone(timedelta(hours=8))))
    planned: dict[int, list[Message]] = {}

    def plan(day: int, text: str, states: str | None = None, outdates: tuple[str, ...] = ()) -> None:
        if day < days:
            planned.setdefault(day, []).append(Message(day, "", text, states, outdates))

    for key, (phrasings, _, _) in _STABLE.items():
        plan(rng.randrange(0, 10), phrasings[0], key)
        day = rng.randrange(30, 80)
        while day < days:  # restated every month or two, in other words
            plan(day, rng.choice(phrasings), key)
            day += rng.randrange(30, 75)
    for month, key, text, outdated, _ in _CHANGES:
        plan(month * 30 + rng.randrange(0, 5), text, key, outdated)
    for month, dom, text, episode, outdated in _EPISODES:
        plan(month * 30 + dom, text, episode, outdated)
    for day in range(days):
        if rng.random() < 0.6:
            for _ in range(rng.randrange(1, 5)):
                plan(day, rng.choice(_NOISE))

    for day in sorted(planned):
        for message in planned[day]:
            message.session = f"d{day}"
            year.messages.append(message)
    year.facts = [Fact(key, question, answers) for key, (_, question, answers) in _STABLE.items()]
    stated = {m.states for m in year.messages}
    gone = {key for m in year.messages for key in m.outdates}
    year.facts += [fact for *_, fact in _CHANGES if fact.key in stated and fact.key not in gone]
    return year


def outdated_keys(year: Year) -> set[str]:
    """Statements that a later message made false."""
    stated = {m.states for m in year.messages}
    return {key for m in year.messages for key in m.outdates if key in stated}
