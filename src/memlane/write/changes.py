"""What a change of mind retires: the memories of the thing a statement says the user left behind.

The words say what is left behind (:mod:`memlane.write.extract.leaving`: "不考上财了，改考本校",
"switched from duolingo to wanikani", "I've gone off oat milk"); :func:`retired` finds the user's
current memories that hold it, which the new statement supersedes. A general word stands for its
kinds too: "quit coffee" retires "每天一杯美式", and a new diet retires what it leaves off the plate
("went vegan" retires "I eat a ton of chicken and eggs", 开始吃素 retires 最爱吃毛肚肥牛); by a kind
alone, only what the user liked or did is retired. Leaving a job (我离职了, "I quit my job") retires
the employer and the role the user had; a couple parting (我们分手了, "we got divorced": marital
status single or divorced) what the user said of the partner ("我有个男朋友", "my wife is a nurse").
A memory holds what its words name and what its topic names: "for coffee? i always take it black"
is about coffee (the extractor gives "it" the topic of the clause before), and "quit coffee"
retires it. Only memories of what can change (preferences,
routines, background, plans, profile facts, a problem still open with the thing left behind) are
retired, never events that happened, and never one that also names what the user now has ("I use
wanikani with duolingo for grammar" is not retired by "switched from duolingo"). A change is the
user's own unless it opens with a relative: the user's retires what was said of the user ("I quit
coffee" leaves "my wife loves coffee"), a relative's what was said of that relative, family facts
included ("女儿不学钢琴了" retires "我女儿在学钢琴", not "我儿子在学钢琴").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memlane.domain import Category, EventStatus, Kind, MemoryItem
from memlane.store.tokens import SPEAKER
from memlane.text.keywords import content_words
from memlane.text.kin import EN_RELATIONS, PARTNER_RELATIONS, ZH_PARTNERS
from memlane.text.lang import normalize
from memlane.vocabulary import MemoryQuery
from memlane.write.extract.channels import lifted
from memlane.write.extract.denials import denies
from memlane.write.extract.leaving import CJK, leaving, left_behind, left_job, left_workplace, terms
from memlane.write.extract.reference import kin_subject
from memlane.write.pool import Pool

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


def _said(text: str) -> frozenset[str]:
    """Words as :func:`_holds` compares them: Chinese as written, English by its stems."""
    return frozenset(w2 for w in text.split() for w2 in ((w,) if CJK.search(w) else content_words(w)))


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
_ALCOHOL = _said(
    "酒 红酒 白酒 啤酒 葡萄酒 黄酒 米酒 清酒 烧酒 威士忌 伏特加 鸡尾酒 香槟 alcohol booze wine wines beer "
    "beers whisky whiskey vodka gin rum tequila cocktail cocktails champagne sake soju cider"
)
# fmt: on
# the words for one thing or activity in both languages, any of which a change of mind may name
# ("不怎么爬山了" leaves "周末去青城山徒步", "no more americano for me" leaves "我喜欢喝美式")
_ONE_THING = [
    _said("爬山 徒步 登山 hiking hike hikes trekking"),
    _said("跑步 夜跑 晨跑 running run runs jogging jog"),
    _said("游泳 swimming swim"),
    _said("骑车 骑行 cycling cycle biking"),
    _said("健身 健身房 撸铁 gym workout workouts lifting"),
    _said("瑜伽 yoga"),
    _said("美式 americano americanos"),
    _said("拿铁 latte lattes"),
    _said("抹茶 matcha"),
    _said("奶茶 boba"),
    _said("可乐 coke cola"),
    _said("啤酒 beer beers"),
    _said("豆浆 soymilk"),
    _said("安卓 android"),
    _said("地铁 subway metro"),
    _said("篮球 basketball"),
    _said("网球 tennis"),
    _said("羽毛球 badminton"),
    _said("滑雪 skiing ski"),
    _said("钢琴 piano"),
    _said("吉他 guitar"),
    _said("倒班 三班倒 两班倒 四班三倒 轮班 夜班 大夜班 上夜班"),  # shift work, the nights its part
]
# a general word a change of mind names → the kinds it stands for
_KINDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(_said("咖啡 coffee"), _COFFEE),
    **dict.fromkeys(_said("肉 吃肉 荤 meat meats"), _MEAT),
    **dict.fromkeys(_said("酒 喝酒 alcohol booze drinking"), _ALCOHOL),
    **{word: words for words in _ONE_THING for word in words},
}
# a diet → what it leaves off the plate
_DIET_LEAVES: dict[str, frozenset[str]] = {
    "vegetarian": _MEAT,
    "vegan": _ANIMAL,
    "pescatarian": _MEAT - _said("鱼 虾 蟹 海鲜 fish salmon tuna shrimp prawns seafood"),
}


def _holds(text: str, named: set[str]) -> bool:
    """Whether ``text`` names any of ``named``: a Chinese term anywhere in it (segmentation cuts
    太湖边 as 太/湖边), another as one of its words."""
    words, folded = content_words(text), normalize(text)
    return any(t in folded if CJK.search(t) else t in words for t in named)


_JOB_SLOTS = frozenset({"employer", "job"})

# a couple parting (我们分手了, "we got divorced": marital_status single or divorced) retires what the user
# said of the partner they had and of being together ("我有个男朋友 在一起三年了", "my wife is a nurse")
_PARTED = frozenset({"single", "divorced"})
_PARTNER = re.compile(
    ZH_PARTNERS
    + r"|(?i:\b(?:"
    + "|".join(w for w, r in EN_RELATIONS.items() if r in PARTNER_RELATIONS)
    + r"|bf|gf)s?\b)"
)


def _partner(m: MemoryItem) -> bool:
    """Whether ``m`` says something of the user's partner (the partner's own facts included)."""
    return m.kind is not Kind.EPISODIC and m.slot != "marital_status" and _PARTNER.search(m.text) is not None


def _kinds(named: set[str]) -> set[str]:
    """The kinds the general words among ``named`` stand for (coffee → americano, latte…)."""
    return set().union(*(_KINDS.get(t, frozenset()) for t in named)) - named


def kind_of(general: str, specific: str) -> bool:
    """Whether the thing ``specific`` names is a kind of what ``general`` names: red wine of alcohol,
    a latte of coffee, and in Chinese a name that ends in the one character of the general thing
    (红酒 of 酒, 绿茶 of 茶, 牛肉 of 肉)."""
    if general == specific:
        return False
    if len(general) == 1 and CJK.search(general):
        return len(specific) > 1 and specific.endswith(general)
    kinds = _kinds(set(_said(general)))
    return bool(kinds) and _holds(specific, kinds)


def topic(m: MemoryItem) -> str:
    """What ``m``'s tags say it is about (not who said it)."""
    return " ".join(t for t in m.tags if not t.startswith(SPEAKER))


