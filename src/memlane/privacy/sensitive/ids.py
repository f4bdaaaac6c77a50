"""Identity and card numbers: mainland resident IDs (with their check digit), the US SSN, any number the
text calls an ID, passport or licence number, and payment cards (Luhn)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from .table import Span

_DIGIT = re.compile(r"[0-9]")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_REGIONS = frozenset(
    {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46}
    | {50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83}
)
_ID18 = re.compile(r"(?<![0-9])[0-9]{17}[0-9Xx](?![0-9])")
_ID15 = re.compile(r"(?<![0-9])[0-9]{15}(?![0-9])")
_ID15_CONTEXT = re.compile(r"身份证|身份證|证件号|\bID\b|identity", re.IGNORECASE)
_CARD_RUN = re.compile(r"(?<![0-9])[2-6][0-9]{12,18}(?![0-9])")
_CARD_GROUPED = re.compile(
    r"(?<![0-9])(?:[2-6][0-9]{3}([ .-])[0-9]{4}(?:\1[0-9]{4}){1,2}(?:\1[0-9]{1,4})?"
    r"|3[0-9]{3}([ .-])[0-9]{6}\2[0-9]{5})(?![0-9])"
)
# a number written as a card is written (4-4-4-4) right after a card's name: a card whatever its checksum
# ("我的招行卡：6214-8301-…", "my visa ends up being 5201 2345 …"); a membership card's number errs to masked
_CARD_NAMED = re.compile(r"(?i)(?:卡|visa|master\s*card|amex|debit|credit)[^0-9]{0,16}$")
# When the words say what a number is, it is one whatever its checksum: "我的银行卡号是6222…",
# "my card number is 1234 5678 9012 3456", "account 483920174".
CARD_WORDS = (
    r"(?:卡号|银行卡|信用卡|储蓄卡|借记卡|工资卡|银行账号|银行账户|银行帐户|账号|帐号|账户|帐户|户号|全号|卡号码"
    r"|(?<![A-Za-z])(?:card|account|acct|routing|iban|sort\s+code)(?:\s+(?:number|no\.?|#))?)"
)
"""The words that announce a card or account number (a pattern source)."""
CARD_NUMBER = r"(?<![0-9])[0-9](?:[ .-]?[0-9]){7,22}(?![0-9])"
_CARD_WORDS = re.compile(
    rf"{CARD_WORDS}(?:\s*(?:is|was|'s|是|为|:|：|=|号码|号))*\s*({CARD_NUMBER})", re.IGNORECASE
)
_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])"
)


# Other countries' numbers have no shared shape; the US SSN has one, and any number the text itself
# calls an identity, passport, licence, insurance, patient or member number counts: it names a person.
_SSN = re.compile(r"(?<![0-9-])(?!000|666|9[0-9]{2})[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}(?![0-9-])")
# English names of a personal identifier: some stand alone ("passport E1234567"), others name one only
# with "ID" or "number" after them ("member ID", "policy number"), so "my policy is strict" is not one
_EN_HOLDER = (
    r"member(?:ship)?|subscriber|policy(?:holder)?|(?:health\s+)?insurance|health\s+(?:card|plan)|patient"
    r"|medical\s+record|nhs|social\s+insurance|residence\s+permit|visa|green\s+card"
    r"|voter|tax(?:payer)?|tax\s+file|military|veteran"
)
_EN_ID_WORDS = (
    r"passport|national\s+id(?:entity)?(?:\s+card)?|id\s+card|identity\s+card|social\s+security"
    r"|(?<![A-Za-z])(?:ssn|sin|nino|id|mrn)|national\s+insurance|medicare|medicaid|driver'?s?\s+licen[cs]e"
    r"|licen[cs]e|tax\s+id|aadhaar|nric"
    rf"|(?<![A-Za-z])(?:{_EN_HOLDER})\s+(?:id|number|no\.?|#|card\s+(?:number|no\.?))"
)
# Chinese: the document, then up to four characters of what number of it ("医保个人编号", "社保卡的号码")
_ZH_ID_WORDS = (
    r"(?:护照|身份证|身份證|證件|证件|驾照|驾驶证|居留证|居住证|通行证|台胞证|军官证|社保卡|社保|医保卡|医保"
    r"|社会保障|社会安全|纳税人识别|签证|保单|保险单|病历|就诊卡|医疗卡)(?:[\u4e00-\u9fff]{0,4}?(?:号码|编号|号))?"
    r"|税号|保险号"
)
ID_WORDS = rf"(?:{_EN_ID_WORDS}|{_ZH_ID_WORDS})"
"""The words that announce an identity number (a pattern source)."""
# what may stand between the words and the number: "subscriber number for my health plan is 9921…"
_ID_FOR = r"(?:\s+(?:for|on|at|with|of|in|from)(?:\s+[A-Za-z0-9'&.-]{1,24}){1,4}?)?"
# the number may be written in groups ("EA 8834 221", "330106 19850615 1233"); a group after a blank
# starts with a digit, so the words after a number are not read as more of it; the first group holds
# a digit or is a short prefix (EA), so a word ("for the …") is not taken for the number and the words
# after it still get their chance
ID_NUMBER = r"(?=[A-Z0-9-]*[0-9]|[A-Z]{1,3} [0-9])[A-Z0-9][A-Z0-9-]{1,19}(?: [0-9][A-Z0-9-]{1,9}){0,4}"
_ID_LABELLED = re.compile(
    rf"(?P<word>{ID_WORDS})(?:\s*(?:number|no\.?|#|号码|字号|字號|号))?{_ID_FOR}"
    rf"(?:\s*(?:is|was|'s|是|为|:|：|=)){{0,2}}\s*({ID_NUMBER})(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# the last digits of an identity number, which verify a person as the whole does: "身份证后四位是1234",
# "last four of my SSN are 6789", "my SSN's last 4 digits: 6789", "my SSN ends in 6789"
_ID_TAIL = re.compile(
    rf"(?:{_ZH_ID_WORDS})(?:号码|号)?的?\s*(?:后|末|最后|尾号)\s*(?:[四五六4-6]\s*位)?(?:数字|数)?"
    r"(?:\s*(?:是|为|:|：))?\s*([0-9]{3,5}[0-9Xx])(?![0-9])"
    rf"|(?i:(?:{_EN_ID_WORDS})(?:\s+(?:number|no\.?|#))?(?:'s)?\s+(?:last|final)\s+(?:four|4|six|6)"
    r"(?:\s+digits)?(?:\s*(?:is|are|:|=))?\s*([0-9]{4,6}))(?![0-9])"
    rf"|(?i:(?:last|final)\s+(?:four|4|six|6)(?:\s+digits)?\s+of\s+(?:my\s+|the\s+)?(?:{_EN_ID_WORDS})"
    r"(?:\s+(?:number|no\.?|#))?(?:\s*(?:is|are|:|=))?\s*([0-9]{4,6}))(?![0-9])"
    # "my SSN ends in 6789"
    rf"|(?i:(?:{_EN_ID_WORDS})(?:\s+(?:number|no\.?|#))?\s+(?:ends?|ending)\s+(?:in|with)\s+([0-9]{{4,6}}))(?![0-9])"
)
# an "ID" that belongs to a thing or an account, not to a person: "order ID 8823…", "my Apple ID is …".
# A work or school number (工号, 学号, employee ID) opens a badge, not a record about the person: it is
# not kept out either
_THING_ID = re.compile(
    r"(?i)(?:order|tracking|transaction|booking|reservation|confirmation|ticket|flight|case|reference|ref"
    r"|request|session|product|item|model|serial|room|table|job|task|bug|issue|process|device|meeting"
    r"|zoom|game|app|apple|user|wechat|discord|steam|telegram|skype|video|file|document|invoice|package"
    r"|parcel|shipment|receipt|claim|payment|merchant|chat|group|channel|account|login|player"
    r"|employee|staff|student|badge|work)\s*$"
)
# a number the words give to a thing: one in ten passes Luhn by chance ("我的订单号是 2024031288812")
_THING_NUMBER = re.compile(
    r"(?:订单|单号|运单|快递|物流|发票|航班|车次|工单|流水号|交易号|预订号|确认号|取件码|票号)[^0-9]{0,6}$"
    r"|(?i:(?:order|tracking|invoice|flight|booking|reservation|confirmation|ticket|transaction|reference"
    r"|ref|case|serial|parcel|shipment|receipt)\s*(?:number|no\.?|#|id|code)\s*(?:is|was|:|=)?\s*)$"
)


def id_number_ok(number: str) -> bool:
    """Whether ``number``, after words that name an identifier, reads as one: four digits or more,
    and a first group of letters only in capitals (EA 8834), so "passport" + a word is no number."""
    first = number.split(" ")[0]
    return (
        sum(c.isdigit() for c in number) >= 4 and len(number) >= 5 and (first.isupper() or _has_digit(first))
    )


def thing_id(text: str, word_start: int, word: str) -> bool:
    """Whether the bare "ID" at ``word_start`` names a thing's id (an order, an app account)."""
    return word.lower() == "id" and _THING_ID.search(text, max(0, word_start - 24), word_start) is not None


