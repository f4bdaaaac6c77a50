"""Credentials given as a pair or a list: a login and its password, or several codes at once.

"my hulu login is kate.m / Otter42!" and "creds are admin:Passw0rd" name no password, yet the second
half of the pair is one; "用户名 lily 密码 sunflower" labels each half, so the password may be a plain
word; "账号密码分别是 lily 和 sunflower9" and "两张卡的密码分别是 1234 和 5678" list them. A pair or a
list is masked whole, from its first value to its last; a labelled pair only in its password.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secrets import EN_WORD, FOR, ZH_WORD, looks_mixed, talk
from .table import Span

_TOKEN = r"[A-Za-z0-9._@+!#$%^&*~-]{2,64}"
# words that name a login with both halves: "login", "creds", "username/password", "账号密码"
_LOGIN = (
    r"(?:(?<![A-Za-z])(?:log[\s-]?in|sign[\s-]?in)(?:\s+(?:details|info|credentials))?|(?<![A-Za-z])creds"
    r"|(?<![A-Za-z])credentials|(?<![A-Za-z])user(?:name)?\s*(?:/|and|&)\s*pass(?:word)?"
    r"|(?:账号|帐号|账户|用户名|登录名)\s*(?:和|与|跟|/|、)?\s*(?:密码|口令)|登录(?:信息|账号)|账密)"
)
_IS = (
    r"\s{0,3}(?:分别是|分别为|都是|是|为|:|：|=)\s{0,3}"
    r"|\s{1,3}(?:are|is|was)(?:\s+respectively)?(?:\s?[:=])?\s{0,3}"
)
_PAIR = re.compile(
    rf"{_LOGIN}{FOR}(?:{_IS})(?P<user>{_TOKEN})"
    rf"(?P<sep>\s{{0,3}}(?:/|:|,|，|、|和|and|&)\s{{0,3}}|\s{{1,3}})(?P<pw>{_TOKEN})(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# each half labelled: "用户名 lily 密码 sunflower", "user: lily pw: sunflower", "账号zhangwei，密码abc"
_LABELLED = re.compile(
    rf"(?<![A-Za-z])(?:用户名|账号|帐号|登录名|user(?:name)?|login|id)\s{{0,3}}[:：是为=]?\s{{0,3}}{_TOKEN}"
    rf"[\s,，;；/]{{0,4}}(?:{ZH_WORD}|{EN_WORD}|(?<![A-Za-z])pass)\s{{0,3}}[:：是为=]?\s{{0,3}}(?P<pw>{_TOKEN})"
    r"(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# several secrets at once: "密码分别是 1234 和 5678", "the PINs are 1234 and 5678 respectively"
_LIST = re.compile(
    rf"(?:{ZH_WORD}|{EN_WORD}s?)[^，。；！？,.;!?\n]{{0,12}}?(?:分别是|分别为|分别)\s{{0,3}}"
    rf"(?P<list>{_TOKEN}(?:\s{{0,3}}(?:和|、|,|，|/|and|&)\s{{0,3}}{_TOKEN}){{1,8}})(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# what a user name or a password here is never: talk about the login ("my login is the same / broken")
_NOT_A_VALUE = frozenset(
    {"email", "password", "passwd", "pwd", "pw", "pass", "username", "user", "phone", "name", "pin", "number"}
)


def _value(token: str) -> bool:
    return bool(token) and not talk(token) and token.lower() not in _NOT_A_VALUE


# a word all three patterns need: most messages have none, and skip them
_ROUGH = re.compile(
    r"(?i:log|sign|cred|user|pass|pw|pin|puk|otp|cv|code|combination)|账|帐|用户|登录|密|碼|口令|码"
)


def find(text: str) -> Iterator[Span]:
    """Each credential pair or list in ``text``."""
    if not _ROUGH.search(text):
        return
    for m in _PAIR.finditer(text):
        user, sep, pw = m.group("user"), m.group("sep").strip(), m.group("pw")
        # two bare words ("my login is slow and broken") are talk; a slash, a colon or a code is a pair
        if _value(user) and _value(pw) and (sep in ("/", ":") or looks_mixed(pw)):
            yield "password", m.start("user"), m.end("pw")
    for m in _LABELLED.finditer(text):
        if _value(m.group("pw")):
            yield "password", m.start("pw"), m.end("pw")
    for m in _LIST.finditer(text):
        values = re.split(r"\s*(?:和|、|,|，|/|and|&)\s*", m.group("list"), flags=re.IGNORECASE)
        if all(_value(v) for v in values) and any(v.isdigit() or looks_mixed(v) for v in values):
            yield "password", m.start("list"), m.end("list")
