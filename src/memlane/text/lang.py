"""Language of a text and the normal form used to compare texts."""

from __future__ import annotations

import re
import unicodedata

from memlane.text.reading import reading

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


def has_cjk(text: str) -> bool:
    """True when the text holds at least one Chinese character."""
    return _CJK.search(text) is not None


def detect(text: str) -> str:
    """``"zh"`` when Chinese characters are a fair share of the letters, else ``"en"``.

    Mixed text counts as Chinese as soon as a third of its letters are Chinese characters, because
    the Chinese rules also understand the English words a Chinese speaker mixes in.
    """
    cjk = len(_CJK.findall(text))
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    if cjk == 0:
        return "en"
    return "zh" if cjk >= latin_words else "en"


def said(lang: str, en: str, zh: str) -> str:
    """``zh`` to a user who writes Chinese (``lang`` ``"zh"``), ``en`` to everyone else: what memlane
    tells a user (why a clause was kept or not) is in the user's language.

    >>> said("zh", "small talk", "闲聊"), said("en", "small talk", "闲聊")
    ('闲聊', 'small talk')
    """
    return zh if lang == "zh" else en


def normalize(text: str) -> str:
    """NFKC, lower case, no punctuation or spaces: the form two texts are compared in for equality."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_WORD.sub("", folded)


def clean(text: str) -> str:
    """The form a text is stored in: the user's own characters (a full-width comma stays one), with
    control characters gone and runs of blanks folded. Comparing and indexing normalise further
    (:func:`normalize`, :mod:`memlane.text.keywords`); matching folds widths (:func:`fold`).
    """
    text = "".join(ch if (ch.isprintable() or ch in "\n\t") else " " for ch in text)
    return re.sub(r"[ \t]+", " ", text).strip()


_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def fold(text: str) -> str:
    """``text`` with full-width ASCII forms and the ideographic space turned into their half-width
    twins, and Chinese in its simplified Mandarin reading (:func:`memlane.text.reading.reading`:
    traditional characters, Cantonese words), one character for one, so offsets into the folded text
    are offsets into ``text``: what rules and detectors match on, while the user's characters are what
    is kept.

    >>> fold("预算：５００元，ＯＫ？"), fold("我喺臺中返工")
    ('预算:500元,OK?', '我在台中上班')
    """
    return reading(text.translate(_WIDTH))
