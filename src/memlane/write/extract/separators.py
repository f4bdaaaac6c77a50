"""Where a message splits into clauses: its stops, and the words that open a new clause without one.

Chinese splits at ，。！？；：and at 但是 / 可是 / 而且, after a particle that ends a sentence (呢 吧 啊) and
before the words that open a new topic (还有个事, 另外, 对了) where dictation leaves out the stop, and at
a space (chat's stop) between the user's
news and a question or a request to the assistant, either way round ("…太贵了 你帮我看看附近有没有
游泳馆": the news is not dropped with the request), and after or before a greeting, thanks or a laugh
("你好 我姓郑 洛阳的"); English at . ! ? ; : and at "but". An English
comma or colon splits only in front of a new clause (:data:`_CLAUSE_START`), a comma also after a
self-introduction and a colon after a label ("update: ended up getting…", "big news: …"). A
run-on without a stop splits where a feeling is tacked on at its end ("…last weekend buzzing"), where
a question or a request starts ("…signal keeps dropping what time is sunset", "…in the green room
hype me up"), where a new "I'm" starts ("…too old to learn drums I'm 52") and where the news after a
feeling, a remark or an apology said first starts; each only where the words before do not hold
what follows (:func:`_is_split`: "I have no idea how much it costs", "the guy I'm seeing").
"""

from __future__ import annotations

import re

from memlane.privacy.sensitive import KINDS
from memlane.text.kin import PARTNER_BEFORE_AND_I
from memlane.text.lang import has_cjk, normalize

from .asking import A_NOT_A, ASKED_ZH, GOING_ON, NOT_ASKED_ZH, QUESTION_END
from .lexicon import FEELING_TAIL, FEELINGS, LAUGHTER, MOOD_ZH, REQUEST, SMALLTALK, SORRY

