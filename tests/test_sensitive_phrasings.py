"""Sensitive data is found however it is phrased, in Chinese, English and mixed, and talk about a
password, a card or a flat is not taken for one.

Each positive names the kind and the exact value that must be masked (None for health, whose whole
clause is masked); each is also added through the real ``Memory.add`` on SQLite.
"""

from __future__ import annotations

import pytest

from conftest import T0
from memlane import Action, Memory
from memlane.privacy.sensitive import NEVER_STORE, kinds, scan

P = pytest.param

POSITIVES = [
    # passwords, PINs and codes, however the words announce them
    P("My password for the portal is hunter2-Blue-77", "password", "hunter2-Blue-77", id="pw-for-the-portal"),
    P(
        "my password is correct horse battery staple",
        "password",
        "correct horse battery staple",
        id="pw-phrase",
    ),
    P("The password for my bank is Summer2024!", "password", "Summer2024!", id="pw-for-my-bank"),
    P("the wifi password at home is pancakes4ever", "password", "pancakes4ever", id="pw-wifi-at-home"),
    P("my PIN is 4821", "password", "4821", id="pin"),
    P("my 4-digit pin for the door is 6 6 1 9", "password", "6 6 1 9", id="pin-spaced"),
    P("bank pin's 0 4 1 7", "password", "0 4 1 7", id="pin-apostrophe-s"),
    P("login: mark.t / pw: hunter2hunter2", "password", "hunter2hunter2", id="pw-abbreviated"),
    P("user kiki88, pass Meadow2020", "password", "Meadow2020", id="pass-bare"),
    P(
        '"maple syrup moonlight tractor" is my passphrase',
        "password",
        "maple syrup moonlight tractor",
        id="value-first",
    ),
    P("hunter2x is my password", "password", "hunter2x", id="value-first-bare"),
    P("my 2FA backup code is 4829-1173-0056", "password", "4829-1173-0056", id="backup-code"),
    P("the SIM PUK is 83920014", "password", "83920014", id="puk"),
    P("我的密码：123456", "password", "123456", id="zh-colon"),
    P("我的支付密码 887766", "password", "887766", id="zh-pay-bare"),
    P("支付宝支付密码六六八八一二", "password", "六六八八一二", id="zh-chinese-digits"),
    P("路由器后台密码 admin123456", "password", "admin123456", id="zh-router-bare"),
    P("公司vpn账号 zhangwei 密码 Zw#2024abc", "password", "Zw#2024abc", id="zh-vpn-bare"),
    P("我的密码是hunter2，别告诉别人", "password", "hunter2", id="zh-is"),
    P("银行卡密码是 246810", "password", "246810", id="zh-card-password"),
    P("wifi密码是Tp-Link@5566", "password", "Tp-Link@5566", id="zh-wifi"),
    P("我的password是Qwerty!2024", "password", "Qwerty!2024", id="mixed-password"),
    P("我的 PIN 是 9090", "password", "9090", id="mixed-pin"),
    # keys and tokens
    P(
        "aws secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "api_key",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        id="aws-secret",
    ),
    P(
        "my api key is sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX",
        "api_key",
        "sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX",
        id="sk-key",
    ),
    P("我的密钥是 AKIAIOSFODNN7EXAMPLE", "api_key", "AKIAIOSFODNN7EXAMPLE", id="zh-aws-id"),
    P(
        "token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1yZ3bC5",
        "api_key",
        "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1yZ3bC5",
        id="github",
    ),
    # card and account numbers: the words make them one, whatever their checksum
    P("我的银行卡号是6222021234567890123", "bank_card", "6222021234567890123", id="zh-card-no-luhn"),
    P("my card number is 1234 5678 9012 3456", "bank_card", "1234 5678 9012 3456", id="en-card-no-luhn"),
    P("my card is 4111.1111.1111.1111", "bank_card", "4111.1111.1111.1111", id="card-dots"),
    P("pay with 4111111111111111 please", "bank_card", "4111111111111111", id="card-luhn-unannounced"),
    P("我的信用卡号是 4392 2601 8765 4321", "bank_card", "4392 2601 8765 4321", id="zh-credit-card"),
    P("工行卡号 6222 0212 3456 7890 123", "bank_card", "6222 0212 3456 7890 123", id="zh-bank-card-grouped"),
    P("account number 1029384756", "bank_card", "1029384756", id="account-number"),
    P("my IBAN is DE89 3704 0044 0532 0130 00", "bank_card", "DE89 3704 0044 0532 0130 00", id="iban"),
    P(
        "全号是六二二八四八零零三一二三四五六七八九",
        "bank_card",
        "六二二八四八零零三一二三四五六七八九",
        id="zh-digits-card",
    ),
    # identity numbers
    P("我的身份证号是330106 19850615 1233", "id_card", "330106 19850615 1233", id="zh-id-spaced"),
    P(
        "我身份证号是三二零一零二一九九二零三一五二二四一",
        "id_card",
        "三二零一零二一九九二零三一五二二四一",
        id="zh-id-chinese-digits",
    ),
    P("护照号码是 EA 8834 221", "id_card", "EA 8834 221", id="zh-passport-grouped"),
    P("my SIN is 046 454 286", "id_card", "046 454 286", id="sin"),
    P("National Insurance number QQ123456C", "id_card", "QQ123456C", id="national-insurance"),
    P("My SSN is 123-45-6789", "id_card", "123-45-6789", id="ssn"),
    P("社保卡号是 3301 0619 8506 1512 33", "id_card", "3301 0619 8506 1512 33", id="zh-social-security"),
    # contact details
    P("我的手机号是一三八一二三四五六七八", "phone", "一三八一二三四五六七八", id="zh-phone-chinese-digits"),
    P("call me on +44 20 7946 0958", "phone", "+44 20 7946 0958", id="intl-phone"),
    P("我手机 138-1234-5678", "phone", "138-1234-5678", id="zh-phone-dashes"),
    P("email me at bob at example dot com", "email", "bob at example dot com", id="email-spelled"),
    P("write to bob(at)example(dot)com", "email", "bob(at)example(dot)com", id="email-brackets"),
    P("我的邮箱是bob艾特example点com", "email", "bob艾特example点com", id="zh-email-spelled"),
    P("email me at a.li@example.cn", "email", "a.li@example.cn", id="email"),
    # precise addresses
    P("我住在阳光小区A座1201", "address", "阳光小区A座1201", id="zh-estate-letter-building"),
    P("我住A座1201", "address", "A座1201", id="zh-flat-only"),
    P("家在3号楼2单元502", "address", "3号楼2单元502", id="zh-building-unit"),
    P("I live at 221B Baker Street", "address", "221B Baker Street", id="en-street"),
    # health, the speaker's or their family's
    P("我血型是O型", "health", None, id="zh-blood-type"),
    P("我是AB型血", "health", None, id="zh-blood-type-suffix"),
    P("my blood type is O negative", "health", None, id="en-blood-type"),
    P("我blood type是A型", "health", None, id="mixed-blood-type"),
    P("我有糖尿病", "health", None, id="zh-condition"),
    P("I'm 12 weeks pregnant", "health", None, id="en-pregnant"),
    P("my mom has dementia", "health", None, id="en-family"),
    P("我爸高血压好多年了", "health", None, id="zh-family"),
    P("我前年做过心脏支架手术", "health", None, id="zh-surgery"),
    P("I was diagnosed with ADHD last year", "health", None, id="en-diagnosed"),
    P("我每天晚上要吃一片优甲乐", "health", None, id="zh-medication"),
    P("我有ADHD", "health", None, id="mixed-condition"),
    P("I see a psychiatrist every two weeks", "health", None, id="en-psychiatrist"),
    P("I had surgery on my shoulder in 2021", "health", None, id="en-surgery"),
    P("我明天要去医院做产检", "health", None, id="zh-prenatal"),
]

