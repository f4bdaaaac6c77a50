"""What words say the user has left behind: the thing a change of mind no longer holds.

"不考上财了，改考本校", "switched from duolingo to wanikani", "sold all my canon gear", "咖啡我戒了",
"we moved out of the parish hall", "I've gone off oat milk", "haven't hiked in months", "Mochi passed
away last week": each names what no longer holds. :func:`left_behind` finds those words,
:func:`left_job` a job left; the write path retires the memories that hold them
(:mod:`memlane.write.changes`), and a clause that goes on to say what replaced them is one statement
with them (:mod:`memlane.write.extract.joins`).
:func:`change_said` names the change of state a clause's words say (换成, 不再, 开始, "got pushed to").

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
>>> left_behind("经过这次我决定了，以后不用Premiere了，全面转达芬奇")
['Premiere']
>>> left_behind("I returned the Brandvold to the shop and bought a classical guitar")
['Brandvold']
>>> left_behind("sold the ui24r on kleinanzeigen, got a cq-20b instead")
['ui24r']
>>> left_behind("bigger news, i'm off nights! got moved onto the day roster")
['nights']
>>> left_behind("I'm off to Leeds tomorrow"), left_behind("i'm off work today")
([], [])
>>> left_behind("我喜欢喝美式")
[]
"""

from __future__ import annotations

import re

from memlane.text.keywords import content_words
from memlane.text.kin import EN_RELATIONS, ZH_RELATIONS

from .builds_en import PETS as EN_PETS
from .events_en import MOVED
from .events_zh import MOVED as MOVED_ZH
from .family_zh import PETS as ZH_PETS
from .lexicon import STOP_VERB, STOPPED_ZH
from .rule import CHAT_STOP

CJK = re.compile(r"[\u4e00-\u9fff]")

