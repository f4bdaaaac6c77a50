"""The user's relatives and pets in Chinese: the kinship and pet words, whose relative a clause speaks
of, the builder of a ``family:<relation>`` fact and the words of marital status and of a couple
parting (:mod:`.rules_zh` holds the rules that use them)."""

from __future__ import annotations

import re

from memlane.text.kin import ZH_AFTER_ME, ZH_PARTNERS, ZH_RELATIONS
from memlane.text.timewords import number

from .rule import Context, Draft

RELATIONS = {**ZH_RELATIONS, **ZH_AFTER_ME}
# fmt: off
PETS = {"猫": "cat", "猫咪": "cat", "小猫": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
        "兔子": "rabbit", "仓鼠": "hamster", "鹦鹉": "parrot", "金鱼": "fish", "乌龟": "turtle",
        # a pet is as often named by its breed: "我家有只柯基叫豆豆", "我养了一只布偶猫"
        **dict.fromkeys("柯基 金毛 拉布拉多 哈士奇 泰迪 比熊 柴犬 边牧 萨摩耶 法斗 博美 雪纳瑞 吉娃娃"
                        " 德牧 阿拉斯加 中华田园犬 串串".split(), "dog"),
        **dict.fromkeys("布偶猫 布偶 英短 美短 橘猫 狸花猫 暹罗猫 加菲猫 蓝猫 缅因猫 无毛猫".split(), "cat")}
# fmt: on
REL = "|".join(
    [
        *sorted(ZH_RELATIONS, key=len, reverse=True),
        *(f"(?<=我){r}" for r in ZH_AFTER_ME),  # 妈 only after 我: alone, as often a cry ("妈呀")
    ]
)
# where someone is, or what they are doing, right now ("在开会", "在地铁上")
BUSY = r"(?:地铁|公交|车|飞机|火车|高铁|路|开会|开车|上课|加班|吃饭|排队|出差|度假|外面|机场|医院|公司|家)"
# whose relative: "我的/我家" or nothing at the clause's start ("女儿刚上幼儿园", "老公在银行上班"), where
# a bare kinship word is the speaker's own, never the user's own job or city
MINE = r"(?:我[的家]?|^)"
# marital status in the user's words, and a couple parting said of both (我们分手了, 我跟男朋友分了,
# 我和老公离婚了; not 想分手, 差点分手, 我们分了一半)
MARITAL_SAID = (
    r"我(?:已经|刚)?(?P<v>结婚|离婚)了|我(?:是|还是)?(?P<v2>单身|已婚|未婚|离异)"
    r"|^(?:目前|现在|还是)?(?P<v3>单身|已婚|未婚|离异)(?:狗)?(?:一枚|一个|中|人士)?[啊哈呢了哦呀]*$"
)
MARITAL = {
    "结婚": "married",
    "已婚": "married",
    "离婚": "divorced",
    "离异": "divorced",
    "单身": "single",
    "未婚": "single",
    "分手": "single",
    "分": "single",
}
_WHEN = "(?:已经|刚刚?|终于|还是)?"
_OVER = r"离婚|分手|分(?=了(?:$|[\s，。！!,.~]))"
PARTED = (
    rf"^(?:我们俩?|我(?:和|跟)(?:{ZH_PARTNERS})){_WHEN}(?P<v>{_OVER})了"
    rf"|^我{_WHEN}(?:和|跟)(?:{ZH_PARTNERS})(?P<v2>{_OVER})了|^我{_WHEN}(?P<v3>分手)了"
)
_NUM = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_PASSING = re.compile(rf"在{BUSY}[上里]?(?:呢|了|啊|呀|哦)?")


def family(m: re.Match[str], ctx: Context) -> Draft | None:
    groups = m.groupdict()
    if groups.get("detail") and _PASSING.fullmatch(groups["detail"].strip()):
        return None  # where a relative is right now ("老公在开会"): no fact about them
    relation = RELATIONS[groups["rel"]]
    value: dict[str, object] = {"relation": relation}
    entities: list[str] = []
    if groups.get("n"):
        value["count"] = _NUM.get(groups["n"]) or int(groups["n"])
    if groups.get("name"):
        if groups["name"].startswith(("我", "你", "他", "她")):
            return None  # 妈妈叫我吃饭: she calls the user to dinner, her name is not 我吃饭
        value["name"] = groups["name"]
        entities.append(groups["name"])
    if groups.get("age"):  # 两岁半: 2.5
        age = number(groups["age"])
        value["age"] = groups["age"] if age is None else age + 0.5 if groups.get("half") else age
    if groups.get("detail"):
        value["detail"] = groups["detail"].strip()
    return Draft(slot=f"family:{relation}", value=value, entities=entities)
