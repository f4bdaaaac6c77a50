"""Habits said in Chinese with what they are for first: "去公司我坐轻轨", "跑步我戴佳明的表",
"衣服我只在网上买", "午饭我自己带". No schedule word (每天 would make a routine) says they recur, but
the plain present does: nothing done (了, 过) or going on (着), nothing denied or asked, nothing
pointed at (这个, 那家) and no time that makes it one occasion (这次, 明天).
"""

from __future__ import annotations

import re

from .rule import Context, Draft, liking

# what the habit is for, then 我, how it is done and with what
HABIT = (
    r"^(?!.*(?:了|过|着|不|没|别|吗|呢|吧|这|那|哪|啥|什么|次|回|一下))[\u4e00-\u9fff]{1,8}?我们?"
    r"(?:都|一般|只|全|全都|基本|基本上|自己|通常|平时|一直|习惯|一律|向来|从来|先)*(?:在[^，。,]{1,8}?)?"
    r"(?P<verb>坐|搭|骑|开|走|用|戴|带|听|买|记|写|列|吃|喝|看|穿|点|订|存|付|下单)(?P<obj>[^，。,]{0,15})$"
)


def habit(m: re.Match[str], ctx: Context) -> Draft | None:
    """A habit (``HABIT``), unless a time in the clause makes it one occasion ("明天我坐高铁")."""
    return None if ctx.times else liking(1, need_objects=False)(m, ctx)