def retired(pool: Pool, item: MemoryItem, exclude: Sequence[MemoryItem] = ()) -> list[MemoryItem]:
    """The user's current memories that ``item`` (a statement of a change) says no longer hold."""
    left = leaving(item.text)
    phrases = list(left)
    diet = (
        _DIET_LEAVES.get(item.value, frozenset())
        if item.slot == "diet" and isinstance(item.value, str)
        else None
    )
    job_left = left_job(item.text) if item.slot not in _JOB_SLOTS else None
    quit_job = job_left is not None
    parted = item.slot == "marital_status" and item.value in _PARTED
    if not phrases and not diet and not quit_job and not parted:
        return []
    # …and where the job left was: "im a cna at pine hollow" goes with "gave my notice at pine hollow"
    workplace = left_workplace(job_left) if job_left is not None else None
    old = set().union(*(terms(p) for p in [*phrases, *([workplace] if workplace else [])]))
    kinds = _kinds(old) | set(diet or ())
    # what the statement names besides what it leaves and the words that leave it: the new choice
    said = [*left.values(), *([job_left] if job_left else [])]
    # …and whose change it is: the user's own retires what was said of the user ("I quit coffee" leaves
    # "my wife loves coffee"), a relative's what was said of that relative (女儿不学钢琴了)
    kin = kin_subject(item.text)
    now = terms(item.text) - old - kinds - set().union(*(content_words(words) for words in said))
    now = {w for w in now if not any(k in w for k in kin)}  # 我妈 as much as 妈
    held = pool.query(MemoryQuery(kinds=(Kind.SEMANTIC, Kind.PROFILE, Kind.EPISODIC)))
    skip = {m.id for m in exclude} | {item.id}
    return [
        m
        for m in held
        if m.id not in skip
        and (
            (parted and _partner(m))
            or (
                changeable(m, bool(kin))
                and (
                    _holds(m.text, old)
                    or bool(old & terms(topic(m)))  # its topic ("for coffee? i always take it black")
                    # a kind of what was left, unless it is said in passing by a slot of the profile
                    # ("不用倒班了" leaves "三班倒的", not the job "我在钢厂开天车的 干了十二年了 三班倒")
                    or (
                        m.polarity > 0
                        and bool(kinds)
                        and m.kind is not Kind.PROFILE
                        and _holds(m.text, kinds)
                    )
                    or (quit_job and m.slot in _JOB_SLOTS)
                )
                and not left_behind(m.text)
                and not (now and _holds(m.text, now))
                and m.slot != "diet"
                and kin_subject(m.text) == kin
            )
        )
    ]


