"""Values announced in an earlier clause of the message than the one that holds them.

"我淘宝和支付宝的密码是一样的，都是 launch0x9", "my pin? its 5502", "the code is below: 4471",
"my passport number? it's K4829301": the words that say what the value is end one clause, the value
stands in the next. The clause that holds the value would be stored as a harmless fact ("都是 launch0x9")
and the one that announces it as a junk memory ("…的密码是一样的"), so the finding runs from the announcing
word to the end of the value: both are one placeholder, and what is left of the sentence
("我淘宝和支付宝的[已隐藏:密码]") is one clause that the judge discards.

Only a value that reads as one counts across a clause boundary: a run of digits, a token mixing
letters and digits, or an identity or card number, standing alone in its clause or after a copula
(都是, 就是, it's, that's). Talk such as "我忘了密码，都是因为太长了" has no such value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .ids import CARD_NUMBER, CARD_WORDS, ID_NUMBER, ID_WORDS, id_number_ok, thing_id
from .secrets import EN_WORD, ZH_WORD, looks_mixed, talk
from .table import Span

# every value read here holds digits, and most messages announce nothing: two cheap looks first
_DIGIT = re.compile(r"[0-9]")
_ROUGH = re.compile(
    r"密|碼|口令|码|号|號|证|證|卡|账|帳|户|保|(?i:pass|pw|pin|puk|code|otp|cv|id|no|card|acc|iban)"
)
# an ASCII mark between two letters or digits is part of a value ("Qwerty!2024", "4111.1111"); the
# scanned text has full-width marks folded ("卡号，6222" reads "卡号,6222"): next to Chinese, a mark
# ends a clause; so does a dash ("bank pin — it's 4412")
_BOUNDARY = re.compile(
    r"(?:[。；！？：\n…]|[,.;!?:](?![A-Za-z0-9])|(?<![A-Za-z0-9])[,.;!?:])+|\s+-+\s+|\s*[—–]+\s*"
)
_ABBREVIATION = re.compile(r"(?i)\b(?:no|nr|num|acct|ref)$")
# what may open the clause that holds the value: a copula, "it's", or nothing
_LEAD = (
    r"\s{0,3}(?:(?:都|也|就|全|还|一律|统一|全部)?(?:是|为|用的是|用的|设的是|设成了?|改成了?)"
    r"|我的是|(?i:(?:it|that|this|which|mine|ours)(?:'s|’s|\s{1,3}is|\s{1,3}was)|its|is|was|=)(?:\s?[:=])?)?"
    r"\s{0,3}"
)
_DIGITS = r"[0-9](?:[ -]?[0-9]){3,11}(?![0-9])"
_PASSWORD_VALUE = re.compile(rf"{_LEAD}(?P<v>{_DIGITS}|[A-Za-z0-9!@#$%^&*_.+-]{{4,64}})", re.IGNORECASE)
# "the code", "my door code", "a 4 digit code": a code is a secret only when digits stand alone in the
# clause after it ("my zip code is 10001" holds its value in its own clause, and "my code is on github:
# repo2024" is source code)
_CODE = r"(?<![A-Za-z])(?:my|the|our|your|a|an)\s+(?:[\w-]+\s+){0,2}code(?!\s+(?:of|for)\s+conduct)"
# (kind, the words that announce it, what its value looks like)
_ANNOUNCED: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    ("password", re.compile(rf"{ZH_WORD}|{EN_WORD}", re.IGNORECASE), _PASSWORD_VALUE),
    ("password", re.compile(_CODE, re.IGNORECASE), re.compile(rf"{_LEAD}(?P<v>{_DIGITS})", re.IGNORECASE)),
    (
        "id_card",
        re.compile(ID_WORDS, re.IGNORECASE),
        re.compile(rf"{_LEAD}(?P<v>{ID_NUMBER})(?![A-Za-z0-9])", re.IGNORECASE),
    ),
    ("bank_card", re.compile(CARD_WORDS, re.IGNORECASE), re.compile(rf"{_LEAD}(?P<v>{CARD_NUMBER})")),
)
# the value ends its clause, or polite words follow: "就是 660912，别忘了", "its 5502 ok?"
_CLAUSE_DONE = re.compile(
    r"\s{0,3}(?:$|[，,。.;；!！?？\n…)）]|(?:哦|啊|呀|呢|吧|哈|了|啦|嘛|哟|噢|呗)"
    r"|(?i:ok|okay|thanks|thx|lol|btw|please|pls)\b)"
)
_REACH = 60  # characters after the word in which the value must stand
_HOPS = 2  # clause boundaries the value may stand behind


def find(text: str) -> Iterator[Span]:
    """Each value announced by an earlier clause, as a span from the announcing word to its end."""
    if not _DIGIT.search(text) or not _ROUGH.search(text):
        return
    for kind, words, value in _ANNOUNCED:
        for m in words.finditer(text):
            if kind == "id_card" and thing_id(text, m.start(), m.group()):
                continue
            end = _value_end(text, kind, value, m.end())
            if end is not None:
                yield kind, m.start(), end


def _value_end(text: str, kind: str, value: re.Pattern[str], start: int) -> int | None:
    """Where the value after the clause boundaries following ``start`` ends, or None."""
    hops = 0
    pos = start
    limit = min(len(text), start + _REACH)
    while hops < _HOPS:
        cut = _BOUNDARY.search(text, pos, limit)
        if cut is None or (hops == 0 and _in_clause(text[start : cut.start()], cut.group())):
            return None
        if cut.group() == "." and _ABBREVIATION.search(text, max(0, cut.start() - 6), cut.start()):
            pos = cut.end()  # "licence no. is DL-5524": the dot ends a word, not the clause
            continue
        hops += 1
        pos = cut.end()
        m = value.match(text, pos)
        if m and _reads_as_value(kind, m.group("v")) and _CLAUSE_DONE.match(text, m.end()):
            return m.end()
    return None


def _in_clause(rest: str, boundary: str) -> bool:
    """Whether the announcing clause, from the word to ``boundary``, holds the value itself:
    "PIN: 1234" (a colon right after the word), "密码是Tr0ub4dor，…" (digits after the word): the
    in-clause detectors read it, and a later clause only repeats or adds to it."""
    return (boundary.strip() in (":", "：") and not rest.strip()) or any(c.isdigit() for c in rest)


def _reads_as_value(kind: str, value: str) -> bool:
    if kind == "id_card":
        return id_number_ok(value)
    if kind == "bank_card":
        return True
    return value.replace(" ", "").replace("-", "").isdigit() or (looks_mixed(value) and not talk(value))
