"""What an extraction rule is, what it sees, what it returns, and the builders most rules share.

A rule is a category, a regular expression and a builder. The extractor tries a language's rules in
order on one clause; the first rule whose pattern matches and whose builder accepts the match decides
the clause. Builders are small functions of ``(match, context)`` returning a :class:`Draft` (the
candidate's fields) or None to let later rules try.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

import jieba
import jieba.posseg

from memlane.domain import Category, EventStatus
from memlane.text.timeparse import TimeMention

from .holds import HABITUAL
from .lexicon import consumable_slot, words

jieba.setLogLevel(60)  # jieba logs dictionary loading at INFO; a library must not write to the log then
# cities jieba's dictionary tags as common nouns (合肥 n, 大连 n), which the rules then miss as places;
# only their part of speech changes, not how any text is cut
jieba.dt.user_word_tag_tab.update(
    dict.fromkeys(
        "石家庄 合肥 海口 拉萨 银川 大连 嘉兴 南通 烟台 桂林 岳阳 保定 唐山 大同 包头 遵义 大理".split(), "ns"
    )
)


def any_of(words: str) -> str:
    """An alternation of space-separated phrases, with ``_`` for the spaces inside one: ``"a_b c"``."""
    return "|".join(w.replace("_", r"\s+") for w in words.split())


@dataclass
class Context:
    """One clause and what is already known about it, as the rules see it."""

    text: str
    lang: str  # "zh" | "en"
    now: datetime  # the message time, that relative times resolve against
    times: list[TimeMention] = field(default_factory=list)
    schedule: str | None = None  # the recurrence it names, normalised
    about_other: bool = False  # its subject is someone else (你 / 他 / they …)
    question: bool = False

    def time(self, direction: int | None = None) -> TimeMention | None:
        """The first time mention, optionally only one in the past (-1), present (0) or future (+1)."""
        for mention in self.times:
            if direction is None or mention.direction == direction:
                return mention
        return None

    @cached_property
    def words(self) -> list[tuple[str, str]]:
        """(word, part-of-speech flag) pairs from jieba, for Chinese clauses; computed on first use."""
        # jieba's HMM finds unknown names (阿白) but is slow on long runs; a real clause is short
        return [(w.word, w.flag) for w in jieba.posseg.cut(self.text, HMM=len(self.text) <= 80)]

    def without_times(self, text: str | None = None) -> str:
        """The clause (or ``text``) with every time expression taken out."""
        text = self.text if text is None else text
        for mention in self.times:
            text = text.replace(mention.text, " ")
        return text


@dataclass
class Draft:
    """The fields a rule fills in; the extractor adds text, language, flags, tags and entities."""

    category: Category | None = None  # None: the rule's own category
    slot: str | None = None
    value: Any = None
    objects: list[str] = field(default_factory=list)
    polarity: int = 1
    event_time: datetime | None = None
    event_status: EventStatus | None = None
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    session_only: bool = False
    explicit: bool = True


Build = Callable[[re.Match[str], Context], "Draft | None"]


def plain(m: re.Match[str], ctx: Context) -> Draft | None:
    """A candidate of the rule's category with no slot: the clause says it all."""
    return Draft()


@dataclass(frozen=True)
class Rule:
    """One pattern and what a match means."""

    category: Category
    pattern: re.Pattern[str]
    build: Build = plain
    about_user: bool = True  # only when the clause is about the user (not 他喜欢… / you like…)
    in_questions: bool = False  # also in a question (能用英文回复吗？)
    fallback: bool = False  # tried only after the other language's rules, for mixed text


_SCOPES = {  # scope -> (about_user, in_questions, fallback)
    "user": (True, False, False),  # a statement about the user: 我喜欢… / I live in…
    "any": (False, False, False),  # whoever the subject is: 物流太慢了 / the app keeps crashing
    "ask": (False, True, False),  # also a request or question to the assistant: 能用英文回复吗？
    "fallback": (True, False, True),  # the catch-all, after the other language's rules have had a go
}


