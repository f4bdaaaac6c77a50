"""Sensitive data is found in Chinese and English text and masked so that no raw value survives."""

from __future__ import annotations

import itertools
import re

import pytest

from memlane import Memory
from memlane.privacy.sensitive import NEVER_STORE, PLACEHOLDER, Finding, kinds, redact, scan


# --- test data built with the checksum algorithms themselves, not copied from the code under test ---
def resident_id(first17: str) -> str:
    """A mainland resident ID with its ISO 7064 MOD 11-2 check character appended."""
    total = sum(int(d) * (2 ** (17 - i) % 11) for i, d in enumerate(first17))
    return first17 + "10X98765432"[total % 11]


def wrong_check(number: str) -> str:
    """The same number with a check character that cannot be right."""
    return number[:-1] + ("1" if number[-1] != "1" else "2")


def card(prefix: str, length: int) -> str:
    """A payment card number of ``length`` digits starting with ``prefix`` and passing Luhn."""
    body = prefix + "3" * (length - len(prefix) - 1)
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def spaced(number: str, sep: str = " ") -> str:
    return sep.join(number[i : i + 4] for i in range(0, len(number), 4))


ID_1990 = resident_id("11010119900307653")
ID_WITH_X = next(i for i in (resident_id(f"44030519881105{n:03d}") for n in range(1000)) if i.endswith("X"))
VISA = card("4", 16)
UNIONPAY = card("622202", 19)


def found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in scan(text)]


def test_helpers_build_known_valid_numbers() -> None:
    assert resident_id("11010519491231002") == "11010519491231002X"
    assert card("411111111111111", 16) == "4111111111111111"


# --- identity numbers ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"我的身份证号是{ID_1990}", id="zh-no-spaces"),
        pytest.param(f"身份证：{ID_1990}。", id="zh-colon"),
        pytest.param(f"My ID number is {ID_1990}.", id="en"),
        pytest.param(f"证件号{ID_WITH_X}", id="check-char-X"),
        pytest.param(f"证件号{ID_WITH_X.lower()}", id="check-char-lower-x"),
    ],
)
def test_valid_resident_id_is_found(text: str) -> None:
    number = re.search(r"[0-9]{17}[0-9Xx]", text)
    assert number is not None
    assert found(text) == [("id_card", number.group())]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("My SSN is 123-45-6789", "123-45-6789", id="us-ssn"),
        pytest.param("my passport number is E12345678.", "E12345678", id="passport-en"),
        pytest.param("护照号是G12345678", "G12345678", id="passport-zh"),
        pytest.param("my driver's license is D1234-56789-01234", "D1234-56789-01234", id="licence"),
    ],
)
def test_other_countries_id_numbers_are_found(text: str, value: str) -> None:
    assert found(text) == [("id_card", value)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("the passport office opens at 9", id="passport-word"),
        pytest.param("I renewed my passport in 2020", id="passport-year"),
        pytest.param("order 123-45-67890", id="longer-dashed-number"),
        pytest.param("code 000-12-3456 is not an SSN shape", id="invalid-ssn-area"),
    ],
)
def test_talk_about_ids_is_not_an_id_number(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("订单号 110105194912310020", id="order-number-bad-check"),
        pytest.param(f"流水 {wrong_check(ID_1990)}", id="bad-check-unlabelled"),
        pytest.param(f"code {resident_id('11010119901332653')}", id="impossible-birth-date"),
        pytest.param(f"ref {resident_id('99010119900307653')}", id="unknown-region"),
    ],
)
def test_number_failing_id_rules_is_not_an_id(text: str) -> None:
    assert "id_card" not in [f.kind for f in scan(text)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"我的身份证号是{wrong_check(ID_1990)}", id="zh-bad-check"),
        pytest.param(f"national ID {resident_id('11010119901332653')}", id="impossible-birth-date"),
    ],
)
def test_a_number_the_text_calls_an_id_is_masked_even_if_mistyped(text: str) -> None:
    assert "id_card" in [f.kind for f in scan(text)]


def test_valid_id_that_also_passes_luhn_is_reported_once_as_id() -> None:
    both = next(
        i for i in (resident_id(f"31010119800115{n:03d}") for n in range(1000)) if card(i[:17], 18) == i
    )
    assert found(f"号码{both}") == [("id_card", both)]


