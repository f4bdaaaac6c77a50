"""What the user takes back: "别记这个", "忘掉我住哪", "把我刚才吐槽老板那段删了", "forget what I said
about hiking", "the home address i gave earlier, wipe it pls", "我说我讨厌猫那个是开玩笑的".

:func:`withdrawal` reads a whole clause said to the assistant. What it takes back is named by its
:attr:`Withdrawal.topic` ("我住哪", "hiking", "地址"), or is what the user just said (None: "别记这个",
"scratch that last bit", "刚才那句当我没说"). Three shapes say it: the fixed phrases of
:data:`lexicon.FORGET`; a verb of forgetting and what to forget (:func:`topic`); and what was said
("刚才说的…", "那段关于…", "the bit about…", "the X I gave you") followed by what undoes it: a deletion,
"作废", "当我没说", "是口误", "是开玩笑的", "was wrong", "off the record". "我忘了带钥匙", "I forgot my
password", "don't forget my birthday", "删掉这个文件" and "the forecast was wrong" are no such thing.

A withdrawal that only says what was said was wrong (:attr:`Withdrawal.corrects`) names what it was
about even when it was said just now, and where the same message says what is right ("刚才说我在上海
是错的，我在苏州") the right value stands (:func:`corrected`). :func:`part` names the parts of the
profile a topic can mean (住址, "my email"), for :mod:`memlane.write.forget_about`.

>>> topic("把我的地址删了吧"), topic("forget what I said about hiking"), topic("我忘了带钥匙")
('地址', 'hiking', None)
>>> withdrawal("前面说我在美的上班是瞎编的"), withdrawal("刚才那句当我没说")
(Withdrawal(topic='我在美的上班', corrects=True), Withdrawal(topic=None, corrects=False))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memlane.domain import Candidate, Category
from memlane.text.lang import fold, has_cjk, normalize

from .clauses import Clause
from .lexicon import FORGET

_ZH_ASK = r"^(?:(?:那|那就|以后|还有|另外|对了)[，,\s]*)?(?:请|麻烦)?(?:你)?(?:帮我)?"
_ZH_TOPIC = r"(?P<topic>(?:我|关于|有关)[^，。！？!?,.;；]{1,24}?)"
_ZH_WHAT = r"(?:的事情?|这件事|那件事|的内容|的信息|的记忆|的那些|相关的)?"
_ZH_END = r"(?:吧|了|哈|哦|啊|好吗|可以吗)*$"
_FORGET_ZH = r"(?:忘掉|忘了|忘记|删掉|删了|删除|清除|清掉|抹掉)"
_ZH = (
    # 忘掉我住哪 / 删除我的手机号 / 忘了我说过的关于前任的事吧
    re.compile(_ZH_ASK + _FORGET_ZH + r"(?:吧)?" + _ZH_TOPIC + _ZH_WHAT + _ZH_END),
    # 把我的地址删了吧 / 把我生日忘了吧
    re.compile(_ZH_ASK + "把" + _ZH_TOPIC + _ZH_WHAT + "(?:给)?" + _FORGET_ZH + _ZH_END),
    # 别记我喜欢喝美式了 / 以后不要再记着我在哪上班了
    re.compile(
        _ZH_ASK
        + r"(?:别|不要|不用|我?不太?想让你|我?不希望你)(?:再)?(?:记|记着|记住|记录|保存|存)(?:着)?"
        + _ZH_TOPIC
        + _ZH_WHAT
        + _ZH_END
    ),
)
_EN_ASK = (
    r"^(?:(?:ok|okay|actually|also|and|oh|hey|so)[\s,]+)*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?"
)
_EN_VERB = (
    r"(?:forget|delete|erase|remove|wipe|clear|drop"
    r"|(?:don'?t|do\s+not|stop)\s+(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|sav(?:e|ing)))\s+"
)
_EN_END = r"(?:\s+(?:from|in)\s+(?:your\s+)?memory)?(?:\s+(?:anymore|any\s+more|please|now))*[\s.!]*$"
_EN = tuple(
    re.compile(_EN_ASK + _EN_VERB + lead + r"(?P<topic>" + what + r")" + _EN_END, re.IGNORECASE)
    for lead, what in (
        # forget what I said about hiking / erase everything about my ex ("forget about work" is no
        # request: "forget about it, it's the weekend")
        (
            r"(?:(?:everything|anything|all)\s+(?:(?:i\s+(?:said|told\s+you|mentioned)\s+)?about\s+)?"
            r"|(?:what|that)\s+i\s+(?:said|told\s+you|mentioned)\s+about\s+)",
            r"[^,.;!?]{1,40}?",
        ),
        # forget my email / don't remember that I like jazz anymore / stop remembering where I work
        (r"(?:the\s+fact\s+)?", r"(?:my|that\s+i|where\s+i)\s+[^,.;!?]{1,40}?"),
    )
)
# what a topic says besides the thing: whose it is, and the words around it
_ZH_WRAP = re.compile(
    r"^(?:关于|有关)?(?:我的?)?(?:(?:说|讲|提|提到|告诉你)(?:过)?的)?(?:那个|那些|这个)?(?:关于|有关)?(?:我的?)?"
)
_EN_WRAP = re.compile(r"^(?:my|that\s+i|where\s+i)\s+", re.IGNORECASE)
# what was just said ("忘掉我刚才说的"): :data:`lexicon.FORGET` takes that message back
_DEICTIC = re.compile(
    r"^(?:(?:这个|那个|这些|那些|it|that|this|them|those)$|刚才|刚刚|上面|前面|之前说|上一条)", re.IGNORECASE
)


def topic(text: str) -> str | None:
    """What ``text`` (one clause) asks memlane to forget, or None when it asks no such thing."""
    said = text.strip()
    for patterns, wrap in ((_ZH, _ZH_WRAP), (_EN, _EN_WRAP)):
        for pattern in patterns:
            m = pattern.match(said)
            if m is None:
                continue
            what = wrap.sub("", m.group("topic").strip()).strip()
            if what and not _DEICTIC.match(what):
                return what
    return None


# a topic that names a part of the profile: (its names, normalised; its slots; its masked kinds)
_PARTS: tuple[tuple[frozenset[str], tuple[str, ...], tuple[str, ...]], ...] = tuple(
    (frozenset(normalize(n) for n in names.split("|")), slots, kinds)
    for names, slots, kinds in (
        (
            "住哪|住在哪|住哪里|住在哪里|住址|地址|家庭住址|家在哪|家在哪里|住的地方"
            "|address|home address|live",
            ("home_city",),
            ("address",),
        ),
        (
            "工作|上班|在哪上班|在哪工作|公司|单位|工作单位|职业|job|work|employer|company|occupation|workplace",
            ("employer", "job", "work_city", "industry", "work_mode"),
            (),
        ),
        ("名字|姓名|叫什么|name|full name", ("name", "nickname", "english_name", "surname"), ()),
        ("生日|出生日期|birthday|date of birth|birth date", ("birthday",), ()),
        ("老家|家乡|籍贯|hometown", ("hometown",), ()),
        ("邮箱|邮件地址|邮箱地址|email|email address|e-mail", (), ("email",)),
        ("手机|手机号|手机号码|电话|电话号码|phone|phone number|number|mobile|cell", (), ("phone",)),
    )
)


def part(topic: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The profile slots and the masked kinds a topic names ("住址", "my email"), or None."""
    folded = normalize(topic)
    return next(((slots, kinds) for names, slots, kinds in _PARTS if folded in names), None)


