"""Forgetting by topic in conversation: "忘掉我住哪", "forget what I said about hiking" delete what
they name (every version, its log turns, what was built from it, its copies in live sessions), keep
everything else, and are never stored themselves. Sentences that only look like such a request
("我忘了带钥匙", "don't forget my birthday") are no request."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Memory
from memlane.domain import Category
from memlane.write.extract.forgetting import Withdrawal, topic, withdrawal


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("忘掉我住哪", "住哪"),
        ("把我的地址删了吧", "地址"),
        ("把我说的那个地址删了", "地址"),
        ("别记我喜欢喝美式了", "喜欢喝美式"),
        ("忘了我说过的关于前任的事吧", "前任"),
        ("以后不要再记着我在哪上班了", "在哪上班"),
        ("删掉关于我前公司的记忆", "前公司"),
        ("forget what I said about hiking", "hiking"),
        ("forget my email", "email"),
        ("please forget that I like jazz", "like jazz"),
        ("don't remember my birthday anymore", "birthday"),
        ("remove my phone number from your memory", "phone number"),
        ("erase everything about my ex", "ex"),
    ],
)
def test_a_request_names_what_to_forget(text: str, named: str) -> None:
    assert topic(text) == named


@pytest.mark.parametrize(
    "text",
    [
        "我忘了带钥匙",
        "我把密码忘了",
        "别忘了提醒我",
        "别记错了",
        "删掉这个文件",
        "忘掉我刚才说的",  # the message before, taken back (别记这个)
        "I forgot my keys",
        "don't forget my birthday",
        "I don't remember my password",
        "forget it",
        "I want to forget my ex",
        "forget about work, it's the weekend",
        "Forget about my job, how are you?",
    ],
)
def test_what_only_looks_like_a_request_names_nothing(text: str) -> None:
    assert topic(text) is None


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # what was said, then what undoes it: named by what it was about
        ("前面说我在美的上班是瞎编的", "我在美的上班"),
        ("我说我讨厌猫那个是开玩笑的", "我讨厌猫"),
        ("之前让你叫我悦悦的那个作废", "叫我悦悦"),
        ("之前说的那个电话号码作废", "电话号码"),
        ("我不太想让你记我住哪", "住哪"),
        ("forget the part about Rome", "Rome"),
        ("ignore what I said about Boston", "Boston"),
        ("pls dont save the bit about my ex", "ex"),
        ("nah forget the birthday thing i told u, wrong date", "birthday"),
        ("the home address i gave earlier, wipe it pls", "home address"),
        ("that phone number was wrong, drop it", "phone number"),
        ("forget I said I liked jazz", "I liked jazz"),
        ("I take back the thing about quitting", "quitting"),
        # what was just said, whatever it was: the message before
        ("把我刚才吐槽老板那段删了", None),
        ("刚才说的password那条删了吧", None),
        ("刚才那句当我没说", None),
        ("算了算了当我没问", None),
        ("刚才那句别记哈 说的是我表姐不是我", None),
        ("别把这个存下来哈", None),
        ("ignore我刚说的", None),
        ("那句是手滑", None),
        ("delete that last bit about my brother", None),
        ("that last message wasn't meant for you, ignore it", None),
        ("wait nah, leave that bit out of your notes", None),
        ("pls don't hang onto that", None),
        ("scratch that, wrong year", None),
        ("that one's off the record btw", None),
    ],
)
def test_what_the_user_takes_back_is_named_or_was_just_said(text: str, named: str | None) -> None:
    back = withdrawal(text)
    assert back is not None
    assert back.topic == named


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("刚才说我在上海是错的", Withdrawal("我在上海", corrects=True)),  # said just now, and named
        ("刚刚那个地址错了", Withdrawal("地址", corrects=True)),
        ("that phone number was wrong", Withdrawal("phone number", corrects=True)),
        ("刚才说的password那条删了吧", Withdrawal(None)),  # a deletion, not a correction
        ("the home address i gave earlier, wipe it pls", Withdrawal("home address")),
    ],
)
def test_a_correction_says_what_was_wrong(text: str, back: Withdrawal) -> None:
    assert withdrawal(text) == back


@pytest.mark.parametrize(
    "text",
    [
        "删掉这个文件",
        "帮我看看这段SQL哪里错了",
        "他说的那个app我删了",
        "朋友推荐的那个电影是开玩笑的",
        "能不能别老问我要不要保存",
        "今天的报告错了",
        "这条裙子不对劲",
        "我忘了带钥匙",
        "the forecast was wrong",
        "that restaurant was wrong about the booking",
        "forget the milk, we have some",
        "I forgot the part about the meeting",
        "delete the app and reinstall it",
        "don't forget my birthday",
        # the right value after it is a statement of its own, never taken back with the wrong one
        "nah forget the birthday thing i told u, wrong date its the 19th of may",
    ],
)
def test_what_only_looks_like_taking_back_takes_back_nothing(text: str) -> None:
    assert withdrawal(text) is None


@pytest.fixture
def mem(open_memory: Callable[[], Memory]) -> Iterator[Memory]:
    with open_memory() as memory:
        yield memory


def _everything(mem: Memory, user: str) -> str:
    """Every text held about ``user``: memories of every status and the log, history, sessions."""
    exported = mem.export(user)
    return str(exported)


def test_forgetting_where_i_live_deletes_every_version_and_keeps_the_rest(mem: Memory) -> None:
    mem.add("我叫阿白，住在杭州西湖区，喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    mem.add("我搬到苏州了", user_id="u1", session_id="s1", at=days(1))
    assert mem.profile("u1")["home_city"] == "苏州"
    (asked,) = mem.add("忘掉我住哪", user_id="u1", session_id="s1", at=days(2)).decisions
    assert asked.category is Category.FORGET
    assert asked.reason == "用户要求忘掉关于住哪的内容：删除了 2 条记忆"
    assert "home_city" not in mem.profile("u1")
    held = _everything(mem, "u1")
    assert "杭州" not in held
    assert "苏州" not in held
    assert "忘掉我住哪" not in held
    assert {m.text for m in mem.list("u1")} == {"我叫阿白", "喜欢喝美式"}
    assert not any(
        "杭州" in h.memory.text or "苏州" in h.memory.text for h in mem.search("住在哪", user_id="u1")
    )
    session = mem.session("u1", "s1", now=days(2))
    assert session is not None
    assert "苏州" not in str(session)


def test_forgetting_a_topic_in_english_deletes_what_says_it_and_nothing_more(mem: Memory) -> None:
    mem.add("I love hiking and I live in Leeds", user_id="u1", at=T0)
    forgot = mem.add("I forgot my keys at the gym", user_id="u1", at=days(1)).decisions
    assert all(d.category is not Category.FORGET for d in forgot)  # no request: what happened
    (asked,) = mem.add("forget what I said about hiking", user_id="u1", at=days(2)).decisions
    assert asked.reason == "the user asked to forget what they said about hiking: 1 memory deleted"
    texts = {m.text for m in mem.list("u1")}
    assert not any("hiking" in t for t in texts)
    assert "I live in Leeds" in texts
    (none,) = mem.add("forget what I said about sailing", user_id="u1", at=days(3)).decisions
    assert none.reason == "the user asked to forget what they said about sailing: nothing was held about it"
    assert {m.text for m in mem.list("u1")} == texts


def test_forgetting_a_masked_value_deletes_the_memories_that_hold_it(mem: Memory) -> None:
    mem.add("my email is bo@example.com, and I prefer email to calls", user_id="u1", at=T0)
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    assert any("[redacted: email]" in m.text for m in mem.list("u1"))
    mem.add("forget my email", user_id="u1", at=days(1))
    assert not any("[redacted: email]" in m.text for m in mem.list("u1", include_log=True))
    assert "我喜欢喝美式" in {m.text for m in mem.list("u1")}


def test_a_forgotten_word_is_gone_from_the_database_files(tmp_path: Path) -> None:
    db = tmp_path / "memlane.db"
    with Memory(db) as mem:
        mem.add("I keep a pet iguana called Zorblax", user_id="u1", session_id="s1", at=T0)
        mem.add("I like tea", user_id="u1", session_id="s1", at=T0)
        mem.maintain(now=days(1))
        mem.add("forget what I said about Zorblax", user_id="u1", session_id="s2", at=days(2))
        raw = b"".join(p.read_bytes() for p in sorted(db.parent.glob(db.name + "*")))
    assert b"Zorblax" not in raw
    assert b"zorblax" not in raw


def test_a_request_drops_only_what_it_names_of_its_own_message(mem: Memory) -> None:
    mem.add("我住在杭州西湖区", user_id="u1", at=T0)
    decisions = mem.add("把我说的那个地址删了，搬走了", user_id="u1", at=days(1)).decisions
    assert [d.action.value for d in decisions] == ["discard", "episodic"]  # 搬走了 is what happened
    assert [m.text for m in mem.list("u1")] == ["搬走了"]
    said = mem.add("我住在深圳，别记我住哪", user_id="u1", at=days(2)).decisions
    assert [d.action.value for d in said] == ["discard", "discard"]
    assert "home_city" not in mem.profile("u1")


def test_a_story_taken_back_as_made_up_deletes_it(mem: Memory) -> None:
    mem.add("我在美的上班，平时喜欢喝美式", user_id="u1", at=T0)
    assert mem.profile("u1")["employer"] == "美的"
    (asked,) = mem.add("前面说我在美的上班是瞎编的", user_id="u1", at=days(1)).decisions
    assert asked.category is Category.FORGET
    assert asked.reason == "用户要求忘掉关于我在美的上班的内容：删除了 1 条记忆"
    assert "employer" not in mem.profile("u1")
    assert [m.text for m in mem.list("u1")] == ["平时喜欢喝美式"]


def test_a_detail_given_earlier_and_wiped_is_gone_and_the_rest_stays(mem: Memory) -> None:
    mem.add("I live at 12 Baker Street, London. I love jazz", user_id="u1", at=T0)
    (asked,) = mem.add("the home address i gave earlier, wipe it pls", user_id="u1", at=days(1)).decisions
    assert asked.reason == "the user asked to forget what they said about home address: 1 memory deleted"
    assert [m.text for m in mem.list("u1", include_log=True) if m.kind.value != "log"] == ["I love jazz"]
    assert "[redacted: address]" not in str(mem.export("u1"))


def test_a_rant_taken_back_just_after_is_not_kept(mem: Memory) -> None:
    mem.add("我喜欢猫", user_id="u1", session_id="s1", at=T0)
    mem.add("我老板是个控制狂，天天让我们加班", user_id="u1", session_id="s1", at=T0)
    (asked,) = mem.add("把我刚才吐槽老板那段删了", user_id="u1", session_id="s1", at=T0).decisions
    assert asked.category is Category.FORGET
    assert [m.text for m in mem.list("u1")] == ["我喜欢猫"]
    assert "控制狂" not in str(mem.export("u1"))


def test_a_correction_takes_back_the_wrong_value_and_keeps_the_right_one(mem: Memory) -> None:
    mem.add("我住在上海，喜欢喝茶", user_id="u1", at=T0)
    mem.add("刚才说我在上海是错的，我在苏州", user_id="u1", at=days(1))
    assert {m.text for m in mem.list("u1")} == {"喜欢喝茶", "我在苏州"}


def test_a_correction_of_a_part_of_the_profile_replaces_its_value(mem: Memory) -> None:
    mem.add("我住在国贸", user_id="u1", at=T0)
    decisions = mem.add("刚刚那个地址错了，我住在望京", user_id="u1", at=days(1)).decisions
    assert [d.action.value for d in decisions] == ["discard", "profile"]
    assert [m.text for m in mem.list("u1")] == ["我住在望京"]