# --- bank cards ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param(f"卡号{VISA}", VISA, id="zh-contiguous"),
        pytest.param(f"我的银行卡 {spaced(UNIONPAY)} 请记住", spaced(UNIONPAY), id="zh-19-digits-spaces"),
        pytest.param(f"card {spaced(VISA)}, exp 12/27", spaced(VISA), id="en-spaces"),
        pytest.param(f"card {spaced(VISA, '-')}", spaced(VISA, "-"), id="en-dashes"),
    ],
)
def test_card_passing_luhn_is_found(text: str, value: str) -> None:
    assert found(text) == [("bank_card", value)]


def test_number_failing_luhn_is_not_a_card_unless_the_words_say_so() -> None:
    number = spaced(wrong_check(VISA))
    assert found(f"order {number}") == []
    assert found(f"my card number is {number}") == [("bank_card", number)]


@pytest.mark.parametrize(
    "template",
    [
        pytest.param("我的招行卡：{}", id="zh-bank-card-named"),
        pytest.param("建设银行那张储蓄卡 {} 别弄丢了", id="zh-savings-card"),
        pytest.param("my visa ends up being {}", id="en-visa"),
        pytest.param("debit card, {}", id="en-debit"),
    ],
)
def test_a_number_written_as_a_card_after_a_cards_name_is_one_whatever_its_checksum(template: str) -> None:
    for sep in (" ", "-"):
        number = spaced(wrong_check(VISA), sep)
        (kind, value), *more = found(template.format(number))
        assert (kind, more) == ("bank_card", [])
        assert value.endswith(number)  # "card, 4333 …": the word that announced it may be masked too


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("订单号是 {}", id="zh-order"),
        pytest.param("I paid {} dollars", id="en-no-card-word"),
        pytest.param("the cardboard box, then {}", id="en-card-far-before"),
    ],
)
def test_a_card_shaped_number_without_a_cards_name_still_needs_its_checksum(text: str) -> None:
    assert found(text.format(spaced(wrong_check(VISA)))) == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("预算7000-12000元", id="range"),
        pytest.param("on 2024-01-15 at 10:30", id="date"),
        pytest.param("timestamp 1700000000000", id="epoch-millis"),
        pytest.param("订单号 20240115 1234", id="short-groups"),
        pytest.param("0000 0000 0000 0000", id="all-zeros"),
    ],
)
def test_ordinary_number_is_not_a_finding(text: str) -> None:
    assert found(text) == []


# --- contact details -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("我的手机13800138000", "13800138000", id="zh-mobile"),
        pytest.param("电话 138-0013-8000 找我", "138-0013-8000", id="zh-mobile-dashes"),
        pytest.param("call +86 138 0013 8000 today", "+86 138 0013 8000", id="plus-86"),
        pytest.param("call +1 (415) 555-0100.", "+1 (415) 555-0100", id="us"),
        pytest.param("ring +44 20 7946 0958", "+44 20 7946 0958", id="uk"),
    ],
)
def test_phone_number_is_found(text: str, value: str) -> None:
    assert found(text) == [("phone", value)]


def test_mobile_digits_inside_a_longer_number_are_not_a_phone() -> None:
    assert found("流水号 9913800138000123") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("邮箱是alice.w@example.com。", "alice.w@example.com", id="zh"),
        pytest.param("write to bob+news@mail.example.co.uk.", "bob+news@mail.example.co.uk", id="en"),
    ],
)
def test_email_is_found(text: str, value: str) -> None:
    assert found(text) == [("email", value)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param(
            "我住在杭州市西湖区文三路138号5栋302室，周末在家",
            "杭州市西湖区文三路138号5栋302室",
            id="zh-street",
        ),
        pytest.param(
            "快递寄到浙江省杭州市西湖区古荡街道翠苑一区12幢3单元401室",
            "浙江省杭州市西湖区古荡街道翠苑一区12幢3单元401室",
            id="zh-estate",
        ),
        pytest.param("我家在阳光花园3栋2单元501", "阳光花园3栋2单元501", id="zh-bare-flat"),
        pytest.param("I live at 221B Baker Street, London", "221B Baker Street", id="en-street"),
        pytest.param(
            "send it to 1600 Pennsylvania Avenue, Apt 5 please",
            "1600 Pennsylvania Avenue, Apt 5",
            id="en-apt",
        ),
    ],
)
def test_precise_home_address_is_found(text: str, value: str) -> None:
    assert found(text) == [("address", value)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("我住在杭州", id="zh-city"),
        pytest.param("我今天去了南京路步行街", id="zh-street-no-number"),
        pytest.param("我们在3号线地铁站见", id="zh-metro-line"),
        pytest.param("I moved to Boston last year", id="en-city"),
        pytest.param("the meeting is in Room 5", id="en-room"),
    ],
)
def test_a_city_or_a_street_without_a_number_is_not_an_address(text: str) -> None:
    assert found(text) == []