_WHOLE = "|".join(re.escape(KINDS["health"].placeholder(lang)) for lang in ("en", "zh"))
# how to go about something, asked at the end of a clause: 咋弄啊, 该怎么办, 怎么入门
_HOW_ZH = (
    r"(?:该|要|得|应该)?(?:咋|怎么|怎样|如何)(?:弄|办|搞|整|处理|操作|准备|选|买|申请|报名|入门|入手|开始|解决)"
    r"[啊呀呢哇嘞哈啦]*(?:$|[。！？!?，,\s])"
)
_SEPARATOR = re.compile(
    # a clause masked whole (a health detail) is a clause of its own: "I'm a nurse, [redacted: health
    # detail]", "I'm a sound engineer and [redacted: health detail]", "我是程序员 [已隐藏:健康信息]"
    r"(?P<masked>(?:\s*,|\s+(?:and|but|so)|\s)(?:\s+(?:and|but|so))?\s*(?=" + _WHOLE + r"))|"
    # an emoji before more words ends a sentence too: "晚上好呀😄 今天学校突然通知…"
    r"(?P<end>[。！？!?；;\n]+|\.{2,}|…+|\.(?=\s|$)|[\U0001F300-\U0001FAFF\u2600-\u27BF]+(?:\s+|(?=[\u4e00-\u9fffA-Za-z])))"
    r"|(?P<comma>[，,])"
    r"|(?P<colon>[：:])"
    # a question or a request run on after Chinese news with a space for a stop, or the news after a
    # request ("健身卡到期没续 太贵了 你帮我看看附近有没有便宜点的游泳馆", "帮我找找日料 小红书被我删了")
    r"|(?P<zhask>(?<=[\u4e00-\u9fff])[ \u3000]+(?=[\u4e00-\u9fff]))"
    # dictated Chinese runs on without a stop: it splits after a particle that ends a sentence and
    # before the words that open a new topic ("…歇着呢跑了一天了", "…坏了吧修一下得多少钱啊", "…一趟下来得
    # 四五天还有个事…")
    r"|(?P<zhrun>(?<=[呢啊呀啦嘛])(?<!啦啦)(?=[\u4e00-\u9fff])(?![呢啊呀啦嘛吧哈哦])"
    r"|(?<![酒网贴书茶水]吧)(?<=吧)(?=[\u4e00-\u9fff])(?![台唧呢啊呀啦嘛吧哈哦])"
    r"|(?<=[\u4e00-\u9fff])(?=问你个事|问你件事|问个事|还有个事|还有件事|另外|对了|跟你说个事|跟你说件事|换个话题|听说|据说)"
    r"|(?<=不说了)(?=[\u4e00-\u9fff]))"
    # …and before the question of how to go about it, said last: "驾照快到期了要换证咋弄啊" (the news
    # is not the request: "我想学吉他怎么入门")
    r"|(?P<zhhow>(?<=[\u4e00-\u9fff])(?=" + _HOW_ZH + r"))"
    r"|(?P<but>\s*\b(?i:but|however|though)\b\s*|但是|可是|然而|而且|并且)"
    r"|(?P<and>\s+and\s+(?=(?:[Ii]|[Ii]'m|[Ii]m|[Ii]'ve|[Ii]'d|[Ii]'ll|my|we|our)\b"
    # …or a count of the user's people: "my feet are killing me and 3 of our aides called out"
    r"|(?i:(?:\d+|two|three|four|five|six|some|half|most|all|both|none)\s+of\s+(?:our|my|the)\b))"
    # …or before where the user lives or works, its "I" left out: "I live in Munich and work at BMW"
    # (not "I'd love to live and work in Lisbon")
    r"|(?<![Ll]ive)(?<![Ww]ork)(?<![Ss]tudy)\s+and\s+(?=(?:now\s+|also\s+|currently\s+)?"
    r"(?:live|work|teach|study)\s+(?:in|at|for|as)\b))"
    # how the user feels, run on after what they did: "just off a 12 hour night and absolutely wrecked"
    r"|(?P<feel>\s+and\s+(?=(?i:(?:so|absolutely|totally|completely|utterly|really|pretty|super|proper|bloody"
    r"|fully|kinda|a\s+bit)\s+)?(?i:" + FEELINGS + r")\b\s*(?:[.,!?;]|$)))"
    # a feeling tacked on at the end without a stop: "got my black belt last weekend buzzing",
    # "getting my first tattoo on friday eeek", "got my p plates last week so proud of myself"
    # "…by two bucks i'm still annoyed", "the in laws arrive saturday for 3 weeks pray for me"
    r"|(?P<tail>\s+(?=" + FEELING_TAIL + r"))"
    r"|(?P<place>\s+(?=(?i:based\s+(?:in|out\s+of)|living\s+in)\s|from\s+[A-Z]))"
    # a question or a request run on without a stop ("halfway up a trail near Sedona signal keeps
    # dropping what time is sunset", "doing the city2surf in august need a training plan")
    r"|(?P<ask>\s+(?=(?i:(?:so\s+|just\s+)?)(?i:what\s+(?:time|do|does|did|should|are|is|was|can|would|size|kind|type|are\s+my)"
    r"|what'?s\s+(?:the|a|in|on|good)|how\s+(?:do|does|did|can|much|many|long|far|should|would)"
    r"|where\s+(?:can|do|should|is|are)|any\s+(?:tips|ideas|recs|recommendations|suggestions|advice)"
    r"|(?:can|could)\s+(?:you|u)|help\s+me|(?:pls|please)\s+(?:help|tell|find|give|send|recommend|suggest|check)"
    r"|need\s+(?:a|an|some|help)|should\s+i"
    # "at ikea right now does a kallax fit a 33cm box", "in the queue at the post office whats cheaper…"
    r"|whats|which\s+\w+(?:\s+\w+)?\s+(?:is|are|should|do|can|would)|where'?s\s+the|how'?s\s+the|(?:will|can|could|do)\s+i"
    r"|do\s+(?:they|you)|does\s+(?:a|an)|is\s+there|any(?:thing)?\s+(?:good|decent)|what\s+else"
    # an imperative to the assistant ("…all over the place suggest meal prep stuff that reheats well")
    r"|suggest|recommend|(?:give|send|show|tell|find|route|walk|pick|order|read|quiz|hype|distract|remind"
    r"|teach)\s+me|keep\s+me\s+company|talk\s+to\s+me\s+about|start\s+(?:over|with)"
    # "…we'll have the car so find a b&b with parking", "…off her food is that normal", "…any lounges
    # here", "…nobody hurt what info should i have gotten", "…obsessed with dinosaurs ideas for a rainy day"
    r"|so\s+(?:just\s+)?(?:find|look\s+(?:for|up)|hold|book|search|give|pick)"
    r"|is\s+(?:that|this|it)\s+(?:normal|ok|okay|safe|bad|weird|true|right|worth|enough|too)"
    r"|is\s+\d+(?:\s+\w+){0,3}?\s+(?:too|enough|normal|ok|okay|safe)"
    r"|what\s+(?:\w+\s+){1,2}(?:is|are|should|do|does|did|can|could|would)|any\s+\w+\s+(?:here|nearby|around|ahead)"
    r"|ideas\s+(?:for|to)|need\s+\w+\s+(?:ideas|recs|recommendations|suggestions|tips|advice))\b))"
    # a new "I'm" or "I've" run on without a stop: "…too old to learn drums I'm 52", "i drive trucks
    # interstate for a living so im away most weeks"
    r"|(?P<self>\s+(?=(?i:(?:(?P<link>so|and|yeah|and\s+yeah)\s+)?(?:i'?m|im|i'?ve|ive|i\s+am)\s)))"
    # the news after a feeling said first: "ugh I'm so annoyed the contractor bailed on our deck"
    r"|(?P<head>\s+(?=(?i:i|i'm|i've|we|we're|my|our|the|he|she|they|his|her|their)\s))"
    # a greeting or a laugh said first, no stop after it: "hey i'm in the Duluth airport", "lol the
    # printer at work caught fire today", "hiii need a packing list", "Hi我叫Alex" (not a name: "hey
    # Lorcan, …")
    r"|(?P<greet>(?i:(?<=hey)|(?<=heyy)|(?<=hi)|(?<=hii)|(?<=iii)|(?<=hello)|(?<=yo)|(?<=lol)|(?<=lmao)|(?<=mao)|(?<=aoo)|(?<=ooo)"
    r"|(?<=haha)|(?<=ok)|(?<=okay)|(?<=brb))(?:\s+(?=\S)|(?=[\u4e00-\u9fff])))"
)
_PLACEHOLDER = re.compile(r"\[[^\[\]\n]{1,60}\]")
_ABBREVIATION = re.compile(r"(?i)\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|jr|sr|no|approx|inc|ltd|co)$")
# Words that open a new English clause after a comma: a subject, a negation, an imperative verb, or
# where the user is ("a backend dev, fully remote, based in austin").
_CLAUSE_START = re.compile(
    r"(?i)\s*(?:and\s+|so\s+|then\s+|but\s+)?(?:i|i'm|im|i've|i'd|i'll|my|we|we're|no\s+more|no\s+longer|not"
    # a thing ruled out: "hard rule from the district, no outdoor running if…"
    r"|no\s+(?!(?:one|way|idea|doubt|matter|problem|worries|thanks|need|rush|pressure|big|longer|more)\b)(?=\w+\s+\w)"
    r"|never|please|don't|do\s+not|can\s+you|could\s+you|it|it's|its|also|though|just|remember|you|he|she"
    r"|they|there|this|that|ugh|thanks|thank|anyway|keep|make|be|email|e-mail|call|text|message|send|use"
    r"|answer|reply|write|tell|give|show|let|contact|reach|note|avoid|stop|based\s+in|living\s+in|moved\s+to"
    r"|update|redo|draft|book|find|check|translate"
    r"|originally\s+from"
    # a question, an aside, what the user needs or is doing: "…, what's the capital of Mongolia",
    # "…, so no dog-friendly cafes", "…, still gutted", "…, under $20 a person", "…, need a taxi"
    r"|so|still|now|otherwise|any|anyone|anybody|how|what|what's|where|which|who|why|is|are|should|can't"
    r"|cant|if|need|needs|help|start|lol|haha|omg|fingers|quick|been|doing|trying|waiting|nothing|under"
    # a new start after what ended: "I quit BMW last week, starting at Siemens in January"
    r"|starting\s+(?:at|as|my|work|a\s+new|new)"
    r"|budget|max|must|somewhere|cheapest"
    r"|(?:the|our|his|her|their|your)\s+\w+\s+(?:is|was|are|were|has|had|keeps|got|looks|seems)"
    r"|[a-z]+'s)\b"
)


