"""How the user wants to be contacted, in Chinese, English or both at once (我prefer email).

One builder serves both languages because the channel words mix freely. It yields one of:

- ``no_call_on_weekends = True`` / ``no_call_at_night = True`` / ``no_call_after = "21:00"`` /
  ``no_call_before = "10:00"`` / ``no_call_during_work = True`` for a refused phone call with a time
  (周末别给我打电话, never book calls before 10am);
- ``preferred_channel = "email" | "phone" | "sms" | "wechat" | …`` for a stated preference
  (优先邮件联系, email me rather than call);
- ``avoid_channel = …`` for a refused channel with no alternative (别打电话).
"""

from __future__ import annotations

import re

from .holds import DEVICE_NOW
from .rule import Context, Draft

# An ASCII word boundary that also holds next to a Chinese character, where \b does not (我prefer email).
_B = r"(?:(?<![A-Za-z])(?=[A-Za-z])|(?<=[A-Za-z])(?![A-Za-z]))"


def _re(pattern: str) -> re.Pattern[str]:
    """Compile ``pattern`` with each ``{B}`` standing for the boundary above."""
    return re.compile(pattern.replace("{B}", _B))


# …and "phone" is not the device the user has (an Android phone, my new phone)
_NOT_A_DEVICE = "".join(
    f"(?<!{w} )"
    for w in "a an new old smart android samsung pixel huawei xiaomi galaxy apple cheap flip spare".split()
)

CHANNELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", _re(r"邮件|邮箱|电邮|(?i:{B}e-?mails?{B}|{B}mail{B})")),
    # the work apps: 企业微信 before 微信, whose words it holds
    ("wecom", _re(r"企业微信|企微|(?i:{B}wecom{B}|{B}wechat\s+work{B})")),
    ("dingtalk", _re(r"钉钉|(?i:{B}ding\s?talk{B})")),
    ("feishu", _re(r"飞书|(?i:{B}feishu{B}|{B}lark{B})")),
    ("slack", _re(r"(?i:{B}slack{B})")),
    ("teams", _re(r"(?i:{B}(?:ms|microsoft)\s+teams{B})")),
    # 微信 is a channel, 微信支付 / 微信读书 are not
    (
        "wechat",
        _re(
            r"(?<!企业)微信(?!支付|钱包|红包|读书|运动)|(?i:{B}wechat{B}(?!\s+(?:pay|work))|{B}weixin{B}|{B}vx{B})"
        ),
    ),
    ("sms", _re(r"短信|(?i:{B}sms{B}|{B}text(?:s|ing)?(?:\s+messages?)?{B})")),
    # 手机 is a phone only as something to call (打我手机), not the device (我的手机坏了)
    (
        "phone",
        _re(
            r"电话|致电|来电|(?:(?<=打)|(?<=打我)|(?<=打我的))手机|手机(?=联系|打)"
            r"|(?i:{B}call(?:s|ing)?{B}|{B}phone\s+calls?{B}|{B}" + _NOT_A_DEVICE + r"phone{B}"
            r"|{B}ring\s+me{B})"
        ),
    ),
    ("qq", _re(r"(?i:{B}qq{B})")),
    ("whatsapp", _re(r"(?i:{B}whats\s?app{B})")),
    ("telegram", _re(r"(?i:{B}telegram{B})")),
)
# a message the user has written or sent to someone else, not a way to reach them: "help me word a
# short email to regular clients", "reply to this email for me", 给老板发个微信, 帮我写封邮件给客户
_COMPOSED = _re(
    r"(?:写|起草|润色|翻译|回复?)(?:一下)?(?:一|这|那)?(?:封|个|条)?[^，。,.!！?？]{0,4}?(?:邮件|短信|微信|消息)"
    r"|给(?!我)[^，。,.!！?？]{1,8}?发(?:一)?(?:个|条|封)?(?:邮件|短信|微信|消息)"
    r"|(?i:{B}(?:write|wrote|written|writing|word|draft|compose|proofread|polish|translate|reply\s+to"
    r"|respond\s+to|answer|forward){B}(?:(?!{B}me{B})[^.!?]){0,20}?{B}(?:e-?mails?|texts?|messages?){B}"
    r"|{B}(?:e-?mails?|texts?|messages?)\s+to\s+(?!(?:me|us|(?:an?\s+)?(?:calls?|phone|texts?)){B})"
    # …or a thing mailed to someone: "gonna mail jess the harness from anchorage instead"
    r"|{B}mail(?:ed|ing)?\s+(?!(?:me|us|is|works|only|please|or|and|for|to|instead){B})[a-z][\w']*)"
)
# Something that says "this is how to reach me", so that 我的邮箱是… or "my phone broke" is not a preference.
CHANNEL_WORD = re.compile("|".join(p.pattern for _, p in CHANNELS))
_MARKER = _re(
    r"联系|找我|发我|发给我|通知|回复我|回我|优先|最好|偏好|喜欢|习惯|方便|加我?|用|走|通过|打给我|给我打|打我|发到|发|留言|"
    r"(?i:ping\s*我|{B}ping\s+me{B}|{B}dm\s+me{B}|{B}message\s+me{B})|"
    r"就行|就好|就可以|即可|为主|吧|还是|"
    r"(?i:{B}contact|{B}reach{B}|{B}(?:get|got)\s+hold\s+of{B}|{B}(?:fastest|quickest|easiest)\s+way{B}|"
    r"{B}prefer|{B}rather{B}|{B}best{B}|{B}notify|{B}get\s+in\s+touch|{B}send{B}|{B}via{B}|"
    r"{B}is\s+(?:fine|ok|okay|good|great|better|easier){B}|{B}works{B}|{B}please{B}|{B}instead{B}|"
    r"{B}by{B}|{B}through{B}|{B}over{B}|{B}use{B}|^\s*(?:please\s+)?(?:call|text|e-?mail|message|ring)\s+(?:me|my|us|our){B})"
)
# "me" next to the channel: "hit me up on whatsapp", "get me on signal", "for me email is best" (not "my TL
# kept pulling me for coaching in the middle of calls": calls of the user's work)
_ME = _re(r"(?i:{B}me{B})")
_NEAR = 16
_NEGATION = _re(
    r"别(?!的|人|处|家)|不要|不用|勿|不接受|拒绝|不想接|不方便接?|不接|而不是|比起|"
    r"(?i:{B}don'?t{B}|{B}do\s+not{B}|{B}never{B}|{B}no{B}|{B}avoid{B}|{B}stop{B}|{B}rather\s+than{B}|{B}instead\s+of{B}|{B}than{B}|{B}not{B})"
)
# a refusal said after the channel: 电话不方便 / 邮件我不看 / email doesn't work for me / calls wake me up
_NEGATION_AFTER = _re(
    r"\s*(?:我|就)?(?:不方便|不太方便|不看|不怎么看|不用|不行|不好使|不接|不回|算了|免了|别(?!的|人|处|家)|不要|不想)"
    r"|\s*(?:会|总|老|总是|老是)?(?:吵醒|吵到|打扰|打断|烦)"
    r"|(?i:\s*(?:doesn'?t\s+work|is\s+no\s+good|won'?t\s+work|is\s+not\s+ok|i\s+never\s+(?:check|read|answer)"
    r"|(?:always\s+|just\s+)?(?:wakes?|woke|annoys?|bothers?|disturbs?|interrupts?|stress(?:es)?)\b))"
)
_WEEKEND = _re(r"周末|礼拜天|星期天|周六|周日|(?i:{B}weekends?{B}|{B}saturdays?{B}|{B}sundays?{B})")
_NIGHT = _re(r"晚上|夜里|深夜|半夜|(?i:{B}at\s+night{B}|{B}nights?{B}|{B}evenings?{B}|{B}late{B})")
_AFTER = _re(
    r"(?P<h>\d{1,2})\s*(?:点|:00)?\s*(?:以后|之后|后)|(?i:{B}after\s+(?P<h2>\d{1,2})(?::00)?\s*(?P<ampm>[ap]\.?m)?)"
)
_BEFORE = _re(
    r"(?P<h>\d{1,2})\s*(?:点|:00)\s*(?:以前|之前|前)"
    r"|(?i:{B}(?:before|until|till)\s+(?P<h2>\d{1,2})(?::00)?\s*(?P<ampm>[ap]\.?m)?)"
)
_AFTERNOON = _re(r"下午|晚上|(?i:{B}afternoon{B}|{B}evening{B})")
_WORK_HOURS = _re(
    r"工作时间|上班时间|(?i:{B}during\s+(?:work|office|working|business)\s+hours{B}|{B}at\s+work{B})"
)
_MORE = _re(r"更|(?i:{B}more{B}|{B}prefer{B})")