@dataclass(frozen=True)
class Withdrawal:
    """The user takes back what they said: about ``topic``, or (None) what they just said.
    ``corrects``: only by saying it was wrong ("刚才说我在上海是错的"), so what else the message says
    is the right value and stands ("…，我在苏州")."""

    topic: str | None
    corrects: bool = False


def withdrawal(text: str) -> Withdrawal | None:
    """What ``text`` (one clause, folded) takes back, or None when it takes back nothing."""
    if FORGET.search(text):
        return Withdrawal(None)
    named = topic(text)
    if named is not None:
        return Withdrawal(named)
    return _undone(text.strip())


# --- what was said, then what undoes it ---------------------------------------------------------

# what was said just now: taken back, it is the message before, whatever it was about
_ZH_JUST = re.compile(r"刚才|刚刚|刚|上面|上一?条|这句|那句")
_ZH_LEAD = (
    r"^(?:(?:那个|嗯+|呃|对了|还有|另外|哦|噢|诶|哎|算了|sorry|不好意思|nvm)[，,\s]*)*"
    r"(?:请|麻烦)?(?:你)?(?:帮我)?(?:把|将)?"
)
# what undoes something said, whatever it was: not to keep it, or that it was not meant ("当我没说")
_ZH_UNSAY = (
    r"(?:(?:别|不要|不用)(?:再)?(?:记|存|保存|留|save|store|keep)(?:着|住|下来?|了)?|forget\s*it|scratch\s*that"
    r"|当(?:我)?没(?:说|提|讲|问)过?|当没(?:听见|看见|听到)|别当真|收回|撤回|撤销|是?(?:口误|手滑|发错了))"
)
# what undoes something said only when the part before says it was said ("删掉这个文件" is a file)
_ZH_UNDO = (
    r"(?:(?:删|清|抹|忘)(?:了|掉|除|空)|作废|不算数?|delete掉?"
    r"|是?(?:错的|错了|不对|记错了|瞎编的|瞎说的|开玩笑的|瞎想的))"
)
# what says what was said was wrong, not that it must go
_WRONG = re.compile(
    r"(?:错的|错了|不对|记错了|口误|瞎编的|瞎说的|开玩笑的|瞎想的)[的吧哈啊呀哦了啦嘛\s]*$"
    r"|(?i:\b(?:was|is)\s+(?:wrong|a\s+typo|a\s+mistake|made\s+up|a\s+joke|not\s+(?:right|true))[\s.!]*$)"
)
_ZH_HOW = r"(?:你)?(?:就)?(?:全|都|全都|统统|也|一起)?(?:给我)?"
_ZH_END = r"的?(?:吧|哈|啊|呀|哦|了|啦|嘛)*$"