_ZH = [
    re.compile(r"从(?P<old>[^，。,.!！？?；;]{1,12}?)(?:改成|换成|改为|换到|搬到|转到|改到|到)"),
    re.compile(r"(?:不再|再也不)(?P<old>[^，。,.!！？?；;了]{1,12})"),
    re.compile(r"不(?!好意思|客气|错|行|用|对|过|少|多|久|然|如)(?P<old>[^，。,.!！？?；;不了]{2,12})了"),
    re.compile(
        r"(?P<old>[^，。,.!！？?；;我]{1,8}?)(?:我)?(?:戒了|戒掉了|戒掉|不要了|卖了|卖掉了|卸载了|删了|退坑了|放弃了"
        r"|退订了|注销了|停掉了|到期没续|没再?续(?:费)?了?|不续了)"
    ),
    re.compile(
        r"(?:戒了|戒掉了?|卖掉了?|辞掉了?|退掉了?|放弃了?|注销了?|卸载了?|删掉了?|退订了?|搬出了?|搬离了?)"
        r"(?P<old>[^，。,.!！？?；;了]{1,12})"
    ),
    # given away: "狗狗送给我爸妈养了", "旧相机送人了"
    re.compile(
        r"(?P<old>[^，。,.!！？?；;我们的那这家个]{1,8}?)(?:送人了|送给[^，。,.!！？?；;]{1,8}?(?:养|用|开|骑)?了)"
    ),
    # a group the user was part of came to an end: "乐队解散了", "常去的健身房倒闭了"
    re.compile(
        r"(?P<old>[^，。,.!！？?；;我们的那这家个]{0,6}?(?:乐队|球队|社团|俱乐部|读书会|工作室|健身房|培训班|兴趣班|合唱团))"
        r"(?:也|已经|突然)?(?:解散|倒闭|关门|散伙|停办|黄)了"
    ),
    # left unused so long it gathers dust: "尤克里里吃灰好久了", "饭盒都落灰了"; a serial the user followed
    # stopped: "那部漫画停更了"
    re.compile(
        r"(?P<old>[^，。,.!！？?；;\s我们的那这家个都]{1,8}?)(?<![上边])(?:都|早就|已经|也)?(?:吃灰|落灰)"
        r"(?:了|好久了|很久了|好几个月了|半年了|一年了)"
    ),
    re.compile(
        r"(?P<old>[^，。,.!！？?；;\s我们的那这家个部]{1,8}?)(?:作者)?(?:宣布)?(?:无限期)?(?:停更|断更)了"
    ),
    # "最近看不了恐怖片了", "吃不了辣了": no longer able to
    re.compile(rf"{STOP_VERB}不(?:了|动|下去)(?P<old>[^，。,.!！？?；;了]{{1,10}})了"),
    re.compile(r"(?:离开了?|辞了|退了)(?P<old>[^，。,.!！？?；;了]{2,12})"),
    # "以后不用Premiere了", "现在不用再上夜班了": no longer needed from now on (a bare "不用…了" is "no need")
    re.compile(r"(?:以后|今后|再也|现在|已经)(?:都|就)?不用再?(?P<old>[^，。,.!！？?；;不了]{2,12})了"),
    # …said bare of how the user works ("调到门诊了，不用上夜班了", "现在长白班 不用倒班了")
    re.compile(r"不用再?(?P<old>上?(?:夜班|早班|晚班|倒班|加班|值班|轮班|坐班|通勤|打卡|出差|早起))了"),
    *STOPPED_ZH,
]
# a being the user had died: "大胖上个月走了", "我家狗狗去世了", "Mochi passed away last week", "we had to
# put Biscuit down" (not "累死了", "公交车刚走了", "my phone died": 走了 only after when it was, 死了 and
# "died" only of a pet, a relative or a name)
_BEINGS_ZH = "|".join(sorted({*ZH_PETS, *ZH_RELATIONS}, key=len, reverse=True))
_BEINGS_EN = "|".join(sorted({*EN_PETS, *EN_RELATIONS}, key=len, reverse=True))
_WHEN_ZH = r"(?:上个?月|上周|上礼拜|去年|前年|昨天|前天|前几天|年初|年前|那天)"
_DIED = [
    re.compile(
        r"(?P<old>[^，。,.!！？?；;\s我你他她它们的那这家个都也]{2,8}?)(?:" + _WHEN_ZH + r"(?:就)?走了"
        r"|(?:已经|刚刚?|突然)?" + _WHEN_ZH + r"?(?:去世|过世|病逝|离世|去了?喵星|去了?汪星|当了?小天使)了)"
    ),
    re.compile(rf"(?P<old>{_BEINGS_ZH})(?:已经|刚刚?|突然)?{_WHEN_ZH}?(?:死了|没了)"),
    re.compile(
        r"\b(?P<old>(?!(?:Phone|Battery|Laptop|Car|Computer|Engine|Printer|Router|Fridge|Tv|Kindle)\b)[A-Z][a-z]+"
        rf"|(?i:{_BEINGS_EN}))\s+(?:has\s+|just\s+|sadly\s+|finally\s+)*"
        r"(?:died|passed(?:\s+away|\s+on)?|crossed\s+the\s+rainbow\s+bridge|was\s+put\s+(?:down|to\s+sleep))\b"
    ),
    re.compile(
        r"\bhad\s+to\s+put\s+(?:my\s+|our\s+)?(?P<old>[\w'-]{2,20})\s+(?:down|to\s+sleep)\b", re.IGNORECASE
    ),
]
# what the user used to do, said with what they do now: "以前开车上班，现在改骑车了", "I used to drive to
# work, now I cycle" (said alone, "以前" and "used to" only date a story: 我以前跟你说过…)
USED_TO = re.compile(
    r"^[\u4e00-\u9fff]{0,4}?(?:以前|之前|原来|过去|从前|本来)(?!.{0,6}(?:说|提|讲|告诉|聊))(?:我|我们)?(?:都|是|一直|总是?|老|经常|常)?"
    r"|(?i:^(?:i\s+|we\s+)?used\s+to\b)"
)
_THEN_NOW = re.compile(
    r"(?P<old>[^，。,.!！？?；;]{2,16})[，,]\s*(?:但是?|不过|可|而)?(?:我|我们)?(?:现在|如今|目前)"
    r"|(?i:used\s+to\s+(?P<en>[\w' -]{2,30}?)\s*(?:[,;]|\bbut\b|\band\b)\s*(?:but\s+|and\s+)?"
    r"(?:now|these\s+days|nowadays))"
)
# "haven't hiked in months": not done for so long that it is no longer done, unless the user misses
# it ("haven't had sushi in ages, craving it so bad")
_NOT_LATELY = re.compile(
    r"\b(?:haven't|have\s+not|hasn't|haven't\s+really)\s+"
    # a thing, not a person or "one" ("I haven't talked to you in a while" leaves nothing)
    r"(?P<old>(?:(?!\b(?:you|him|her|them|it|one|that|this|those|these|us)\b)[\w' -]){3,30}?)\s+(?:in|for)\s+"
    r"(?:months|ages|years|a\s+(?:long\s+time|year))\b",
    re.IGNORECASE,
)
_LONGING = re.compile(
    r"\b(?:miss(?:ing)?|crav(?:e|ing)|want|wanna|dying\s+(?:for|to)|can't\s+wait|need)\b|想|馋|怀念",
    re.IGNORECASE,
)
_EN = [
    re.compile(
        r"\b(?:switched|moved|changed|went|transferred|converted)\s+(?:over\s+)?from\s+"
        r"(?P<old>[\w' -]{2,40}?)\s+(?:to|for|over\s+to)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:quit|stopped|(?:gave|given|giving)\s+up(?:\s+on)?|dropped|ditched|sold(?:\s+off)?(?:\s+all)?|"
        r"left|uninstalled|cancel+ed|got\s+rid\s+of|(?:gave|given)\s+away|donated|traded\s+in|returned(?!\s+(?:from|to|home|back|it)\b)|(?:i'?m|i\s+am)\s+done\s+(?:with|\w+ing)|"
        r"i(?:'ve|\s+have)?\s+(?:gone|went)\s+off(?:\s+of)?|(?:had|decided|have\s+decided|chose)\s+to\s+stop|cut\s+out|"
        # what put the user off it: "my dentist scared me off coffee", "that trip put me off camping"
        r"(?:scared|put|turned)\s+me\s+off(?:\s+of)?|"
        # a decision in effect, said as what the user is doing: "we're quitting the market this season"
        r"(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:finally\s+|officially\s+|just\s+)?(?:quitting|ditching|dropping(?![^,.!?;]*\boff\b)(?!\s+(?:by|in|round|over)\b))|"
        r"rehomed?|resigned\s+from|threw\s+(?:away|out(?!\s+my\s+(?:back|neck|shoulder|knee|hip)))|binned|unsubscribed\s+from|moved\s+out\s+of|deleted|closed|"
        r"(?:i'?m|i\s+am)\s+(?:so\s+|totally\s+|completely\s+|kinda\s+)?over(?!\s+(?:the\s+moon|\d|(?:it|this|that)\b))|"
        # "i'm off nights", "I'm off sugar": no longer on it ("I'm off to Leeds", "off work today" are trips)
        r"(?:i'?m|i\s+am)\s+(?:now\s+)?off(?!\s+(?:to|for|on|at|in|from|till|until|work|sick|duty|today|tonight|"
        r"tomorrow|now|home|out|next|this|the|my|a|an|and|so|but|\d)\b)|"
        r"(?:^took|\bi(?:'ve|\s+have|'m|\s+am)?\s+(?:took|taking|taken))\s+a\s+break\s+from|"
        r"no\s+longer\s+(?:use|drink|eat|play|do|go\s+to|work\s+at|buy\s+from))\s+"
        r"(?:my\s+|the\s+|using\s+|drinking\s+|eating\s+|playing\s+|doing\s+|going\s+to\s+)*"
        r"(?P<old>[\w' -]{2,30}?)"
        r"(?=\s*(?:[,.!?;]|$|\b(?:and|for|to|because|so|after|but|last|this|today|yesterday|recently|ago|on|in|at"
        r"|via|entirely|completely|altogether)\b))",
        re.IGNORECASE,
    ),
    # "no more contacts", "no more late night snacks for me" (not "no more questions": nothing held)
    re.compile(
        r"(?:^|[,;]\s*)no\s+more\s+(?!questions|problems|worries|excuses|drama|waiting|talk|than\b|of\b|from\b)"
        r"(?P<old>[\w' -]{2,30}?)(?=\s*(?:[,.!?;]|$|\bfor\s+me\b))",
        re.IGNORECASE,
    ),
    re.compile(r"\binstead\s+of\s+(?P<old>[\w' -]{2,30}?)(?=\s*(?:[,.!?;]|$))", re.IGNORECASE),
    # "Indian has replaced Thai as my go-to"
    re.compile(
        r"\breplaced\s+(?P<old>[\w' -]{2,30}?)(?=\s*(?:[,.!?;]|$|\b(?:as|for|in|at|on)\b))", re.IGNORECASE
    ),
    # "crossfit wasn't for me", "so pilates isn't doing it for me anymore", "yoga just isn't my thing"
    re.compile(
        r"^(?:(?:so|well|honestly|tbh|turns\s+out|yeah|ok|okay|but)\b[\s,]*)*(?P<old>[\w' -]{2,30}?)"
        r"(?:'s|\s+is|\s+was)?\s+(?:just\s+|really\s+)?(?:not|n't|isn't|wasn't)\s+(?:really\s+)?"
        r"(?:for\s+me|my\s+thing|doing\s+it\s+for\s+me)\b",
        re.IGNORECASE,
    ),
    # a group the user was part of came to an end: "the band split up", "our book club folded"
    re.compile(
        r"\b(?:the|my|our)\s+(?P<old>(?:[\w'-]+\s+){0,2}?(?:band|team|club|choir|orchestra|league|crew|startup"
        r"|company|shop|studio|gym|class|course|podcast|group))\s+(?:has\s+|have\s+|finally\s+|just\s+)*"
        r"(?:split\s+up|broke\s+up|disbanded|folded|shut\s+down|closed(?:\s+down)?|went\s+(?:bust|under)"
        r"|called\s+it\s+quits)\b",
        re.IGNORECASE,
    ),
    # a farewell to it, or it thrown out: "goodbye laundromat", "threw my vape in the bin", "knocked
    # hellofresh on the head", "wednesday basketball is dead for me", "friday beers kinda fizzled out"
    *(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            r"(?:^|[,.!?;]\s*)(?:goodbye|bye\s+bye|so\s+long|farewell(?:\s+to)?)\s+"
            r"(?!(?:everyone|everybody|all|guys|y'all|folks|for\s+now)\b)(?P<old>[\w' -]{2,30}?)"
            r"(?=\s*(?:[,.!?;]|$))",
            r"\bthrew\s+(?:my|the)\s+(?P<old>[\w' -]{2,30}?)\s+(?:in|into)\s+the\s+(?:bin|trash|garbage)\b",
            r"\bknocked\s+(?P<old>[\w' -]{2,30}?)\s+on\s+the\s+head\b",
            r"^(?P<old>[\w' -]{2,30}?)\s+(?:is|'s)\s+(?:dead|over|done)\s+for\s+me\b",
            r"^(?P<old>[\w' -]{2,30}?)\s+(?:kinda\s+|kind\s+of\s+|sort\s+of\s+)?"
            r"(?:fizzled|petered)\s+out\b",
        )
    ),
    # "my running days are over", "my partying days are behind me"
    re.compile(r"\bmy\s+(?P<old>[\w'-]{2,20}ing)\s+days\s+are\s+(?:over|done|behind\s+me)\b", re.IGNORECASE),
    re.compile(
        r"\b(?:not|don't|do\s+not|no|can't|cannot|won't|doesn't|never)\s+(?:\w+\s+){0,2}?"
        r"(?P<old>[\w'-]{3,20})\s+any\s*more\b",
        re.IGNORECASE,
    ),
]
# words that say how, not what: a left-behind thing is named by its other words
HOW = frozenset(
    "考 喝 吃 用 去 做 买 玩 住 跑 学 打 想 要 在 再 了 all my the a an gear stuff using use drink eat "
    "play go work job it that this thing things last month week year ago "
    # English verbs of how, as content_words stems them: "switched to learning Japanese" names Japanese
    "learn read watch listen take get have buy order cook make wear switch start begin give now day instead "
    "lately recently 以后 今后 往后 之后 从此 这种 那种 东西 这个 那个".split()
)
# …and words of when: "weekends are all about climbing, haven't hiked in months" retires weekend hikes
WHEN = frozenset(
    "weekend weekday morn evening night afternoon daili everi monday tuesday wednesday thursday friday "
    "saturday sunday 周末 平时 每天 早上 晚上 中午 下午 工作日 周一 周二 周三 周四 周五 周六 周日".split()
)


