"""The profile section of a context block: one readable line per slot, in the block's language.

A slot's value is a code or a short phrase (``preferred_channel = wechat``, ``job = UX设计``); a model
reads "首选联系方式：微信" better than ``preferred_channel: wechat``. When the sentence that set a value
says more than the value ("周末别给我打电话" behind ``avoid_channel = phone``, "在杭州做UX设计的" behind
``job = UX设计``), the line quotes it: the profile is the one place the fact appears, so what it leaves
out of the value must not be lost (:mod:`memlane.read.admit` keeps such memories out of the memory
lines).

>>> from memlane.domain import Category, Kind, MemoryItem
>>> said = MemoryItem(user_id="u", kind=Kind.PROFILE, category=Category.CONTACT, text="周末别给我打电话",
...                   slot="avoid_channel", value="phone")
>>> profile_lines([said], "zh")
['不要用的联系方式：电话（原话：“周末别给我打电话”）']
>>> profile_lines([said], "en")
['Do not contact by: phone calls (in their words: “周末别给我打电话”)']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memlane.domain import Category, MemoryItem
from memlane.text.keywords import content_words

_LABELS: dict[str, tuple[str, str]] = {
    "name": ("名字", "Name"),
    "nickname": ("昵称", "Nickname"),
    "english_name": ("英文名", "English name"),
    "surname": ("姓", "Surname"),
    "birthday": ("生日", "Birthday"),
    "home_city": ("住在", "Lives in"),
    "hometown": ("家乡", "Hometown"),
    "work_city": ("工作城市", "Works in"),
    "employer": ("工作单位", "Employer"),
    "job": ("职业", "Job"),
    "industry": ("行业", "Industry"),
    "work_mode": ("工作方式", "Works"),
    "marital_status": ("婚姻状况", "Marital status"),
    "diet": ("饮食", "Diet"),
    "preferred_channel": ("首选联系方式", "Preferred contact"),
    "avoid_channel": ("不要用的联系方式", "Do not contact by"),
    "no_call_on_weekends": ("周末不要打电话", "No calls at weekends"),
    "no_call_at_night": ("晚上不要打电话", "No calls at night"),
    "no_call_during_work": ("工作时间不要打电话", "No calls during working hours"),
    "no_call_after": ("最晚通话时间", "No calls after"),
    "no_call_before": ("最早通话时间", "No calls before"),
    "language": ("语言", "Language"),
    "response_style": ("回答风格", "Answer style"),
    "tone": ("语气", "Tone"),
    "plain_language": ("说话通俗，不用术语", "Plain words, no jargon"),
    "budget": ("预算", "Budget"),  # a condition of this conversation's task
}
# a coded value in words, with what a sentence setting it would say besides (for the "says more" test)
_VALUES: dict[str, tuple[str, str, str]] = {
    "email": ("邮件", "email", "邮箱 mail e-mail"),
    "phone": ("电话", "phone calls", "打电话 手机 call calls ring"),
    "sms": ("短信", "text messages", "text texts message 发短信"),
    "wechat": ("微信", "WeChat", "wx vx"),
    "qq": ("QQ", "QQ", ""),
    "whatsapp": ("WhatsApp", "WhatsApp", ""),
    "telegram": ("Telegram", "Telegram", ""),
    "wecom": ("企业微信", "WeCom", "企微 wechat work"),
    "dingtalk": ("钉钉", "DingTalk", ""),
    "feishu": ("飞书", "Feishu", "lark"),
    "slack": ("Slack", "Slack", ""),
    "teams": ("Teams", "Microsoft Teams", "ms teams"),
    "remote": ("远程", "remotely", "远程办公 在家 home"),
    "office": ("坐班", "in an office", "办公室 公司"),
    "hybrid": ("混合办公", "hybrid", ""),
    "married": ("已婚", "married", "结婚 老婆 老公 wife husband"),
    "single": ("单身", "single", ""),
    "divorced": ("离异", "divorced", "离婚"),
    "widowed": ("丧偶", "widowed", ""),
    "engaged": ("已订婚", "engaged", "订婚 未婚妻 未婚夫 fiance fiancee"),
    "vegetarian": ("素食", "vegetarian", "吃素 素食者 veggie"),
    "vegan": ("纯素", "vegan", ""),
    "omnivore": ("荤素都吃", "eats everything", "吃肉 meat"),
    "pescatarian": ("只吃鱼和海鲜", "pescatarian", "鱼 海鲜 fish"),
    "halal": ("清真", "halal", ""),
    "kosher": ("犹太洁食", "kosher", ""),
    "zh": ("中文", "Chinese", "汉语 普通话 简体 mandarin"),
    "zh-Hant": ("繁体中文", "Traditional Chinese", "繁体"),
    "en": ("英文", "English", "英语"),
    "ja": ("日语", "Japanese", "日文"),
    "ko": ("韩语", "Korean", ""),
    "yue": ("粤语", "Cantonese", ""),
    "es": ("西班牙语", "Spanish", ""),
    "fr": ("法语", "French", ""),
    "de": ("德语", "German", ""),
    "concise": ("简短", "concise", "简洁 简单 短 short brief"),
    "detailed": ("详细", "detailed", "具体 detail"),
    "formal": ("正式", "formal", ""),
    "casual": ("随意", "casual", "随便 轻松"),
}
# words that only frame a statement of a slot ("我叫…", "pls text me"): they add nothing to its value
_FRAME_WORDS = frozenset(
    "有事 就行 平时 以后 现在 一般 优先 联系 回答 回复 名字 叫做 我们 the a an my me i i'm im am is are "
    "name call called live work job pls please fyi also just btw prefer contact reach keep answer use "
    "instead rather only mostly usually always never don't dont".split()
)
_FRAME_CHARS = frozenset("我你叫是做住在的了就行点吧呗啊呀哈嘛呢别打发用给请要不")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def profile_lines(memories: Sequence[MemoryItem], lang: str) -> list[str]:
    """One line per slot of the profile memories ``memories`` (those that set the current values,
    newest first), in ``lang`` ("zh" or else English), in slot order; then one line that quotes the
    ways to answer with no slot among them ("以后这种英文的东西你都给我弄成表格对照")."""
    by_slot: dict[str, list[list[MemoryItem]]] = {}  # slot -> the memories of each value, in order
    standing = [f"“{m.text}”" for m in memories if m.slot is None and m.category is Category.STYLE]
    for item in memories:
        if item.slot is not None and item.value is not None:
            held = by_slot.setdefault(item.slot, [])
            same = next((group for group in held if group[0].value == item.value), None)
            if same is None:
                held.append([item])
            else:
                same.append(item)  # the same value in other words, quoted beside the first
    zh = lang == "zh"
    lines = []
    for slot, groups in sorted(by_slot.items()):
        values = [_value(slot, group[0].value, zh) + _quotes(group, zh) for group in groups]
        label = _LABELS.get(slot, (slot, slot))[0 if zh else 1]
        if all(group[0].value is True for group in groups):  # a flag's label says it all
            lines.append(label + "".join(_quotes(group, zh) for group in groups))
        else:
            lines.append(f"{label}{'：' if zh else ': '}{('、' if zh else ', ').join(values)}")
    if standing:
        lines.append(f"回答方式：{'；'.join(standing)}" if zh else f"How to answer: {'; '.join(standing)}")
    return lines


def slot_line(slot: str, value: Any, lang: str) -> str:
    """One slot (of the profile or of a conversation's conditions) as a line: label and value."""
    zh = lang == "zh"
    label = _LABELS.get(slot, (slot, slot))[0 if zh else 1]
    shown = [_value(slot, v, zh) for v in (value if isinstance(value, list) else [value])]
    return f"{label}{'：' if zh else ': '}{('、' if zh else ', ').join(shown)}"


def _value(slot: str, value: Any, zh: bool) -> str:
    if isinstance(value, bool):
        return ("是" if value else "否") if zh else ("yes" if value else "no")
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    text = str(value)
    if slot == "birthday":
        return _birthday(text, zh)
    words = _VALUES.get(text)
    return (words[0] if zh else words[1]) if words else text


_MONTHS = "January February March April May June July August September October November December".split()


def _birthday(value: str, zh: bool) -> str:
    parts = [int(p) for p in value.split("-")]
    year, (month, day) = (parts[0] if len(parts) == 3 else None), parts[-2:]
    if zh:
        return (f"{year}年" if year else "") + f"{month}月{day}日"
    return f"{_MONTHS[month - 1]} {day}" + (f", {year}" if year else "")


def _quotes(items: Sequence[MemoryItem], zh: bool) -> str:
    """The user's own words behind a value, those that say more than the value."""
    said = [f"“{m.text}”" for m in items if says_more(m)]
    if not said:
        return ""
    return f"（原话：{'；'.join(said)}）" if zh else f" (in their words: {'; '.join(said)})"


def says_more(item: MemoryItem) -> bool:
    """Whether a profile memory's sentence holds a word its slot value does not stand for
    ("在杭州做UX设计的" says where; "我叫阿白" says nothing more than name = 阿白)."""
    if item.slot is None or item.value is None:
        return False
    raw = str(item.value)
    known = " ".join([raw, *_VALUES.get(raw, ()), *_LABELS.get(item.slot, ())])
    covered = content_words(known) | {w.casefold() for w in known.split()}
    chars = {c for c in known if _CJK.match(c)} | _FRAME_CHARS
    for word in content_words(item.text):
        if word in _FRAME_WORDS or word in covered:
            continue
        if any(len(w) > 1 and (w in word or word in w) for w in covered):
            continue
        if _CJK.search(word):
            if len(word) > 1 and not set(word) <= chars:
                return True
        elif len(word) > 2 and not word.isdigit():
            return True
    return False