# an English self-introduction: each comma after the name opens more of what the user is ("I'm Tom, a
# nurse from Leeds", "This is Mei, a nurse", "I'm Sam, 34, software engineer at Google"); a name has a
# capital ("i'm tired, …" is no introduction)
# (each piece of the run is a comma and what follows it, one way only: no backtracking to try)
_INTRODUCED = re.compile(
    r"(?:^|[\s.!])(?i:i'm|i am|im|my name's|my name is|call me|this is|it's)\s+[A-Z][\w'-]*"
    r"\s*(?:,[^,.!?;:]+)*$"
)


# what a question after it belongs to: a verb of knowing or asking, or a word that leads on
_EMBEDS = re.compile(
    r"(?i)\b(?:know|knows|wonder|wondering|sure|idk|tell|told|ask|asked|asking|see|remember|forgot|forget|decide"
    r"|figure|figured|show|explain|idea|clue|learn|learning|learned|matter|about|of|on|at|for|to|from|with|and"
    r"|or|but|is|was|that|if|whether|no|would|could|should|can|might|will|may|i'?d|you'?d|we'?d|they'?d"
    r"|never|not|don'?t|always"
    # a conjunction that makes what follows part of its clause: "getting it quoted while im here"
    r"|while|because|cos|coz|cause|since|until|till|unless|as|before|after|once|although|even"
    # …or a comparison: "explain stuff like im 5", "feels like im the only one", "better than im used to"
    r"|like|than"
    # a question already open: "how long does a tyre change take", "what else do i need"
    r"|how|what|which|where|when|why|who|long|much|many|far|often|else)$"
)


