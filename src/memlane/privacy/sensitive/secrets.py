"""Secrets: passwords, PINs, API keys and tokens, by their shape or by the words that announce them."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator

from .table import Span

_KEY_SHAPES = [
    re.compile(r"(?<![A-Za-z0-9_-])sk-(?:[A-Za-z0-9_-]{20,256})"),
    re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})"),
    re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])"),
    re.compile(r"(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,250}"),
    re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}"),
]
_BEARER = re.compile(r"\bBearer\s+([A-Za-z0-9._~+/-]{16,4096}=*)", re.IGNORECASE)
_SEP = r"(?:\s*(?:是|为|為|:|：|=|＝)){1,2}\s*|\s+(?:is|was)(?:\s*[:=])?\s*"
_KEY_CONTEXT = re.compile(
    r"(?<![A-Za-z])(?:api[\s_-]?key|access[\s_-]?key|secret(?:[\s_-]?key)?|(?:access|auth|api)[\s_-]?token"
    rf"|token|api\s?密钥|密钥|秘钥|令牌)(?:{_SEP})[\"'“‘]?([A-Za-z0-9_./+=-]{{16,4096}})",
    re.IGNORECASE,
)
_QUOTE = "\"'“”‘’「」『』"
_PASSWORD = re.compile(
    r"(?:(?P<zh>密码|密碼|口令)|(?<![A-Za-z])(?P<en>password|passwd|passcode|pass\s?phrase|pwd|pin))"
    rf"(?:{_SEP})[{_QUOTE}]?(?P<v>[^\s{_QUOTE}，。；！？、,;()（）\[\]<>]{{1,128}})",
    re.IGNORECASE,
)
_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Words that follow "password is" in talk *about* a password rather than in a password itself.
_NOT_A_PASSWORD_EN = frozenset(
    {"not", "the", "a", "an", "my", "your", "same", "too", "wrong", "incorrect", "correct", "required"}
    | {"empty", "what", "set", "changed", "expired", "invalid", "reset", "and", "or", "missing", "weak"}
    | {"strong", "secure", "hidden", "blank", "saved", "stored", "here", "below", "above"}
)
_NOT_A_PASSWORD_ZH = ("什么", "多少", "啥", "几", "哪", "吗", "不", "错", "对", "正确", "多久", "忘", "空")


def _looks_random(token: str) -> bool:
    shares = [n / len(token) for n in Counter(token).values()]
    entropy = -sum(p * math.log2(p) for p in shares)
    return any(c.isalpha() for c in token) and any(c.isdigit() for c in token) and entropy >= 3.0


# a secret the words announce with no "is" before it: "pin code 4321", "我的支付密码 887766"
_BARE_SECRET = re.compile(
    r"(?:(?<![A-Za-z])(?:pin(?:\s*(?:code|number|no\.?))?|passcode|password|passwd)"
    r"|(?:支付|银行卡|登录|取款|开机|门禁|锁屏|交易)?密码|口令)\s*(?P<v>[0-9]{4,12})(?![0-9])",
    re.IGNORECASE,
)


def find(text: str) -> Iterator[Span]:
    """Each password, PIN, key or token in ``text``."""
    for m in _BARE_SECRET.finditer(text):
        yield "password", m.start("v"), m.end("v")
    for shape in _KEY_SHAPES:
        for m in shape.finditer(text):
            # "sk-learn-tutorial-for-beginners" is prose; real keys mix letters and digits.
            if not m.group().startswith("sk-") or _looks_random(m.group()[3:]):
                yield "api_key", m.start(), m.end()
    for pattern in (_BEARER, _KEY_CONTEXT):
        for m in pattern.finditer(text):
            if _looks_random(m.group(1)):
                yield "api_key", m.start(1), m.end(1)
    for m in _PASSWORD.finditer(text):
        value = m.group("v")
        if not _CJK_CHAR.match(value):
            # "密码是abc123记得改": an ASCII password ends where the Chinese sentence resumes.
            cjk = _CJK_CHAR.search(value)
            value = value[: cjk.start()] if cjk else value
        value = value.rstrip(".:：")
        keyword = (m.group("en") or "").lower()
        if not value or value.lower() in _NOT_A_PASSWORD_EN or value.startswith(_NOT_A_PASSWORD_ZH):
            continue
        if keyword == "pin" and not (value.isdigit() and 4 <= len(value) <= 8):
            continue
        yield "password", m.start("v"), m.start("v") + len(value)
