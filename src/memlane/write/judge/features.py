"""What the learned judge sees of a clause: hashed n-grams and a few cheap cues, nothing embedded.

A clause becomes a set of strings (Chinese character 1-3-grams, English word 1-2-grams and
character 3-5-grams inside words, all lower-cased; plus cue tokens for the language, the first
person, time words, hedges, conditionals, questions, negation, digits and masked values), each
hashed with CRC-32 into ``dim`` buckets. The row is binary, scaled to unit length, so a long
clause weighs no more than a short one::

    >>> Features().indices("If I won the lottery I'd buy a castle").size > 0
    True

CRC-32 is the same on every machine and Python (``hash()`` is salted per process), so a model
trained here predicts the same anywhere.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memlane.domain import Candidate
from memlane.text.lang import fold

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_DIGIT = re.compile(r"\d")

# cue words, by the token they add; Chinese ones match anywhere, English ones as words
_CUES_ZH = {
    "first": "我",
    "hedge": "也许|可能|大概|好像|应该是|估计|说不定|或许|似乎|不确定",
    "cond": "如果|要是|假如|假设|万一|的话|要不是|就好了",
    "past": "昨天|前天|上周|上个|上次|刚才|刚刚|去年|以前|之前|已经|了",
    "future": "明天|后天|下周|下个|明年|打算|准备|计划|要去|将",
    "habit": "一般|平时|每天|每周|总是|经常|通常|一直|向来|老是|习惯",
    "now": "现在|正在|这次|本次|这回|今天|目前|此刻|这会",
    "neg": "不|没|别|无|非",
    "remember": "记住|记得|别记|不要记|忘掉|删掉",
}
_CUES_EN = {
    "first": r"i|me|my|mine|i'm|i've|i'd|i'll|im|myself",
    "hedge": r"maybe|perhaps|probably|possibly|might|guess|think|suppose|unsure|pretty sure|not sure",
    "cond": r"if|suppose|imagine|would|wish|unless|hypothetically",
    "past": r"yesterday|ago|last|was|were|did|had|just",
    "future": r"tomorrow|next|will|gonna|going to|plan|planning|soon",
    "habit": r"usually|always|often|every|generally|tend|normally|typically",
    "now": r"now|today|this time|for this|right now|currently|tonight",
    "neg": r"not|no|never|don't|dont|can't|won't|isn't|doesn't|didn't|hate",
    "remember": r"remember|forget|delete|don't save|dont save",
}
_ZH_CUE = {k: re.compile(v) for k, v in _CUES_ZH.items()}
_EN_CUE = {k: re.compile(rf"\b(?:{v})\b") for k, v in _CUES_EN.items()}


@dataclass(frozen=True)
class Features:
    """How clauses become hashed feature rows; the sizes are the ones cross-validation chose."""

    dim: int = 1 << 14
    zh_max: int = 3  # Chinese character n-grams, 1..zh_max
    word_max: int = 2  # English word n-grams, 1..word_max
    char_min: int = 3  # English character n-grams inside words, char_min..char_max
    char_max: int = 5

    def grams(self, text: str, *, own: bool = True) -> list[str]:
        """The strings a clause is seen as, before hashing (cue tokens start with ``~``); without
        ``own``, all but each word's own grams (:func:`_word_grams`)."""
        low = _seen(text)
        out: list[str] = []
        zh = "".join(_CJK_RUN.findall(low))
        for run in _CJK_RUN.findall(low):
            for n in range(1, self.zh_max + 1):
                out += [f"z{run[i : i + n]}" for i in range(len(run) - n + 1)]
        words = _WORD.findall(low)
        for word in words if own else ():
            out += _word_grams(word, self.char_min, self.char_max)
        for n in range(2, self.word_max + 1):
            out += ["w" + " ".join(words[i : i + n]) for i in range(len(words) - n + 1)]
        out.append("~lang:" + ("mixed" if zh and words else "zh" if zh else "en"))
        out += [f"~{cue}" for cue, pattern in _ZH_CUE.items() if zh and pattern.search(low)]
        out += [f"~{cue}" for cue, pattern in _EN_CUE.items() if words and pattern.search(low)]
        if "?" in low or low.rstrip("。.!！~ ").endswith(("吗", "呢", "么")):
            out.append("~question")
        if _DIGIT.search(low):
            out.append("~digit")
        if "[" in low and "]" in low:
            out.append("~masked")
        out.append("~len:" + str(min(len(zh) + len(words), 24) // 4))
        return out

    def indices(self, text: str, cues: Sequence[str] = ()) -> npt.NDArray[np.int64]:
        """The sorted, distinct buckets the clause falls in, with ``cues`` (what the rules saw): the
        buckets of :meth:`grams`, with each word's remembered (words repeat, and so do their grams)."""
        low = _seen(text)
        hashed: set[int] = set()
        for word in _WORD.findall(low):
            hashed.update(_word_buckets(word, self.char_min, self.char_max, self.dim))
        hashed.update(_bucket(g, self.dim) for g in (*self.grams(text, own=False), *cues))
        return np.fromiter(sorted(hashed), dtype=np.int64, count=len(hashed))


def _seen(text: str) -> str:
    """A clause as the models read it: lower-cased (NFKC), and Chinese in the simplified Mandarin
    reading the rules match on (:func:`memlane.text.lang.fold`: "我喺臺中返工" reads as "我在台中上班"),
    so traditional characters and Cantonese fall in the buckets of the words the corpus taught."""
    return unicodedata.normalize("NFKC", fold(text)).lower()


def _word_grams(word: str, char_min: int, char_max: int) -> tuple[str, ...]:
    """A word as a unigram and its character n-grams inside it."""
    padded = f"<{word}>"
    spans = ((i, n) for n in range(char_min, char_max + 1) for i in range(len(padded) - n + 1))
    return (f"w{word}", *(f"c{padded[i : i + n]}" for i, n in spans))


@functools.lru_cache(maxsize=1 << 16)
def _word_buckets(word: str, char_min: int, char_max: int, dim: int) -> frozenset[int]:
    """The buckets of a word's own grams (remembered: words repeat)."""
    return frozenset(_bucket(g, dim) for g in _word_grams(word, char_min, char_max))


@functools.lru_cache(maxsize=1 << 17)
def _bucket(gram: str, dim: int) -> int:
    """The bucket of one string: CRC-32, the same on every machine (remembered: grams repeat)."""
    return zlib.crc32(gram.encode("utf-8")) % dim


def rule_cues(candidate: Candidate) -> list[str]:
    """What the rule extractor made of a clause, as cue tokens: its category, its slot, whether it
    is dated, hedged, one-off, inferred, or a request to remember."""
    out = [f"~rule:{candidate.category.value}"]
    if candidate.slot is not None:
        out += ["~slot", f"~slot:{candidate.slot.split(':')[0]}"]
    flags = {
        "dated": candidate.event_time is not None,
        "hedged": candidate.hedged,
        "once": candidate.session_only,
        "inferred": not candidate.explicit,
        "keep": candidate.remember_request,
        "objects": bool(candidate.objects),
        "joined": candidate.clauses > 1,
    }
    return out + [f"~rule:{name}" for name, on in flags.items() if on]
