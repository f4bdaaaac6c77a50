"""What reconcile notes about a new memory and the memories it met, in the user's language: why it
merged into one, retired some, or left one standing. A note is the decision's ``note`` and the
reason in the history of each memory it touched::

    note("changed_mind", "不喝美式了", names="美式")  # '用户对美式改变了主意'
"""

from __future__ import annotations

from memlane.text.lang import detect, said

_NOTES = {
    "later": ("something said later says otherwise", "后来说的与此不同"),
    "explicit": ("an explicit statement says otherwise", "用户明确说过的与此不同"),
    "own_words": ("the same {slot} as before, in words of its own", "和之前的 {slot} 相同，但说法不同"),
    "same_slot": ("the same {slot} as before", "和之前的 {slot} 相同"),
    "new_value": ("a new value for {slot}", "{slot} 有了新的值"),
    "changed_mind": ("the user changed their mind about {names}", "用户对{names}改变了主意"),
    "changed_mind_it": ("the user changed their mind about it", "用户改变了主意"),
    "same_words": ("the same words as an existing memory", "和已有的记忆一字不差"),
    "masked": ("a masked memory is never matched on its masked words", "遮盖过的记忆不按遮盖的字匹配"),
    "no_longer": ("the user says this no longer holds", "用户说这已经不再成立"),
    "ended": (
        "learned: the user says this no longer holds ({score:.2f})",
        "学习判断：用户说这已经不再成立（{score:.2f}）",
    ),
    "solved": ("the problem the user reported is solved", "用户反映的问题已解决"),
    "called_off": ("the plan was called off", "计划取消了"),
    "moved": ("the plan was moved to another time", "计划改了时间"),
    "happened": ("the plan happened", "计划已经完成"),
    "says_same": ("says what an existing memory says ({score:.2f})", "说的和已有的记忆一样（{score:.2f}）"),
    "says_more": ("says more than an existing memory ({score:.2f})", "比已有的记忆说得更多（{score:.2f}）"),
    "stands": ("an existing memory stands: {why}", "已有的记忆保留：{why}"),
}


def note(key: str, text: str, **values: object) -> str:
    """The note ``key`` in the language of ``text`` (what the user said), with ``values`` filled in.

    >>> note("changed_mind", "不喝美式了", names="美式"), note("solved", "the parcel came")
    ('用户对美式改变了主意', 'the problem the user reported is solved')
    """
    en, zh = _NOTES[key]
    return said(detect(text), en, zh).format(**values)
