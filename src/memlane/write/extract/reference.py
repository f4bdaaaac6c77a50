"""Whom or what a clause speaks of by a pronoun. Led by he, she, they, 他 or 她: the user's relatives or pets
that the clause before it named ("we got a puppy!!! his name is biscuit", "我儿子乐乐，他周末上午有游泳课"),
or the user's turn before it ("my daughter is 7" … "she has ballet on saturdays"), so the clause
is about the user's family, not about someone else.
With it, them, 它 or 这个 and no thing of its own: the thing the clause before named ("a place open
now for coffee? i always take it black"), so the clause is about that too (its topic tags).
Led by someone the user knows who is not family (我同事, my coworker), and not bringing the user in:
that person's plans, habits and news, not the user's (:func:`of_an_acquaintance`)."""

from __future__ import annotations

import re
from dataclasses import replace

from memlane.domain import Candidate, Category
from memlane.text.lang import fold

from .builds_en import PETS as _EN_PETS
from .builds_en import RELATIONS as _EN_RELATIONS
from .family_zh import PETS as _ZH_PETS
from .family_zh import REL as _ZH_REL
from .lexicon import topic_tags

# only whether a clause names one matters here, not how much of it: no longest-first ordering
_ZH_KIN = re.compile("|".join([_ZH_REL, *_ZH_PETS]))  # the rules' own kinship words: 妈 only after 我
_EN_KIN = re.compile(
    r"(?i)\b(?:my|our|a|an|two|three|four|five|\d)\s+(?:new\s+|little\s+|baby\s+|pet\s+|youngest\s+"
    rf"|oldest\s+|twin\s+)?(?:{'|'.join([*_EN_RELATIONS, *_EN_PETS, 'boy', 'girl'])})s?\b"
    r"|\btwin\s+(?:boy|girl|son|daughter|brother|sister)s\b"
)
# the people among them, and what may stand before the one a text opens with: 我家, 我的, "and", "so"
_ZH_PERSON = re.compile(_ZH_REL)
_EN_PERSON = re.compile(rf"(?i)(?:my|our)\s+(?:\w+\s+)?(?:{'|'.join(_EN_RELATIONS)})s?\b")
_OPENING = re.compile(
    r"(?i)^(?:(?:and|so|also|oh|well|btw)\s+|我们家的?|我家的?|咱家的?|我的|还有|另外|对了)*"
)
_ZH_PRONOUN = re.compile(r"^(?:他|她|它)(?!们)")
# "they" too: "we have twin boys, they're 7", "my parents live in Ohio, they're retired"
_EN_PRONOUN = re.compile(r"(?i)^(?:he|she|his|her|he's|she's|they|they're|theyre|their)\b")
# a clause that names its own subject (the user, the assistant, others): the relative is no longer meant
_ZH_SUBJECT = re.compile(r"^(?:我|本人|咱|你|您|他们|她们|大家|别人|人家)")
_EN_SUBJECT = re.compile(r"(?i)^(?:i|i'm|i've|i'd|my|we|we're|our|you|your|they|their)\b")


def names_kin(candidate: Candidate, text: str) -> bool:
    """Whether a clause names the user's relative or pet."""
    if candidate.category is Category.FAMILY or (candidate.slot or "").startswith(("family:", "pet:")):
        return True
    return (_ZH_KIN if candidate.lang == "zh" else _EN_KIN).search(text) is not None


def mentions_kin(text: str) -> bool:
    """Whether a turn names a relative or a pet of the user's anywhere ("我儿子乐乐，今年8岁。我们住江宁"):
    a he or she at the start of the user's next turn is them ("他周末上午有游泳课")."""
    folded = fold(text)
    return _ZH_KIN.search(folded) is not None or _EN_KIN.search(folded) is not None


def kin_subject(text: str) -> frozenset[str]:
    """The relative a text is about, by its word, when it opens with them ("我女儿在学钢琴", "女儿不学钢琴了",
    "my son loves swimming" → 女儿, 女儿, son; "I swim with my son", 猫送人了 → none: a pet is the user's
    to keep or give away)."""
    folded = _OPENING.sub("", fold(text), count=1)
    zh = _ZH_PERSON.match(folded) or (_ZH_PERSON.match(folded, 1) if folded.startswith("我") else None)
    en = _EN_PERSON.match(folded)
    if zh is not None:
        return frozenset([zh.group(0).removeprefix("我")])
    return frozenset([en.group(0).split()[-1].lower().removesuffix("s")]) if en is not None else frozenset()


