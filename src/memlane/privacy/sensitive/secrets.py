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
    re.compile(r"(?<![A-Za-z0-9_])(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}(?![A-Za-z0-9])"),
    re.compile(
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,2048}\.eyJ[A-Za-z0-9_-]{8,2048}\.[A-Za-z0-9_-]{8,2048}"
    ),
    re.compile(r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----"),
]
_BEARER = re.compile(r"\bBearer\s+([A-Za-z0-9._~+/-]{16,4096}=*)", re.IGNORECASE)
_SEP = (
    r"(?:\s*我?(?:是|为|為|:|：|=|＝|改成了?|换成了?|设成了?|设为|设的是|设置的是|一般用|都用)){1,2}\s*"
    r"|\s+(?:is|was|are)(?:\s*[:=])?\s*|'s\s+|\s+(?:set\s+)?to\s+(?=\S*[0-9])"
)
_KEY_CONTEXT = re.compile(
    r"(?<![A-Za-z])(?:(?:api|app|access|license|licence|product|private|client|secret)[\s_-]?key"
    r"|secret(?:[\s_-]?(?:access[\s_-]?)?key)?|key"
    r"|(?:access|auth|api)[\s_-]?token|token|api\s?密钥|密钥|秘钥|令牌)"
    rf"(?:{_SEP}|\s+)[\"'“‘]?([A-Za-z0-9_./+=-]{{16,4096}})",
    re.IGNORECASE,
)
_QUOTE = "\"'“”‘’「」『』"
EN_WORD = (
    r"(?<![A-Za-z])(?:password|pas{1,2}(?:wor|wro|wo|wr)d|passowrd|passwd|passcode|pass\s?phrase|pwd|pw|(?:pin|puk)(?:\s+(?:code|number)|码)?"
    r"|(?:backup|recovery|security|verification|2fa|one[\s-]time)\s+codes?|otp|cvv|cvc|combination"
    r"|(?:lock|locker|safe|padlock)\s+combo"
    r"|(?:door|gate|alarm|garage|entry|lock|locker|safe|building|unlock|screen|pattern|atm)\s+code"
    r"|keypad(?:\s+code)?|(?:alarm|keypad|lock|safe)\s+(?:disarms|unlocks|opens)\s+with)"
)
# 秘码 and 蜜码 are the same word typed with the wrong character of the same sound
ZH_WORD = r"(?:密码|密碼|秘码|蜜码|口令|安全码|恢复码|备用码|验证码|门禁码|开门码|解锁码|锁屏码|开机码)"
# whose it is, between the word and the value: "door code: mine is 2580", "password: it's hunter2"
_WHOSE = r"(?:(?:mine|ours|it)(?:'s|’s|\s+is|\s+was)\s*)?"
# what may stand between the word and "is": "the password for my bank is", "wifi password at home is"
FOR = r"(?:\s+(?:for|to|of|at|on|in)(?:\s+[A-Za-z0-9'#.-]{1,24}){1,4}?)?"
_PASSWORD = re.compile(
    rf"(?:(?P<zh>{ZH_WORD})|(?P<en>{EN_WORD}){FOR})"
    rf"(?:{_SEP}){_WHOSE}[{_QUOTE}]?(?P<v>[^\s{_QUOTE}，。；！？、,;()（）\[\]<>]{{1,128}})",
    re.IGNORECASE,
)
# a passphrase of plain words runs to the end of its clause: "my password is correct horse battery staple"
_PHRASE = re.compile(r"[a-z]{2,20}(?: [a-z]{2,20}){2,5}(?=\s*(?:[.,;!?，。；！？\n]|$))")
_SPACED_DIGITS = re.compile(r"[0-9](?:[ -][0-9]){3,11}(?![0-9])")
# a secret the words announce with nothing between: "pin code 4321", "我的支付密码 887766", "路由器后台密码
# admin123456", "user kiki88, pass Meadow2020"
# a card's security code is three digits: "CVV 123", "安全码 789"
_CARD_CODE = re.compile(
    r"(?:(?<![A-Za-z])(?:cvv2?|cvc2?)|安全码)\s*[:：]?\s*(?P<v>[0-9]{3,4})(?![0-9])", re.IGNORECASE
)
_BARE_SECRET = re.compile(
    rf"(?:{EN_WORD}|(?<![A-Za-z])pass|{ZH_WORD})\s*(?P<v>(?<![A-Za-z0-9])[0-9]{{4,12}}(?![0-9])"
    r"|(?<![A-Za-z0-9])[A-Za-z0-9!@#$%^&*_.+-]{4,64}(?![A-Za-z0-9!@#$%^&*_+-]))",
    re.IGNORECASE,
)
# the value first: "\"maple syrup moonlight tractor\" is my passphrase", "hunter2 is my password"
_NAMED_AFTER = re.compile(
    rf"(?:[{_QUOTE}](?P<q>[^{_QUOTE}\n]{{1,128}})[{_QUOTE}]|(?<![^\s,:：])(?P<v>[A-Za-z0-9!@#$%^&*_.+-]{{4,64}}))"
    r"\s+(?:is|was)\s+(?:my|our|the)\s+(?:password|passphrase|pass\s+phrase|passcode|pin)\b",
    re.IGNORECASE,
)
_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_THEN = re.compile(r"\s+[A-Za-z0-9!@#$%^&*_.+-]*[0-9][A-Za-z0-9!@#$%^&*_.+-]*(?=$|[\s，。；！？,.;!?])")
# Words that follow "password is" in talk *about* a password rather than in a password itself.
_NOT_A_PASSWORD_EN = frozenset(
    {"not", "the", "a", "an", "my", "your", "same", "too", "wrong", "incorrect", "correct", "required"}
    | {"empty", "what", "set", "changed", "expired", "invalid", "reset", "and", "or", "missing", "weak"}
    | {"strong", "secure", "hidden", "blank", "saved", "stored", "here", "below", "above", "on", "in", "at"}
    | {"long", "short", "simple", "easy", "hard", "complicated", "complex", "old", "new", "safe", "bad"}
    | {"good", "fine", "ok", "okay", "compromised", "leaked", "written", "still", "now", "being", "to"}
    | {"case", "different", "unique", "known", "stolen", "hacked", "there", "it", "this", "that", "just"}
    | {"only", "always", "never", "very", "so", "really", "also", "no", "none", "nothing", "something"}
    | {"like", "based", "important", "useless", "terrible", "awful", "great", "protected", "for", "of"}
    | {"i", "you", "we", "they", "he", "she", "is", "was", "be", "been", "getting", "pretty", "kind", "sort"}
    | {"super", "way", "literally", "probably", "maybe", "definitely", "actually", "usually", "again"}
    | {"somewhere", "fixed", "working", "broken", "changing", "needed", "necessary", "optional", "enabled"}
    | {"disabled", "forgotten", "lost", "gone", "sent", "shared", "visible", "obvious", "predictable"}
    | {"mine", "ours", "yours", "his", "hers", "theirs"}
)
_NOT_A_PASSWORD_ZH = (
    *("什么", "多少", "啥", "几", "哪", "吗", "不", "错", "对", "正确", "多久", "忘", "空", "也", "太", "很"),
    *("被", "已经", "改", "过期", "泄露", "设", "在", "就", "还", "都", "要", "和", "跟", "一样", "我忘"),
)
# a passphrase is plain words, but not a sentence: none of these, and at most one word of the list above
_FUNCTION_WORDS = frozenset(
    {"the", "a", "an", "and", "or", "but", "to", "for", "of", "in", "on", "at", "it", "is", "was", "be"}
    | {"been", "i", "you", "we", "they", "he", "she", "this", "that", "my", "your", "our", "their", "now"}
    | {"so", "too", "very", "really", "not", "no", "just", "still", "again", "than", "as", "with", "by"}
    | {"from", "enough", "me", "him", "her", "them", "us", "if", "when", "because", "since", "all"}
)


