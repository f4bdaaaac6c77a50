"""The Chinese present, told apart: what the user does as a rule and what they are doing now.

A habit said with what it is for first ("去公司我坐轻轨", "跑步我戴佳明的表", "衣服我只在网上买",
"午饭我自己带", :data:`HABIT`) needs no schedule word (每天 would make a routine): the plain present
says it recurs when nothing is done (了, 过) or going on (着), denied or asked, pointed at (这个, 那家)
or dated (这次, 明天). This moment (:data:`NOW`) is 现在, 正在, 刚, where the user is passing
through (人在三亚度假, :data:`AWAY`; 人在深圳 is where they live), and what they are in the middle
of (正骑车去接娃, 加班中).
"""

from __future__ import annotations

import re

from .family_zh import BUSY
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


# a state the user is in for now, which is no moment of the conversation
STATE = r"(?:是|还是)?(?:待业|失业|无业|退休|全职在家|全职(?:妈妈|爸爸|主妇)|单身|在读|读研|读博)"
# what makes a place one the user is at, not one they live in: on a train, at a station, on holiday, away
AWAY = r"(?:[上里中]$|站|路上|度假|玩|逛|旅游|旅行|出差|过年|过节|候|等|排队|开会|外地|去)"
# places one stops at for a while, not where one lives or works ("我在图书馆", "我在健身房")
_STOPS = (
    r"图书馆|健身房|工地|超市|商场|咖啡馆|咖啡店|星巴克|宜家|银行|食堂|考场|教室|会议室|工位|酒店|服务区"
    r"|菜市场|驿站|楼下|医院|机场|车站|高铁站|地铁站|4S店|理发店|停车场"
)
NOW = (
    # 现在 of a habit (现在都用支付宝了, 现在一般骑车) is no moment, nor of one given up (我现在不跑步了)
    # …nor is a state the user is in (我现在待业, 目前单身), nor a workplace (我在医院上夜班)
    rf"(?:现在(?![^，。,在]{{0,4}}?(?:都(?![没不])|一般|基本|主要|只|改|每|天天|经常|常常)|{STATE}|不再?[^，。,]{{1,6}}了)|正在|此刻|这会儿|目前(?!{STATE})"
    r"|刚刚?|马上就?)(?:在|到)?"
    rf"|我在{BUSY}(?![^，。,]{{0,3}}?(?:上(?:夜|白|早|中|晚)?班|工作|实习))"
    # where the user is for a few days, not where they live: 我这周在上海出差, 这周我在老家
    r"|(?:^|我)(?:这周|这几天|这两天|今天|今晚|这个?周末)(?:我)?(?:人)?(?:都|也)?在"
    # where the user is this moment (人在深圳 is where they live), and what they are in the middle of
    rf"|^我?人(?:还|正|现在)?在(?=.*{AWAY})"
    r"|^我?正(?!好|常|式|宗|经|规|确|面|当|在)(?=[\u4e00-\u9fff])|(?:加班|开会|发呆|赶路|堵车|候机|候车|值班|带娃)中$"
    # where the user is, and nothing more ("我在图书馆", "我在工地上"), or what they wait for there
    # ("我在Starbucks等朋友", "我在宜家排队结账", "我在义乌进货"); not "我在健身房办了卡"
    rf"|^我?(?:现在|正|还)?在(?:{_STOPS})(?:[里上]|门口|楼下)?(?:呢|啊|哈|哦)?$"
    r"|^我?(?:现在|正|还)?在[^，。,]{1,10}?(?:等人|等朋友|等车|等位|等行李|等叫号|排队|结账|进货|候机|候车)"
)