def _ref(least: int) -> str:
    """What was said, up to the end of the clause, as the named group ``ref``."""
    return rf"(?P<ref>[^，。！？!?,;；]{{{least},30}}?)"


_ZH_UNDONE = re.compile(_ZH_LEAD + _ref(0) + _ZH_HOW + rf"(?:(?P<unsay>{_ZH_UNSAY})|{_ZH_UNDO})" + _ZH_END)
# the verb first: "别记我刚才说的工资数", "ignore我刚说的"
_ZH_UNDONE_FIRST = re.compile(
    _ZH_LEAD
    + r"(?:(?:别|不要|不用)(?:再)?(?:记|存|保存)(?:着|住)?|忘掉|删掉|ignore|forget|delete)\s*"
    + _ref(1)
    + _ZH_END
)
# what marks the part before as something the user said, not a thing ("删掉这个文件")
_ZH_SAID = re.compile(
    r"(?:说|讲|提|发|告诉你|聊|写)(?:过|了)?(?:的|$)|说我|让你|关于|上一?条|(?:那句|那段|那条|这句|这段|这条|那部分)的?$"
)
# not what the user said: a question about a thing ("帮我看看这段SQL哪里错了"), what someone else said
# ("他说的那个app"), or what the user did to a thing ("朋友推荐的那个app我删了")
_NOT_SAID = re.compile(
    r"哪|什么|怎么|为什么|为啥|吗|是不是|有没有|能不能|可不可以|要不要"
    r"|(?:他|她|它|你|别人|人家|大家|朋友|同事)们?(?:跟我|和我|给我)?(?:说|讲|提|发|推荐|写)"
)
_ZH_BEFORE = re.compile(r"刚才|刚刚|刚|之前|前面|上面|先前")
# the words around what was said: when, that it was said, which part
_ZH_AROUND = re.compile(
    r"(?:刚才|刚刚|刚|之前|前面|上面|先前|上一?条|我?(?:跟你|和你)?(?:说|讲|提|发|告诉你|聊|写)(?:过|了)?的?"
    r"|让你|关于|有关|那个|这个|那句|那段|那条|这句|这段|这条|那部分|那些|的事情?|这件事|的那?部分|的$|^我的?)"
)

