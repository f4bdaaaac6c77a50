"""What a change of mind retires: the thing a statement says the user has left behind.

"不考上财了，改考本校", "switched from duolingo to wanikani", "sold all my canon gear", "咖啡我戒了",
"we moved out of the parish hall", "I've gone off oat milk", "haven't hiked in months": each names what
no longer holds. :func:`left_behind` finds those
words; :func:`retired` finds the user's current memories that hold them, which the new statement
supersedes. A general word stands for its kinds too: "quit coffee" retires "每天一杯美式", and a new
diet retires what it leaves off the plate ("went vegan" retires "I eat a ton of chicken and eggs",
开始吃素 retires 最爱吃毛肚肥牛); by a kind alone, only what the user liked or did is retired.
Leaving a job (我离职了, "I quit my job") retires the employer and the role the user had. A memory
holds what its words name and what its topic names: "for coffee? i always take it black" is about
coffee (the extractor gives "it" the topic of the clause before), and "quit coffee" retires it.
Only memories of what can change (preferences, routines, background, plans, profile
facts) are retired, never events that happened, and never one that also names what the user now
has ("I use wanikani with duolingo for grammar" is not retired by "switched from duolingo").

>>> left_behind("决定了，不考上财了，改考本校")
['考上财']
>>> left_behind("switched from duolingo to wanikani, duolingo was too gamey")
['duolingo']
>>> left_behind("big news, sold all my canon gear and switched to sony")
['canon gear']
>>> left_behind("咖啡我戒了哈")
['咖啡']
>>> left_behind("恐怖片看腻了")
['恐怖片']
>>> left_behind("我喜欢喝美式")
[]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memlane.domain import Category, Kind, MemoryItem
from memlane.text.keywords import content_words
from memlane.text.lang import normalize
from memlane.vocabulary import MemoryQuery
from memlane.write.extract.lexicon import STOPPED_ZH
from memlane.write.pool import Pool

_ZH = [
    re.compile(r"从(?P<old>[^，。,.!！？?；;]{1,12}?)(?:改成|换成|改为|换到|搬到|转到|改到|到)"),
    re.compile(r"(?:不再|再也不)(?P<old>[^，。,.!！？?；;了]{1,12})"),
    re.compile(r"不(?!好意思|客气|错|行|用|对|过|少|多|久|然|如)(?P<old>[^，。,.!！？?；;不了]{2,12})了"),
    re.compile(
        r"(?P<old>[^，。,.!！？?；;我]{1,8}?)(?:我)?(?:戒了|戒掉了|戒掉|不要了|卖了|卖掉了|卸载了|删了|退坑了)"
    ),
    re.compile(r"(?:戒了|戒掉了?|卖掉了?|辞掉了?|退掉了?)(?P<old>[^，。,.!！？?；;了]{1,12})"),
    re.compile(r"(?:离开了?|辞了|退了)(?P<old>[^，。,.!！？?；;了]{2,12})"),
    *STOPPED_ZH,
]
_EN = [
    re.compile(
        r"\b(?:switched|moved|changed|went|transferred|converted)\s+(?:over\s+)?from\s+"
        r"(?P<old>[\w' -]{2,40}?)\s+(?:to|for|over\s+to)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:quit|stopped|(?:gave|given|giving)\s+up(?:\s+on)?|dropped|ditched|sold(?:\s+off)?(?:\s+all)?|"
        r"left|uninstalled|cancel+ed|got\s+rid\s+of|(?:i'?m|i\s+am)\s+done\s+(?:with|\w+ing)|"
        r"i(?:'ve|\s+have)?\s+(?:gone|went)\s+off(?:\s+of)?|(?:i'?m|i\s+am)\s+over(?!\s+(?:the\s+moon|\d))|"
        r"no\s+longer\s+(?:use|drink|eat|play|do|go\s+to|work\s+at|buy\s+from))\s+"
        r"(?:my\s+|the\s+|using\s+|drinking\s+|eating\s+|playing\s+|doing\s+|going\s+to\s+)*"
        r"(?P<old>[\w' -]{2,30}?)"
        r"(?=\s*(?:[,.!?;]|$|\b(?:and|for|to|because|so|after|but|last|this|yesterday|recently|ago)\b))",
        re.IGNORECASE,
    ),
    re.compile(r"\binstead\s+of\s+(?P<old>[\w' -]{2,30}?)(?=\s*(?:[,.!?;]|$))", re.IGNORECASE),
    # "haven't hiked in months": not done for so long that it is no longer done
    re.compile(
        r"\b(?:haven't|have\s+not|hasn't|haven't\s+really)\s+(?P<old>[\w' -]{3,30}?)\s+(?:in|for)\s+"
        r"(?:months|ages|years|weeks|a\s+(?:while|long\s+time|year))\b",
        re.IGNORECASE,
    ),
    re.compile(r"^(?P<old>[\w' -]{2,30}?)(?:'s|\s+is)\s+not\s+for\s+me\b", re.IGNORECASE),
    re.compile(
        r"\b(?:not|don't|do\s+not|no|can't|cannot|won't|doesn't|never)\s+(?:\w+\s+){0,2}?"
        r"(?P<old>[\w'-]{3,20})\s+any\s*more\b",
        re.IGNORECASE,
    ),
]
# words that say how or when, not what: a left-behind thing is named by its other words
_HOW = frozenset(
    "考 喝 吃 用 去 做 买 玩 住 跑 学 打 想 要 在 再 了 all my the a an gear stuff using use drink eat "
    "play go work job it that this thing things last month week year ago "
    # English verbs of how, as content_words stems them: "switched to learning Japanese" names Japanese
    "learn read watch listen take get have buy order cook make wear switch start begin now day instead "
    "lately recently "
    # …and of when: "weekends are all about climbing, haven't hiked in months" retires weekend hikes
    "weekend weekday morn evening night daili everi 周末 平时 每天 早上 晚上 工作日".split()
)
# what a change of mind can retire: what holds until it changes, not what happened
_CHANGEABLE = (
    Category.PREFERENCE,
    Category.DISLIKE,
    Category.CONSTRAINT,
    Category.ROUTINE,
    Category.FACT,
    Category.PLAN,
    Category.JOB,
    Category.LOCATION,
    Category.STYLE,
)


_CJK = re.compile(r"[\u4e00-\u9fff]")


def _said(text: str) -> frozenset[str]:
    """Words as :func:`_holds` compares them: Chinese as written, English by its stems."""
    return frozenset(w2 for w in text.split() for w2 in ((w,) if _CJK.search(w) else content_words(w)))


# fmt: off
_COFFEE = _said(
    "咖啡 美式 拿铁 冷萃 卡布奇诺 摩卡 浓缩 手冲 coffee coffees americano americanos latte lattes espresso "
    "espressos cappuccino cappuccinos mocha macchiato"
)
_MEAT = _said(
    "肉 荤 牛肉 猪肉 羊肉 鸡肉 鸭 鹅 牛排 排骨 毛肚 肥牛 肥羊 培根 火腿 香肠 腊肉 烤串 炸鸡 鸡翅 内脏 鱼 "
    "虾 蟹 海鲜 meat meats beef pork lamb chicken steak steaks bacon ham sausage sausages burger burgers "
    "turkey ribs wings brisket fish salmon tuna shrimp prawns seafood"
)
_ANIMAL = _MEAT | _said(
    "鸡蛋 蛋 牛奶 奶酪 芝士 酸奶 黄油 蜂蜜 egg eggs milk cheese dairy yogurt yoghurt butter honey"
)
# fmt: on
# a general word a change of mind names → the kinds it stands for
_KINDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(_said("咖啡 coffee"), _COFFEE),
    **dict.fromkeys(_said("肉 吃肉 荤 meat meats"), _MEAT),
}
# a diet → what it leaves off the plate
_DIET_LEAVES: dict[str, frozenset[str]] = {
    "vegetarian": _MEAT,
    "vegan": _ANIMAL,
    "pescatarian": _MEAT - _said("鱼 虾 蟹 海鲜 fish salmon tuna shrimp prawns seafood"),
}


def left_behind(text: str) -> list[str]:
    """The phrases ``text`` says the user no longer has, does or wants (none for a plain statement)."""
    return list(_leaving(text))


def _leaving(text: str) -> dict[str, str]:
    """Each phrase left behind, with the words that say so ("I'm done flying Delta": Delta, and
    "I'm done flying Delta", whose verb names no new choice)."""
    found: dict[str, str] = {}
    for pattern in [*_ZH, *_EN]:
        for m in pattern.finditer(text):
            phrase = (m.groupdict().get("old") or m.group("obj")).strip(" ,，'")
            if phrase and phrase not in found and _named(phrase):
                found[phrase] = m.group(0)
    return found


def _named(phrase: str) -> bool:
    return bool(_terms(phrase))


def _terms(phrase: str) -> set[str]:
    words = {w for w in content_words(phrase) if w not in _HOW}
    # one character names nothing, unless it is all the phrase says in Chinese ("猫送人了": 猫)
    return {w for w in words if len(w) > 1 or (_CJK.search(w) and phrase.strip() == w)}


def _holds(text: str, terms: set[str]) -> bool:
    """Whether ``text`` names any of ``terms``: a Chinese term anywhere in it (segmentation cuts
    太湖边 as 太/湖边), another as one of its words."""
    words, folded = content_words(text), normalize(text)
    return any(t in folded if _CJK.search(t) else t in words for t in terms)


# leaving a job: what the user said about the job they had (employer, role there) no longer holds
_LEFT_JOB = re.compile(
    r"(?<![没不])(?:离职|辞职|裸辞|辞了工作|辞掉了?工作|被裁|被优化)"
    r"|(?i:\b(?:quit|left)\s+my\s+job\b|\bresigned\b|\b(?:got|was|been)\s+laid\s+off\b)"
)
# …said as done, not as a thought, a plan or a denial ("I'm not going to quit my job", 想离职)
_NOT_DONE = re.compile(
    r"(?:不|没|想|打算|准备|考虑|要不要|如果|可能|会不会)[^，。,.!！?？]{0,4}(?:离职|辞职|裸辞)"
    r"|(?i:\b(?:not|never|won'?t|going\s+to|gonna|will|want\s+to|thinking|might|maybe|if|should)\b|n't\b)"
)
_JOB_SLOTS = frozenset({"employer", "job"})


def _kinds(terms: set[str]) -> set[str]:
    """The kinds the general words among ``terms`` stand for (coffee → americano, latte…)."""
    return set().union(*(_KINDS.get(t, frozenset()) for t in terms)) - terms


def retired(pool: Pool, item: MemoryItem, exclude: Sequence[MemoryItem] = ()) -> list[MemoryItem]:
    """The user's current memories that ``item`` (a statement of a change) says no longer hold."""
    leaving = _leaving(item.text)
    phrases = list(leaving)
    diet = (
        _DIET_LEAVES.get(item.value, frozenset())
        if item.slot == "diet" and isinstance(item.value, str)
        else None
    )
    left_job = (
        _LEFT_JOB.search(item.text) is not None
        and not _NOT_DONE.search(item.text)
        and item.slot not in _JOB_SLOTS
    )
    if not phrases and not diet and not left_job:
        return []
    old = set().union(*(_terms(p) for p in phrases))
    kinds = _kinds(old) | set(diet or ())
    # what the statement names besides what it leaves and the words that leave it: the new choice
    now = _terms(item.text) - old - kinds - set().union(*(content_words(said) for said in leaving.values()))
    held = pool.query(
        MemoryQuery(
            kinds=(Kind.SEMANTIC, Kind.PROFILE, Kind.EPISODIC),
            categories=tuple(c.value for c in _CHANGEABLE),
        )
    )
    skip = {m.id for m in exclude} | {item.id}
    return [
        m
        for m in held
        if m.id not in skip
        and m.category in _CHANGEABLE
        and (
            _holds(m.text, old)
            or bool(old & _terms(" ".join(m.tags)))  # its topic ("for coffee? i always take it black")
            or (m.polarity > 0 and bool(kinds) and _holds(m.text, kinds))
            or (left_job and m.slot in _JOB_SLOTS)
        )
        and not left_behind(m.text)
        and not (now and _holds(m.text, now))
        and m.slot != "diet"
    ]