def still_meant(text: str, lang: str) -> bool:
    """Whether the relative or pet named before is still whom a clause speaks of: it names no other
    subject ("今年8岁", "golden retriever, 9 weeks old", "他…")."""
    return (_ZH_SUBJECT if lang == "zh" else _EN_SUBJECT).match(text) is None


def refers_back(text: str, lang: str) -> bool:
    """Whether a clause starts with a pronoun that can stand for the relative or pet named before it."""
    return (_ZH_PRONOUN if lang == "zh" else _EN_PRONOUN).match(text) is not None


# a thing the clause before named, taken up again by a pronoun: "a place open now for coffee? i always
# take it black", "买了个 Kindle，它的屏幕很护眼"
_ZH_THING = re.compile(r"它(?!们)|这个|那个")
_EN_THING = re.compile(r"(?i)\b(?:it|them|that one|this one)\b")


def taken_up(candidate: Candidate, before: list[str], limit: int) -> tuple[Candidate, list[str]]:
    """``candidate`` with the topic tags ``before`` of the clause before it when it speaks of a thing
    by a pronoun (it, them, 它, 这个) and names no thing of its own, and its own topic tags (for the
    clause after it)."""
    text = fold(candidate.text)
    own = topic_tags(text)
    thing = _ZH_THING if candidate.lang == "zh" else _EN_THING
    if own or not before or thing.search(text) is None:
        return candidate, own
    return replace(candidate, tags=list(dict.fromkeys([*candidate.tags, *before]))[:limit]), own


# someone the user knows who is not family, first in the clause: what they do or plan is theirs
_ZH_ACQUAINTANCE = re.compile(
    r"^(?:我的?|我们的?)?(?:公司的?|单位的?|部门的?)?(?:同事|朋友|好朋友|闺蜜|哥们儿?|邻居|室友|舍友|上司|老板|领导|组长"
    r"|经理|主管|同学|老同学|房东|隔壁[\u4e00-\u9fff]{0,6}?(?:哥们儿?|大爷|大妈|阿姨|小?姑娘|小伙子?|大哥|大姐|邻居|同事)|同行[\u4e00-\u9fff]{0,3}?同事)"
)
_EN_ACQUAINTANCE = re.compile(
    r"(?i)^(?:my|our)\s+(?:\w+\s+)?(?:co-?workers?|colleagues?|boss|manager|friends?|buddy|neighbou?rs?|roommates?"
    r"|flatmates?|housemates?|classmates?|landlord|landlady|team\s+lead|supervisor)(?:'s)?\b"
)
# the user brought in: as 我 or 咱, or by what is given or done for them ("同事送了盒普洱", "老板给免单了")
_ZH_SELF_AFTER = re.compile(r"我(?!的?(?:同事|朋友|邻居|室友|上司|老板|领导|同学))|咱|送|给|请|帮|带|约")
_EN_SELF_AFTER = re.compile(r"(?i)\b(?:i|me|i'm|i've|i'd|i'll|im|we|us|we're)\b")


def of_an_acquaintance(text: str, lang: str) -> bool:
    """Whether a clause speaks of someone the user knows who is not family, and not of the user
    ("我同事小蒋下个月要外派去新加坡", "我们组长天天画饼", "my coworker jess swears by standing desks"):
    their plans, habits and news are not the user's. A clause that brings the user in ("我同事约我周六去
    爬山", "my boss said I can work from home") speaks of the user too."""
    folded = fold(text)
    if lang == "zh":
        lead = _ZH_ACQUAINTANCE.match(folded)
        return lead is not None and _ZH_SELF_AFTER.search(folded[lead.end() :]) is None
    lead = _EN_ACQUAINTANCE.match(folded)
    return lead is not None and _EN_SELF_AFTER.search(folded[lead.end() :]) is None
