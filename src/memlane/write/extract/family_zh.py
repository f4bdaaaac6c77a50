"""The user's relatives and pets in Chinese: the kinship and pet words, whose relative a clause speaks
of, and the builder of a ``family:<relation>`` fact (:mod:`.rules_zh` holds the rules that use them)."""

from __future__ import annotations

import re

from .rule import Context, Draft

# fmt: off
RELATIONS = {
    "老婆": "wife", "妻子": "wife", "太太": "wife", "媳妇": "wife", "爱人": "spouse", "老公": "husband",
    "丈夫": "husband", "先生": "husband", "女儿": "daughter", "闺女": "daughter", "儿子": "son",
    "孩子": "children", "小孩": "children", "娃": "children", "宝宝": "baby", "爸爸": "father",
    "父亲": "father", "老爸": "father", "妈妈": "mother", "母亲": "mother", "老妈": "mother",
    "哥哥": "brother", "弟弟": "brother", "姐姐": "sister", "妹妹": "sister", "爷爷": "grandfather",
    "外公": "grandfather",
    "姥爷": "grandfather", "奶奶": "grandmother", "外婆": "grandmother", "姥姥": "grandmother",
    "男朋友": "boyfriend", "男友": "boyfriend", "女朋友": "girlfriend", "女友": "girlfriend",
    "对象": "partner", "父母": "parents", "爸妈": "parents", "双胞胎": "twins",
}
PETS = {"猫": "cat", "猫咪": "cat", "小猫": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
        "兔子": "rabbit", "仓鼠": "hamster", "鹦鹉": "parrot", "金鱼": "fish", "乌龟": "turtle"}
# fmt: on
# said right after 我 only ("我妈住在老家", "我爸是医生"): alone, 妈 is as often a cry ("妈呀")
_AFTER_ME = {"妈": "mother", "爸": "father"}
RELATIONS.update(_AFTER_ME)
REL = "|".join(
    [
        *sorted((r for r in RELATIONS if r not in _AFTER_ME), key=len, reverse=True),
        *(f"(?<=我){r}" for r in _AFTER_ME),
    ]
)
# where someone is, or what they are doing, right now ("在开会", "在地铁上")
BUSY = r"(?:地铁|公交|车|飞机|火车|高铁|路|开会|开车|上课|加班|吃饭|排队|出差|度假|外面|机场|医院|公司|家)"
# whose relative: "我的/我家" or nothing at the clause's start ("女儿刚上幼儿园", "老公在银行上班"), where
# a bare kinship word is the speaker's own, never the user's own job or city
MINE = r"(?:我[的家]?|^)"
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
        value["name"] = groups["name"]
        entities.append(groups["name"])
    if groups.get("age"):
        value["age"] = int(groups["age"]) if groups["age"].isdigit() else groups["age"]
    if groups.get("detail"):
        value["detail"] = groups["detail"].strip()
    return Draft(slot=f"family:{relation}", value=value, entities=entities)
