"""How two statements' words compare: the things they name, whether one says all the other says,
and how much of one the other holds. The reconciler and consolidation decide with these."""

from __future__ import annotations

from memlane.domain import MemoryItem
from memlane.privacy.sensitive import PLACEHOLDER
from memlane.text.keywords import content_words
from memlane.text.lang import normalize


def things(item: MemoryItem) -> set[str]:
    """The things ``item`` names, normalised."""
    return {normalize(o) for o in item.entities if o}


def same_object(a: str, b: str) -> bool:
    """One thing named twice: equal, or one name inside the other ("美式" in "美式咖啡")."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 2 and short in long


def shared(a: set[str], b: set[str]) -> set[str]:
    """The names of ``a`` that name something of ``b``."""
    return {x for x in a if any(same_object(x, y) for y in b)}


def masked(item: MemoryItem) -> bool:
    """Whether ``item``'s text hides values behind placeholders."""
    return PLACEHOLDER.search(item.text) is not None


def _found(word: str, words: set[str]) -> bool:
    return word in words or (len(word) > 1 and any(word in w or w in word for w in words if len(w) > 1))


def covers(general: str, specific: str) -> bool:
    """Whether every content word of ``general`` is in ``specific`` (a word inside a longer one counts:
    游戏 in 手机游戏): ``specific`` says all that ``general`` says.

    >>> covers("关注游戏性能", "关注iPhone游戏性能"), covers("我喜欢喝第0种茶", "我喜欢喝第9种茶")
    (True, False)
    """
    small, large = content_words(general), content_words(specific)
    if not small or not large:
        return normalize(general) == normalize(specific)
    return all(_found(w, large) for w in small)


# single Chinese characters that name nothing two statements could share: the words a move, a time or
# a relation is said with ("联赛推迟到5月10号" and "训练挪到放学后" share 到)
_NAME_NOTHING = frozenset("到把被给让从对向往点号日月年周天次上下里前后中")


def shares_a_word(a: str, b: str) -> bool:
    """Whether a content word of one statement is found in the other, a lone character of
    :data:`_NAME_NOTHING` aside."""
    left, right = (content_words(t) - _NAME_NOTHING for t in (a, b))
    if not left or not right:
        return word_overlap(a, b) > 0
    return any(_found(w, right) for w in left) or any(_found(w, left) for w in right)


def word_overlap(a: str, b: str) -> float:
    """Share of the smaller statement's content words found in the other."""
    left, right = content_words(a), content_words(b)
    if not left or not right:
        return 1.0 if normalize(a) == normalize(b) else 0.0
    small, large = (left, right) if len(left) <= len(right) else (right, left)
    return sum(_found(w, large) for w in small) / len(small)