def test_an_address_is_kept_masked_by_default(mem: Memory) -> None:
    result = mem.add("我住在杭州市西湖区文三路138号5栋302室", user_id="u1")
    texts = [m.text for m in result.memories]
    assert texts
    assert all("文三路" not in t and "302" not in t for t in texts)
    assert any("[已隐藏:住址]" in t for t in texts)


# --- secrets ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("我的密码是abc123记得改", "abc123", id="zh-shi"),
        pytest.param("密码：Qwerty!9", "Qwerty!9", id="zh-colon"),
        pytest.param("WiFi口令是 芝麻开门", "芝麻开门", id="zh-kouling"),
        pytest.param("my password is hunter2.", "hunter2", id="en-is"),
        pytest.param("Password: s3cr3t-P@ss", "s3cr3t-P@ss", id="en-colon"),
        pytest.param("login with pwd=abc123", "abc123", id="en-pwd"),
        pytest.param("card pin is 4321", "4321", id="en-pin"),
    ],
)
def test_password_value_is_found(text: str, value: str) -> None:
    assert found(text) == [("password", value)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("密码是什么？", id="zh-question"),
        pytest.param("我忘记密码了", id="zh-forgot"),
        pytest.param("I forgot my password again", id="en-forgot"),
        pytest.param("the password is not set", id="en-not-set"),
        pytest.param("pin is stuck in the board", id="en-pin-not-digits"),
    ],
)
def test_talk_about_a_password_is_not_a_password(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("key: sk-proj-4fJd93KdlQ0zPx7Lm2NvB8", "sk-proj-4fJd93KdlQ0zPx7Lm2NvB8", id="openai"),
        pytest.param("gh ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4", "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4", id="github"),
        pytest.param("AWS AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", id="aws"),
        pytest.param("slack xoxb-123456789-abcdefGHIJ", "xoxb-123456789-abcdefGHIJ", id="slack"),
        pytest.param("Authorization: Bearer eyJhbGciOi.J9x8Kq2", "eyJhbGciOi.J9x8Kq2", id="bearer"),
        pytest.param("my api key is a8Fk29dkLq0Zp3mN7xYv", "a8Fk29dkLq0Zp3mN7xYv", id="en-context"),
        pytest.param("密钥是Zq8Lm2Xp9Rt4Vw7Ks3Nb", "Zq8Lm2Xp9Rt4Vw7Ks3Nb", id="zh-miyao"),
        pytest.param("令牌：9f8e7d6c5b4a3f2e1d0c", "9f8e7d6c5b4a3f2e1d0c", id="zh-lingpai"),
    ],
)
def test_api_key_value_is_found(text: str, value: str) -> None:
    assert found(text) == [("api_key", value)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("token: aaaaaaaaaaaaaaaaaaaaaaaa", id="low-entropy"),
        pytest.param("see sk-learn-tutorial-for-beginners", id="sk-prose"),
        pytest.param("the api key is in the vault", id="en-no-value"),
        pytest.param("ask-questions-about-the-weather-please", id="sk-inside-word"),
    ],
)
def test_prose_near_key_words_is_not_a_key(text: str) -> None:
    assert found(text) == []


