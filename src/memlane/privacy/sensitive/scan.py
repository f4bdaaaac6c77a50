"""``scan``: every sensitive value in a text, each detector family asked once, overlaps resolved by
the strength order of :data:`~.table.KINDS`."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from memlane.text.lang import fold

from . import addresses, contacts, credentials, health, ids, secrets, spanning
from .table import KINDS, Span

_DETECTORS = (
    ids.find,
    secrets.find,
    credentials.find,
    spanning.find,
    contacts.find,
    addresses.find,
    health.find,
)

# A number read out in Chinese digits (一三八一二三四五六七八, 六二二八…) is the same number. Only runs
# of four or more are read as digits, so 三四个 and 一二 stay words; one character for one, so the
# offsets still point into the text as given.
_ZH_DIGITS = re.compile("[零〇幺一二三四五六七八九]{4,}")
_AS_DIGIT = str.maketrans("零〇幺一二三四五六七八九", "001123456789")


def _digits(text: str) -> str:
    return _ZH_DIGITS.sub(lambda m: m.group().translate(_AS_DIGIT), text)


@dataclass(frozen=True)
class Finding:
    """One sensitive value: its kind and the ``[start, end)`` span of ``value`` in the scanned text."""

    kind: str
    start: int
    end: int
    value: str


# The same text is scanned more than once on its way in (a store masks an item's value, then the
# write path redacts the text it remembers; labels recur on every call), and a scan costs about a
# tenth of a millisecond: texts found clean are remembered by their digest, so this set holds neither
# the texts nor anything sensitive. It is emptied when full.
_CLEAN: set[bytes] = set()
_CLEAN_KEPT = 8192


def scan(text: str) -> list[Finding]:
    """Every sensitive value in ``text``, sorted by start, with no two spans overlapping.

    >>> [f.kind for f in scan("我有糖尿病，邮箱 a@b.com")]
    ['health', 'email']
    """
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    if digest in _CLEAN:
        return []
    found = _scan(text)
    if not found:
        if len(_CLEAN) >= _CLEAN_KEPT:
            _CLEAN.clear()
        _CLEAN.add(digest)
    return found


def _scan(text: str) -> list[Finding]:
    by_kind: dict[str, list[tuple[int, int]]] = {kind: [] for kind in KINDS}
    # detectors see full-width digits and letters as their ASCII twins (１３８…) and Chinese digits as
    # digits; the offsets are the same in the text as given, whose characters the findings keep
    seen = _digits(fold(text))
    for detect in _DETECTORS:
        for kind, start, end in detect(seen):
            by_kind[kind].append((start, end))
    kept: list[Span] = []
    for kind, spans in by_kind.items():  # strongest kind first
        kept = sorted(kept + _uncovered(text, kind, sorted(spans), kept), key=lambda s: s[1])
    return [Finding(kind, start, end, text[start:end]) for kind, start, end in kept]


def _uncovered(text: str, kind: str, spans: list[tuple[int, int]], kept: list[Span]) -> list[Span]:
    """The parts of ``spans`` (sorted) that no ``kept`` span (sorted, disjoint) or earlier span covers.

    What a stronger finding covers is cut out rather than the whole finding dropped, so a health clause
    holding a card number is still masked on both sides of it. One walk over both lists: linear time.
    """
    parts: list[Span] = []
    j = 0
    done = 0  # everything before this offset is already decided for this kind
    for start, end in spans:
        start = max(start, done)
        while j < len(kept) and kept[j][2] <= start:
            j += 1
        k = j
        while start < end:
            s, e = (kept[k][1], kept[k][2]) if k < len(kept) and kept[k][1] < end else (end, end)
            piece = text[start:s]
            lo, hi = start + len(piece) - len(piece.lstrip()), s - len(piece) + len(piece.rstrip())
            if lo < hi:
                parts.append((kind, lo, hi))
            start, k = max(start, e), k + 1
        done = max(done, end)
    return parts