def left_behind(text: str) -> list[str]:
    """The phrases ``text`` says the user no longer has, does or wants (none for a plain statement)."""
    return list(leaving(text))


def leaving(text: str) -> dict[str, str]:
    """Each phrase left behind, with the words that say so ("I'm done flying Delta": Delta, and
    "I'm done flying Delta", whose verb names no new choice). A statement of several clauses
    ("跑步停了，现在改游泳") leaves what each of them leaves: some patterns read a whole clause."""
    found: dict[str, str] = {}
    then = _THEN_NOW.search(text) if USED_TO.match(text) else None
    if then is not None:
        phrase = USED_TO.sub("", (then.group("old") or then.group("en") or "").strip(" ,，'"))
        if phrase and _named(phrase):
            found[phrase] = then.group(0)
    parts = [text, *(p for p in _PARTS.split(text) if p.strip() and p != text)]
    patterns = [*_ZH, *_EN, *_DIED] + ([] if _LONGING.search(text) else [_NOT_LATELY])
    for part in (p.strip() for p in parts):
        for pattern in patterns:
            for m in pattern.finditer(part):
                phrase = _said_by_it(m)
                if _DENIED.search(part[: m.start()]) or _ALMOST.search(part[: m.end()]):
                    continue  # "I won't quit on my dreams", "never gave up coffee"
                if phrase and phrase not in found and _named(phrase):
                    found[phrase] = m.group(0)
    return found