def _looks_random(token: str) -> bool:
    shares = [n / len(token) for n in Counter(token).values()]
    entropy = -sum(p * math.log2(p) for p in shares)
    return any(c.isalpha() for c in token) and any(c.isdigit() for c in token) and entropy >= 3.0


def talk(value: str) -> bool:
    """Whether ``value``, read after "password is", is talk about a password rather than one."""
    return value.lower() in _NOT_A_PASSWORD_EN or value.startswith(_NOT_A_PASSWORD_ZH)


def find(text: str) -> Iterator[Span]:
    """Each password, PIN, key or token in ``text``."""
    for m in _CARD_CODE.finditer(text):
        yield "password", m.start("v"), m.end("v")
    for m in _BARE_SECRET.finditer(text):
        value = m.group("v")
        # after no "is", only what reads as a code counts: digits, or letters with digits in them
        if value.isdigit() or (looks_mixed(value) and not talk(value)):
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
        span = _announced(text, m)
        if span is not None:
            yield "password", *span
    for m in _NAMED_AFTER.finditer(text):
        group = "q" if m.group("q") is not None else "v"
        if group == "q" or (looks_mixed(m.group("v")) and not talk(m.group("v"))):
            yield "password", m.start(group), m.end(group)


def looks_mixed(value: str) -> bool:
    return any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


def _announced(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """The span of the secret that "password is" announces in ``m``, or None when it is talk."""
    start = m.start("v")
    phrase = _PHRASE.match(text, start)
    words = phrase.group().split() if phrase else []
    if words and not _FUNCTION_WORDS.intersection(words) and sum(w in _NOT_A_PASSWORD_EN for w in words) <= 1:
        return start, start + len(" ".join(words))
    digits = _SPACED_DIGITS.match(text, start)
    if digits:
        return start, digits.end()
    value = m.group("v")
    if not _CJK_CHAR.match(value):
        # "密码是abc123记得改": an ASCII password ends where the Chinese sentence resumes.
        cjk = _CJK_CHAR.search(value)
        value = value[: cjk.start()] if cjk else value
    value = value.rstrip(".:：?")
    keyword = (m.group("en") or "").lower()
    short = len(value) < (3 if keyword.startswith(("cvv", "cvc")) or m.group("zh") == "安全码" else 4)
    if not value or talk(value) or (short and not _CJK_CHAR.match(value)):
        return None
    if keyword.startswith(("pin", "puk", "cvv", "cvc")) and not value.isdigit():
        return None
    if re.match(r"[一二两三四五六七八九十0-9]+位", value):  # "密码是六位数": its length, not the password
        return None
    # "密码是生日加名字缩写 1992zw": words that say how it was made, then the password itself
    then = _THEN.match(text, start + len(value)) if _CJK_CHAR.match(value) else None
    return start, then.end() if then else start + len(value)
