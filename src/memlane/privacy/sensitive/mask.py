"""Mask what ``scan`` found (``redact``), put it back (``reveal``), and read masks back out (``kinds``)."""

from __future__ import annotations

import re

from memlane.text.lang import detect

from .scan import Finding, scan
from .table import KIND_OF_PLACEHOLDER, KINDS, PLACEHOLDER

_STRENGTH = {name: i for i, name in enumerate(KINDS)}


def redact(text: str, findings: list[Finding] | None = None, lang: str | None = None) -> str:
    """``text`` with each finding replaced by a placeholder in the text's language.

    ``findings`` defaults to ``scan(text)``. Other literal occurrences of a found value are masked as
    well, so a password repeated later in the message without "密码是" in front does not survive.

    >>> redact("email me at bob@example.com")
    'email me at [redacted: email]'
    """
    return "".join(piece for piece, _ in _mask(text, findings, lang))


def _mask(text: str, findings: list[Finding] | None, lang: str | None) -> list[tuple[str, str | None]]:
    """``text`` as pieces: plain text (None) or a placeholder with the value it hides."""
    # A scanned ID, card, phone, email or health clause is found wherever it occurs; a password or key
    # is found only after words like "密码是", so only those need a sweep for bare repeats. Findings the
    # caller chose may be a subset, so all of them are swept.
    if findings is None:
        findings = scan(text)
        swept = [f for f in findings if f.kind in ("password", "api_key")]
    else:
        swept = findings
    lang = lang or detect(text)
    # (piece, hidden value or None): placeholders are never searched again, so masking cannot mask a mask.
    pieces: list[tuple[str, str | None]] = []
    pos = 0
    for f in sorted(findings, key=lambda f: f.start):
        if f.start < pos or text[f.start : f.end] != f.value:
            continue  # stale or overlapping: the sweep below still masks the value
        pieces += [(text[pos : f.start], None), (KINDS[f.kind].placeholder(lang), f.value)]
        pos = f.end
    pieces.append((text[pos:], None))
    kind_of: dict[str, str] = {}
    for f in sorted(swept, key=lambda f: _STRENGTH.get(f.kind, len(_STRENGTH))):
        if len(f.value.strip()) >= 3 and len(f.value) <= 512:  # a long clause will not recur verbatim
            kind_of.setdefault(f.value, f.kind)
    if not kind_of:
        return pieces
    sweep = re.compile("|".join(re.escape(v) for v in sorted(kind_of, key=len, reverse=True)))
    out: list[tuple[str, str | None]] = []
    for piece, value in pieces:
        if value is not None:
            out.append((piece, value))
            continue
        at = 0
        for m in sweep.finditer(piece):
            out += [(piece[at : m.start()], None), (KINDS[kind_of[m.group()]].placeholder(lang), m.group())]
            at = m.end()
        out.append((piece[at:], None))
    return out


def reveal(masked: str, original: str) -> str:
    """``masked`` (a sentence made from ``original`` after :func:`redact`) with each placeholder
    replaced by the value it hides in ``original``: what an encrypted memory keeps under its key.

    A placeholder is matched to the one in the redacted original with the same text before it, else
    to the next unused one of its kind; a placeholder the original does not explain stays as it is.

    >>> reveal("call me at [redacted: phone]", "I'm Bo. Call me at +44 20 7946 0958")
    'call me at +44 20 7946 0958'
    """
    pieces = _mask(original, scan(original), None)
    slots: list[tuple[str, str, str]] = []  # (text before, placeholder, value) in the redacted original
    done = ""
    for piece, value in pieces:
        if value is not None:
            slots.append((done, piece, value))
        done += piece
    used: set[int] = set()
    out, pos = [], 0
    for m in PLACEHOLDER.finditer(masked):
        before = masked[pos : m.start()]
        same = [i for i, (_, p, _) in enumerate(slots) if p == m.group()]
        context = [
            i for i in same if i not in used and before and slots[i][0].lower().endswith(before.lower())
        ]
        free = [i for i in same if i not in used]
        chosen = context[0] if context else free[0] if free else None
        out.append(before)
        if chosen is None:
            out.append(m.group())
        else:
            used.add(chosen)
            out.append(slots[chosen][2])
        pos = m.end()
    out.append(masked[pos:])
    return "".join(out)


def kinds(text: str) -> list[str]:
    """The kinds whose placeholders appear in an already redacted text, in order of first appearance.

    >>> kinds("[已隐藏:手机号] 和 [已隐藏:密码] 和 [已隐藏:手机号]")
    ['phone', 'password']
    """
    return list(dict.fromkeys(KIND_OF_PLACEHOLDER[m.group()] for m in PLACEHOLDER.finditer(text)))