def _said_by_it(m: re.Match[str]) -> str:
    """The phrase a match of leaving names, on its side of chat's stop: the last part of what comes
    before the words of leaving ("周末好忙 健身卡到期没续": 健身卡), the first of what follows them, and
    nothing when what follows starts after the stop ("Costco卡我退了 全额退款" left no 全额退款)."""
    group = "old" if m.groupdict().get("old") else "obj"
    raw = m.group(group)
    if m.end(group) < m.end():  # said before the words of leaving
        return CHAT_STOP.split(raw)[-1].strip(" ,，'")
    if raw[:1].isspace() and CJK.match(m.string, max(0, m.start(group) - 1)):
        return ""
    return CHAT_STOP.split(raw)[0].strip(" ,，'")


# a leaving denied or not done: what comes right before the words of leaving
_DENIED = re.compile(
    r"(?i:\b(?:won'?t|will\s+not|wouldn'?t|don'?t|do\s+not|didn'?t|did\s+not|never|not|can'?t|cannot"
    r"|couldn'?t|shouldn'?t|refuse\s+to|going\s+to|gonna|want\s+to|might|thinking\s+(?:of|about))"
    r"\s+(?:\w+\s+)?$)"
    r"|(?:没有?|不会|不想|不打算|想|打算|准备|不能|不要|别)$"
)
# …or only nearly done: "差点放弃了跑步", "I almost quit coffee"
_ALMOST = re.compile(r"差点|差一点|险些|(?i:\balmost\b|\bnearly\b)")
_PARTS = re.compile(r"[，,。！？!?；;]\s*")