# what a run-on question or request cannot follow: its own subject or a word that leads into it ("they
# keep me company", "we had some ideas for the garden")
_ASKER = re.compile(
    r"(?i)\b(?:i|we|they|you|he|she|who|some|any|the|a|an|few|good|great|new|my|your|our)$"
    r"|\b(?:what|which|how|whose)(?:\s+[\w']+){1,2}$"  # a question already open: "what info should i…"
)
# a thing named last, which what follows may say more of ("the guy I'm seeing", "a place I've been to")
_NAMED = re.compile(
    r"(?i)\b(?:the|a|an|this|that|my|his|her|our|their|your|every|some|any|one)\s+"
    r"(?!(?:morning|afternoon|evening|night|week|weekend|month|year|time)$)[\w']+$"
)
_WHEN = re.compile(r"(?i)\b(?:morning|afternoon|evening|night|week|weekend|month|year|time)$")
_ME_LAST = re.compile(r"(?i)\bme$")
_LINK_END = re.compile(r"(?i)\b(?:so|and|but|yeah|\w+ly)$")
# where what a run-on "I'm" follows was said from: the last stop or link
_SAID = re.compile(r"[.!?;,。！？，；]|\b(?i:but|and|so|because|though)\b")
# the separators a run-on splits at, which a greeting said first ends whatever the words after it
_RUN_ON = frozenset({"tail", "ask", "self", "head", "greet"})
_NAME_NEXT = re.compile(r"[A-Z][a-z]+(?:[,.!]|$)")
_GREETING = re.compile(r"(?i)he+y+|hi+|hello|yo|lo+l|lmao+|(?:ha){2,}|ok|okay|brb")
# …nor, when it opens with a verb, a plural its verb could belong to
_PLURAL = re.compile(r"(?i)[a-z](?<![sui'])s$")
_TOLD = re.compile(r"(?i)(?!help\b)[a-z]+\s+me\b|keep\s|start\s|talk\s")


# what a feeling after it belongs to: a verb of being, seeming or making, a word that leads on
_LINKS = re.compile(
    r"(?i)\b(?:am|is|are|was|were|be|been|being|feel|feels|feeling|felt|get|gets|got|getting|look|looks"
    r"|seem|seems|me|so|too|very|really|not|and|but|or|all|just|more|less|as|how|that'?s|it'?s|i'?m|im"
    r"|we'?re|you'?re|they'?re|he'?s|she'?s|become|became|left|keep|stay|stayed|kinda|pretty|super|still"
    r"|absolutely|totally|proper|bloody|lowkey|bit|\w+ly)$"
)