def rule(category: Category, pattern: str, build: Build = plain, scope: str = "user") -> Rule:
    """A :class:`Rule` with its pattern compiled; ``scope`` is one of the keys of ``_SCOPES``."""
    about_user, in_questions, fallback = _SCOPES[scope]
    return Rule(category, re.compile(pattern), build, about_user, in_questions, fallback)


# a space between Chinese characters: chat's stop, which ends what a slot's value says ("我住将军澳
# 每天坐地铁转巴士去数码港" lives in 将军澳, "我叫李明 在北京工作" is 李明), what a change of mind left
# (leaving) and a part of a statement (ended)
CHAT_STOP = re.compile(r"(?<=[\u4e00-\u9fff])[ \u3000]+(?=[\u4e00-\u9fff])")


def up_to_a_space(value: str) -> str:
    """What a value captured from a Chinese run-on says before chat's stop."""
    return CHAT_STOP.split(value, maxsplit=1)[0]


def first_match(rules: Sequence[Rule], ctx: Context, *, fallback: bool) -> Draft | None:
    """The draft of the first rule (of the given fallback kind) that accepts the clause."""
    for r in rules:
        if (
            r.fallback != fallback
            or (r.about_user and ctx.about_other)
            or (ctx.question and not r.in_questions)
        ):
            continue
        m = r.pattern.search(ctx.text)
        if m is None:
            continue
        draft = r.build(m, ctx)
        if draft is not None:
            if draft.category is None:
                draft.category = r.category
            if isinstance(draft.value, str):
                draft.value = up_to_a_space(draft.value)
            return draft
    return None


# -- objects ----------------------------------------------------------------------------------------

_ZH_SPLIT = re.compile(r"[、/，,＋+&]|以及|或者|或是|还有|和|跟|与|及|或")
# what an object does not start with: the words of its subject before it (我, 都, 一般, 就, 去…)
ZH_SUBJECT_WORDS = re.compile(r"^(?:我|都|会|要|一般|通常|总是|基本|固定|按时|准时|也|还|就|得|去|的|有)+")
_ZH_TAIL = re.compile(
    r"(?:了|的|啊|呀|哦|吧|呢|哈|嘛|啦|哟|咯|喔|～|~|!|！|一点|一些|之类的?|什么的|等等|等|这种|这类|东西|这一类)+$"
)
_EN_SPLIT = re.compile(r"\s*(?:,|/|&|;|\band\b|\bor\b|\bnor\b)\s*", re.IGNORECASE)
_EN_LEAD = re.compile(
    r"^(?:(?:the|a|an|some|any|my|to|of|doing|being|having|drinking|eating|more|really)\s+)+", re.I
)
_EN_TAIL = re.compile(
    r"(?:\s+(?:a\s+lot|very\s+much|so\s+much|too|as\s+well|these\s+days|lately|anymore|any\s+more|now|nowadays|"
    r"more|most|in\s+general|a\s+bit|please|though|instead|either|at\s+all|really|best|better|over\s+\w+|"
    r"than\s+.+|rather\s+than\s+.+|instead\s+of\s+.+|every\s+\w+|in\s+the\s+\w+|at\s+night|on\s+weekends))+$",
    re.IGNORECASE,
)
_KEEP_S = frozenset(
    words("news series species glasses jeans pants clothes sports gas bus lens chess tennis is us")
)


def singular(phrase: str) -> str:
    """The phrase with a plain English plural on its last word undone (americanos -> americano)."""
    head, _, last = phrase.rpartition(" ")
    low = last.lower()
    if len(low) <= 3 or low in _KEEP_S or not low.endswith("s") or low.endswith(("ss", "us", "is")):
        return phrase
    if low.endswith("ies"):
        last = last[:-3] + "y"
    elif low.endswith(("ches", "shes", "xes", "sses")):
        last = last[:-2]
    else:
        last = last[:-1]
    return f"{head} {last}" if head else last


def zh_objects(text: str, ctx: Context) -> list[str]:
    """The things a Chinese preference or dislike is about: 美式、拿铁和冷萃 -> [美式, 拿铁, 冷萃]."""
    out: list[str] = []
    for part in _ZH_SPLIT.split(ctx.without_times(text)):
        part = part.strip(" 　\"'“”‘’《》「」『』")
        part = _ZH_TAIL.sub("", ZH_SUBJECT_WORDS.sub("", part)).strip(" 《》「」『』")
        if part and len(part) <= 20 and part not in out:
            out.append(part)
    return out


