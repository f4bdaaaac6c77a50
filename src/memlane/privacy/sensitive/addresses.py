"""Precise home addresses, in Chinese and English.

A city or district alone is not sensitive ("我住在杭州"); a street with a house number, or a building
with a flat, locates a home. The part that locates it is masked; "我住在" stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .table import Span

_ZH_NUM = r"[0-9０-９一二三四五六七八九十百零〇]{1,6}"
_ZH_UNIT = rf"(?:\s*(?:{_ZH_NUM}|[A-Za-z])\s*(?:号楼|栋|幢|座|单元|层|楼|室|户|号))"
_ZH_PLACE = r"(?:[\u4e00-\u9fff]{2,8}?(?:省|市|区|县|镇|乡|街道))"
_ZH_FLAT = r"(?:\s*[0-9]{1,5}(?![0-9]))?"  # a flat number written bare at the end: 3单元501
_ZH_STREET = re.compile(
    rf"{_ZH_PLACE}{{0,4}}"
    rf"[\u4e00-\u9fff]{{1,8}}?(?:路|街|大道|大街|巷|弄|胡同|道)\s*{_ZH_NUM}\s*[号號]{_ZH_UNIT}{{0,4}}{_ZH_FLAT}"
)
# a building of a named estate (紫藤花园七号楼) locates a home only when the sentence says it is one:
# "我最喜欢的地方是紫藤花园七号楼的屋顶花园" names a place, "我住在紫藤花园7栋" an address
_ZH_BUILDING = re.compile(
    rf"{_ZH_PLACE}{{0,4}}"
    rf"[\u4e00-\u9fff]{{2,10}}?(?:小区|花园|公寓|大厦|家园|新村|苑|府)(?:{_ZH_NUM}[区期])?"
    rf"\s*(?:{_ZH_NUM}|[A-Za-z])\s*(?:号楼|栋|幢|座){_ZH_UNIT}{{0,3}}{_ZH_FLAT}"
)
# a building and flat with no estate name before it (我住A座1201, 家在3号楼2单元502): again only when
# the sentence says it is a home; a bare number (我住在1201附近吗) is not an address
_ZH_FLAT_ONLY = re.compile(
    rf"(?<![A-Za-z0-9])(?:[A-Za-z]|{_ZH_NUM})\s*(?:号楼|栋|幢|座)(?:{_ZH_UNIT}{{0,3}}\s*[0-9]{{3,5}}(?![0-9])"
    rf"|{_ZH_UNIT}{{1,3}})(?:室|号)?"
)
_ZH_HOME = re.compile(r"住|家|地址|寄到|寄给|送到|送货|收货|快递|搬到|搬去|租")
# what precedes a place in a sentence, not part of it: cut the match after the last of these
_ZH_LEAD = re.compile(r".*(?:住在|住址是|住址|地址是|地址|家在|搬到|寄到|送到|位于|是|在|到|：|:)")
_EN_ADDRESS = re.compile(
    r"(?<![A-Za-z0-9])\d{1,6}[A-Za-z]?(?:-\d{1,4})?\s+(?:[A-Z][A-Za-z'.-]*\s+){1,4}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Close"
    r"|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy)\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Unit|Suite|Flat|#)\.?\s*[A-Za-z0-9-]{1,8})?"
)


def find(text: str) -> Iterator[Span]:
    """Each precise address in ``text``."""
    homes = [
        m
        for p in (_ZH_BUILDING, _ZH_FLAT_ONLY)
        for m in p.finditer(text)
        if _ZH_HOME.search(text, max(0, m.start() - 12), m.end())
    ]
    for m in sorted([*_ZH_STREET.finditer(text), *homes], key=lambda m: m.start()):
        lead = _ZH_LEAD.match(m.group())
        start = m.start() + (lead.end() if lead else 0)
        if start < m.end():
            yield "address", start, m.end()
    for m in _EN_ADDRESS.finditer(text):
        yield "address", m.start(), m.end()
