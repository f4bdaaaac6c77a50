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
