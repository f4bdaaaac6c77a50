"""Find sensitive data in Chinese and English text, and mask it.

``scan`` returns what it found; ``redact`` writes a placeholder in the text's language in place of each
value; ``kinds`` reads the placeholders back out of a redacted text. Kinds in ``NEVER_STORE`` must not
reach long-term memory even in redacted form, because the surrounding sentence still says they exist.

>>> redact("我的密码是hunter2，别告诉别人")
'我的密码是[已隐藏:密码]，别告诉别人'
>>> kinds("call me at [redacted: phone]")
['phone']

Patterns over runs of digits or letters start behind a look-behind, so a match can begin only where a
run begins, and repeats that sit side by side are bounded: a megabyte of digits, letters or blanks costs
linear time, not quadratic.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from memlane.text.lang import detect, fold


@dataclass(frozen=True)
class Finding:
    """One sensitive value: its kind and the ``[start, end)`` span of ``value`` in the scanned text."""

    kind: str
    start: int
    end: int
    value: str


NEVER_STORE: frozenset[str] = frozenset({"id_card", "bank_card", "password", "api_key", "health"})
"""Kinds whose presence alone makes a message unfit for long-term memory."""

_LABELS: dict[str, tuple[str, str]] = {
    "id_card": ("身份证号", "ID number"),
    "bank_card": ("银行卡号", "card number"),
    "password": ("密码", "password"),
    "api_key": ("密钥", "API key"),
    "health": ("健康信息", "health detail"),
    "phone": ("手机号", "phone"),
    "email": ("邮箱", "email"),
    "address": ("住址", "address"),
}
_KIND_BY_PLACEHOLDER = {
    placeholder: kind
    for kind, (zh, en) in _LABELS.items()
    for placeholder in (f"[已隐藏:{zh}]", f"[redacted: {en}]")
}
PLACEHOLDER: re.Pattern[str] = re.compile(
    "|".join(re.escape(p) for p in sorted(_KIND_BY_PLACEHOLDER, key=len, reverse=True))
)
"""Matches any placeholder that ``redact`` writes, in either language."""

# Where two findings overlap the earlier kind wins: a valid ID checksum is stronger evidence than Luhn,
# and a secret matters more than the phone number or clause it sits in.
_PRIORITY = {
    "id_card": 0,
    "bank_card": 1,
    "api_key": 2,
    "password": 3,
    "health": 4,
    "phone": 5,
    "email": 6,
    "address": 7,
}

_Span = tuple[str, int, int]

# --- identity and card numbers ---------------------------------------------------------------------------

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
    r"(?<![0-9])(?:[2-6][0-9]{3}([ -])[0-9]{4}(?:\1[0-9]{4}){1,2}(?:\1[0-9]{1,4})?"
    r"|3[0-9]{3}([ -])[0-9]{6}\2[0-9]{5})(?![0-9])"
)


# Other countries' numbers have no shared shape; the US SSN has one, and any number the text itself
# calls an ID, passport or licence number counts.
_SSN = re.compile(r"(?<![0-9-])(?!000|666|9[0-9]{2})[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}(?![0-9-])")
_ID_WORDS = (
    r"(?:passport|national\s+id(?:entity)?(?:\s+card)?|id\s+card|identity\s+card|social\s+security"
    r"|ssn|driver'?s?\s+licen[cs]e|licen[cs]e|护照|身份证|證件|证件|驾照|驾驶证|居留证|通行证)"
)
_ID_LABELLED = re.compile(
    _ID_WORDS + r"(?:\s*(?:number|no\.?|#|号码|号))?(?:\s*(?:is|was|是|为|:|：|=)){0,2}\s*"
    r"([A-Z0-9][A-Z0-9-]{4,19})(?![A-Za-z0-9])",
    re.IGNORECASE,
)


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


def _ids_and_cards(text: str) -> Iterator[_Span]:
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
        if sum(c.isdigit() for c in m.group(1)) >= 4:  # a word after "passport" is not a number
            yield "id_card", m.start(1), m.end(1)
    for pattern in (_CARD_RUN, _CARD_GROUPED):
        for m in pattern.finditer(text):
            digits = re.sub(r"[ -]", "", m.group())
            if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn_ok(digits):
                yield "bank_card", m.start(), m.end()


# --- secrets ---------------------------------------------------------------------------------------------

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


def _secrets(text: str) -> Iterator[_Span]:
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


# --- contact details -------------------------------------------------------------------------------------

_MOBILE_CN = re.compile(r"(?<![0-9+])(?:(?:\+|00)86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}(?![0-9])")
# Deliberately loose, then checked in code: a tight pattern for every national format would backtrack.
_PHONE_INTL = re.compile(r"(?<![0-9A-Za-z+])\+[1-9][0-9 ()-]{6,20}")
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}"
    r"(?![A-Za-z0-9-])"
)


def _contacts(text: str) -> Iterator[_Span]:
    for m in _MOBILE_CN.finditer(text):
        yield "phone", m.start(), m.end()
    for m in _PHONE_INTL.finditer(text):
        number = m.group().rstrip(" ()-")  # a number ends in a digit
        end = m.start() + len(number)
        if 8 <= sum(c.isdigit() for c in number) <= 15 and not text[end : end + 1].isdigit():
            yield "phone", m.start(), end
    for m in _EMAIL.finditer(text):
        yield "email", m.start(), m.end()


# --- precise addresses -----------------------------------------------------------------------------------
# A city or district alone is not sensitive ("我住在杭州"); a street with a house number, or a building
# with a flat, locates a home. The part that locates it is masked; "我住在" stays.

_ZH_NUM = r"[0-9０-９一二三四五六七八九十百零〇]{1,6}"
_ZH_UNIT = rf"(?:\s*(?:{_ZH_NUM}|[A-Za-z])\s*(?:号楼|栋|幢|座|单元|层|楼|室|户|号))"
_ZH_PLACE = r"(?:[\u4e00-\u9fff]{2,8}?(?:省|市|区|县|镇|乡|街道))"
_ZH_FLAT = r"(?:\s*[0-9]{1,5}(?![0-9]))?"  # a flat number written bare at the end: 3单元501
_ZH_STREET = re.compile(
    rf"{_ZH_PLACE}{{0,4}}"
    rf"[\u4e00-\u9fff]{{1,8}}?(?:路|街|大道|大街|巷|弄|胡同|道)\s*{_ZH_NUM}\s*[号號]{_ZH_UNIT}{{0,4}}{_ZH_FLAT}"
)
# a building of a named estate (紫藤花园七号楼) locates a home only when the sentence says it is one:
# "我最喜欢的地方是紫藤花园七号楼的屋顶花园" names a place, "我住在紫藤花园7栋" an address
_ZH_BUILDING = re.compile(
    rf"{_ZH_PLACE}{{0,4}}"
    rf"[\u4e00-\u9fff]{{2,10}}?(?:小区|花园|公寓|大厦|家园|新村|苑|府)(?:{_ZH_NUM}[区期])?"
    rf"\s*{_ZH_NUM}\s*(?:号楼|栋|幢|座){_ZH_UNIT}{{0,3}}{_ZH_FLAT}"
)
_ZH_HOME = re.compile(r"住|家|地址|寄到|寄给|送到|送货|收货|快递|搬到|搬去|租")
# what precedes a place in a sentence, not part of it: cut the match after the last of these
_ZH_LEAD = re.compile(r".*(?:住在|住址是|住址|地址是|地址|家在|搬到|寄到|送到|位于|是|在|到|：|:)")
_EN_ADDRESS = re.compile(
    r"(?<![A-Za-z0-9])\d{1,6}[A-Za-z]?(?:-\d{1,4})?\s+(?:[A-Z][A-Za-z'.-]*\s+){1,4}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Close"
    r"|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy)\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Unit|Suite|Flat|#)\.?\s*[A-Za-z0-9-]{1,8})?"
)


def _addresses(text: str) -> Iterator[_Span]:
    homes = [m for m in _ZH_BUILDING.finditer(text) if _ZH_HOME.search(text, max(0, m.start() - 12), m.end())]
    for m in sorted([*_ZH_STREET.finditer(text), *homes], key=lambda m: m.start()):
        lead = _ZH_LEAD.match(m.group())
        start = m.start() + (lead.end() if lead else 0)
        if start < m.end():
            yield "address", start, m.end()
    for m in _EN_ADDRESS.finditer(text):
        yield "address", m.start(), m.end()


# --- health ----------------------------------------------------------------------------------------------

_ZH_ADV = (
    r"(?:最近|一直|也|还|都|已经|去年|前年|今年|上个月|上周|前几天|从小|小时候|早就|刚刚|刚|本身|自己"
    r"|长期|好像|可能|确实|其实|正在|每天|平时|现在|目前|又|终于){0,3}"
)
_ZH_MOD = r"(?:一点|点|轻微的?|轻度|中度|重度|严重的?|慢性|急性|先天性){0,2}"
# "X病/症/癌/炎" covers most named conditions; the excluded characters keep "有时间看病" and
# "有个坏毛病" out.
_ZH_COND = (
    r"(?:(?:(?![个一两几些位只条件本种的了是点毛看去治生时空问说和跟])[\u4e00-\u9fff]){1,4}"
    r"(?:病|症|癌|瘤|炎)|高血压|低血压|高血脂|高血糖|糖尿|抑郁|哮喘|艾滋|HIV|乙肝|癫痫|失眠|痛风"
    r"|甲亢|甲减|不孕|不育|精神分裂|双相|自闭|多动|厌食|暴食|阿尔茨海默|帕金森|红斑狼疮|偏头痛|结石"
    r"|尿毒|结核|梅毒|疱疹|新冠|贫血|脑梗|心梗|中风)"
)
_ZH_MED = (
    r"[\u4e00-\u9fff]{0,6}?(?:药|胰岛素|激素|二甲双胍|阿司匹林|布洛芬|抗生素|头孢|青霉素|安眠|他汀"
    r"|华法林|优甲乐|舍曲林|氟西汀|帕罗西汀|避孕)"
)
# A clause start counts as first person: Chinese drops the subject, "确诊了…" means the speaker.
_ZH_START = r"(?<![^\s，。；！？;!?,.:：、\n])(?=[\u4e00-\u9fff])"
_ZH_HEALTH = re.compile(
    rf"(?:我|本人|{_ZH_START}){_ZH_ADV}(?:被|已)?(?:确诊|诊断出|被诊断|患有|患上|怀孕|怀上|怀了(?:宝宝|孩子|二胎)"
    rf"|住院|化疗|做化疗|透析|(?:在吃|正在吃|一直吃|每天吃|长期吃|吃着|在服用|服用|在打|打着|每天打|天天打|定期打|注射|靠){_ZH_MED})"
    rf"|(?:我|本人){_ZH_ADV}(?:有|得了|得过|患了|查出了?|检查出了?){_ZH_MOD}{_ZH_COND}"
    rf"|{_ZH_START}{_ZH_ADV}(?:得了|查出了?|检查出了?){_ZH_MOD}{_ZH_COND}"
    rf"|我{_ZH_ADV}(?:对[^\s，。；！？,.;!?]{{1,12}}?过敏|过敏|是过敏体质)|我的{_ZH_MOD}{_ZH_COND}|我的{_ZH_MED}"
)
_EN_COND = (
    r"(?:diabetes|cancer|tumou?r|leuka?emia|lymphoma|depression|anxiety(?:\s+disorder)?"
    r"|panic\s+(?:attacks|disorder)|bipolar(?:\s+disorder)?|schizophrenia|adhd|autism|ptsd|ocd|hiv|aids"
    r"|hepatitis(?:\s+[abc])?|asthma|epilepsy|seizures|hypertension|high\s+blood\s+pressure"
    r"|high\s+cholesterol|heart\s+(?:disease|condition|failure|problems)|arthritis|migraines?|insomnia"
    r"|sleep\s+apnea|anorexia|bulimia|eating\s+disorder|dementia|alzheimer'?s|parkinson'?s"
    r"|multiple\s+sclerosis|lupus|crohn'?s(?:\s+disease)?|celiac(?:\s+disease)?|ibs|(?:long\s+)?covid"
    r"|tuberculosis|stds?|stis?|herpes|chlamydia|gonorrhea|syphilis|endometriosis|pcos|infertility"
    r"|kidney\s+(?:disease|failure|stones)|liver\s+disease|cirrhosis|hypothyroidism|hyperthyroidism"
    r"|thyroid\s+(?:disease|problems|issues)|fibromyalgia|chronic\s+pain|allerg(?:y|ies)|psoriasis|eczema"
    r"|scoliosis|disability|stroke|gout|an(?:a)?emia|mental\s+illness|(?:medical|health)\s+condition)"
)
_EN_MED = (
    r"(?:insulin|metformin|antidepressants?|ssris?|sertraline|zoloft|prozac|fluoxetine|lexapro"
    r"|escitalopram|xanax|alprazolam|valium|adderall|ritalin|lithium|chemo(?:therapy)?|radiation\s+therapy"
    r"|dialysis|statins?|blood\s+thinners?|warfarin|birth\s+control|antibiotics|painkillers|opioids"
    r"|oxycodone|methadone|prednisone|steroids|levothyroxine|antipsychotics?"
    r"|(?:blood\s+pressure|anxiety|diabetes|thyroid|heart|sleeping)\s+(?:meds|medications?|pills)"
    r"|medications?|meds|hormone\s+(?:therapy|replacement)|hrt|inhaler|epipen"
    r"|prescription\s+(?:drugs|meds|medication))"
)
_EN_MOD = (
    r"(?:(?:a|an|the|some|own|severe|mild|chronic|early|bad|terrible|clinical|postpartum|ongoing"
    r"|type\s+[12]|stage\s+[1-4iv]{1,3}|breast|lung|skin|prostate|colon)\s+){0,3}"
)
_EN_ME = (
    r"\bI(?:'m|’m|\s+am|'ve|’ve|\s+have|\s+was)?(?:\s+(?:also|still|just|recently|currently|now|always"
    r"|really|actually|been|was|finally|officially|newly|clinically|severely|so|very)){0,3}\s+"
)
_EN_HEALTH_SOURCE = (
    rf"{_EN_ME}(?:diagnosed|pregnant|diabetic|epileptic|asthmatic|anorexic|bulimic|bipolar|autistic"
    rf"|hiv[- ]positive|infertile|allergic\s+to|in\s+(?:chemo(?:therapy)?|rehab|remission|therapy|recovery)"
    rf"|on\s+(?:dialysis|{_EN_MED})|taking\s+(?:my\s+)?{_EN_MED}|being\s+treated\s+for|recovering\s+from"
    rf"|seeing\s+a\s+(?:therapist|psychiatrist))\b"
    rf"|{_EN_ME}(?:have|has|had|got|get|developed|suffer(?:ed)?\s+from|struggle[sd]?\s+with"
    rf"|live[sd]?\s+with|battled?|beat|take|took|use|inject|need|started|stopped)\s+(?:my\s+)?{_EN_MOD}"
    rf"(?:{_EN_COND}|{_EN_MED})\b"
    rf"|\bmy\s+{_EN_MOD}(?:{_EN_COND}|{_EN_MED})\b"
)
# Gaps are bounded so an "I" before a megabyte of blanks is not retried blank by blank.
_EN_HEALTH = re.compile(_EN_HEALTH_SOURCE.replace(r"\s+", r"\s{1,3}"), re.IGNORECASE)
# English "." and "," end a clause only before a space, so "2.5mg" and "a.b@x.com" stay whole.
# (A full-width comma arrives folded to ",": next to a Chinese character it ends a clause too.)
_CLAUSE_END = re.compile(r"[，。；！？;!?\n]|[,.](?=\s|$)|(?<=[\u3400-\u9fff])[,.]|[,.](?=[\u3400-\u9fff])")


def _health(text: str) -> Iterator[_Span]:
    matches = [m for p in (_ZH_HEALTH, _EN_HEALTH) for m in p.finditer(text)]
    if not matches:
        return
    marks = [(b.start(), b.end()) for b in _CLAUSE_END.finditer(text)]
    mark_ends = [e for _, e in marks]
    clauses: set[tuple[int, int]] = set()  # one span per clause, however many cues it holds
    for m in matches:
        before = bisect.bisect_right(mark_ends, m.start())
        after = bisect.bisect_left(marks, (m.end(), -1))
        clauses.add(
            (mark_ends[before - 1] if before else 0, marks[after][0] if after < len(marks) else len(text))
        )
    for start, end in clauses:
        yield "health", start, end


# --- public API ------------------------------------------------------------------------------------------


def scan(text: str) -> list[Finding]:
    """Every sensitive value in ``text``, sorted by start, with no two spans overlapping.

    >>> [f.kind for f in scan("我有糖尿病，邮箱 a@b.com")]
    ['health', 'email']
    """
    by_kind: dict[str, list[tuple[int, int]]] = {kind: [] for kind in _PRIORITY}
    # detectors see full-width digits and letters as their ASCII twins (１３８…); the offsets are the
    # same in the text as given, whose characters the findings keep
    seen = fold(text)
    found = (*_ids_and_cards(seen), *_secrets(seen), *_contacts(seen), *_addresses(seen), *_health(seen))
    for kind, start, end in found:
        by_kind[kind].append((start, end))
    kept: list[_Span] = []
    for kind, spans in by_kind.items():  # strongest kind first
        kept = sorted(kept + _uncovered(text, kind, sorted(spans), kept), key=lambda s: s[1])
    return [Finding(kind, start, end, text[start:end]) for kind, start, end in kept]


def _uncovered(text: str, kind: str, spans: list[tuple[int, int]], kept: list[_Span]) -> list[_Span]:
    """The parts of ``spans`` (sorted) that no ``kept`` span (sorted, disjoint) or earlier span covers.

    What a stronger finding covers is cut out rather than the whole finding dropped, so a health clause
    holding a card number is still masked on both sides of it. One walk over both lists: linear time.
    """
    parts: list[_Span] = []
    j = 0
    done = 0  # everything before this offset is already decided for this kind
    for start, end in spans:
        start = max(start, done)
        while j < len(kept) and kept[j][2] <= start:
            j += 1
        k = j
        while start < end:
            s, e = (kept[k][1], kept[k][2]) if k < len(kept) and kept[k][1] < end else (end, end)
            piece = text[start:s]
            lo, hi = start + len(piece) - len(piece.lstrip()), s - len(piece) + len(piece.rstrip())
            if lo < hi:
                parts.append((kind, lo, hi))
            start, k = max(start, e), k + 1
        done = max(done, end)
    return parts


def _placeholder(kind: str, lang: str = "en") -> str:
    """The mask ``redact`` writes for ``kind`` in ``lang`` (``"zh"`` or ``"en"``)."""
    zh, en = _LABELS[kind]
    return f"[已隐藏:{zh}]" if lang.lower().startswith("zh") else f"[redacted: {en}]"


def redact(text: str, findings: list[Finding] | None = None, lang: str | None = None) -> str:
    """``text`` with each finding replaced by a placeholder in the text's language.

    ``findings`` defaults to ``scan(text)``. Other literal occurrences of a found value are masked as
    well, so a password repeated later in the message without "密码是" in front does not survive.

    >>> redact("email me at bob@example.com")
    'email me at [redacted: email]'
    """
    return "".join(piece for piece, _ in _mask(text, findings, lang))


def _mask(text: str, findings: list[Finding] | None, lang: str | None) -> list[tuple[str, str | None]]:
    """``text`` as pieces: plain text (None) or a placeholder with the value it hides."""
    # A scanned ID, card, phone, email or health clause is found wherever it occurs; a password or key
    # is found only after words like "密码是", so only those need a sweep for bare repeats. Findings the
    # caller chose may be a subset, so all of them are swept.
    if findings is None:
        findings = scan(text)
        swept = [f for f in findings if f.kind in ("password", "api_key")]
    else:
        swept = findings
    lang = lang or detect(text)
    # (piece, hidden value or None): placeholders are never searched again, so masking cannot mask a mask.
    pieces: list[tuple[str, str | None]] = []
    pos = 0
    for f in sorted(findings, key=lambda f: f.start):
        if f.start < pos or text[f.start : f.end] != f.value:
            continue  # stale or overlapping: the sweep below still masks the value
        pieces += [(text[pos : f.start], None), (_placeholder(f.kind, lang), f.value)]
        pos = f.end
    pieces.append((text[pos:], None))
    kind_of: dict[str, str] = {}
    for f in sorted(swept, key=lambda f: _PRIORITY.get(f.kind, len(_PRIORITY))):
        if len(f.value.strip()) >= 3 and len(f.value) <= 512:  # a long clause will not recur verbatim
            kind_of.setdefault(f.value, f.kind)
    if not kind_of:
        return pieces
    sweep = re.compile("|".join(re.escape(v) for v in sorted(kind_of, key=len, reverse=True)))
    out: list[tuple[str, str | None]] = []
    for piece, value in pieces:
        if value is not None:
            out.append((piece, value))
            continue
        at = 0
        for m in sweep.finditer(piece):
            out += [(piece[at : m.start()], None), (_placeholder(kind_of[m.group()], lang), m.group())]
            at = m.end()
        out.append((piece[at:], None))
    return out


def reveal(masked: str, original: str) -> str:
    """``masked`` (a sentence made from ``original`` after :func:`redact`) with each placeholder
    replaced by the value it hides in ``original``: what an encrypted memory keeps under its key.

    A placeholder is matched to the one in the redacted original with the same text before it, else
    to the next unused one of its kind; a placeholder the original does not explain stays as it is.

    >>> reveal("call me at [redacted: phone]", "I'm Bo. Call me at +44 20 7946 0958")
    'call me at +44 20 7946 0958'
    """
    pieces = _mask(original, scan(original), None)
    slots: list[tuple[str, str, str]] = []  # (text before, placeholder, value) in the redacted original
    done = ""
    for piece, value in pieces:
        if value is not None:
            slots.append((done, piece, value))
        done += piece
    used: set[int] = set()
    out, pos = [], 0
    for m in PLACEHOLDER.finditer(masked):
        before = masked[pos : m.start()]
        same = [i for i, (_, p, _) in enumerate(slots) if p == m.group()]
        context = [
            i for i in same if i not in used and before and slots[i][0].lower().endswith(before.lower())
        ]
        free = [i for i in same if i not in used]
        chosen = context[0] if context else free[0] if free else None
        out.append(before)
        if chosen is None:
            out.append(m.group())
        else:
            used.add(chosen)
            out.append(slots[chosen][2])
        pos = m.end()
    out.append(masked[pos:])
    return "".join(out)


def kinds(text: str) -> list[str]:
    """The kinds whose placeholders appear in an already redacted text, in order of first appearance.

    >>> kinds("[已隐藏:手机号] 和 [已隐藏:密码] 和 [已隐藏:手机号]")
    ['phone', 'password']
    """
    return list(dict.fromkeys(_KIND_BY_PLACEHOLDER[m.group()] for m in PLACEHOLDER.finditer(text)))
