"""Whether a Chinese word jieba tags as a person's name reads as one.

jieba's dictionary tags many common nouns as names (``nr``): 夜猫子, 顾问, 师傅, 小姐, 王爷, 明白. "我是
夜猫子" says what the user is like, not what they are called. A full name starts with a common
surname (张伟, 欧阳娜娜) and a familiar one with 老, 小 or 阿 (老王, 小李, 阿白); a word the dictionary
counts often as a name is a noun that happens to look like one (顾问 1,697 times, 王爷 1,624; 李娜 438).

>>> reads_as_name("张伟"), reads_as_name("老王"), reads_as_name("夜猫子"), reads_as_name("顾问")
(True, True, False, False)
"""

from __future__ import annotations

# the most common surnames (the 2020 census's first 120 or so cover nine people in ten), and compound ones
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁"
    "任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付傅方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严"
    "莫孔向常汤康易乔赖文施洪辛柯庄樊祝葛殷阎牛温鲁齐"
)
COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "慕容", "令狐", "皇甫", "尉迟", "公孙", "司徒")
_FAMILIAR = ("老", "小", "阿")
# how often jieba's dictionary may count a word for it still to be a name rather than a common noun
_COMMON = 1000


def _count(word: str) -> int:
    """How often jieba's dictionary (loaded by the segmenter that tagged the word) counts ``word``."""
    import jieba

    jieba.dt.check_initialized()
    return int(jieba.dt.FREQ.get(word, 0))


def reads_as_name(word: str) -> bool:
    """Whether ``word`` (two to four Chinese characters) reads as a person's name."""
    if not 2 <= len(word) <= 4:
        return False
    starts = word[0] in SURNAMES or word.startswith(COMPOUND_SURNAMES)
    familiar = len(word) == 2 and word.startswith(_FAMILIAR)
    return (starts or familiar) and _count(word) < _COMMON