# a feeling said first, and what it is about: "ugh I'm so annoyed", "I'm so proud of this little garden"
_FEELING_FIRST = re.compile(
    r"(?i)^(?:(?:ugh+|omg+|a+h+|oh+|honestly|ok(?:ay)?|lol|man|wow|so)\s+)*(?:(?:i'?m|im|i\s+am|i\s+feel|feeling|we'?re)\s+)?"
    r"(?:(?:so|absolutely|totally|really|pretty|super|kinda|kind\s+of|a\s+bit|still|lowkey|way\s+too|too)\s+)*"
    r"(?:" + FEELINGS + r")(?:\s+(?:about|of|at|for|with)(?:\s+(?:my|our|his|her|their))?"
    r"(?:\s+(?!(?:i|i'm|we|my|our|he|she|they)\b)[\w']+){1,3})?"
    r"(?:\s+(?:today|rn|tbh|lol|af))*$"
)


# a remark about the listener, said first and complete: "your mom is a legend", "your nephew is
# hilarious", "that's honestly so brave of you" (what follows is the user's own news)
_REMARK_FIRST = re.compile(
    r"(?i)^(?:(?:omg+|oh+|aw+|wow|haha+|lol|honestly|ok(?:ay)?|yes+|yay)\s+)*"
    r"(?:your\s+[\w']+(?:\s+[\w']+)?\s+(?:is|are|was|were|looks?|sounds?)|you(?:'re|re|\s+are|\s+were|\s+look)"
    r"|that'?s|thats|what\s+a)\b(?:\s+(?!(?:i|i'm|im|i've|my|we|she|he|they)\b)[\w']+){1,10}$"
)
# …or an apology, and what it is for: "sorry I'm late to this convo", "sorry I went quiet for a month"
_APOLOGY_FIRST = re.compile(SORRY + r"(?:\s+[\w']+){3,8}$")
# …unless its last words leave it open: "that's the guy I told you about", "you're so sweet and I…"
_LEFT_OPEN = frozenset(
    (
        "the and but so if that than as when because a to of what how for with at in on from by about like"
    ).split()
)
_STOP = re.compile(r"[.!?;,。！？，；]")
# what follows a word said last in its clause: a stop or the end ("…every day though, about 25 min")
_SAID_LAST = re.compile(r"\s*(?:[.!?;,)]|$)")
# a label said before a colon, which heads the news after it ("update:", "big news:", "ps:")
_LABEL = re.compile(
    r"(?i)(?:^|[.!?;]\s*)(?:(?:quick|small|big|good|bad|some|random|little|latest|one\s+more)\s+)?"
    r"(?:update|correction|news|fyi|ps|p\.s|btw|edit|heads\s+up|q|question|context|background|status)\s*$"
)
# a decision announced before a colon, which is what follows it ("We decided: we're moving in August")
_DECIDED = re.compile(
    r"(?i)(?:^|[.!?;]\s*)(?:so\s+|ok(?:ay)?\s+)?(?:we|i)(?:'ve|\s+have)?\s+(?:finally\s+|just\s+)?"
    r"(?:decided|made\s+(?:a|the|our|my)\s+decision|made\s+up\s+(?:our|my)\s+minds?)\s*$"
)
# who the user's news after a remark is about: themselves, or someone they name
_SUBJECT = re.compile(r"(?i)(?:i|i'm|im|i've|i'd|we|we're|my|our|she|he|they)\s")
# how far back a feeling said first can start ("ugh I'm so proud of my little brother" is 38 characters)
_FEELING_SPAN = 160


# where a space-separated part of a Chinese run-on starts or ends: a space, or a stop
_PART = re.compile(r"[ \u3000]+|[。！？!?；;，,：:\n]")
# who a Chinese request is said to, before it: "你帮我看看", "那你推荐一个"
_TO_YOU = re.compile(r"^(?:那|那你|你|您)(?=帮|给|推荐|查|看看|找|教|说说|讲讲|算算)")
# what a question after it belongs to: knowing or asking ("你知道 普洱要洗几遍", "问一下 附近有啥")
_ASKING_LEAD = re.compile(
    r"(?:知道|晓得|清楚|确定|问问|问一下|问下|请问|请教|想问|好奇|问你个事|问个事|看看|想想|犹豫|纠结)$"
)
# …and the words that say a question comes next, said apart: "想问下", "顺便问一下", "请教一下"
_ASKS_NEXT = re.compile(
    r"我?(?:就是|顺便|另外|还)?想?(?:问问|问一下|问下|请问|请教一?下?|问你个事|问个事|问你一下|问你件事)"
)