def en_objects(text: str, ctx: Context) -> list[str]:
    """The things an English preference or dislike is about: "coffee and green tea" -> [coffee, green tea]."""
    text = _EN_TAIL.sub("", ctx.without_times(text).strip(" .!"))
    out: list[str] = []
    for part in _EN_SPLIT.split(text):
        part = _EN_TAIL.sub("", _EN_LEAD.sub("", part.strip(" \"'“”"))).strip(" .!\"'“”")
        if part and len(part) <= 40:
            part = singular(part)
            if part not in out:
                out.append(part)
    return out


def liking(polarity: int, need_objects: bool | None = None) -> Build:
    """A builder for likes (+1) and dislikes (-1): objects from group ``obj``, the verb from ``verb``.

    A like needs an object; a bare dislike (不喜欢, as an answer) does not, unless ``need_objects``.
    """
    need = polarity > 0 if need_objects is None else need_objects

    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        groups = m.groupdict()
        raw = next((groups[g] for g in ("obj", "obj2") if groups.get(g)), "") or ""
        objects = (zh_objects if ctx.lang == "zh" else en_objects)(raw, ctx)
        verb = groups.get("verb")
        if not objects and need:
            return None
        return Draft(
            objects=objects, polarity=polarity, slot=consumable_slot(verb.strip() if verb else None, objects)
        )

    return build


FAVORITE = "favorite:"  # the subject key of a favourite: favorite:show
# "ramen is my thing now" names no kind of which there is one at a time
_NO_KIND = frozenset({"thing", "things", "jam", "one"})


def favorite(m: re.Match[str], ctx: Context) -> Draft | None:
    """A favourite ("my favorite show is The Office", "Succession is my show now", 我最喜欢的剧是繁花):
    a user has one of a kind at a time, so the kind is a subject key (``favorite:show``) whose value
    a new favourite supersedes. What is eaten or drunk keeps its own key (``food``, ``drink``)."""
    groups = m.groupdict()
    raw = next((groups[g] for g in ("obj", "obj2", "obj3", "obj4") if groups.get(g)), "") or ""
    objects = (zh_objects if ctx.lang == "zh" else en_objects)(raw, ctx)
    if not objects:
        return None
    # the noun when there is one (最喜欢看的电影: 电影), else the verb (最喜欢吃的: food)
    kind = " ".join(
        next((groups[g] for g in ("kind4", "kind3", "kind2", "kind") if groups.get(g)), "").lower().split()
    )
    kind = "" if kind in _NO_KIND else kind
    slot = consumable_slot(kind, objects) or (f"{FAVORITE}{kind}" if kind else None)
    value = " ".join(objects[0].lower().split()) if slot and slot.startswith(FAVORITE) else None
    return Draft(objects=objects, polarity=1, slot=slot, value=value)


def slot_value(
    slot: str, group: str = "v", values: dict[str, Any] | None = None, entity: bool = False
) -> Build:
    """A builder that sets ``slot`` to a matched group, mapped through ``values`` when given."""

    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        groups = m.groupdict()
        raw = next((v for k, v in groups.items() if k.startswith(group) and v), None)
        if raw is None:
            return None
        raw = raw.strip(" \"'“”‘’.,!")
        value = values.get(raw.lower(), raw) if values is not None else raw
        if value in ("", None):
            return None
        return Draft(slot=slot, value=value, entities=[raw] if entity else [])

    return build


def this_while(m: re.Match[str], ctx: Context) -> Draft | None:
    """A builder for the state of the user's phone, time or body this while: kept for this conversation,
    unless a word of habit says it is how things usually are ("no signal on the boat half the time")."""
    return None if HABITUAL.search(ctx.text) else Draft(session_only=True)


def fixed(slot: str | None, value: Any = None, **extra: Any) -> Build:
    """A builder with a constant slot and value (回复简洁一点 -> response_style = concise)."""

    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        return Draft(slot=slot, value=value, **extra)

    return build
