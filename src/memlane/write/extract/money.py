"""Money amounts and price limits in Chinese and English, normalised to one readable form.

The normal form is what a budget slot holds, so that two ways of saying the same limit compare equal:
"手机预算7000-12000元" and "预算范围7000到1.2万" both give ``"7000-12000元"``; "500元以内" gives
``"≤500元"``; "under $500" gives ``"≤$500"``; "at least 3k euros" gives ``"≥€3000"``.

>>> budget_value("本轮预算500元以内")
'≤500元'
>>> budget_value("my budget is under $500")
'≤$500'
"""

from __future__ import annotations

import re

from memlane.domain import Category
from memlane.text.timewords import ZH_DIGITS

from .rule import Context, Draft

_NUM = r"\d+(?:[.,]\d+)*(?:\s*[万千kKw](?![a-zA-Z]))?"
_PRE = r"(?P<{0}pre>[$¥￥€£]|USD|RMB|CNY|EUR|GBP|US\$)?\s*"
_SUF = (
    r"\s*(?P<{0}suf>元|块钱?|人民币|美元|美金|刀|欧元|英镑|日元|(?i:rmb|cny|yuan|usd|dollars?|bucks|eur|euros?|gbp|"
    r"pounds?|yen)\b)?"
)
_AMOUNT = "{pre}(?P<{g}>" + _NUM + "){suf}"


def _amount(g: str) -> str:
    return _AMOUNT.format(pre=_PRE.format(g), g=g, suf=_SUF.format(g))


_RANGE = re.compile(_amount("a") + r"\s*(?:-|~|～|—|–|到|至|(?i:to))\s*" + _amount("b"))
_MAX = re.compile(
    r"(?:不超过|不高于|不要超过|别超过|(?:最多|最高|顶多)(?:能|就)?(?:花|掏|出|付|给)?|封顶|控制在|低于|少于|(?i:under|below|less\s+than|"
    r"no\s+more\s+than|not\s+more\s+than|at\s+most|max(?:imum)?|up\s+to|within|cap(?:ped)?\s+at))\s*"
    + _amount("a")
    + r"(?!\s*(?:-|~|到|至))"
    + r"|"
    + _amount("b")
    + r"\s*(?:以内|以下|之内|内|封顶|(?i:or\s+less|max\b|tops\b|at\s+most))"
)
_MIN = re.compile(
    r"(?:至少|起码|最少|不低于|(?i:at\s+least|over|above|more\s+than|minimum|min))\s*"
    + _amount("a")
    + "|"
    + _amount("b")
    + r"\s*(?:以上|起|(?i:or\s+more|plus\b|\+))"
)
_ANY = re.compile(
    r"(?P<approx>大概|大约|约|差不多|(?i:around|about|roughly|approximately|approx\.?|~))?\s*"
    + _amount("a")
    + r"\s*(?P<approx2>左右|上下|(?i:or\s+so|ish))?"
)
_CURRENCY = {
    "元": "元", "块": "元", "块钱": "元", "人民币": "元", "rmb": "元", "cny": "元", "yuan": "元", "¥": "元",
    "￥": "元", "$": "$", "us$": "$", "usd": "$", "美元": "$", "美金": "$", "刀": "$", "dollar": "$",
    "dollars": "$", "bucks": "$", "€": "€", "eur": "€", "euro": "€", "euros": "€", "欧元": "€", "£": "£",
    "gbp": "£", "pound": "£", "pounds": "£", "英镑": "£", "日元": "日元", "yen": "日元",
}  # fmt: skip
MONEY_WORD = re.compile(
    r"预算|价位|价格|价钱|花费|费用|不超过|以内|以下|左右|最多|顶多|(?i:\bbudget\b|\bprice\b|\bspend\b|\bafford\b|\bcost\b|"
    r"\bunder\b|\bbelow\b|\bmax(?:imum)?\b)"
)
# a budget that recurs is how the user lives, not a condition of the task at hand: "we budget 600 a
# month for food", "my monthly budget for eating out is 200", "每个月伙食预算两千"
_RECURRING = re.compile(
    r"每个?[月周年]|一个?月|(?i:\b(?:a|per|each|every)\s+(?:month|week|year)\b|\b(?:monthly|weekly|yearly|annual)\b)"
)
HAS_CURRENCY = re.compile(
    r"[$¥￥€£]|\d\s*(?:元|块|万|千|美元|欧元|(?i:k\b|rmb\b|usd\b|dollars?\b|bucks\b|euros?\b))"
)


