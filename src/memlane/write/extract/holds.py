"""How long what a clause says holds, by its words: this once ("this time", 这次), this moment (the
phone the user types on, "right now"), or for good (always, 以后都, a word of habit, "from now on").

The extraction rules read these to keep a clause for the conversation alone or for good, and the judge
reads them again where the learned model would place the clause elsewhere.
"""

from __future__ import annotations

import re

# words that say what is asked holds for this one time only ("this time", "just for today's notes", "for
# this email"): a condition of the session, and no standing rule of how to answer
ONE_OFF_EN = (
    r"\b(?:this\s+time|for\s+now|(?:just\s+)?this\s+once|this\s+one\s+time|this\s+round|this\s+order"
    r"|(?:today|tonight)\s+only|(?:just|only)\s+for\s+(?:this|these|that|today'?s?|tonight'?s?|now|the)"
    r"|for\s+(?:today|tonight|this\s+week)'s"
    r"|for\s+this\s+(?:order|one|purchase|search|trip|booking|query|request|task|project|email|message|letter"
    r"|note|reply|post|doc|draft|class|assignment|homework|meeting|presentation|deck|interview|party|dinner"
    r"|event|essay|report|talk|call|flight|visit|menu|list))\b"
)
SESSION_ONLY = re.compile(
    r"本轮|这轮|这次|这一次|这回|本次|这一单|这单|这个订单|暂时|临时|(?i:" + ONE_OFF_EN + ")"
)
# the state of the user's phone or connection this moment: how they can be answered now ("信号只有一格",
# "手机快没电了", "wifi巨慢", "battery's on 2 percent", "signal keeps dropping"), not a problem to track;
# and what they type on and how long they have, now ("我用手机打字", "typing this on my phone", 我只有十分钟)
DEVICE_NOW = re.compile(
    r"(?:用|拿)手机(?:在)?(?:打字|码字|回|发)|手机(?:打字|码字)|一边[^，,。]{1,8}?一边(?:打字|回)"
    r"|只有[\d一二两三四五六七八九十几]+分钟|(?i:\b(?:typing|texting|writing)\s+(?:this\s+)?(?:on|from)\s+"
    r"(?:my\s+)?(?:phone|mobile|cell)\b|\bphone(?:'s|\s+is)\s+(?:on|at)\s+\d{1,2}\s*(?:%|percent)"
    r"|\bonly\s+(?:have|got)\s+(?:like\s+)?(?:\d+|a\s+few|a\s+couple\s+of|one|two|five|ten|fifteen|twenty)"
    r"\s+min(?:ute)?s?\b)"
    r"|(?:电量|没电了|快没电|(?:还|只)剩(?:百分之|\d{1,2}\s*%)|没(?:信号|网)"
    r"|(?i:\bbattery(?:'s|\s+is)\s+(?:on|at|low|dying|almost|nearly)\b|\b\d{1,2}\s*(?:%|percent)\s+(?:battery|left)\b))"
    r"|(?:信号|网速|网络|(?i:wi-?fi)|网(?!上|购|店|友|站|页|课|球|红|恋|名|址))"
    r"(?:也|又|都|还|有点|太|真|好|就)?[^，,。]{0,3}?(?:卡|慢|差|没了|不好|断|一格)"
    r"|(?i:\b(?:signal|wi-?fi|reception|connection)(?:'s)?\b(?!\s+(?:is|was)\s+the\s+only)[^,.;]{0,20}?"
    r"\b(?:bad|awful|terrible|slow|dropping|drops|cutting\s+out|weak|patchy|spotty|crap|rubbish|dead|down)\b"
    r"|\b(?:one|1)\s+bar\b|\bno\s+(?:signal|reception|wifi|wi-fi)\b)"
)
# this very moment: what is said of it holds for this conversation ("up on the roof cleaning gutters rn",
# "我这会儿在开会"), unless it fills a slot of the profile ("I live in Austin right now" still says where)
MOMENT = re.compile(r"这会儿|此刻|(?i:\b(?:rn|right\s+now|atm|at\s+the\s+moment)\b)")
# a passing ache or bug: what to answer around now ("我嗓子疼", "感冒了", "I've got a cold"), not a fact
# to keep (a condition the user lives with is health data, for privacy to find); an ache a feeling
# brings on is that feeling ("紧张到胃疼"); only in a short clause, which says little else
# ("我咖啡戒了快两周了 前几天戒断头疼得要命" is the coffee given up)
AILING = (
    r"^(?=.{0,40}$)(?=[^\u4e00-\u9fff]*(?:[\u4e00-\u9fff][^\u4e00-\u9fff]*){0,14}$).*?(?:"
    r"(?<![到得])(?:嗓子|喉咙|头|牙|肚子|胃|腰|脖子|眼睛)(?:有点|好|很|特别|超|巨|还)?(?:疼|痛|哑了|发炎了)"
    r"|(?<!不)(?<!不太)感冒(?!药|冲剂)|发烧(?!友)|拉肚子|着凉了|落枕了|(?i:\b(?:i'?ve\s+got|i\s+(?:have|got|caught)|i'?m\s+"
    r"(?:down\s+with|fighting(?:\s+off)?|getting))\s+(?:a|the)\s+(?:(?:bad|terrible|slight|mild|nasty)\s+)?"
    r"(?:cold(?!\s+(?:brew|drink|coffee|shower|plunge|water|beer|one|feet|call))|flu|fever|sore\s+throat|headache|stomach\s*ache|toothache|cough|stomach\s+bug)\b"
    r"|\bmy\s+(?:throat|head|tooth|stomach)\s+(?:hurts|is\s+killing\s+me)\b))"
)
# the state of the user's phone, time or body this while: context of this conversation, in either language
STATE_NOW = re.compile(f"{DEVICE_NOW.pattern}|{AILING}")
# a decision put off, of the task at hand: "我再想想", "我回去跟媳妇商量", "let me think about it", "i'll run
# it by my wife" (not "我在考虑换工作": what the user weighs, which says something of them)
DEFERRED = re.compile(
    r"^(?:那|好|行|嗯|好的|那我)?[，,\s]*我?(?:再|先|回头|回去|晚点|改天|得)*(?:(?:跟|和|问问)[\u4e00-\u9fff]{1,4}?)?"
    r"(?:商量|想想|考虑|琢磨|研究)(?:一下|商量|考虑|琢磨|研究)?(?:再说|再定)?(?:吧|哈|啊|哦)?[。！!～~]*$"
    r"|(?i:^(?:(?:ok(?:ay)?|hmm+|well|cool|alright)[,\s]+)?(?:let\s+me|i'?ll|i\s+will|i\s+need\s+to|i\s+have\s+to"
    r"|gotta|i'?d\s+better)\s+(?:think\s+(?:about\s+it|it\s+over)|sleep\s+on\s+it|run\s+it\s+(?:by|past)\s+\w+"
    r"(?:\s+\w+)?|check\s+with\s+(?:my\s+)?\w+|talk\s+(?:it\s+over\s+)?(?:to|with)\s+(?:my\s+)?\w+)"
    r"(?:\s+(?:first|about\s+it|tonight|later))?\W*$)"
)
# a time that bounds what is said to today or this week ("今天用英文回答我", "我这周在家办公", "reply in
# English today"), not when a change starts ("从今天起", "今天开始", "starting today")
TODAY = re.compile(
    r"(?<!从)(?:今天|今晚|今儿|这周|本周|这几天|这两天)(?!开始|起|以后|之后)"
    r"|(?i:(?<!from\s)(?<!starting\s)(?<!as\sof\s)\b(?:today|tonight|this\s+week)\b)"
)
# words that say a statement holds every time, for good ("一直", "以后都", "always", "in general")
LASTING = re.compile(
    r"以后都|一直|每次|永远|总是|从不|(?i:\b(?:always|never|every\s+time|from\s+now(?:\s+on)?(?!\s+(?:until|till|to)\b)"
    r"|in\s+general)\b)"
)
# a word of habit: what is said with it is what the user does as a rule ("mostly i just take the bus",
# "我出门基本坐公交", "usually up till 2am", "我一般晚上12点睡")
HABITUAL = re.compile(
    r"一般|平时|平常|通常|总是|经常|向来|习惯|基本|每天|每次"
    r"|(?i:\b(?:usually|always|mostly|normally|generally|typically|tend\s+to|every"
    r"|(?:half|most|all|a\s+lot)\s+(?:of\s+)?the\s+time)\b)"
)
# what says an instruction holds for every later conversation ("以后一条一条说", "讲题的时候先给我答案",
# "pls always chuck a shopping list at the end"), not for the task at hand ("I'm driving, keep it short")
# (whatever says a statement always holds, and the words for "from now on" and "whenever")
STANDING = re.compile(
    LASTING.pattern + r"|以后|今后|往后|从现在起|从今往后|的时候"
    r"|(?i:\b(?:each\s+time|whenever|if\s+(?:you|u)\s+ever|going\s+forward|in\s+(?:the\s+)?future)\b)"
)
# what says a statement holds from a time on, not for one occasion ("从下礼拜开始", "以后都", "from now on",
# "starting next week", "from next monday")
FROM_NOW_ON = re.compile(
    r"从(?:下|这|本|明|今|现在|周|星期|礼拜|\d)[^，。,\s]{0,5}?(?:开始|起)|以后都|往后|今后|从现在起"
    r"|(?i:\bfrom\s+now(?:\s+on)?\b(?!\s+(?:until|till|to)\b)|\bgoing\s+forward\b"
    r"|\bstarting\s+(?:next|this|today|tomorrow|on|from)\b"
    r"|\bfrom\s+next\s+(?:week|month|year|term|season|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)"
)
