"""What a change of mind in words no rule knows retires: the memory it is about, read by meaning.

The rules name what a change leaves behind in the words they know (:mod:`memlane.write.changes`,
:mod:`memlane.write.choices`). When they name nothing, the learned :class:`EndingHead` reads the new
memory's e5 vector and its words; when it is sure the statement says something of the user's has ended
("健身卡到期没续", "let my climbing membership lapse", "尤克里里吃灰好久了"), the nearest current memory
that could change, shares a word with it and is close enough in meaning to be about the same thing is
retired ("我办了楼下健身房的年卡", "I climb at the bouldering gym twice a week"). Only memories of the
same person (the user's change leaves what was said of a relative) and only what holds until it
changes (preferences, routines, background, plans, profile facts, an open problem), never an event
that happened or a memory that itself says something ended; nothing when the change is a guess, a
wish or a pause for now (in the part of the statement that names the thing, or the part after it: a
wish about something else in the same message does not count), and nothing in named speakers' talk
(the head learnt from what users tell an assistant).

A change often comes in a clause the judge keeps no memory of: small talk to the model ("繁花追完了
太好看了"), a condition of the request it came with ("爱奇艺会员到期了没续 那边的就别推了"), about nothing
in particular ("那部漫画作者宣布无限期停更了"). Such a clause (:func:`may_end`) is read again with its
vector off the caller's path, like a clause the judge may still keep (:mod:`memlane.write.keeper`), and
kept as the user's news (:func:`as_news`) when it retires a memory this way.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memlane.domain import Action, Category, Decision, Kind, MemoryItem
from memlane.store.tokens import SPEAKER
from memlane.text.keywords import content_words
from memlane.text.lang import said
from memlane.write.changes import changeable, may_retire
from memlane.write.extract.leaving import change_said, left_behind
from memlane.write.extract.lexicon import HEDGE, HYPOTHETICAL
from memlane.write.extract.reference import kin_subject
from memlane.write.extract.rule import CHAT_STOP
from memlane.write.judge.ending import EndingHead
from memlane.write.judge.guards import LONG_NUMBER, exact
from memlane.write.judge.rules import POLICIES
from memlane.write.pool import Pool

_KINDS = (Kind.SEMANTIC, Kind.PROFILE, Kind.EPISODIC)
# characters too common to name a thing: a pair of Chinese characters holding one names nothing
_COMMON = frozenset("我你他她它们了的是在有就都也很太不没一个这那么吗呢吧啊呀嘛和跟去来说要会能还又再好")
_HAN = re.compile(r"[\u4e00-\u9fff]+")


# English words that say how something was or when, and light verbs: they name no thing two statements
# could share ("My fam's been awesome" is not about "pottery… is awesome")
_NAMES_NOTHING = frozenset(
    content_words(
        "awesome amazing great good bad nice cool fun easy hard difficult important special beautiful lovely "
        "happy sad proud tough busy crazy wonderful fantastic terrible awful excited glad sure real really "
        "since ago always never often lately recently today yesterday tomorrow week weekend month year time "
        "times day days lot lots thing things stuff way ways kind people feel felt love loved like liked "
        "want wanted need needed make made get got take took keep kept give gave help helped try tried "
        "start started finally still again also even just much many"
    )
)


# …and Chinese pairs that say when, how or who ("配置折腾了一个周末" names nothing of "周末回株洲看我爸妈",
# "我自己奶制品一点都不能碰" nothing of "我自己是儿科护士"), not a time of day a routine is named by
# ("现在中午都去食堂吃" is about "我每天中午都自己带饭")
_NAMES_NOTHING_ZH = frozenset(
    "周末 今天 昨天 明天 前天 后天 最近 现在 以前 以后 之前 之后 上周 下周 这周 时候 时间 已经 终于 彻底 "
    "其实 真的 感觉 觉得 可以 一下 自己 一点 全部 所有 什么 这样 那样 怎么 东西".split()
)


def _speakers(m: MemoryItem) -> set[str]:
    return {t for t in m.tags if t.startswith(SPEAKER)}


def _named(text: str) -> set[str]:
    """What ``text`` may name a thing by: its English content words (stems, three letters or more)
    and each pair of Chinese characters in a row (segmenting cuts 卡罗拉 as 卡罗 / 拉 in one
    sentence and whole in another)."""
    words = {w for w in content_words(text) if not _HAN.search(w) and len(w) >= 3} - _NAMES_NOTHING
    pairs = {
        run[i : i + 2]
        for run in _HAN.findall(text)
        for i in range(len(run) - 1)
        if not (_COMMON & set(run[i : i + 2])) and run[i : i + 2] not in _NAMES_NOTHING_ZH
    }
    return words | pairs


# what says a change is not settled: a guess, a wish or a thought of it, a pause for now, a change still
# to make ("志愿活动暂停了 说下个月恢复", "真想回去当个普通员工", "no gym this week, back next week",
# "那我得跟她说换了")
_UNSETTLED = re.compile(
    r"(?<![不没])(?:想|打算|考虑)|要不要|暂停|暂时|先不|恢复|回头再|等.{1,8}再|我得(?![了到过知])"
    r"|(?i:\b(?:want\s+to|wanna|thinking\s+(?:of|about)|considering|should\s+i|tempted|for\s+now|this\s+week"
    r"|for\s+a\s+(?:bit|while|few\s+\w+)|until|till|back\s+(?:next|in|on)|pause[ds]?|on\s+hold"
    r"|(?:take|took|taking)\s+a\s+break)\b)"
)


# where a statement's parts meet: its stops and commas, and a space between Chinese characters (chat's
# stop): "这周末想去超市大采购 山姆的卡到期我就没再续了" is a wish and a settled change
_PARTS = re.compile(CHAT_STOP.pattern + r"|[,，。！？!?；;：:\n]+")


def _unsettled(parts: list[str], shared: set[str]) -> bool:
    """Whether the change of the thing named by ``shared`` is not settled: a guess, a wish or a pause
    in a part of the statement that names it or in the part right after ("健身卡 先不续了")."""
    named = [bool(_named(part) & shared) for part in parts]
    return any(
        _UNSETTLED.search(part) or HEDGE.search(part) or HYPOTHETICAL.search(part)
        for i, part in enumerate(parts)
        if named[i] or (i > 0 and named[i - 1])
    )


def ended_by_meaning(pool: Pool, item: MemoryItem, head: EndingHead | None) -> tuple[list[MemoryItem], float]:
    """The one current memory ``item`` says no longer holds by the head's reading ([] when it is
    unsure or no memory is near enough), and how sure the head is (0 when it was not asked)."""
    vector = item.embedding
    if head is None or vector is None or _speakers(item):
        # (named speakers' talk, a group's or friends': the head learnt from what users tell an
        # assistant, and reads a friend's past news as an ending)
        return [], 0.0
    sure = head.ends(vector, item.text)
    if sure < head.threshold:
        return [], sure
    kin, named = kin_subject(item.text), _named(item.text)
    parts = [part for part in _PARTS.split(item.text) if part.strip()]
    near = [
        (score, m)
        for kind in _KINDS
        for score, m in pool.near(vector, kind)
        if score >= head.near
        and m.id != item.id
        and (m.created_at is None or item.created_at is None or m.created_at <= item.created_at)
        and changeable(m, bool(kin))
        and not (m.category is Category.PLAN and item.category is Category.PLAN)  # a move's or a call-off's
        and may_retire(m, item)
        and not left_behind(m.text)
        and kin_subject(m.text) == kin
        and bool(shared := named & _named(m.text))  # a word of the one in the other: the same thing
        and not _unsettled(parts, shared)
    ]
    # of those, one the part that says what stopped names ("钓鱼那个我不发了 烟台这边…": fishing, not where
    # the user lives; "干脆不戴了" names nothing, and any may be the one)
    stopped = set().union(*(_named(part) for part in parts if change_said(part) == "stop"))
    near = [(score, m) for score, m in near if stopped & _named(m.text)] or near
    return ([max(near, key=lambda pair: pair[0])[1]] if near else []), sure


# what a clause the judge did not keep may be, and still say something of the user's ended: not a mood,
# a request, an imagined case or a withdrawal (the judge's firm "not this")
_MAY_END = frozenset({Category.OTHER, Category.SMALLTALK, Category.CONTEXT, Category.CONDITION})
# …and says enough to name a thing and its change: three words or Chinese characters at least
_WORDS = re.compile(r"[\u4e00-\u9fff]|[^\W\d_]+")
_FEWEST = 3


def may_end(decision: Decision) -> bool:
    """Whether a clause the judge did not keep is read again for a change it may say: the user's own
    words, of a kind that may tell news, not a guess, with no secret and no long number in it, and not a
    named speaker's (the head learnt from what users tell an assistant)."""
    c = decision.candidate
    return (
        c is not None
        and decision.action in (Action.DISCARD, Action.SESSION)
        and c.category in _MAY_END
        and len(_WORDS.findall(c.text)) >= _FEWEST  # "(0)", "ok lol" tell nothing
        and not exact(c)
        and not c.hedged
        and not c.instruction
        and not LONG_NUMBER.search(c.text)
        and not any(t.startswith(SPEAKER) for t in c.tags)
    )


def as_news(decision: Decision) -> Decision:
    """``decision`` (one :func:`may_end` names) as the user's news kept long-term: a fact about them,
    which says that what it retires no longer holds."""
    c = decision.candidate
    assert c is not None
    policy = POLICIES[Category.FACT]
    news = replace(c, category=Category.FACT, session_only=False, event_time=None, event_status=None)
    return replace(
        decision,
        action=Action.SEMANTIC,
        category=Category.FACT,
        importance=policy.importance,
        stability=policy.stability,
        expires_at=None,
        reason=said(
            c.lang,
            "says that something the user told before no longer holds",
            "说明用户之前说过的事已不再成立",
        ),
        candidate=news,
    )
