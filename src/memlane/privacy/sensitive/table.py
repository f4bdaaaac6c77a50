"""The kinds of sensitive data: one row each, the single place their names, labels and rules live.

Every other module (the policy, the judge's reasons, the input checks, the placeholders ``redact``
writes) reads this table, so adding a kind is adding a row.

>>> KINDS["address"].placeholder("zh")
'[已隐藏:住址]'
>>> KINDS["password"].described
'a password'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Span = tuple[str, int, int]
"""What a detector yields: the kind and the ``[start, end)`` of its value in the scanned text."""


@dataclass(frozen=True)
class Kind:
    """One kind of sensitive data."""

    name: str
    label_zh: str  # inside the Chinese placeholder: [已隐藏:住址]
    label_en: str  # inside the English placeholder: [redacted: address]
    described: str  # how a reason names it: "contains a home address"
    never_store: bool  # its presence alone makes a message unfit for long-term memory

    def placeholder(self, lang: str = "en") -> str:
        """The mask ``redact`` writes for this kind in ``lang`` (``"zh"`` or ``"en"``)."""
        zh = lang.lower().startswith("zh")
        return f"[已隐藏:{self.label_zh}]" if zh else f"[redacted: {self.label_en}]"


# In order of strength: where two findings overlap the earlier kind wins. A valid ID checksum is
# stronger evidence than Luhn, and a secret matters more than the phone number or clause it sits in.
KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("id_card", "身份证号", "ID number", "an ID-card number", never_store=True),
        Kind("bank_card", "银行卡号", "card number", "a bank-card number", never_store=True),
        Kind("api_key", "密钥", "API key", "an API key or token", never_store=True),
        Kind("password", "密码", "password", "a password", never_store=True),
        Kind("health", "健康信息", "health detail", "a health detail", never_store=True),
        Kind("phone", "手机号", "phone", "a phone number", never_store=False),
        Kind("email", "邮箱", "email", "an email address", never_store=False),
        Kind("handle", "聊天账号", "messaging ID", "a messaging account", never_store=False),
        Kind("address", "住址", "address", "a home address", never_store=False),
    )
}

NEVER_STORE: frozenset[str] = frozenset(k.name for k in KINDS.values() if k.never_store)
"""Kinds whose presence alone makes a message unfit for long-term memory, even in redacted form,
because the surrounding sentence still says they exist."""

KIND_OF_PLACEHOLDER: dict[str, str] = {
    k.placeholder(lang): k.name for k in KINDS.values() for lang in ("zh", "en")
}

PLACEHOLDER: re.Pattern[str] = re.compile(
    "|".join(re.escape(p) for p in sorted(KIND_OF_PLACEHOLDER, key=len, reverse=True))
)
"""Matches any placeholder that ``redact`` writes, in either language."""


def described(kinds: list[str], lang: str = "en") -> str:
    """The kinds as a reason names them in ``lang``: ``"a password and a phone number"``, or
    ``"密码和手机号"`` in Chinese."""
    if lang == "zh":
        return "和".join(KINDS[k].label_zh if k in KINDS else k for k in kinds)
    return " and ".join(KINDS[k].described if k in KINDS else k for k in kinds)