def asks_zh(part: str) -> bool:
    """Whether a part of a Chinese run-on asks the assistant something or asks it to do something."""
    if not part:
        return False
    if REQUEST.search(_TO_YOU.sub("", part)) is not None or A_NOT_A.search(part) is not None:
        return True
    if QUESTION_END.search(part) is not None and (GOING_ON.search(part) is None or ASKED_ZH.search(part)):
        return True
    return ASKED_ZH.search(part) is not None and NOT_ASKED_ZH.search(part) is None


def _zh_asked_apart(m: re.Match[str], text: str) -> bool:
    """Whether a space in a Chinese run-on stands between news and a question or a request, either
    way round, or sets a greeting, a thanks, a laugh or a feeling apart from it."""
    before = _PART.split(text[max(0, m.start() - _FEELING_SPAN) : m.start()])[-1]
    after = _PART.split(text[m.end() : m.end() + _FEELING_SPAN])[0]
    if _chat(before) or _chat(after):
        return True  # "你好 我姓郑 洛阳的", "…反正挺沉 谢谢": a greeting, thanks or a laugh said apart
    if (_felt(before) and _ELABORATES.match(after) is None and len(after) >= 5) or _felt(after):
        # "开心 今天拿到offer了", "大胖上个月走了 还是好难过": a feeling said apart from the news (not
        # "我害怕打针 每次都哭", which says more of the same)
        return True
    if _NOW_NEWS.match(after) and _FELT.search(before) and len(before) <= 2 * _FELT_SPAN:
        # …and the change after a longer feeling: "下班累成狗根本不想动弹 现在改成在宿舍跟着帕梅拉跳"
        return True
    if asks_zh(after) or _ASKS_NEXT.fullmatch(after):  # "…组里全是 Golang 微服务 想问下 context…"
        return _ASKING_LEAD.search(before) is None and not asks_zh(before)
    return asks_zh(before)  # the news after a question or a request: "有没有软一点的 他不爱吃甜的"


_FELT = re.compile(MOOD_ZH)
_FELT_SPAN = 10  # characters: a longer part says more than how the user feels
_ELABORATES = re.compile(r"每次|一直|总是|老是|都|也|还|就|所以|因为|而且|尤其|特别是")
# what opens the news of a change: "现在改成…", "后来换成…", "改成…"
_NOW_NEWS = re.compile(r"(?:(?:现在|后来|如今)(?:都|就|已经)?)?(?:改成|换成|改为|换了|改了|开始)")


def _felt(part: str) -> bool:
    """Whether a part of a Chinese run-on is only how the user feels."""
    return len(part) <= _FELT_SPAN and _FELT.search(part) is not None


def _chat(part: str) -> bool:
    """Whether a part of a Chinese run-on is only a greeting, a thanks, an ok or a laugh."""
    return normalize(part) in SMALLTALK or LAUGHTER.fullmatch(part) is not None