def changeable(m: MemoryItem, relative: bool) -> bool:
    """Whether a change of mind can retire ``m``: what holds until it changes, a profile slot whatever
    its category ("I'm not married anymore"), an open problem, and a relative's family facts when the
    change is a relative's."""
    return (
        m.category in _CHANGEABLE
        or (m.kind is Kind.PROFILE and m.slot is not None)
        or _open(m)
        or (m.category is Category.FAMILY and relative)
    )


def may_retire(m: MemoryItem, item: MemoryItem) -> bool:
    """Whether ``item`` may retire ``m``: anything may, but a way to answer only what says how to
    answer ("…闺女给我买了个新手机…一步一步教我" shares 手机 with "我只用微信 … 手机内存小" and 闺女
    with "还是不绑卡了 电费让闺女交", neither of which says how to answer)."""
    return m.category is not Category.STYLE or item.category is Category.STYLE


def _open(m: MemoryItem) -> bool:
    """Whether ``m`` is a problem still open: it holds only while the user has what it is about ("the
    wifi control of my ui24r keeps dropping" no longer holds once they "sold the ui24r")."""
    return m.category is Category.COMPLAINT and m.event_status is EventStatus.UNRESOLVED


# the slots a user can say they are not of: where they live, work or come from, and their employer
_PLACES = frozenset({"home_city", "work_city", "hometown", "employer"})
_NEGATION = re.compile(r"不|没|(?i:\bnot\b|n't\b|\bnever\b|\bno\s+longer\b)")


def denied(pool: Pool, item: MemoryItem) -> list[MemoryItem]:
    """The user's current slot memories ``item`` says no longer hold: a place or an employer the
    user says they are not of ("我不是住杭州的" retires home_city 杭州, "I never worked at Initech" the
    employer; "这周我不在杭州", away for now, retires nothing: :func:`denies`), and a restriction on
    calls it lifts ("you can call me on weekends now", 周末可以打电话了: :func:`lifted`)."""
    lifts = lifted(item.text)
    if not lifts and not _NEGATION.search(item.text):
        return []
    return [
        m
        for m in pool.query(MemoryQuery(kinds=(Kind.PROFILE,)))
        if m.id != item.id
        and m.slot != item.slot
        and (
            m.slot in lifts
            or (m.slot in _PLACES and isinstance(m.value, str) and m.slot in denies(item.text, m.value))
        )
    ]
