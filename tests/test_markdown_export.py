"""The readable export: an export document as Markdown in Chinese or English, every stored text
escaped so that it reads as written and never becomes a link or markup."""

from __future__ import annotations

from conftest import T0, days
from memlane import Memory
from memlane.lifecycle.markdown import escape, to_markdown


def test_stored_markup_stays_literal() -> None:
    assert escape("[点我](http://evil.example)") == r"\[点我\]\(http\://evil\.example\)"
    assert escape("<script>x</script>\n# title") == r"\<script\>x\</script\> \# title"


def test_the_readable_export_lists_profile_memories_events_and_what_is_no_longer_true(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1", at=T0)
    mem.add("上周三我投诉了物流延迟，还没解决。", user_id="u1", at=days(1))
    coffee = next(m for m in mem.list("u1") if "美式" in m.text)
    mem.feedback(coffee.id, "outdated", user_id="u1")
    zh = to_markdown(mem.export("u1"), "zh")
    assert zh.startswith("# memlane 记得的关于 u1 的内容")
    assert "| name | 阿白 |" in zh
    assert "## 事件" in zh
    assert "物流延迟" in zh
    assert "未解决" not in zh
    assert "## 已不再生效" in zh
    assert "平时喜欢喝美式 (状态: expired)" in zh
    en = to_markdown(mem.export("u1"), "en")
    assert en.startswith("# What memlane remembers about u1")
    assert "why kept: 用户是谁" in en  # a reason is in the language the memory was said in
    assert to_markdown(mem.export("u1"), "fr").startswith("# What memlane")