# --- health ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "clause"),
    [
        pytest.param("我有糖尿病，不能吃甜的", "我有糖尿病", id="zh-have"),
        pytest.param("去年我得了抑郁症。", "去年我得了抑郁症", id="zh-got"),
        pytest.param("上个月确诊了乳腺癌", "上个月确诊了乳腺癌", id="zh-diagnosed-no-subject"),
        pytest.param("最近在吃降压药，头有点晕", "最近在吃降压药", id="zh-medication"),
        pytest.param("告诉你个好消息，我怀孕了！", "我怀孕了", id="zh-pregnant"),
        pytest.param("我对青霉素过敏", "我对青霉素过敏", id="zh-allergy"),
        pytest.param("I have diabetes, so no sugar.", "I have diabetes", id="en-have"),
        pytest.param("I was diagnosed with ADHD.", "I was diagnosed with ADHD", id="en-diagnosed"),
        pytest.param("Note: I'm taking insulin; thanks", "Note: I'm taking insulin", id="en-medication"),
        pytest.param("Guess what? I'm pregnant!", "I'm pregnant", id="en-pregnant"),
        pytest.param("my depression is worse in winter", "my depression is worse in winter", id="en-my"),
        pytest.param("Sadly, I've had type 2 diabetes", "I've had type 2 diabetes", id="en-type2"),
        # a clause run on without a stop ends where a new subject starts
        pytest.param(
            "I'm a sound engineer and I got diagnosed with tinnitus",
            "I got diagnosed with tinnitus",
            id="en-and-i",
        ),
        pytest.param("我在银行上班但是去年确诊了糖尿病", "去年确诊了糖尿病", id="zh-but"),
        pytest.param("我是程序员 最近在吃抗焦虑的药", "最近在吃抗焦虑的药", id="zh-space"),
        # …but not where the two share it
        pytest.param("my wife and I are doing IVF", "my wife and I are doing IVF", id="en-partner"),
        # conditions named without 病 / 症, a long name before 炎, a disc, an -itis
        pytest.param("我上个月查出来腰椎间盘突出。", "我上个月查出来腰椎间盘突出", id="zh-disc"),
        pytest.param("我得了产后甲状腺炎", "我得了产后甲状腺炎", id="zh-long-itis"),
        pytest.param("我有腰突 不能搬重物", "我有腰突", id="zh-disc-short"),
        pytest.param(
            "我上周复查被诊断产后甲状腺炎", "我上周复查被诊断产后甲状腺炎", id="zh-checkup-diagnosed"
        ),
        pytest.param("I have a herniated disc, so no lifting", "I have a herniated disc", id="en-disc"),
        pytest.param("my tendonitis is acting up", "my tendonitis is acting up", id="en-itis"),
    ],
)
def test_first_person_health_clause_is_found(text: str, clause: str) -> None:
    assert found(text) == [("health", clause)]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("我有一个女儿", id="zh-daughter"),
        pytest.param("我有时间去看病", id="zh-time-to-see-doctor"),
        pytest.param("我在吃火锅", id="zh-hotpot"),
        pytest.param("我是个音响发烧友", id="zh-enthusiast"),  # an audiophile, no fever
        pytest.param("我没有糖尿病", id="zh-negated"),
        pytest.param("他确诊了肺癌", id="zh-third-person"),
        pytest.param("糖尿病人的饮食建议", id="zh-topic"),
        pytest.param("I have a dog", id="en-dog"),
        pytest.param("I'm taking a break", id="en-break"),
        pytest.param("I don't have diabetes", id="en-negated"),
        pytest.param("I read an article about cancer research", id="en-topic"),
        pytest.param("我在学习炎黄文化", id="zh-yan-huang"),
        pytest.param("他上周复查被诊断甲减", id="zh-checkup-third-person"),
        pytest.param("我有个坏毛病，爱拖延", id="zh-bad-habit"),
    ],
)
def test_other_sentences_are_not_health(text: str) -> None:
    assert found(text) == []


# --- scan as a whole -------------------------------------------------------------------------------------
def test_findings_are_sorted_and_do_not_overlap() -> None:
    text = f"邮箱a@b.cn，我有高血压，卡号{VISA}，手机13800138000，密码是{VISA}"
    findings = scan(text)
    assert [f.start for f in findings] == sorted(f.start for f in findings)
    assert all(a.end <= b.start for a, b in itertools.pairwise(findings))
    assert all(text[f.start : f.end] == f.value for f in findings)
    assert [f.kind for f in findings] == ["email", "health", "bank_card", "phone", "bank_card"]


def test_health_clause_around_a_card_is_cut_around_it_not_dropped() -> None:
    text = f"我有糖尿病卡号{VISA}还在吃二甲双胍"
    assert [f.kind for f in scan(text)] == ["health", "bank_card", "health"]
    out = redact(text)
    assert "糖尿病" not in out
    assert VISA not in out
    assert "二甲双胍" not in out


def test_never_store_lists_the_kinds_that_block_storage() -> None:
    assert frozenset({"id_card", "bank_card", "password", "api_key", "health"}) == NEVER_STORE


