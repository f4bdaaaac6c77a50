"""How things are for the user now, said in words no rule reads: a habit of these days.

"becoming a morning person these days", "lately it's been cortados for me", "现在买东西都在拼多多",
"最近偶尔会喝点红酒": a clause that says how the user does something now, with a word of these days
(these days, lately, from now on; 现在…都, 最近…开始), is a preference of theirs however its verb
is phrased, so a change of habit is kept (and retires the habit before it) instead of being dropped
as about nothing in particular. Read only where no rule read the clause, and never for a question or
another person's habit; a word of these days about the world ("airlines are a nightmare these days")
names no one, so it is no habit.

>>> from datetime import datetime
>>> from memlane.write.extract.rule import Context
>>> now_habit(Context("lately it's been cortados for me", "en", datetime(2025, 3, 3))).objects
["it's been cortados for me"]
>>> now_habit(Context("airlines are a nightmare these days", "en", datetime(2025, 3, 3))) is None
True
"""

from __future__ import annotations

import re

from memlane.domain import Category

from .rule import Context, Draft

# a word of these days, and what says the clause is the user's: I, my, "for me", or no subject at all
# (a clause that opens with what the user does: "becoming a morning person these days")
_EN_NOW = re.compile(r"(?i),?\s*\b(?:these\s+days|nowadays|lately|as\s+of\s+late|from\s+now\s+on)\b,?\s*")
_EN_MINE = re.compile(
    r"(?i)\b(?:i|my|i'm|i've|im)\b|\bfor\s+me\b"
    r"|^(?:(?:these\s+days|nowadays|lately),?\s+)?(?:been|becoming|getting|doing|going|eating|drinking|using"
    r"|taking|working|sleeping|reading|watching|playing|learning|trying|cooking|buying|shopping|walking"
    r"|running|cycling|listening)\b"
)
_ZH_NOW = re.compile(
    r"(?:(?<!到)现在|如今|这阵子|最近)[^，。,.!！？?；;]{0,6}?(?:都(?![没不])|一般|基本|主要|经常|常常|偶尔会?|开始)"
    r"|以后都|从现在起"
)
_ZH_OTHERS = re.compile(r"^(?:他|她|它|你|您|他们|她们|大家|别人|有人)")
# …and a state, not a habit: "最近都很忙", "现在一般还好"
_ZH_STATE = re.compile(
    r"(?:都|一般|基本|经常|常常|开始)(?:很|好|太|挺|特别|超|蛮|比较|有点|还|不太|非常|老是)"
)


def now_habit(ctx: Context) -> Draft | None:
    """A preference the clause states as the user's habit these days, or None."""
    if ctx.question or ctx.about_other:
        return None
    if ctx.lang == "zh":
        if not _ZH_NOW.search(ctx.text) or _ZH_OTHERS.match(ctx.text) or _ZH_STATE.search(ctx.text):
            return None
        said = ctx.text
    else:
        if not _EN_NOW.search(ctx.text) or not _EN_MINE.search(ctx.text):
            return None
        said = _EN_NOW.sub(" ", ctx.text).strip(" ,")
    return Draft(category=Category.PREFERENCE, objects=[said]) if said else None