NEGATIVES = [
    # talk about passwords and PINs
    P("the password was too weak", id="pw-too-weak"),
    P("我忘了密码", id="zh-forgot-password"),
    P("my PIN is wrong", id="pin-wrong"),
    P("I need to reset my password tomorrow", id="pw-reset"),
    P("the password for the wifi is on the fridge", id="pw-on-the-fridge"),
    P("my password is long and complicated", id="pw-long"),
    P("my password is the same as before", id="pw-same"),
    P("my password is super secure now", id="pw-secure-now"),
    P("密码太简单了", id="zh-too-simple"),
    P("我的密码被改了", id="zh-changed"),
    P("密码是什么来着", id="zh-what-is-it"),
    P("what's the wifi password?", id="pw-question"),
    P("I use a password manager", id="pw-manager"),
    P("pin it to the board", id="pin-verb"),
    P("the pin is in the drawer", id="pin-object"),
    P("pass me the salt", id="pass-verb"),
    P("I passed 3 exams", id="passed"),
    P("this token is invalid", id="token-invalid"),
    P("my secret is that I love cake", id="secret-prose"),
    P("the api key is in the env file", id="key-elsewhere"),
    # talk about cards, accounts and IDs
    P("my card was declined", id="card-declined"),
    P("我的卡丢了", id="zh-card-lost"),
    P("my account has 12345678 followers", id="account-followers"),
    P("卡了 20231012 那天", id="zh-stuck-date"),
    P("order 4333 3333 3333 3331", id="luhn-fails-unannounced"),
    P("我的银行卡余额还有3000", id="zh-balance"),
    P("I renewed my passport in 2020", id="passport-year"),
    P("my ID is 1234", id="id-too-short"),
    P("预算 6000 以内", id="zh-budget"),
    # talk about times, places and rooms
    P("call me at 9", id="call-at-9"),
    P("call me at 9 tomorrow", id="call-at-9-tomorrow"),
    P("meet me at home at 5", id="meet-at-home"),
    P("I work at google dot com", id="work-at-dot-com"),
    P("我住在1201附近吗", id="zh-near-1201"),
    P("我住在杭州", id="zh-city"),
    P("A座1201会议室开会", id="zh-meeting-room"),
    P("in room 1201 at 3pm", id="en-room"),
    P("我家在三楼", id="zh-floor"),
    # not health
    P("我有点累", id="zh-tired"),
    P("我有个坏毛病", id="zh-bad-habit"),
    P("I'm expecting a package tomorrow", id="expecting-package"),
    P("I broke my phone", id="broke-phone"),
    P("帮我记得提醒我带病历本", id="zh-medical-record-reminder"),
    P("my doctor is on holiday this week", id="doctor-away"),
]


