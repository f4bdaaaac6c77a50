"""The Mandarin reading of Chinese written another way, one character for one, for rules to match on.

The rules and detectors are written in simplified Mandarin. People also write traditional characters
(Hong Kong, Taiwan, Macau: "我住在臺中 每天騎機車上班") and Cantonese ("我喺南庄一間瓷磚廠做質檢", "部電動車
畀人偷咗"). :func:`reading` gives a text's simplified Mandarin reading of the same length: traditional
characters become their simplified form (OpenCC's character table, shipped with
``opencc-python-reimplemented``), and, in a text that reads as Cantonese, its words become the Mandarin
words of as many characters (喺 → 在, 咗 → 了, 唔 → 不, 而家 → 现在, 揸车 → 开车). Offsets into the
reading are offsets into the text, so what is kept is the user's own characters
(:func:`memlane.text.lang.fold`)::

    >>> reading("我而家喺公司，部車畀人偷咗")
    '我现在在公司，部车给人偷了'
"""

from __future__ import annotations

import functools
import re
from importlib import resources

# written Cantonese: characters Mandarin does not use (a text holding one reads as Cantonese)
_CANTONESE = re.compile(r"[喺咗唔嘅冇睇畀咩嚟佢哋啲嘢揸嬲攞瞓嗰噉咁揾搵谂諗攰乜啱嘥㗎喎嘞啫囉噃嚿嗌]")
# Cantonese words and their Mandarin of as many characters, longest first where one holds another
_WORDS = {
    # being, having, not
    "唔系": "不是", "唔係": "不是", "系咪": "是不", "係咪": "是不", "就系": "就是", "就係": "就是",
    "都系": "都是", "都係": "都是", "真系": "真是", "真係": "真是", "即系": "就是", "即係": "就是",
    "原来系": "原来是", "應該係": "应该是", "应该系": "应该是", "我系": "我是", "我係": "我是",
    "佢系": "他是", "佢係": "他是", "系咩": "是啥", "係咩": "是啥", "唔该": "谢谢", "唔該": "谢谢",
    "多谢晒": "谢谢了", "多謝晒": "谢谢了", "唔好": "不要", "估系": "猜是", "估係": "猜是", "就得": "就行",
    # when and where
    "而家": "现在", "宜家": "现在", "依家": "现在", "听日": "明天", "聽日": "明天", "琴日": "昨天",
    "寻日": "昨天", "尋日": "昨天", "今日": "今天", "听朝": "明早", "聽朝": "明早", "今朝": "今早",
    "成日": "整天", "日日": "天天", "每日": "每天", "出年": "明年", "旧年": "去年", "舊年": "去年",
    "边度": "哪里", "邊度": "哪里", "呢度": "这里", "嗰度": "那里", "屋企": "家里", "几时": "何时",
    "幾時": "何时", "点样": "怎样", "點樣": "怎样", "乜嘢": "什么", "咩嘢": "什么", "边个": "哪个",
    "邊個": "哪个", "呢个": "这个", "呢個": "这个", "呢段": "这段", "呢间": "这间", "呢間": "这间",
    "呢次": "这次", "呢排": "这阵", "呢张": "这张", "呢張": "这张", "呢啲": "这些", "呢条": "这条",
    "呢條": "这条", "呢份": "这份", "呢单": "这单", "呢單": "这单",
    # doing
    "返工": "上班", "放工": "下班", "返学": "上学", "返學": "上学", "食饭": "吃饭",
    "食飯": "吃饭", "食紧": "吃着", "食緊": "吃着", "搞掂": "搞定", "揸车": "开车", "揸車": "开车",
    "塞车": "堵车", "塞車": "堵车", "瞓觉": "睡觉", "瞓覺": "睡觉", "钟意": "喜欢", "鍾意": "喜欢",
    "做嘢": "做事", "份工": "工作", "踩单车": "骑单车", "踩單車": "骑单车", "好攰": "好累",
    # one character for one
    "喺": "在", "咗": "了", "唔": "不", "嘅": "的", "冇": "没", "睇": "看", "畀": "给", "俾": "给",
    "咩": "啥", "嚟": "来", "佢": "他", "哋": "们", "啲": "些", "嘢": "事", "揸": "开", "嬲": "气",
    "攞": "拿", "瞓": "睡", "嗰": "那", "噉": "这", "咁": "这", "揾": "找", "搵": "找", "谂": "想",
    "諗": "想", "攰": "累", "乜": "啥", "啱": "对", "嗌": "叫", "仲": "还", "返": "回",
    # what ends a sentence
    "㗎": "啊", "喎": "啊", "嘞": "了", "啫": "啊", "囉": "啊", "噃": "啊",
}  # fmt: skip
_WORD = re.compile("|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)))
assert all(len(k) == len(v) for k, v in _WORDS.items())


@functools.cache
def _simplified() -> dict[int, str]:
    """Each traditional character and its simplified form, one for one (read once, on first use)."""
    table = resources.files("opencc").joinpath("dictionary", "TSCharacters.txt").read_text(encoding="utf-8")
    out: dict[int, str] = {}
    for line in table.splitlines():
        traditional, _, simplified = line.partition("\t")
        first = simplified.split()[0] if simplified.strip() else ""
        if len(traditional) == 1 and len(first) == 1:
            out[ord(traditional)] = first
    return out


# Cantonese 系 (係) is "is", but not in the Mandarin words it also writes (关系, 联系, 系统, 中文系)
_IS = re.compile(r"(?<![关联体院派水直星父母文])系(?![统列数])")


def reading(text: str) -> str:
    """``text`` in simplified Mandarin, one character for one (a text with no Chinese is itself)."""
    text = text.translate(_simplified())
    if _CANTONESE.search(text) is None:
        return text
    return _IS.sub("是", _WORD.sub(lambda m: _WORDS[m.group(0)], text))