_EN_LEAD = (
    r"^(?:(?:nah|nope|no|nvm|never\s*mind|actually|wait|oh|ok|okay|oops|also|and|so|hey|um+|correction|sorry|ugh"
    r"|obviously|just|btw)\b[\s,.:!]*)*(?:(?:please|pls|plz|can\s+you|could\s+you)\s+)?"
)
_EN_DROP = (
    r"(?:forget|ignore|disregard|scratch|scrap|strike|undo|drop|wipe|delete|erase|remove|clear|take\s+back"
    r"|(?:don'?t|do\s+not)\s+(?:save|keep|store|remember|log|record|note|hang\s+on\s*to))"
)
_EN_PIECE = r"(?:bit|part|thing|stuff|line|sentence|detail|message|one|info|note)"
_EN_SAID = (
    r"i\s+(?:just\s+)?(?:said|told\s+(?:you|u)|wrote|typed|mentioned|shared|gave(?:\s+(?:you|u))?|sent)"
)


def _about(group: str) -> str:
    """What a piece of what was said is about ("the bit about my salary"), as a named group."""
    return rf"(?:\s+(?:about|re|regarding|on)\s+(?P<{group}>[^,.;!?]{{1,40}}?))?"


_EN_REF = (
    rf"(?:(?:the|that|this)\s+(?P<just>last\s+|latest\s+)?{_EN_PIECE}{_about('about')}"
    rf"|(?:what|whatever|everything|anything|all)\s+(?:that\s+)?{_EN_SAID}{_about('about2')}"
    rf"|the\s+(?P<thing>[^,.;!?]{{1,30}}?)\s+(?:{_EN_PIECE}(?:\s+{_EN_SAID})?|{_EN_SAID})"
    rf"(?:\s+(?:earlier|before|just\s+now|yesterday))?)"
)
# what the user told, or a part of the profile ("that phone number"), and that it was wrong
_EN_TOLD = rf"(?:{_EN_REF}|that\s+(?P<part>[^,.;!?]{{1,24}}?))"
_EN_WRONG = (
    r"(?:(?:was|is)\s+(?:wrong|a\s+typo|a\s+mistake|made\s+up|a\s+joke|not\s+(?:right|true))"
    r"|(?:wasn't|isn't|was\s+not|is\s+not)\s+(?:meant\s+)?for\s+you)"
)
_EN_END = (
    r"(?:\s+(?:from|in|out\s+of|off)\s+(?:your\s+)?(?:memory|notes|records?|list))?"
    r"(?:\s+(?:anymore|any\s+more|please|pls|plz|now|btw|thanks|thx|too))*"
    # a short reason after it, with no new value in it ("…, wrong year", "…, petty of me"; not "…, wrong
    # date its the 19th of may": the right date is a statement of its own)
    r"(?:\s*[,;:(—-]\s*(?:[^\s,;\d]+\s*){1,5}?)?[\s.!?)]*[\U0001F300-\U0001FAFF\s]*$"
)
_EN_UNDONE = tuple(
    re.compile(_EN_LEAD + shape + _EN_END, re.IGNORECASE)
    for shape in (
        # forget the part about Rome / undo what I said about my salary / don't save the bit about my ex
        rf"{_EN_DROP}\s+{_EN_REF}",
        rf"(?:i\s+)?take\s+back\s+{_EN_REF}",
        rf"leave\s+(?:{_EN_REF}|that|this|it)\s+out(?:\s+of\s+(?:your\s+)?(?:memory|notes|records?))?",
        # forget I said I liked jazz / scratch that, wrong year / pls don't hang onto that
        rf"{_EN_DROP}\s+(?:that\s+)?{_EN_SAID}\s+(?:that\s+)?(?P<said>[^,.;!?]{{1,40}}?)",
        r"(?:scratch|strike|scrap|forget|ignore|disregard|undo)\s+(?:that|this)",
        r"(?:don'?t|do\s+not)\s+(?:save|keep|store|remember|log|record|note|hang\s+on\s*to)\s+(?:that|this|it)(?:\s+one)?",
        # the home address i gave earlier, wipe it / that phone number was wrong, drop it
        rf"{_EN_TOLD}(?:\s+{_EN_WRONG})?(?:\s*[,;]\s*|\s+(?:so|just|pls|please)\s+)+{_EN_DROP}\s+(?:it|that|them)",
        rf"{_EN_TOLD}\s+{_EN_WRONG}",
        r"(?:that|this)(?:\s+(?:one|bit|part))?(?:'s|\s+is)\s+off\s+the\s+record",
        rf"pretend\s+(?:i\s+never\s+(?:typed|said|sent|wrote)|you\s+never\s+(?:saw|read|heard))\s+(?:that|this|it|{_EN_REF})",
    )
)