def found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in scan(text)]


@pytest.mark.parametrize(("text", "kind", "value"), POSITIVES)
def test_each_phrasing_is_found(text: str, kind: str, value: str | None) -> None:
    findings = [(k, v) for k, v in found(text) if k == kind]
    assert findings, f"no {kind} in {text!r}: {found(text)}"
    if value is not None:
        assert findings == [(kind, value)]


@pytest.mark.parametrize("text", NEGATIVES)
def test_talk_is_not_sensitive(text: str) -> None:
    assert found(text) == []


def test_the_tables_are_large_and_bilingual() -> None:
    assert len(POSITIVES) >= 60
    assert len(NEGATIVES) >= 40
    for table in (POSITIVES, NEGATIVES):
        ids = [p.id or "" for p in table]
        assert sum(i.startswith(("zh-", "mixed-")) for i in ids) >= len(ids) // 4


@pytest.mark.parametrize(("text", "kind", "value"), POSITIVES)
def test_each_phrasing_is_kept_out_of_memory(mem: Memory, text: str, kind: str, value: str | None) -> None:
    result = mem.add(text, user_id="u1", session_id="s1", at=T0)
    shown = [d.text for d in result.decisions] + [m.text for m in mem.list("u1")]
    if kind in NEVER_STORE:
        # nothing that held it is kept, not even masked (the rest of a message may be: "别告诉别人")
        held = [d for d in result.decisions if d.candidate is not None and kind in d.candidate.sensitive]
        assert held
        assert [d.action for d in held] == [Action.DISCARD] * len(held)
        assert [d.sensitivity for d in held] == [1.0] * len(held)
        assert not [m.text for m in mem.list("u1") if set(kinds(m.text)) & NEVER_STORE]
    if value is not None:
        assert not [s for s in shown if value in s]


def test_a_password_leaves_no_junk_memory_of_its_label(mem: Memory) -> None:
    result = mem.add("我的密码：123456", user_id="u1", session_id="s1", at=T0)
    assert mem.list("u1") == []
    assert [d.text for d in result.decisions] == ["我的密码：[已隐藏:密码]"]


def test_blood_type_is_health_and_needs_consent(mem: Memory) -> None:
    result = mem.add("我血型是O型", user_id="u1", session_id="s1", at=T0)
    (decision,) = result.decisions
    assert decision.action is Action.DISCARD
    assert decision.sensitivity == 1.0
    assert "health" in decision.reason
