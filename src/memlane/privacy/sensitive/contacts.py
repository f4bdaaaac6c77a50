"""Contact details: phone numbers and email addresses."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .table import Span

_MOBILE_CN = re.compile(r"(?<![0-9+])(?:(?:\+|00)86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}(?![0-9])")
# Deliberately loose, then checked in code: a tight pattern for every national format would backtrack.
_PHONE_INTL = re.compile(r"(?<![0-9A-Za-z+])\+[1-9][0-9 ()-]{6,20}")
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


def find(text: str) -> Iterator[Span]:
    """Each phone number or email address in ``text``."""
    for m in _MOBILE_CN.finditer(text):
        yield "phone", m.start(), m.end()
    for m in _PHONE_INTL.finditer(text):
        number = m.group().rstrip(" ()-")  # a number ends in a digit
        end = m.start() + len(number)
        if 8 <= sum(c.isdigit() for c in number) <= 15 and not text[end : end + 1].isdigit():
            yield "phone", m.start(), end
    for m in _EMAIL.finditer(text):
        yield "email", m.start(), m.end()
    if not _SPELLED_AT.search(text):  # most text spells out no address: skip the costly pattern
        return
    for m in _SPELLED_EMAIL.finditer(text):
        spelled = m.group()[len(m.group("user")) :]
        if _SPELLED_AT.search(spelled) and m.group("user").lower() not in _NOT_A_USER:
            yield "email", m.start(), m.end()