def _number(text: str) -> str:
    text = text.replace(" ", "")
    factor = {"万": 10000, "w": 10000, "千": 1000, "k": 1000, "K": 1000}.get(text[-1:], 1)
    digits = text.rstrip("万千kKw").replace(",", "")
    try:
        value = float(digits) * factor
    except ValueError:
        return digits
    return str(int(value)) if value == int(value) else f"{value:g}"


def _currency(m: re.Match[str], default: str) -> str:
    for key in ("apre", "asuf", "bpre", "bsuf"):
        found = m.groupdict().get(key)
        if found:
            return _CURRENCY.get(found.lower(), default)
    return default


def _format(body: str, currency: str) -> str:
    if currency in ("$", "€", "£"):
        return re.sub(r"(\d[\d.]*)", lambda d: currency + d.group(1), body, count=1)
    return body + currency


# an amount in Chinese numerals: before what counts or limits it (五百块, 两千以内, 三千五左右), or after 预算
_ZH_AMOUNT = re.compile(
    r"[零〇一二两三四五六七八九十百千]+(?=\s*(?:万|块|元|刀|美元|欧元|英镑|日元|以内|以下|之内|左右|上下|以上))"
    r"|(?<=预算)[零〇一二两三四五六七八九十百千]+"
)
_ZH_PLACE = {"十": 10, "百": 100, "千": 1000}


def in_digits(text: str) -> str:
    """``text`` with its amounts in Chinese numerals written in digits, as the patterns above read them.

    >>> in_digits("预算五百块"), in_digits("两千以内"), in_digits("三千五左右"), in_digits("十五块")
    ('预算500块', '2000以内', '3500左右', '15块')
    """
    return _ZH_AMOUNT.sub(lambda m: str(_zh_number(m.group())), text)


def _zh_number(numeral: str) -> int:
    total, digit, place = 0, 0, 1
    for ch in numeral:
        if ch in _ZH_PLACE:
            place = _ZH_PLACE[ch]
            total, digit = total + (digit or 1) * place, 0
        else:
            digit = ZH_DIGITS[ch]
    # a digit after a place of a hundred or more is the next place down: 三千五 is 3500, 两百五 250
    return total + (digit * place // 10 if place >= 100 and numeral[-1] in ZH_DIGITS else digit)


def budget_value(text: str, default_currency: str = "") -> str | None:
    """The price limit ``text`` states, normalised ("≤500元", "7000-12000元", "≈$800"); None if none.

    ``default_currency`` is used when the text names none ("元" suits Chinese text).

    >>> budget_value("修硬盘我最多掏五百块", "元")
    '≤500元'
    """
    text = in_digits(text)
    m = _RANGE.search(text)
    if m:
        low, high = _number(m.group("a")), _number(m.group("b"))
        currency = _currency(m, default_currency)
        if currency in ("$", "€", "£"):
            return f"{currency}{low}-{high}"
        return f"{low}-{high}{currency}"
    for pattern, sign in ((_MAX, "≤"), (_MIN, "≥")):
        m = pattern.search(text)
        if m:
            amount = _number(m.group("a") or m.group("b"))
            return sign + _format(amount, _currency(m, default_currency))
    found = list(_ANY.finditer(text))
    keyword = MONEY_WORD.search(text)
    priced = [f for f in found if any(f.group(k) for k in ("apre", "asuf"))]
    after_keyword = [f for f in found if keyword and f.start() >= keyword.start()]
    chosen = priced or after_keyword or found[-1:]
    if chosen:
        m = chosen[0]
        sign = "≈" if m.group("approx") or m.group("approx2") else ""
        return sign + _format(_number(m.group("a")), _currency(m, default_currency))
    return None


def budget_draft(ctx: Context, default_currency: str) -> Draft | None:
    """A builder's result for a stated budget: slot ``budget`` whatever the thing bought.

    The slot never names the product: 手机预算7000-12000元 and a later 预算范围7000-12000元 must land in
    the same slot with the same value. The product still shows in the topic tags. A budget that
    recurs ("a month", "每月") is a lasting fact, not a condition of the task at hand.
    """
    text = in_digits(ctx.text)
    if not MONEY_WORD.search(text):
        return None
    if not (HAS_CURRENCY.search(text) or re.search(r"预算|价位|(?i:budget)", text)):
        return None
    value = budget_value(text, default_currency)
    if value is None:
        return None
    lasting = Category.FACT if _RECURRING.search(text) else None
    return Draft(category=lasting, slot="budget", value=value, tags=["budget"])