def _named(phrase: str) -> bool:
    return bool(terms(phrase))


def terms(phrase: str) -> set[str]:
    said = {w for w in content_words(phrase) if w not in HOW}
    # a time is what is left only when it is all that is named ("i'm off nights": the night shifts)
    words = (said - WHEN) or said
    # one character names nothing, unless it is all the phrase says in Chinese ("猫送人了": 猫)
    return {w for w in words if len(w) > 1 or (CJK.search(w) and phrase.strip() == w)}


# leaving a job: what the user said about the job they had (employer, role there) no longer holds
_LEFT_JOB = re.compile(
    r"(?<![没不])(?:离职|辞职|裸辞|辞了工作|辞掉了?工作|被裁|被优化|被辞退|被开除|被炒了?鱿鱼"
    r"|(?:工作|兼职|(?:这|那)份工)(?:我)?(?:辞了|辞掉了|不干了|不做了)"
    r"|交了?辞职信|(?:昨天|今天|上周五?)是?(?:我)?最后一天上班)"
    r"|(?i:\b(?:quit|left)\s+my\s+job\b|\bresigned\b|\b(?:got|was|been)\s+(?:laid\s+off|fired|let\s+go|sacked)\b"
    r"|\b(?:handed\s+in|put\s+in|gave|gave\s+in)\s+my\s+notice\b"
    r"|\b(?:my\s+)?last\s+(?:day|shift)\s+(?:at|of)\s+(?:work|my\s+job|the\s+\w+)\s+(?:was|is\s+over)\b)"
)
# …said as done, not as a thought, a plan or a denial ("I'm not going to quit my job", 想离职)
_NOT_DONE = re.compile(
    r"(?:不|没|想|打算|准备|考虑|要不要|如果|可能|会不会|怕|担心|差点|差一点|万一)[^，。,.!！?？]{0,4}"
    r"(?:离职|辞职|裸辞|被辞退|被开除|被裁|被优化|被炒)"
    r"|(?i:\b(?:not|never|won'?t|going\s+to|gonna|will|want\s+to|thinking|might|maybe|if|should|scared|afraid"
    r"|worried|almost|nearly)\b|n't\b)"
)