def _refused_call(text: str) -> Draft | None:
    after = _AFTER.search(text)
    if _WEEKEND.search(text):
        return Draft(slot="no_call_on_weekends", value=True)
    if after:
        hour = int(after.group("h") or after.group("h2"))
        evening = _NIGHT.search(text) or (after.group("ampm") or "").lower().startswith("p")
        if hour < 12 and (evening or hour < 7):
            hour += 12
        return Draft(slot="no_call_after", value=f"{hour % 24:02d}:00")
    before = _BEFORE.search(text)
    if before:
        hour = int(before.group("h") or before.group("h2"))
        later = _AFTERNOON.search(text) or (before.group("ampm") or "").lower().startswith("p")
        if hour < 12 and later:
            hour += 12
        return Draft(slot="no_call_before", value=f"{hour % 24:02d}:00")
    if _NIGHT.search(text):
        return Draft(slot="no_call_at_night", value=True)
    if _WORK_HOURS.search(text):
        return Draft(slot="no_call_during_work", value=True)
    return None


def contact(m: re.Match[str], ctx: Context) -> Draft | None:
    """The contact preference a clause states, or None (see the module docstring)."""
    text = ctx.text
    if DEVICE_NOW.search(text):
        return None  # what the user types on now ("我用手机打字"): no way to reach them
    composed = [(m.start(), m.end()) for m in _COMPOSED.finditer(text)]
    hits = sorted(
        (hit.start(), hit.end(), name)
        for name, pattern in CHANNELS
        for hit in pattern.finditer(text)
        if not any(start <= hit.start() < end for start, end in composed)
    )
    if not hits:
        return None
    negations = [n.start() for n in _NEGATION.finditer(text)]

    def refused(pos: int, end: int) -> bool:
        # a channel is refused when a negation or "rather than" stands shortly before it, or a
        # refusal right after it
        return any(0 <= pos - n <= 12 for n in negations) or _NEGATION_AFTER.match(text, end) is not None

    found = [(pos, name) for pos, _, name in hits]
    positive = [name for pos, end, name in hits if not refused(pos, end)]
    negative = [name for pos, end, name in hits if refused(pos, end)]
    if "phone" in negative:
        draft = _refused_call(text)
        if draft is not None:
            return draft
    more = _MORE.search(text)
    if more:  # 比起电话更喜欢邮件: the channel after 更 wins
        after_more = [name for pos, name in found if pos > more.start()]
        positive = after_more or positive
    near_me = any(
        pos - _NEAR <= me.start() <= end + _NEAR for me in _ME.finditer(text) for pos, end, _ in hits
    )
    if positive and (_MARKER.search(text) or near_me):
        return Draft(slot="preferred_channel", value=positive[0], tags=["contact"])
    if negative and not positive:
        return Draft(slot="avoid_channel", value=negative[0], polarity=-1, tags=["contact"])
    return None


# a restriction on calls lifted: "you can call me on weekends now", "周末可以打电话了", "随时打给我都行"
_MAY_CALL = _re(
    r"(?:可以|能|尽管|随时)[^，。,.!！?？]{0,6}(?:打电话|打给我|打我电话|打我手机|来电|电话)"
    r"|(?:打电话|电话|来电)[^，。,.!！?？]{0,4}(?:也)?(?:可以|没问题|没关系|都行|也行|行了)"
    r"|(?i:{B}(?:you\s+(?:can|may)|feel\s+free\s+to|(?:it'?s\s+)?(?:ok|okay|fine)\s+to|go\s+ahead\s+and)\s+"
    r"(?:call|ring|phone){B}"
    r"|{B}(?:calls?|calling|phone\s+calls?)\s+(?:(?:on|at|in\s+the)\s+)?[a-z ]{0,20}?"
    r"(?:are|is)\s+(?:fine|ok|okay|good|allowed)\b)"
)
_NOT_MAY = _re(r"不|别|没法|(?i:{B}(?:don'?t|not|never|can'?t|cannot|no){B}|n't{B})")
_ANYTIME = _re(r"随时|任何时候|什么时候都|(?i:{B}any\s*time{B}|{B}whenever{B})")
_LIFTS = (
    ("no_call_on_weekends", _WEEKEND),
    ("no_call_at_night", _NIGHT),
    ("no_call_after", _NIGHT),
    ("no_call_during_work", _WORK_HOURS),
)


def lifted(text: str) -> frozenset[str]:
    """The call restrictions ``text`` lifts: "you can call me on weekends now" lifts
    no_call_on_weekends, "随时打给我都行" every one of them; a refusal lifts none.

    >>> sorted(lifted("you can call me on weekends now")), sorted(lifted("周末别打电话"))
    (['no_call_on_weekends'], [])
    """
    if not _MAY_CALL.search(text) or _NOT_MAY.search(text):
        return frozenset()
    if _ANYTIME.search(text):
        return frozenset(slot for slot, _ in _LIFTS) | {"no_call_before"}
    return frozenset(slot for slot, when in _LIFTS if when.search(text))