def _is_split(m: re.Match[str], text: str) -> bool:
    before, after = text[: m.start()], text[m.end() :]
    if m.lastgroup == "zhask":
        return _zh_asked_apart(m, text)
    if m.lastgroup == "zhhow":  # not "不知道该怎么办" (what the user does not know is the question)
        said = _PART.split(before)[-1]
        if said.endswith(("该", "要", "得")):
            return False  # the split is before them, if anywhere
        return len(said) >= 4 and _ASKING_LEAD.search(said) is None and not said.endswith(("不知", "不知道"))
    if m.lastgroup == "zhrun":  # not a topic said first ("他呢最近很忙"), nor a word's last character
        said, rest = _PART.split(before)[-1], _PART.split(after)[0]
        return (len(said) >= 5 or _chat(said)) and len(rest) >= 3
    if m.lastgroup in _RUN_ON and _GREETING.fullmatch(_STOP.split(before)[-1].strip()) is not None:
        # "hey i'm in the Duluth airport", not "hi Delphine, …" nor "ok了解" (small talk said together)
        return _NAME_NEXT.match(after) is None and not _chat(_STOP.split(after)[0].strip())
    if m.lastgroup in ("comma", "colon"):
        if before[-1:].isdigit() and after[:1].isdigit():  # 7,000 / 9:30
            return False
        if m.lastgroup == "colon" and _PLACEHOLDER.match(after.lstrip()):
            return False  # "我的密码：[已隐藏:密码]": the words and the value they announce are one clause
        if m.group(0) in ",:" and not has_cjk(before[-1:]) and not has_cjk(after[:1]):
            if m.group(0) == ":" and _LABEL.search(before) is not None:
                return True  # "update: ended up getting a galaxy s24 fe": the label heads what follows
            if m.group(0) == ":" and _DECIDED.search(before) is not None:
                return False  # "We decided: we're moving to Manchester in August": what was decided
            introduced = m.group(0) == "," and _INTRODUCED.search(before) is not None
            return introduced or _CLAUSE_START.match(after) is not None
        return True
    if m.lastgroup == "but" and m.group(0).strip().lower() == "though":
        return _SAID_LAST.match(after) is None  # "I cycle to work every day though, about 25 min"
    if m.lastgroup == "and" and (
        PARTNER_BEFORE_AND_I.search(before) or (_ME_LAST.search(before) and after[:3].lower() == "my ")
    ):
        # "my wife and I have two kids", "its just me and my son here in bangor": the two are one subject
        return False
    if m.lastgroup == "tail":  # not the feeling a clause is about: "I am so proud", "it made me happy"
        words = before.split()
        return len(words) >= 4 and not has_cjk(before) and _LINKS.search(before) is None
    if m.lastgroup == "head":  # read only back to the last stop, and never far: this runs at every "the"
        reach = _STOP.split(before[-_FEELING_SPAN:])
        if len(reach) == 1 and len(before) > _FEELING_SPAN:
            return False  # no stop in reach: what runs before is no feeling said first
        said = reach[-1].strip()
        if _FEELING_FIRST.match(said) is not None:
            return True
        if (_REMARK_FIRST.match(said) or _APOLOGY_FIRST.match(said)) is None or _SUBJECT.match(after) is None:
            return False
        last = said.lower().split()
        return last[-1] not in _LEFT_OPEN and last[-2] != "the"
    if m.lastgroup == "self":  # not what a clause holds ("I wonder if I'm…"), nor a noun's ("the guy I'm…")
        said = _SAID.split(before[-_FEELING_SPAN:])[-1].split()
        return (
            len(said) >= (5 if _WHEN.search(before) else 4)  # "as of this morning I'm…": its time
            and not has_cjk(before)
            and _EMBEDS.search(before) is None
            and (m.group("link") is not None or _NAMED.search(before) is None)
            and _LINK_END.search(before) is None  # split before the "so" already
        )
    if m.lastgroup == "greet":  # only the whole of what was said since the last stop (above)
        return False
    if m.lastgroup == "place":  # "I'm Tom, a nurse from Leeds": where they are is one more thing said
        return _INTRODUCED.search(before) is not None
    if m.lastgroup == "ask":  # not a question a clause holds: "I know what time it is", "no idea how much"
        return (
            len(before.split()) >= 3
            and _EMBEDS.search(before) is None
            and not has_cjk(before)
            and not before.lower().endswith((" so", " just"))  # split before the "so" already
            and _ASKER.search(before) is None
            and not (_PLURAL.search(before) and _TOLD.match(after))  # "my two cats keep me company"
        )
    if m.lastgroup == "end" and m.group(0) == ".":
        return _ABBREVIATION.search(before) is None
    return True


def segments(text: str) -> list[tuple[int, int, bool, bool]]:
    """(start, end, ends a sentence, is a question) for each stretch between separators."""
    protected = [(p.start(), p.end()) for p in _PLACEHOLDER.finditer(text)]
    out: list[tuple[int, int, bool, bool]] = []
    last = 0
    for m in _SEPARATOR.finditer(text):
        if any(a <= m.start() < b for a, b in protected) or not _is_split(m, text):
            continue
        sep = m.group(0)
        out.append((last, m.start(), m.lastgroup == "end", "?" in sep))
        last = m.end()
    out.append((last, len(text), True, False))
    return out
