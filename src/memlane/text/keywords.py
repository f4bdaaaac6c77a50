"""Keyword tokens for the full-text index and for keyword queries, in Chinese and English.

Documents and queries go through the same normalisation, so a query token matches an index token
exactly: SQLite FTS5 (``unicode61``) and PostgreSQL then only split the stored text on spaces.

- Chinese runs are segmented by jieba's search mode, which also emits the shorter words inside a long one
  (中华人民共和国 → 中华, 人民, 共和国, …) so a query for a part finds the whole. A word jieba does not
  know (喝冷萃) also yields its bigrams and characters, for the same reason.
- Other text is NFKC-normalised, case-folded, split on anything that is not a letter or digit, and
  stemmed with Snowball English, so "likes", "liked" and "liking" all become "like".
- Stopwords are dropped in both languages; meaningful single characters such as 猫 or 辣 are kept.

>>> index_tokens("I liked the green tea")
['like', 'green', 'tea']
>>> query_tokens("我喜欢猫，猫喜欢我")
['喜欢', '猫']
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator

import jieba
import snowballstemmer

jieba.setLogLevel(60)  # jieba logs dictionary loading at INFO; a library must not write to the log then

_CJK_RUN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)")
_WORD = re.compile(r"[^\W_]+")

# Function words that carry no topic; content characters (猫 狗 茶 辣 吃 …) stay searchable.
# Blocks of words, because hundreds of quoted strings would bury the words themselves.
_ZH_STOPWORD_BLOCK = (
    "的 了 吗 呢 吧 啊 呀 哦 嗯 哈 啦 喔 哟 么 是 在 我 你 您 他 她 它 们 和 与 及 或 而 也 都 就 还 又 "
    "把 被 给 让 对 从 向 往 于 以 为 这 那 哪 个 之 其 所 着 过 得 地 很 太 更 最 只 才 已 有 啥 "
    "我们 你们 他们 她们 它们 咱们 自己 什么 怎么 怎样 为什么 哪里 哪儿 哪个 那个 这个 一个 这些 那些 "
    "这样 那样 因为 所以 但是 可是 如果 虽然 然后 而且 或者 还是 就是 不是 没有 可以 一下 一些 一点 "
    "知道 觉得 时候 请 帮 麻烦"
)
_EN_STOPWORD_BLOCK = (
    "a about above after again against all am an and any are aren as at be because been before being "
    "below between both but by can cannot could couldn d did didn do does doesn doing don down during "
    "each few for from further had hadn has hasn have haven having he her here hers herself him himself "
    "his how i if in into is isn it its itself just ll m me more most mustn my myself no nor not now o "
    "of off on once only or other our ours ourselves out over own re s same shan she should shouldn so "
    "some such t than that the their theirs them themselves then there these they this those through to "
    "too under until up us ve very was wasn we were weren what when where which while who whom why will "
    "with won would wouldn y you your yours yourself yourselves also get got let lets ok okay please "
    "yes yeah hi hello thanks thank"
)
_ZH_STOPWORDS = frozenset(_ZH_STOPWORD_BLOCK.split())
_EN_STOPWORDS = frozenset(_EN_STOPWORD_BLOCK.split())

_STEMMER = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    # Tokens with digits are model numbers and codes ("s24", "2024"); stemming them only hurts.
    if any(ch.isdigit() for ch in word):
        return word
    stem: str = _STEMMER.stemWord(word)
    return stem


def _latin_tokens(chunk: str) -> list[str]:
    return [_stem(w) for w in _WORD.findall(chunk) if w not in _EN_STOPWORDS]


def _chinese_tokens(run: str) -> list[str]:
    tokens: list[str] = []
    for word in jieba.cut_for_search(run):
        if word in _ZH_STOPWORDS:
            continue
        tokens.append(word)
        if len(word) > 1 and not jieba.dt.FREQ.get(word):
            # jieba's HMM glues a word missing from its dictionary to a neighbour ("喝冷萃"); adding the
            # bigrams and characters keeps "喝" and "冷萃" findable, on both the index and the query side.
            tokens += [word[i : i + 2] for i in range(len(word) - 1)] if len(word) > 2 else []
            tokens += [ch for ch in word if ch not in _ZH_STOPWORDS]
    return tokens


def index_tokens(text: str) -> list[str]:
    """The tokens to store for a document, in text order, with repeats kept (they weigh in BM25).

    >>> index_tokens("我的猫喜欢吃鱼")
    ['猫', '喜欢', '吃', '鱼']
    """
    tokens: list[str] = []
    for chinese, chunk in _runs(_folded(text)):
        tokens += _chinese_tokens(chunk) if chinese else _latin_tokens(chunk)
    return tokens


def _folded(text: str) -> str:
    """``text`` as the index reads it: NFKC, case folded, no double quotes (FTS5's string quote)."""
    return unicodedata.normalize("NFKC", text).casefold().replace('"', " ")


def _runs(text: str) -> Iterator[tuple[bool, str]]:
    """The non-empty chunks of ``text`` in order, each with whether it is a run of Chinese characters."""
    # re.split with a capturing group alternates: non-Chinese chunk, Chinese run, non-Chinese chunk, …
    for i, chunk in enumerate(_CJK_RUN.split(text)):
        if chunk:
            yield bool(i % 2), chunk


def said_in(text: str, terms: Iterable[str]) -> list[str]:
    """Those of ``terms`` (index tokens) that ``text`` itself says: a Chinese term anywhere in it, any
    other as one of its words. Cheaper than segmenting ``text`` (no jieba), and a term jieba would
    cut differently in ``text`` still counts when the text holds it.

    >>> said_in("I drink tea with my 妈妈", ["drink", "妈", "coffe"])
    ['drink', '妈']
    """
    folded = _folded(text)
    latin: set[str] | None = None
    found = []
    for term in terms:
        if _CJK_RUN.search(term):
            if term in folded:
                found.append(term)
            continue
        if latin is None:
            latin = {t for chinese, chunk in _runs(folded) if not chinese for t in _latin_tokens(chunk)}
        if term in latin:
            found.append(term)
    return found


def query_tokens(text: str) -> list[str]:
    """The tokens of a keyword query: normalised as ``index_tokens``, de-duplicated, order kept.

    Every token is safe inside a double-quoted FTS5 string: it holds only letters and digits.

    >>> query_tokens("What does she like? Likes and liking!")
    ['like']
    """
    return list(dict.fromkeys(index_tokens(text)))


def _name_pattern(name: str) -> str:
    """How a name is found in text: a Chinese one inside a run of characters, a Latin one as a whole
    word (with an English possessive)."""
    body = r"\s+".join(re.escape(part) for part in name.split())
    return body if _CJK_RUN.fullmatch(name) else rf"(?<![^\W_]){body}(?:['’]s)?(?![^\W_])"


def named(text: str, names: Iterable[str]) -> set[str]:
    """The ``names`` that ``text`` mentions, as :func:`without_names` finds them.

    >>> sorted(named("What did Melanie's kids paint?", ["Melanie", "Caroline"]))
    ['Melanie']
    """
    folded = unicodedata.normalize("NFKC", text)
    return {
        name
        for name in names
        if (n := unicodedata.normalize("NFKC", name).strip())
        and re.search(_name_pattern(n), folded, flags=re.IGNORECASE)
    }


def without_names(text: str, names: Iterable[str]) -> str:
    """``text`` with every mention of ``names`` taken out (an English possessive with it), or ``text``
    itself when no keyword would be left. Case and width are ignored; a Latin name must be a whole word.

    >>> without_names("What did Melanie's kids paint?", ["Melanie", "Caroline"])
    'What did kids paint?'
    >>> without_names("阿白上周去了哪里", ["阿白"])
    '上周去了哪里'
    >>> without_names("Melanie?", ["Melanie"])
    'Melanie?'
    """
    folded = unicodedata.normalize("NFKC", text)
    out = folded
    for name in names:
        name = unicodedata.normalize("NFKC", name).strip()
        if not name:
            continue
        out = re.sub(_name_pattern(name), " ", out, flags=re.IGNORECASE)
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r" (?=[?？!！.。,，])", "", out)
    return out if out != folded.strip() and index_tokens(out) else text


def index_text(text: str) -> str:
    """The document as stored in the full-text column: its index tokens joined by single spaces."""
    return " ".join(index_tokens(text))


# Words that frame a statement rather than say what it is about: "我喜欢喝美式" and "我喜欢喝茶" share
# them, but are different memories.
_FRAME_WORDS = frozenset(
    "喜欢 爱 喝 吃 关注 感兴趣 兴趣 偏好 平时 比较 非常 特别 一直 经常 总是 现在 最近 "
    "like love prefer enjoy interest interested realli alway usual current now".split()
)


def content_words(text: str) -> set[str]:
    """What a statement is about: precise-mode words without stopwords, stems or framing verbs.

    Used to tell a near duplicate ("关注手机游戏性能" / "关注游戏性能") from a sibling fact that an
    embedding also finds close ("我喜欢喝美式" / "我喜欢喝茶").

    >>> sorted(content_words("我平时喜欢喝美式"))
    ['美式']
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    words: set[str] = set()
    for chinese, chunk in _runs(folded):
        if chinese:
            words.update(w for w in jieba.lcut(chunk) if w not in _ZH_STOPWORDS)
        else:
            words.update(_latin_tokens(chunk))
    return words - _FRAME_WORDS
