"""Contact details: phone numbers, email addresses and messaging accounts."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .table import Span

_MOBILE_CN = re.compile(r"(?<![0-9+])(?:(?:\+|00)86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}(?![0-9])")
# Deliberately loose, then checked in code: a tight pattern for every national format would backtrack.
_PHONE_INTL = re.compile(r"(?<![0-9A-Za-z+])\+[1-9][0-9 ()-]{6,20}")
# a number in a national format, which the words announce: "my number is 07700 900123", "text me at
# (415) 555-0132", "座机 0571-8888 6666"
_PHONE_SAID = re.compile(
    r"(?i)(?:(?:\b(?:phone|cell|mobile|tel|landline)\b(?:\s+(?:number|no\.?|#))?|\b(?:my|our)\s+number)"
    r"(?:\s+is|\s*[:：])?"
    r"|\b(?:call|text|ring|reach|contact|whatsapp)\s+me\s+(?:on|at)|电话(?:号码?)?|手机号?|座机)"
    r"(?:\s*(?:是|为|:|：))?\s*(?P<v>\(?[0-9][0-9 ().-]{6,20}[0-9])(?![0-9])"
)
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}"
    r"(?![A-Za-z0-9-])"
)


# an address spelled out so that a scraper misses it: "bob at example dot com", "bob(at)example(dot)com",
# "bob艾特example点com". One spelled-out "at" and a known ending make it one.
_AT = r"(?:\s*[(\[]\s*at\s*[)\]]\s*|\s+at\s+|\s*(?:艾特|圈a)\s*|@)"
_DOT = r"(?:\s*[(\[]\s*dot\s*[)\]]\s*|\s+dot\s+|\s*点\s*|\.)"
_SPELLED_AT = re.compile(r"(?i)[\s(\[]at[\s)\]]|艾特|圈a")
_NOT_A_USER = frozenset(
    {"me", "us", "him", "her", "them", "you", "i", "we", "it", "is", "was", "work", "home"}
)
_SPELLED_EMAIL = re.compile(
    rf"(?<![A-Za-z0-9._%+-])(?P<user>[A-Za-z0-9._%+-]{{1,64}}){_AT}(?:[A-Za-z0-9-]{{1,63}}{_DOT}){{1,4}}"
    r"(?:com|net|org|edu|gov|io|cn|co|uk|de|fr|jp|me|info|biz|ai|dev|app|us|ca|au|hk|tw)(?![A-Za-z0-9])",
    re.IGNORECASE,
)

# a messaging account the words announce ("我的微信号是wxid_abc123", "QQ号 12345678", "my telegram is
# @bobby88"): it reaches the person as a phone number does. The handle holds a digit or an underscore or
# starts with @, so "my instagram is private" names none
_HANDLE = re.compile(
    r"(?:微信(?:号|\s*id)?|vx号|wx号|qq号|(?<![A-Za-z])qq|(?<![A-Za-z])(?:telegram|tg|whatsapp|signal|discord|skype"
    r"|snapchat|instagram|insta|ig|twitter|line|kakao(?:talk)?)(?:\s+(?:id|handle|username|user\s*name|number))?)"
    r"(?:\s*(?:是|为|:|：|=|\bis\b)){0,2}\s*"
    r"(@[A-Za-z0-9_.]{3,32}|(?=[A-Za-z0-9_.-]*[0-9_])[A-Za-z][A-Za-z0-9_.-]{4,39}(?:#[0-9]{4})?|[1-9][0-9]{4,11})"
    r"(?![A-Za-z0-9_@.-])",
    re.IGNORECASE,
)


def find(text: str) -> Iterator[Span]:
    """Each phone number, email address or messaging account in ``text``."""
    for m in _MOBILE_CN.finditer(text):
        yield "phone", m.start(), m.end()
    for m in _PHONE_INTL.finditer(text):
        number = m.group().rstrip(" ()-")  # a number ends in a digit
        end = m.start() + len(number)
        if 8 <= sum(c.isdigit() for c in number) <= 15 and not text[end : end + 1].isdigit():
            yield "phone", m.start(), end
    for m in _PHONE_SAID.finditer(text):
        if 8 <= sum(c.isdigit() for c in m.group("v")) <= 15:
            yield "phone", m.start("v"), m.end("v")
    for m in _EMAIL.finditer(text):
        yield "email", m.start(), m.end()
    for m in _HANDLE.finditer(text):
        yield "handle", m.start(1), m.end(1)
    if not _SPELLED_AT.search(text):  # most text spells out no address: skip the costly pattern
        return
    for m in _SPELLED_EMAIL.finditer(text):
        spelled = m.group()[len(m.group("user")) :]
        if _SPELLED_AT.search(spelled) and m.group("user").lower() not in _NOT_A_USER:
            yield "email", m.start(), m.end()
