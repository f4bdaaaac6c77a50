"""Words to the listener: a clause that speaks to the person the user is talking with, by name ("Totally
agree, Hana", "Hope the move went okay, Tamsin!", "最近咋样啊思琪", "桃子你那个面试后来怎么样了"), or
that says sorry to them ("sorry I went quiet for a month", 不好意思刚看到) or thanks them for
something ("谢谢你一直陪我聊天", "thanks for always listening"), or that remarks on them alone ("you
guys are fast", "Your mom is a legend").

Such a clause tells nothing about the user: it is talk, like a greeting or thanks. Read as anything
else, a name spoken to looks like a named thing the user mentioned (a weak sign of interest), and the
learned judge took "Hope the move went okay, Tamsin" for a profile fact (0.73). A clause that speaks
of the user too ("I moved to Austin, Texas", "我给你带了特产") is not only talk, and is read as it is.
A Chinese name is known by jieba's tags, so one it splits into single characters ("最近忙啥呢啊婉清") is
not found.
"""

from __future__ import annotations

import re

import jieba.posseg

from .lexicon import SORRY

# a name spoken to after a comma at the end ("…, Hana!"), or after a word of greeting or cheer alone
_EN_NAMED_LAST = re.compile(r",\s*[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?[\s!.?~)(:'\"]*$")
_EN_CHEER_NAMED = re.compile(
    r"(?i)^(?:wow|omg|yes+|yay+|aw+|hey+|hi+|hello|thanks|thank\s+you|congrats|congratulations"
    r"|happy\s+birthday|good\s+luck|bye|night|morning|go|love\s+you|miss\s+you)[\s,!.]+(?-i:[A-Z][a-z]+)[\s!.~]*$"
)
# what makes a clause before a name talk to that person: you, or a word of agreeing, wishing or cheering
_EN_TALK = re.compile(
    r"(?i)\b(?:you|your|you're|u|ur|yours)\b|^(?:totally\s+|so\s+|i\s+)?(?:agree|congrat|thank|hope|good\s+luck"
    r"|miss|love\s+you|same|omg|wow|haha|lol|aw+|yes+|yay|welcome|sorry|happy\s+birthday|so\s+true|exactly"
    r"|nice|cool|great|amazing|awesome|that(?:'?s|\s+is)|this\s+is|what\s+a)"
)
# a remark to the listener, about them alone: "you guys are fast", "Your mom is a legend", "you'd love
# it honestly", "you should join sometime" (a clause of the user's own is read as it is)
_EN_REMARK = re.compile(
    r"(?i)^(?:(?:omg+|oh+|aw+|wow|haha+|lol|lmao+|honestly|ok(?:ay)?|yes+|yay|and|but|so)\s+)*"
    r"(?:you(?:'re|re|\s+are|\s+were|\s+guys\s+are|\s+look|'d|\s+would(?:'ve)?|\s+always|\s+should"
    r"|\s+have\s+to|'ll|\s+will|\s+must)|your\s+[\w']+(?:\s+[\w']+)?\s+(?:is|are|was|were|looks?|sounds?))\b"
)
# how many words a clause before a name may hold and still be only talk ("Hope the move went okay")
_SHORT = 8
_EN_SELF = re.compile(r"(?i)\b(?:i|me|my|mine|i'm|i've|i'd|i'll|im|we|our|us|we're)\b")
# an apology to the listener: "sorry I'm late to this convo", "so sorry for the 3am replies haha", "I'm
# sorry your flight got cancelled", 不好意思刚看到 (short: a longer Chinese one says more than sorry)
_APOLOGY = re.compile(SORRY + r"|^(?:不好意思|抱歉|sorry)[\u4e00-\u9fff]{0,6}[啊呀哈了]*$")
_RUNS_ON = re.compile(r"[,，]")
# thanks to the listener for what they did: "谢谢你一直陪我聊天", "thank you so much for the help"
_THANKS = re.compile(
    r"^(?:嗯+|好的|哈哈+)?(?:谢谢|感谢|多谢|谢啦)(?:你|您)|(?i:^(?:(?:ok(?:ay)?|aw+|omg)\s+)?"
    r"(?:thanks|thank\s+you|thx|ty)\s+(?:so\s+much\s+|a\s+lot\s+)?for\b)"
)
# a Chinese name or a word of address first, then 你 ("桃子你…", "小鹿你英语也太溜了")
_NAMES = {"nr", "nrfg", "nrt", "n", "nz"}  # jieba's tags of names and nouns
_ZH_NAME_YOU = re.compile(r"^[\u4e00-\u9fff]{1,3}你(?!们?好)")
# a particle of talk, then the name spoken to at the end ("最近咋样啊思琪", "Congrats啊Lily")
_ZH_PARTICLE_NAME = re.compile(
    r"[啊呀哇哦嘛呗吧啦]\s*(?P<name>[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)[\s!！~～。.]*$"
)


def to_listener(text: str, lang: str) -> bool:
    """Whether ``text`` (one clause) is said to the listener, by name, and not of the user, or is an
    apology to them."""
    if _APOLOGY.match(text) and len(text.split()) <= _SHORT and not _RUNS_ON.search(text):
        return True  # not the news run on after it: "sorry I went quiet, we moved to Victoria"
    if _THANKS.match(text) and not _RUNS_ON.search(text):
        return True
    if lang == "en":
        if _EN_CHEER_NAMED.match(text):
            return True
        if _EN_REMARK.match(text) and not _EN_SELF.search(text) and len(text.split()) <= _SHORT:
            return True
        named = _EN_NAMED_LAST.search(text)
        if named is None or _EN_SELF.search(text):
            return False
        said = text[: named.start()].strip()  # a long run-on holds more than talk: read it as it is
        return len(said.split()) <= _SHORT and _EN_TALK.search(said) is not None
    if "我" in text:
        return False
    if (you := _ZH_NAME_YOU.match(text)) is not None and _a_name(text[: you.end() - 1]):
        return True
    named = _ZH_PARTICLE_NAME.search(text)
    return named is not None and _a_name(named["name"])


def _a_name(word: str) -> bool:
    """A name or a word of address: one word jieba tags as a name or a noun (桃子, 思琪), a doubled
    one (婷婷) or one with 小 / 阿 / 老 (小王), or a Latin name with its capital; not a verb and what
    it does (语音回你, 周末带你去)."""
    if word[:1].isupper():
        return True
    if len(word) == 2 and (word[0] == word[1] or word[0] in "小阿老"):
        return True
    tagged = list(jieba.posseg.cut(word, HMM=True))
    return len(tagged) == 1 and tagged[0].flag in _NAMES