def _undone(text: str) -> Withdrawal | None:
    """What was said, then what undoes it ("刚才说的password那条删了吧", "forget the part about Rome")."""
    m = (_ZH_UNDONE.match(text) or _ZH_UNDONE_FIRST.match(text)) if has_cjk(text) else None
    if m is not None:
        ref = m.group("ref")
        unsaid = m.groupdict().get("unsay") is not None
        if _NOT_SAID.search(ref) or (not unsaid and ref.endswith("我")):
            return None
        if not (unsaid or _ZH_SAID.search(ref) or (_ZH_BEFORE.search(ref) and _names_part(ref))):
            return None  # 删掉这个文件, 今天的报告错了: a thing, not what the user said
        wrong = _WRONG.search(text) is not None
        if _ZH_JUST.search(ref) and not wrong:  # what was just said: the message before
            return Withdrawal(None)
        return Withdrawal(_ZH_AROUND.sub("", ref).strip(" 的") or None, corrects=wrong)
    for pattern in _EN_UNDONE:
        m = pattern.match(text)
        if m is None:
            continue
        named = m.groupdict()
        if named.get("part") is not None and part(_EN_WRAP.sub("", named["part"])) is None:
            continue  # "that restaurant was wrong": not something the user told
        wrong = _WRONG.search(text) is not None
        if named.get("just") and not wrong:
            return Withdrawal(None)
        what = next((named[g] for g in ("about", "about2", "thing", "part", "said") if named.get(g)), None)
        what = _EN_WRAP.sub("", what.strip()).strip() if what else None
        return Withdrawal(what or None, corrects=wrong)
    return None


def _names_part(ref: str) -> bool:
    said = normalize(ref)
    return any(name in said for names, _, _ in _PARTS for name in names if len(name) > 1)


def corrected(found: list[tuple[Candidate, Clause]]) -> list[tuple[Candidate, Clause]]:
    """The clauses of a message, where one says an earlier statement was wrong and another says what
    is right ("刚才说我在上海是错的，我在苏州", "刚刚那个地址错了，我住在望京"): the right value stands. A
    correction that names what it was about takes that back (上海); one that names only a part of the
    profile (地址) or nothing takes nothing back, and the right value replaces the wrong one as any
    later statement would."""
    if not any(c.category is Category.FORGET for c, _ in found) or not any(
        c.category not in _SAYS_NOTHING for c, _ in found
    ):
        return found
    out = []
    for c, clause in found:
        back = withdrawal(fold(c.text)) if c.category is Category.FORGET else None
        if back is not None and back.corrects and (back.topic is None or part(back.topic) is not None):
            c = replace(c, category=Category.OTHER, objects=[])
        out.append((c, clause))
    return out


# what a clause beside a correction may be for the correction still to take back what it names
_SAYS_NOTHING = {Category.FORGET, Category.SMALLTALK, Category.REQUEST, Category.OTHER}
