"""The words for the user's relatives, each with the relation it names: one vocabulary for the
extraction rules (:mod:`memlane.write.extract.family_zh`, :mod:`memlane.write.extract.builds_en`) and
the health detector (:mod:`memlane.privacy.sensitive.health`), so that a relative the rules know is
one whose health is as private as the speaker's own ("小宝对花粉过敏", "我太太怀孕了", "my spouse has
cancer"). Both also read "my wife and I" as one subject (:data:`PARTNER_BEFORE_AND_I`).
"""

from __future__ import annotations

import re

# fmt: off
ZH_RELATIONS = {
    "老婆": "wife", "妻子": "wife", "太太": "wife", "媳妇": "wife", "爱人": "spouse", "老公": "husband",
    "丈夫": "husband", "先生": "husband", "女儿": "daughter", "闺女": "daughter", "儿子": "son",
    "孩子": "children", "小孩": "children", "娃": "children", "宝宝": "baby", "爸爸": "father",
    "父亲": "father", "老爸": "father", "妈妈": "mother", "母亲": "mother", "老妈": "mother",
    "哥哥": "brother", "弟弟": "brother", "姐姐": "sister", "妹妹": "sister", "爷爷": "grandfather",
    "外公": "grandfather",
    "姥爷": "grandfather", "奶奶": "grandmother", "外婆": "grandmother", "姥姥": "grandmother",
    "男朋友": "boyfriend", "男友": "boyfriend", "女朋友": "girlfriend", "女友": "girlfriend",
    "对象": "partner", "父母": "parents", "爸妈": "parents", "双胞胎": "twins",
    # what older people and chat call a spouse
    "老伴": "spouse", "老伴儿": "spouse", "另一半": "spouse", "老婆子": "wife", "老头子": "husband",
    # what parents call their children: the first, the second, the little one
    "大宝": "children", "二宝": "children", "小宝": "children", "三宝": "children",
}
# fmt: on
# said right after 我 only ("我妈住在老家", "我爸是医生"): alone, 妈 is as often a cry ("妈呀")
ZH_AFTER_ME = {"妈": "mother", "爸": "father"}

# fmt: off
EN_RELATIONS = {
    "wife": "wife", "husband": "husband", "spouse": "spouse", "partner": "partner", "daughter": "daughter",
    "son": "son", "kid": "children", "child": "children", "children": "children", "baby": "baby",
    "father": "father", "dad": "father", "mother": "mother", "mom": "mother", "mum": "mother",
    "brother": "brother", "sister": "sister", "grandfather": "grandfather", "grandpa": "grandfather",
    "grandmother": "grandmother", "grandma": "grandmother", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "fiancé": "fiance", "fiancée": "fiancee", "fiance": "fiance",
    "fiancee": "fiancee", "parent": "parents", "twin": "twins",
    # what people text for them
    "hubby": "husband", "wifey": "wife", "missus": "wife", "toddler": "children", "kiddo": "children",
    "stepson": "son", "stepdaughter": "daughter", "stepmom": "mother", "stepmum": "mother",
    "stepdad": "father",
}
# fmt: on
# the rest of the family: no profile slot holds them, but their health is as private ("my mother-in-law
# has dementia", "my nephew has asthma")
EN_KIN_MORE = tuple(
    w.replace("_", " ")
    for w in (
        "other_half mother-in-law father-in-law son-in-law daughter-in-law in-law aunt auntie uncle cousin "
        "niece nephew grandson granddaughter grandkid grandchild grandchildren granny nan nana"
    ).split()
)


# the relations a user has with a partner: what a couple parting ends (我们分手了, "we got divorced")
PARTNER_RELATIONS = frozenset(
    {"wife", "husband", "spouse", "partner", "boyfriend", "girlfriend", "fiance", "fiancee"}
)
# …and the Chinese words for such a partner, longest first, as one alternation (男朋友 before 男友)
ZH_PARTNERS = "|".join(
    sorted((w for w, r in ZH_RELATIONS.items() if r in PARTNER_RELATIONS), key=len, reverse=True)
)

# what stands before "and I" when the two are one subject ("my wife and I have two kids", "Sam and I",
# "my husband Dave and I", "me and"): no new clause starts at that "and", for the rules or the health
# detector
PARTNER_BEFORE_AND_I = re.compile(
    r"(?:^|[,.;:!?]\s*|\b(?:and|so|but|then)\s+)(?:[Mm]e|[Mm]y\s+\w+(?:\s+[A-Z]\w+)?|[A-Z]\w+)$"
)
