"""What a switch retires when it names only the new choice.

"I switched to Trader Joe's", "最近改坐地铁了", "换了iPhone了", "I fly United now": a user has one
grocery store, one way to work, one phone, one airline at a time, and a switch to one of a kind
retires the user's current memories that name another of that kind ("I do my grocery shopping at
Whole Foods", "我每天坐公交上班", "I use an Android phone", "I usually fly Delta"). The words say
the switch (switched to, 改, 换, 搬到, now, started, 现在都, 开始), unless they say it is one more
beside the old (too, also, 也) or a choice made for someone else ("bought my mom an iPhone",
给我妈买了个iPhone); :data:`KINDS` says what is one of a kind. A kind may
also ask what its old memory is about: a way of getting around is one to *work* ("我每天坐公交上班")
and a doneness is the one of a *steak*, so "I take the subway to work now" does not retire "I love
cycling on weekends".

Where no kind is named, a statement of how things are now retires what it replaces when both are
about one thing and each says something the other does not (:meth:`_Change.replaces`): "these days
I drink my tea plain, cutting sugar" retires "I take my tea with milk and sugar", 现在早上都喝豆浆了
retires 我早上喝咖啡, 现在只喝无糖的了 retires 我喜欢喝可乐.

Meaning alone does not decide this: "iPhone" is as close to "Google" as to "Android phone" in e5,
and "支付宝" as close to "淘宝" as to "微信支付".

>>> [m for m in switched_to("最近改坐地铁了")]
['commute']
>>> switched_to("I fly United now")
{'airline': {'united'}}
>>> switched_to("I fly United")
{}
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from memlane.domain import Category, MemoryItem
from memlane.text.keywords import content_words
from memlane.vocabulary import MemoryQuery
from memlane.write.extract.builds_en import RELATIONS
from memlane.write.extract.family_zh import REL
from memlane.write.extract.leaving import CJK, HOW, WHEN, terms
from memlane.write.pool import Pool


@dataclass(frozen=True)
class Kind:
    """Choices of which a user has one at a time, and what an old memory of them is about."""

    names: re.Pattern[str]
    about: re.Pattern[str] | None = None


def _names(words: str) -> re.Pattern[str]:
    """One pattern for names separated by ``|``, the longest first ("medium rare" before "medium"):
    a Latin name as a whole word (also next to Chinese: 换了iPhone了), a Chinese one anywhere."""
    names = sorted((n.strip() for n in words.split("|") if n.strip()), key=len, reverse=True)
    latin = r"(?<![A-Za-z0-9]){}(?![A-Za-z0-9])"
    alts = [
        re.escape(n)
        if re.search(r"[\u4e00-\u9fff]", n)
        else latin.format(re.escape(n).replace(r"\ ", r"[\s-]?").replace("'", "'?"))
        for n in names
    ]
    return re.compile("|".join(alts), re.IGNORECASE)


# fmt: off
KINDS: dict[str, Kind] = {
    "phone": Kind(_names(
        "iphone|android|安卓|苹果手机|华为|小米|红米|pixel|samsung|galaxy|oppo|vivo|荣耀|oneplus|一加")),
    "computer": Kind(_names("mac|macbook|windows|linux|ubuntu|chromebook|thinkpad|苹果电脑")),
    "editor": Kind(_names(
        "vim|neovim|emacs|vscode|vs code|visual studio code|sublime|intellij|pycharm|cursor|zed|notepad++")),
    "browser": Kind(_names("chrome|firefox|safari|edge|brave|arc browser|opera")),
    "notes": Kind(_names("notion|obsidian|evernote|onenote|apple notes|印象笔记|语雀|飞书文档")),
    "payment": Kind(_names(
        "支付宝|微信支付|云闪付|apple pay|google pay|paypal|venmo|zelle|现金|cash|信用卡|credit card")),
    "shopping": Kind(_names("淘宝|天猫|京东|拼多多|闲鱼|amazon|ebay|walmart|target|temu|shein")),
    "grocery": Kind(_names(
        "whole foods|trader joe's|safeway|kroger|aldi|costco|publix|wegmans|instacart|ocado|tesco|"
        "sainsbury's|asda|waitrose|lidl|morrisons|盒马|山姆|叮咚买菜|美团买菜|永辉")),
    "bank": Kind(_names(
        "barclays|hsbc|lloyds|natwest|santander|monzo|starling|revolut|nationwide|chase|wells fargo|"
        "bank of america|citibank|capital one|招商银行|招行|工商银行|工行|建设银行|建行|农业银行|农行|"
        "中国银行|交通银行|浦发|中信银行")),
    "airline": Kind(_names(
        "delta|united|american airlines|southwest|jetblue|alaska airlines|lufthansa|british airways|emirates|"
        "国航|东航|南航|海航|春秋航空")),
    "delivery": Kind(_names("美团|饿了么|uber eats|doordash|grubhub|deliveroo|postmates")),
    "music": Kind(_names("spotify|apple music|youtube music|pandora|tidal|网易云|网易云音乐|qq音乐|酷狗")),
    "video": Kind(_names("netflix|hulu|disney+|hbo|prime video|爱奇艺|优酷|腾讯视频|芒果tv")),
    "coffee shop": Kind(_names(
        "starbucks|星巴克|瑞幸|luckin|dunkin|peet's|costa|tim hortons|blue bottle|manner")),
    "reading": Kind(_names(
        "kindle|paper books|physical books|audiobooks|ebooks|e-books|e-reader|纸质书|电子书|有声书|微信读书|"
        "听书")),
    "commute": Kind(
        _names("bus|subway|metro|train|drive|driving|car|bike|biking|cycle|cycling|walk|walking|taxi|uber|lyft|"
               "scooter|carpool|公交|公交车|地铁|开车|自驾|骑车|自行车|单车|走路|步行|打车|滴滴|电动车"),
        about=re.compile(r"上班|通勤|上学|去公司|(?i:\bcommut|\bto\s+(?:work|the\s+office|school|campus)\b)"),
    ),
    "seat": Kind(
        _names("window seat|window|aisle seat|aisle|middle seat|靠窗|靠过道|靠走道|过道"),
        about=re.compile(r"座|位|(?i:\bseats?\b)"),
    ),
    "input method": Kind(_names(
        "拼音|全拼|双拼|五笔|手写输入|语音输入|搜狗输入法|百度输入法|微信输入法|讯飞输入法|gboard|swiftkey|"
        "pinyin|wubi")),
    "carrier": Kind(
        _names("移动|联通|电信|广电|verizon|t-mobile|at&t|sprint|mint mobile|visible|cricket|vodafone|o2|"
               "three|giffgaff|ee"),
        about=re.compile(r"号|卡|套餐|手机|(?i:\b(?:phone|plan|carrier|sim|network|cell)\b)"),
    ),
    "cuisine": Kind(
        _names("川菜|粤菜|湘菜|鲁菜|苏菜|浙菜|闽菜|徽菜|东北菜|西北菜|本帮菜|日料|日本料理|韩餐|韩料|西餐|泰国菜|"
               "泰餐|意大利菜|法餐|越南菜|印度菜|thai|indian|italian|mexican|japanese|korean|chinese|french|"
               "vietnamese|greek|mediterranean|sichuan|cantonese"),
        about=re.compile(r"菜|餐|料理|(?i:\b(?:food|cuisine|dishes|restaurants?)\b)"),
    ),
    "doneness": Kind(
        _names("rare|medium rare|medium|medium well|well done|全熟|七分熟|五分熟|三分熟|八分熟"),
        about=re.compile(r"牛排|(?i:\bsteaks?\b)"),
    ),
}
# fmt: on
# the words of a switch: the new choice replaces the one before…
_SWITCH = re.compile(
    r"改(?:成|为|用|坐|喝|吃|在|去|买|骑|开|看|听|踢|打|玩|练|学|跑|做|走|住|穿)|换(?:成|了|到|用)|转(?:用|投)|用回"
    r"|搬到|转到|迁到"
    r"|(?i:\bswitch(?:ed|ing|es)?\b|\bchang(?:e|ed|ing)\s+to\b|\bmoved\s+(?:[\w']+\s+){0,4}?(?:over\s+)?to\b"
    r"|\b(?:went|gone|going)\s+back\s+to\b|\bconverted\s+to\b|\binstead\b|\breplaced\b)"
)
# …or only that it holds now, which is a switch for a kind that needs no context to be one
_NOW = re.compile(
    r"(?:现在|最近)[^，。,.!！？?；;]{0,4}?(?:都|只|改|一般|基本|主要|更)|如今都?|开始|买了|入手了?"
    # 现在 right before what the user does: "现在喝美式" (not 现在在…, this moment)
    r"|现在(?=喝|吃|用|坐|开|骑|听|看|玩|去|买|住|走|步行|打车|搭)"
    r"|(?i:\b(?:got|bought)\s+(?:a|an|my|myself\s+a)\s+(?:new\s+)?(?=\w)"
    r"|(?<!right\s)(?<!just\s)(?<!for\s)(?<!by\s)(?<!until\s)\bnow\b|\bthese\s+days\b|\bnowadays\b|\blately\b"
    r"|\bstart(?:ed|ing)\b|\bbegun\b|\bany\s*more\b)"
)
# what says the new choice is the only one: "现在只喝无糖的了", "these days I only read paper books"
_ONLY = re.compile(r"只|(?i:\bonly\b)")
# what says, without a kind, that how things are now replaced how they were: not a bare "now" or
# "started" ("Now I'm passionate about…", "I started caring more about…" are no switch)
_CHANGED = re.compile(
    # (只 of a choice, not of what must be done this once: "今天体育课只能在室内上了", 只好, 只是)
    r"(?:现在|最近)[^，。,.!！？?；;]{0,4}?(?:都|只|改|一般|基本|主要)|如今都|只(?![能好得是])|"
    + _SWITCH.pattern
    + r"|(?i:\bthese\s+days\b|\bnowadays\b|\bany\s*more\b|\bonly\b"
    + r"|\bnow(?=\s*(?:[,.!?;]|$|instead\b|because\b)))"
)
# how many of the user's likes and habits one change replaces at most
_ONE_THING = 2
# how close in e5 a change and what it replaces are at least
_CLOSE = 0.855
# "for a while now", "for years now": how long, not a change
_DURATION = re.compile(
    r"(?i)\bfor\s+(?:a\s+(?:while|bit|long\s+time)|(?:\w+\s+)?(?:years|months|weeks|days|ages)|some\s+time)"
    r"\s+now\b|\b(?:by|until|till|up\s+to|from)\s+now\b"
)
_KIN_EN = "|".join(sorted(RELATIONS, key=len, reverse=True))
# …unless it is one more beside the old ("I use Firefox too", 也用支付宝); the "too" of "as well" ends
# its clause, the "too" of "too pricey" does not ("switched to Aldi, Tesco got way too pricey")
_ALONGSIDE = re.compile(
    r"也|(?i:\btoo\b(?=(?:\s+(?:now|these\s+days|lately|nowadays))?\s*(?:[,.!?;)]|$))|\balso\b|\bas\s+well\b"
    r"|\bsometimes\b)"
)
# …or a choice made for someone else ("bought my mom an iPhone", 给我妈买了个iPhone, "got one for him")
_FOR_OTHERS = re.compile(
    rf"给(?:我|咱)?(?:{REL}|他|她|朋友|同事)"
    rf"|(?i:\b(?:for|bought|got|gave|gifted)\s+(?:my|our|his|her)\s+(?:\w+\s+)?(?:{_KIN_EN})s?\b"
    r"|\bfor\s+(?:him|her|them)\b)"
)
# what says a user's own choice; and what a switch may retire
_CHOOSES = (
    Category.PREFERENCE,
    Category.ROUTINE,
    Category.FACT,
    Category.EVENT,
    Category.STYLE,
    Category.COMPLAINT,  # "moved my notes over to Obsidian, Notion was too slow"
)
_RETIRABLE = (Category.PREFERENCE, Category.ROUTINE, Category.FACT, Category.STYLE)
# "instead", and no other word of a change, names the new choice of a change the user has just told
# ("we're quitting the market this season, doing a veg box subscription instead"; "i quit the review
# center", then "doing a VA course online on weekends instead"): that change retired what it replaces
_JUST_TOLD = timedelta(minutes=30)


def _found(kind: Kind, text: str) -> set[str]:
    return {re.sub(r"[\s'-]", "", m.group(0).lower()) for m in kind.names.finditer(text)}


def switched_to(text: str) -> dict[str, set[str]]:
    """The kinds ``text`` says the user switched within, each with the names it gives."""
    if _ALONGSIDE.search(text):
        return {}
    switch, now = _SWITCH.search(text) is not None, _NOW.search(text) is not None
    # the new choice is what the clause that says the change names ("拿铁喝多了胃不舒服，现在喝美式": 美式)
    changing = _changing(text)
    return {
        name: found
        for name, kind in KINDS.items()
        if (switch or (now and (kind.about is None or kind.about.search(text))))
        and (found := _found(kind, changing) or _found(kind, text))
    }


def rivals(pool: Pool, item: MemoryItem) -> list[MemoryItem]:
    """The user's current memories of the choices ``item`` (a switch) says they left: another of a
    kind it names, or another way of doing what it is about (:meth:`_Change.replaces`)."""
    if (
        item.category not in _CHOOSES
        or item.polarity < 0
        or _ALONGSIDE.search(item.text)
        or _FOR_OTHERS.search(item.text)
    ):
        return []
    switched = switched_to(item.text)
    # the words of a change it says ("instead" alone names the new choice of a change just told)
    words = {m.group(0).lower() for m in _CHANGED.finditer(_DURATION.sub("", item.text))}
    if not switched and not words:
        return []
    if not switched and words == {"instead"} and _after_a_change(pool, item):
        return []
    held = [
        m
        for m in pool.query(MemoryQuery(categories=tuple(c.value for c in _RETIRABLE)))
        if m.id != item.id and m.polarity > 0 and m.category in _RETIRABLE
    ]
    if switched:
        return [m for m in held if _another_of_a_kind(switched, m)]
    # a word many of the user's likes and habits say is a theme of theirs, not one choice
    said = Counter(w for m in held for w in terms(m.text))
    themes = {w for w, n in said.items() if n > _ONE_THING}
    change = _Change.of(item.text)
    replaced = [m for m in held if change.replaces(m.text, themes)]
    if not replaced or len(replaced) > _ONE_THING or item.embedding is None:
        return []  # …and so is what many memories share
    # and what the words tie together must be close in meaning too ("I feel like a different person
    # now" shares a word with "trying out different flavors", 0.85 apart in e5; a change of the same
    # habit sits 0.86-0.95 from it)
    kinds = {m.kind for m in replaced}
    close = {near.id for kind in kinds for s, near in pool.near(item.embedding, kind) if s >= _CLOSE}
    return [m for m in replaced if m.id in close]


def _after_a_change(pool: Pool, item: MemoryItem) -> bool:
    """Whether ``item`` is said right after a change of this conversation retired something
    (:data:`_JUST_TOLD`)."""
    if item.session_id is None or item.created_at is None:
        return False
    since = item.created_at - _JUST_TOLD
    told = pool.query(MemoryQuery(session_id=item.session_id, limit=8))
    return any(
        m.supersedes is not None and m.id != item.id and m.created_at is not None and m.created_at >= since
        for m in told
    )


def _another_of_a_kind(switched: dict[str, set[str]], m: MemoryItem) -> bool:
    for name, new in switched.items():
        kind = KINDS[name]
        old = _found(kind, m.text)
        if old and not old & new and (kind.about is None or kind.about.search(m.text)):
            return True
    return False


@dataclass(frozen=True)
class _Change:
    """A statement of how things are now, read once for every memory it may replace."""

    text: str
    named: frozenset[str]  # its words of what
    changed: frozenset[str]  # …those of the clause that says what changed
    words: frozenset[str]  # all its words, for the verbs and times it shares

    @classmethod
    def of(cls, text: str) -> _Change:
        return cls(text, frozenset(terms(text)), frozenset(terms(_changing(text))), _words(text))

    def replaces(self, old: str, themes: set[str]) -> bool:
        """Whether this change is about what ``old`` is about and says something else of it: they
        share a word of what that is no theme of the user's (tea, window, takeout), or a time and a
        verb (早上…喝: what the user drinks in the morning), or a time the change says it changed
        (现在周末改踢足球了), or a verb of which it says there is only one now (只喝, only read); and
        the clause that says so and ``old`` each name something the other does not ("I fly Delta
        now" restates "I usually fly Delta"; "switched from duolingo to wanikani" leaves "I use
        wanikani and duolingo for grammar"; "I go to a climbing gym now, home workouts got boring"
        retires "I do my workouts at home")."""
        theirs = terms(old)
        if self.changed & theirs and self.moved_in_time(old):
            return True  # the same thing at another time of day or week: "switched to evening runs"
        if not theirs - self.changed or not self.changed - theirs:
            return False  # one says all the other does: the same choice
        if (self.named & theirs) - themes:
            return True
        both = self.words & _words(old)
        verbs, when = _shared(HOW, self.text, old, both), _shared(WHEN, self.text, old, both)
        if when and (verbs or _SWITCH.search(self.text)):
            return True
        return bool(verbs and _ONLY.search(self.text))

    def moved_in_time(self, old: str) -> bool:
        """Whether the clause that says the change names a time of day or week, and ``old`` another
        one only ("I run every morning before work", then "I switched to evening runs")."""
        new_times = _times(_changing(self.text))
        old_times = _times(old)
        return bool(new_times and old_times and not new_times & old_times)


def _times(text: str) -> set[str]:
    """The times of day or week ``text`` names (not "every" or "daily": how often, not when)."""
    said = {w for w in _words(text) if w in WHEN} - {"everi", "daili"}
    return said | {w for w in WHEN if CJK.search(w) and w in text and w != "每天"}


_CLAUSES = re.compile(r"[，,。.!！？?；;]\s*")


def _changing(text: str) -> str:
    """The clause of ``text`` that says what changed (the whole text when none does)."""
    return next(
        (c for c in _CLAUSES.split(text) if _SWITCH.search(c) or _NOW.search(c) or _ONLY.search(c)), text
    )


def _words(text: str) -> frozenset[str]:
    return frozenset(content_words(text) | set(text.lower().split()))


def _shared(words: frozenset[str], a: str, b: str, both: frozenset[str]) -> set[str]:
    """Which of ``words`` both texts say: a Chinese one anywhere (segmentation joins 喝咖啡), another as
    one of the words ``both`` say."""
    return {w for w in words if CJK.search(w) and w in a and w in b} | (words & both)