# where the job left was: "gave my notice at pine hollow", "quit my job at the bakery", "我从腾讯离职了"
_WORKPLACE = re.compile(
    r"(?i:\b(?:notice|job|position|shift|day|resigned|fired|laid\s+off|let\s+go)\s+(?:at|from|with)\s+(?:the\s+)?"
    r"(?P<en>[\w'&-]+(?:\s+[\w'&-]+){0,3}?)(?=\s*(?:[,.!?;]|$|\b(?:and|after|because|so|last|this|today"
    r"|yesterday|for|to|was|is|on)\b)))"
    r"|从(?P<zh>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:离职|辞职)"
)


def left_workplace(said: str) -> str | None:
    """Where the job was that ``said`` (the clause :func:`left_job` found) says the user left, when it
    names it: "pine hollow" of "i gave my notice at pine hollow" (what was said of working there goes
    with the job)."""
    found = _WORKPLACE.search(said)
    return (found.group("en") or found.group("zh")) if found is not None else None


def left_job(text: str) -> str | None:
    """The clause of ``text`` that says the user left their job, as done (not 想离职, not "I won't
    quit my job"): "我从腾讯离职了" of "我从腾讯离职了，现在在字节"; None when none says so."""
    for part in _PARTS.split(text):
        if _LEFT_JOB.search(part) is not None and not _NOT_DONE.search(part):
            return part
    return None


_CHANGES = (
    (
        "replace",
        re.compile(
            r"改成|换成|改喝|改吃|改用|改(?=[走坐搭骑开去买点订学练跑])|换了|改为|转而|改到|改期|推迟|延期|延后|挪到"
            r"|(?i:\bswitched\s+to\b|\bchanged\s+to\b|\binstead\b|\brebooked\b|\brescheduled\b|\bpostponed\b)"
            rf"|(?i:{MOVED.removeprefix('(?i)')})|{MOVED_ZH}"
        ),
    ),
    (
        "stop",
        re.compile(
            r"不再|再也不|不\S{0,2}了$|戒了|戒掉|(?i:\bno\s+longer\b|\bnot\s+any\s*more\b|\bquit\b|\bstopped\b)"
        ),
    ),
    (
        "start",
        re.compile(r"开始|现在|如今|最近|(?i:\bstarted\b|\bbegan\b|\bnow\b|\bthese\s+days\b|\bnowadays\b)"),
    ),
)


def change_said(text: str) -> str | None:
    """The change of state a clause's words say, if any: replace (换成), stop (不再), start (开始)."""
    return next((name for name, pattern in _CHANGES if pattern.search(text)), None)