def _birth_date_ok(year: int, month: int, day: int) -> bool:
    try:
        born = date(year, month, day)
    except ValueError:
        return False
    return date(1900, 1, 1) <= born <= date.today()


def _is_id18(number: str) -> bool:
    check = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True)) % 11  # ISO 7064 MOD 11-2
    return (
        int(number[:2]) in _ID_REGIONS
        and _birth_date_ok(int(number[6:10]), int(number[10:12]), int(number[12:14]))
        and "10X98765432"[check] == number[17].upper()
    )


def _luhn_ok(digits: str) -> bool:
    doubled = (d * 2 - 9 if d > 4 else d * 2 for d in map(int, digits[-2::-2]))
    return (sum(map(int, digits[::-2])) + sum(doubled)) % 10 == 0


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _iban_ok(iban: str) -> bool:
    code = iban.replace(" ", "")
    moved = code[4:] + code[:4]  # ISO 13616: the country and check digits go to the end, mod 97 is 1
    return 15 <= len(code) <= 34 and int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def find(text: str) -> Iterator[Span]:
    """Each identity or card number in ``text``."""
    if not _DIGIT.search(text):  # every number here has digits; most messages have none
        return
    for m in _ID18.finditer(text):
        if _is_id18(m.group()):
            yield "id_card", m.start(), m.end()
    # The old 15-digit ID has no check digit, so it counts only when the text says it is an ID.
    for m in _ID15.finditer(text):
        number = m.group()
        if (
            int(number[:2]) in _ID_REGIONS
            and _birth_date_ok(1900 + int(number[6:8]), int(number[8:10]), int(number[10:12]))
            and _ID15_CONTEXT.search(text, max(0, m.start() - 16), m.start())
        ):
            yield "id_card", m.start(), m.end()
    for m in _SSN.finditer(text):
        yield "id_card", m.start(), m.end()
    for m in _ID_LABELLED.finditer(text):
        if id_number_ok(m.group(2)) and not thing_id(text, m.start("word"), m.group("word")):
            yield "id_card", m.start(2), m.end(2)
    for m in _ID_TAIL.finditer(text):
        group = next(g for g in (1, 2, 3, 4) if m.group(g))
        yield "id_card", m.start(group), m.end(group)
    for pattern in (_CARD_RUN, _CARD_GROUPED):
        for m in pattern.finditer(text):
            digits = re.sub(r"[ .-]", "", m.group())
            thing = _THING_NUMBER.search(text, max(0, m.start() - 20), m.start())
            checked = _luhn_ok(digits) or (
                pattern is _CARD_GROUPED and _CARD_NAMED.search(text, max(0, m.start() - 24), m.start())
            )
            if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and checked and not thing:
                yield "bank_card", m.start(), m.end()
    for m in _CARD_WORDS.finditer(text):
        yield "bank_card", m.start(1), m.end(1)
    for m in _IBAN.finditer(text):
        if _iban_ok(m.group()):
            yield "bank_card", m.start(), m.end()