# --- redaction -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(f"我的身份证号是{ID_1990}", "我的身份证号是[已隐藏:身份证号]", id="zh-id"),
        pytest.param(f"卡号 {spaced(VISA)} 谢谢", "卡号 [已隐藏:银行卡号] 谢谢", id="zh-card"),
        pytest.param("密码是abc123，别忘了", "密码是[已隐藏:密码]，别忘了", id="zh-password"),
        pytest.param("我有糖尿病，不能吃甜的", "[已隐藏:健康信息]，不能吃甜的", id="zh-health"),
        pytest.param("my email is bob@example.com", "my email is [redacted: email]", id="en-email"),
        pytest.param("call me on +1 415 555 0100", "call me on [redacted: phone]", id="en-phone"),
        pytest.param("api key: a8Fk29dkLq0Zp3mN7xYv", "api key: [redacted: API key]", id="en-key"),
        pytest.param(f"ID {ID_1990}, thanks", "ID [redacted: ID number], thanks", id="en-id"),
    ],
)
def test_redact_writes_placeholder_in_text_language(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_redact_language_can_be_forced() -> None:
    assert redact("密码是abc123", lang="en") == "密码是[redacted: password]"
    assert redact("password: abc123", lang="zh") == "password: [已隐藏:密码]"


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(ID_1990, id="id"),
        pytest.param(spaced(UNIONPAY), id="card"),
        pytest.param("13800138000", id="phone"),
    ],
)
def test_redaction_leaves_no_digit_of_the_value(value: str) -> None:
    out = redact(f"我的号码是{value}，记一下")
    assert not any(ch.isdigit() for ch in out)


def test_value_repeated_later_is_masked_everywhere() -> None:
    text = "密码是Tr0ub4dor，再说一遍：Tr0ub4dor"
    out = redact(text)
    assert "Tr0ub4dor" not in out
    assert out.count("[已隐藏:密码]") == 2


def test_same_id_twice_is_masked_twice() -> None:
    out = redact(f"身份证{ID_1990}，重复一遍{ID_1990}")
    assert ID_1990 not in out
    assert kinds(out) == ["id_card"]


def test_explicit_findings_still_mask_other_occurrences() -> None:
    text = "password: Tr0ub4dor and again Tr0ub4dor"
    first = scan(text)[:1]
    assert "Tr0ub4dor" not in redact(text, first)


def test_stale_finding_does_not_corrupt_text() -> None:
    stale = Finding("password", 0, 4, "nope")
    assert redact("keep this text", [stale]) == "keep this text"


def test_redacting_twice_changes_nothing_more() -> None:
    text = f"我有糖尿病，卡号{VISA}，邮箱a@b.cn"
    once = redact(text)
    assert redact(once) == once


@pytest.mark.parametrize("kind", sorted(NEVER_STORE | {"phone", "email"}))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_kinds_reads_every_placeholder_back(kind: str, lang: str) -> None:
    text = "x" * 8
    out = redact(text, [Finding(kind, 2, 6, "xxxx")], lang=lang)
    assert PLACEHOLDER.search(out)
    assert kinds(out) == [kind]


def test_kinds_lists_each_kind_once_in_order() -> None:
    assert kinds("[已隐藏:手机号] 和 [redacted: password] 和 [已隐藏:手机号]") == ["phone", "password"]
    assert kinds("nothing hidden [here]") == []


# --- large inputs (speed is measured by benchmarks, not asserted here) ---------------------------------

MESSAGE = (
    "我最近在学做饭，周末想去杭州玩。我的邮箱是 someone@example.com，电话13800138000。"
    "I have been learning to cook and I take the train every day, password is not set."
)


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param(MESSAGE, id="realistic"),
        pytest.param("1", id="one-digit-run"),
        pytest.param("1234 ", id="digit-groups"),
        pytest.param("a@", id="at-signs"),
        pytest.param("my ", id="my-my-my"),
        pytest.param("我有", id="wo-you"),
        pytest.param("密码 ", id="password-keyword"),
        pytest.param("密码，都是 1 ", id="password-next-clause"),
        pytest.param("login is a / ", id="login-pair"),
        pytest.param("密码分别是 1 和 ", id="password-list"),
        pytest.param("member ID for the ", id="id-for-the"),
    ],
)
def test_megabyte_input_is_scanned_and_redacted(unit: str) -> None:
    text = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    out = redact(text, scan(text))
    assert "someone@example.com" not in out
    assert "13800138000" not in out
