"""Word lists the extraction rules share: small talk, hedges, topics, drinks and food.

Kept as data so that a new word is a one-line change, and so that the Chinese and English rules stay
in step: each table holds both languages. In the word lists ``_`` stands for a space inside a phrase.
"""

from __future__ import annotations

import re

from memlane.text.lang import normalize


def words(text: str) -> list[str]:
    """The space-separated phrases of ``text``, with ``_`` turned back into a space."""
    return [w.replace("_", " ") for w in text.split()]


# Whole clauses that carry nothing to remember, compared after :func:`memlane.text.lang.normalize`.
SMALLTALK = frozenset(
    normalize(phrase)
    for phrase in words(
        "你好 您好 嗨 哈喽 哈啰 嘿 在吗 在不在 谢谢 谢啦 谢了 多谢 感谢 谢谢你 谢谢您 非常感谢 "
        "太感谢了 好的 好 好吧 好滴 好哒 行 行吧 可以 嗯 嗯嗯 哦 噢 喔 啊 呵呵 嘿嘿 嘻嘻 收到 "
        "明白 明白了 了解 知道了 懂了 我知道了 我明白了 我懂了 没事 没关系 不客气 再见 拜拜 晚安 "
        "早上好 早 早安 中午好 下午好 晚上好 是的 对 对的 对啊 没错 好的谢谢 辛苦了 厉害 赞 不错 "
        "好嘞 好呀 好啊 是吗 真的吗 然后呢 你是谁 在的 要的 要 要要 要要要 不用 不用了 不了 嗯呢 嗯哼 对呀 "
        "是啊 好哇 "
        "hi hello hey hiya yo thanks thx ty cheers ok okk okay k kk sure yes yeah yep yup no nope cool "
        "nah nay nvm mhm uh-huh yea ya yah nah_thanks yes_please "
        "great nice awesome lol gotcha understood bye goodbye np welcome alright fine perfect thank_you "
        "thank_you_so_much thanks_a_lot got_it see_you see_ya good_morning good_night good_afternoon "
        "good_evening how_are_you how_are_you_doing how's_it_going what's_up i'm_fine i'm_good all_right "
        "no_problem you're_welcome sounds_good makes_sense never_mind hi_there hello_there "
        "gotta_run gotta_go got_to_go g2g ttyl brb talk_later talk_soon "
        # thanks in the languages English speakers mix in ("shukriya", "asante sana", "bless up")
        "shukriya shukria jazakallah jazak_allah dhanyavad dhanyavaad dhanyawad asante asante_sana merci "
        "gracias danke arigato salamat maraming_salamat bless_up "
        # a label said before the news it heads ("update: ended up getting a galaxy s24 fe")
        "update quick_update correction fyi ps p.s btw edit heads_up quick_q quick_question big_news "
        "good_news bad_news news big_decision big_update small_update small_win quick_one so_quick_one "
        "guess_what 更新 补充 补充一下 插一句 好消息 坏消息 跟你说个好消息 跟你说个坏消息 跟你说个事 "
        # holding the conversation, or letting a question go: 等我一下, 我看看, 算了不用了
        "等我一下 等一下 稍等 稍等一下 等等 我看看 我想想 我查查 我试试 我研究一下 我考虑一下 算了 算了吧 "
        "算了不用了 那算了 "
        # it is the user again, it is settled, let it be for now
        "又是我 是我 我又来了 就这么定了 就这么办 那就这样 就这样吧 没事了 再说吧 回头再说 下次再说"
    )
)
# a clause made of nothing but small talk said together or twice ("多谢多谢", "ok了解", "好的好的谢谢")
SMALLTALK_RUN = re.compile(
    "(?:"
    + "|".join(re.escape(p) for p in sorted(SMALLTALK, key=len, reverse=True) if p)
    + r"|(?:哈|呵|嘿|嘻)+|[\s,，.。!！~～]+)+"
)
# leaving the conversation: "I must go", "I need to run", "gotta dash", 我得走了, 先不聊了, 我先撤了
SIGN_OFF = re.compile(
    r"(?i)(?:(?:ok(?:ay)?|well|anyway|sorry|right|oh|so)[\s,]+)*(?:i\s+|i've\s+)?(?:really\s+)?"
    r"(?:must|have\s+to|need\s+to|gotta|got\s+to|should|better)\s+(?:go|run|dash|head\s+off|get\s+going"
    r"|jump|bounce|log\s+off|sign\s+off|be\s+off)(?:\s+(?:now|soon|for\s+now|lol|haha|sorry))*[\s.!]*"
    r"|我?(?:得|要|先|该|也)*(?:走了|撤了|下了|溜了|闪了|去忙了|不聊了|下线了)(?:啊|哈|哦|啦|哈哈|拜拜)*[\s。！!~～]*"
)
LAUGHTER = re.compile(r"(?:哈|呵|嘿|嘻|ha|he|hi|lo+l|xd|lmao)+", re.IGNORECASE)

# The user withdrawing consent for what they just said (not 别忘了 / don't forget, which asks the opposite).
FORGET = re.compile(
    r"(?<![要能])(?:别|不要|不用|请勿|千万别)(?:帮我)?(?:把(?:这个|这些|这条|这句|那句|刚才的?|那个))?"
    r"(?:记|记住|记下来?|记录|保存|存)(?:下来)?(?:这个|这些|这条|这句|刚才的?|那个|了|哦|啊|哈)?(?:$|[，,。！!\s]|话)"
    r"|(?:这个|这些|这条|这句|那句|那条|那段|这段|刚才的?|那个|上面的?)(?:话)?(?:别|不要|不用)(?:记|记住|记下来?|记录|保存|存)"
    r"|(?:忘掉|忘了|忘记|删掉|删除|撤回)(?:我)?(?:刚才|刚刚|之前|上面|前面)(?:说|讲|发)的?(?:话|内容|那句)?"
    # what was just said, taken back: 刚才那段忘掉, 刚刚说的那个不算, 上一条作废, 这句你别往记忆里放
    r"|^(?:刚才|刚刚|上面|上一条|这句|那句)(?:我?说的)?(?:那个|那段|那句|那条)?(?:你)?"
    r"(?:忘掉吧?|忘了吧|删掉吧?|删了吧|作废|不算|别往记忆里放|别记了?|别存了?|(?i:别save|不要save|cancel掉))$"
    r"|^(?:就)?当我没(?:说|问)(?:过)?(?:吧)?$"
    # English only as a whole imperative clause: "I don't remember that movie" is no such request
    r"|(?i:^(?:(?:nah|nope|no|nvm|never\s+mind|actually|wait(?:\s+no)?|oh|ok|oops)[\s,.!]+)*"
    r"(?:please\s+|pls\s+)?(?:(?:don'?t|do\s+not)\s+(?:remember|save|store|record|keep|log)"
    r"\s+(?:that|this|it|that\s+one|any\s+of\s+(?:this|that))"
    r"|don'?t\s+hang\s+on\s+to\s+(?:that|this|it)(?:\s+one)?"
    r"|(?:forget|ignore|disregard)\s+(?:what\s+i\s+(?:just\s+)?(?:said|told\s+you|wrote)|that|this|it"
    r"|everything\s+i\s+just\s+said|i\s+said\s+that|my\s+last\s+message)"
    r"|(?:strike|scratch|wipe|erase|delete|undo)\s+(?:that|this)(?:\s+last\s+(?:bit|part|one|message))?"
    r"|leave\s+(?:that|this|it)\s+out(?:\s+of\s+your\s+memory)?)(?:\s+please)?\W*$)"
)

# What the user has stopped doing, the thing said first ("咖啡不喝了", "恐怖片看腻了", "健身房现在很少去
# 了"), or for want of time ("没空爬山了"); group ``obj`` names it. A dislike to the extractor, and what a
# change of mind leaves behind to the reconciler (:mod:`memlane.write.changes`).
STOP_VERB = "(?:喝|吃|用|玩|看|去|跑|打|学|练|买|抽|追|听|弹|骑|做|爬|逛|刷|碰|沾|养|请|租|报|订|装|搬|考)"
STOPPED_ZH = (
    re.compile(
        r"^(?:现在|最近|后来)?(?P<obj>[^，。,.!！？?；;了后我]{1,8}?)我?(?:也|都|就|早就|已经|现在|基本上?|先|决定|想了想)*"
        rf"(?:(?:不再?|没再|很少|懒得|不怎么|不太){STOP_VERB}了|{STOP_VERB}?(?:腻了|厌了|够了)|{STOP_VERB}伤了"
        r"|放一放了|放下了|搁置了|(?:暂|先)?停了|停掉了|送人了|送走了|放弃了"
        rf"|(?:好久|很久|好几个月|好几年|半年多?|一年多?)没(?:再)?{STOP_VERB}?过?了)$"
    ),
    re.compile(r"(?:没空|没时间|没精力)再?(?P<obj>[^，。,.!！？?；;了]{2,10}?)了$"),
)

# A clause that asks the assistant to do something says nothing lasting about the user, even when it
# names a time ("帮我看看明天的天气" is not a plan of the user's).
# saying one does not know: what the user cannot settle (a request) or is at a loss over (a mood)
_DONT_KNOW = r"(?:(?:don'?t|dont|do\s+not)\s+know|no\s+idea)"
REQUEST = re.compile(
    # (after when it is for: "今天帮我写个请假条", "这次帮我订个便宜点的")
    r"^(?:今天|今晚|明天|现在|这次|待会儿?|一会儿?|等下|顺便)?(?:请|麻烦你?|能不能|能否|可不可以|可以)?"
    r"(?:帮我|帮忙|给我|替我|为我)?"
    r"(?:推荐|查一?下|查查|看看|看一下|搜一?下|找一?下|订一?下|预订|预约|提醒我|告诉我|讲讲|写一?[个篇首])"
    r"|^(?:今天|今晚|明天|现在|这次|这周|下周|周末|待会儿?|一会儿?|等下|顺便)?(?:请|麻烦你?)?(?:帮我|帮忙)"
    # …or to make the user something: "给我整个四十分钟的教案", "给我列个清单" (not "给我的建议")
    r"|^(?:请|麻烦你?|你)?给我(?:整|弄|搞|排|出|列|做|编|拟)一?[个份张套篇]"
    # said to the assistant by name: "你帮我看看这个", "想让你帮我排个训练计划", "希望你帮我写封信" (not
    # "你给我的建议很有用", "你帮我的那次")
    r"|^(?:那|好|行)?我?(?:想|希望|想要)?(?:让|请|麻烦|叫)?[你您](?:帮我|帮忙|替我|给我)(?!的)"
    r"|(?i:^(?:(?:can|could|would|will)\s+you|please(?!\s+(?:don'?t|do\s+not|never|stop))|help\s+me|recommend|suggest|tell\s+me|show\s+me|find\s+me"
    r"|remind\s+me|book|what\s+should\s+i|which\s+\w+\s+should\s+i"
    # what the assistant is told to do: "pick me a pasta for tonight", "so find a b&b with parking",
    # "start with an outline", "keep me company", "need gift ideas", "ideas for a rainy day indoors"
    r"|(?:(?:so|just|now)\s+)*(?:(?:pick|order|read|quiz|route|send|give|get|draft|teach)\s+(?:me|us)"
    r"|find\s+(?:me|us|a|an|some)|look\s+(?:for|up)|search\s+for|hold\s+anything|distract\s+me"
    r"|keep\s+me\s+company|talk\s+to\s+me\s+about)"
    r"|start\s+(?:over|with)|ideas\s+(?:for|to)|(?:\w+\s+)?ideas\s+please"
    r"|(?:i\s+)?need\s+(?:\w+\s+)?(?:ideas|recs|recommendations|suggestions|tips|advice)"
    r"|(?:i\s+)?need\s+an?\s+(?:\w+\s+)?(?:list|plan|spot|recipe|itinerary|name)\s+for"
    # asking by saying what the user cannot settle: "I don't know what to get my wife for her birthday"
    rf"|(?:i\s+)?(?:(?:really|honestly|just)\s+)?(?:{_DONT_KNOW}|idk)\s+"
    r"(?:what|which|where)\s+(?:\w+\s+)?to\s+(?:do|cook|make|eat|get|buy|wear|say|write|watch|read|pick"
    r"|choose|order|bring|give|go|book)\s+(?=\S))\b)"
)

# what one of the user's things is, said bare: "电脑是16G内存的", "内存32G", "显卡是4070" (the user's own, or,
# after a request or a plan to buy, what the thing asked for must be: occasion.of_the_request, of_the_plan)
THING_SPEC_ZH = re.compile(
    r"^(?:家里的?)?(?:电脑|笔记本|手机|平板|主机|显卡|内存|硬盘|显示器|相机|路由器)"
    r"(?:是|用的是|配的是|配置是)?\s*(?:[A-Za-z]*\d|iPhone|华为|小米|苹果|三星|联想|戴尔|荣耀)"
)
# a thing the user sets out to buy: what it must be, said bare after it, is a condition of that
TO_BUY_ZH = re.compile(r"(?:想|要|打算|准备|计划)(?:买|换|入手)")

# Something imagined rather than so: "如果我中了彩票" / "if I won the lottery" (not "if you can, email me",
# which is a request), and what follows from it in the next clause ("我就飞去火星" / "I'd buy a castle").
HYPOTHETICAL = re.compile(
    r"^(?:如果|假如|要是|假设|假使|万一|倘若|如若|设想|想象一下)(?!你|您|可以|方便|有空|需要)"
    r"|^(?:我|本人)?(?:要是|假如|如果)(?!你|您)"
    r"|(?i:^(?:if|suppose|supposing|imagine|imagine\s+if|what\s+if|assuming|if\s+only)\s+(?!you\b|u\b|possible\b)"
    r"|^i\s+wish\s+i\b|^(?:say|let'?s\s+say)\s*(?:i\b|we\b|我)|^hypothetically\b)"
    r"|^早知道"  # had I known: "早知道我也蹲一下"
)
CONSEQUENCE = re.compile(r"^(?:我?就|那我?就?|我会|我要|我肯定|(?i:i'?d|i\s+would|then|i'?ll|i\s+will)\b)")

HEDGE = re.compile(
    # (大概 before an amount is about how much, not whether: "出差，大概一周")
    # (not a guess that proved wrong: "我估计错了", "我猜错了")
    r"可能|也许|大概(?![0-9一二两三四五六七八九十半几])|好像|我猜(?!错|对)|应该是|或许|估计(?!错)|似乎|说不定|不确定|貌似|我觉得"
    r"|(?i:\b(?:maybe|perhaps|i\s+think|i\s+guess|probably|possibly|i\s+suppose|i\s+believe|not\s+sure"
    r"|might|may\s+be|(?:kind\s+of|kinda|sort\s+of|sorta)(?!\s+(?:like|love|enjoy|prefer|hate|dislike|miss)\b)"
    r"|i\s+reckon|likely|pretty\s+sure|idk"
    r"|don'?t\s+quote\s+me|hard\s+to\s+say|who\s+knows|no\s?one\s+knows|nobody\s+knows)\b)"
    r"|瞎猜|别当真|不一定|没准|说不准|谁知道呢|没人说得准"
    # undecided: an intention not settled yet ("还没想好", "haven't decided yet") is no plan
    r"|没想好|还没决定|在考虑|在犹豫|倾向于|(?i:\b(?:haven'?t\s+decided|not\s+decided|still\s+deciding"
    r"|undecided|on\s+the\s+fence|leaning\s+towards?|torn\s+between|tempted\s+(?:by|to)|prob\b)\b)"
)
# a clause that only qualifies the one before it ("…, but don't quote me", "……我瞎猜的"): the two are
# one guess
BARE_HEDGE = re.compile(
    r"(?:我|我也|也)?(?:瞎猜的?|随便猜的?|不确定|不太确定|不一定(?:准|对|靠谱)?|别当真|说不准|没准|说不好|难说|不好说|谁知道呢?|(?:谁|没人)(?:也)?说(?:得|不)准"
    r"|还?没想好|还?没决定|还没定|还在考虑|还在犹豫|再说吧|再看吧|看情况吧?|随便说说|随口(?:一说|说说)|开玩笑的?|说着玩的?"
    # where a guess came from, or how little it was checked: 听同事说的, 没细看
    r"|(?:也是)?听(?:[\u4e00-\u9fff]{1,4})?说的|[他她]还没(?:说|定|确定)|(?:我)?没(?:细看|仔细看|看清楚?|细问|问清楚?)|记不清了?|记不太清了?)"
    r"(?:呢|哈|啊|吧|的)?"
    r"|(?i:(?:but\s+)?(?:(?:i'?m\s+)?not\s+(?:100%\s+)?sure(?:\s+(?:yet|about\s+(?:that|it)))?"
    r"|don'?t\s+quote\s+me(?:\s+on\s+(?:that|this))?|idk|i\s+don'?t\s+know|could\s+be\s+wrong"
    r"|(?:(?:but\s+)?honestly\s+)?(?:i\s+have\s+)?no\s+idea|who\s+knows|(?:it'?s\s+)?hard\s+to\s+say|no\s?(?:one|body)\s+knows"
    r"|just\s+a\s+thought(?:,?\s+prob(?:ably)?\s+not)?|prob(?:ably)?\s+not"
    r"|(?:she|he|they)\s+(?:hasn'?t|haven'?t|didn'?t)\s+(?:said|confirmed|decided)(?:\s+(?:it\s+)?(?:for\s+sure|yet))?"
    r"|i\s+might\s+be\s+wrong|just\s+guessing|(?:i\s+)?haven'?t\s+decided(?:\s+yet)?"
    r"|(?:nothing'?s|it'?s\s+not|not)\s+(?:decided|settled|set\s+in\s+stone)(?:\s+yet)?"
    r"|still\s+(?:deciding|thinking(?:\s+about\s+it)?)|we'?ll\s+see"
    r"|(?:at\s+least\s+)?(?:that'?s\s+what\s+)?(?:i\s+)?heard(?:\s+it)?\s+from\s+(?:a|my|some)\s+\w+(?:\s+\w+)?"
    r"|didn'?t\s+(?:check|look\s+closely)|just\s+(?:saying|kidding)|jk)(?:\s+(?:though|tho))?)"
)
# a clause that is only an age, a duration, a frequency or a school year: it says more of the clause
# before it ("我有个女儿，今年5岁", "我学吉他，三年了", "我每周游泳，一周三次", "我儿子上小学了，三年级")
# where, and nothing else: "…10月18号办婚礼，在厦门", "we're getting married in June, in Lisbon" (a
# Chinese place is checked apart: 在 also says what is going on, "在等抽签"; an English one is a name)
PLACE_ONLY = re.compile(
    r"(?:地点|地方|就|也|都)?在(?P<where>[\u4e00-\u9fff]{1,12}?)(?:办|举行|举办|那边|这边|那儿|这儿)?"
    r"(?:哦|哈|呢|啦|呀|的)?"
    r"|(?i:it'?s\s+|all\s+)?(?i:in|at|(?:over|down|up|out)\s+in)\s+(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}"
)
AMOUNT_ONLY = re.compile(
    r"(?:今年|已经|才|刚|都|快|满|大概|差不多)*[0-9一二两三四五六七八九十百半几]+多?(?:个|只)?"
    r"(?:周岁|岁|个月|年级|年|天|小时|周|星期|礼拜)(?:多|半)?(?:了|啦|咯|呢|哦|吧)?"
    r"|(?:几乎|基本上?|差不多|大概)?(?:每|一)(?:天|周|星期|礼拜|个月|月|年)(?:都|大概|差不多)?[0-9一二两三四五六七八九十几]+"
    r"(?:次|回|趟|杯|顿|瓶|罐|包|根)"
    r"(?:左右)?(?:吧)?"
    r"|(?:今年|现在)?上?(?:[初高]|小学|初中|高中)?[一二三四五六]年级了?|(?:今年|现在)?(?:初|高|大)[一二三四]了?"
    r"|(?i:(?:aged\s+)?\d{1,2}\s*(?:yo|y/o|years?\s+old|yrs?\s+old))"
)
# how old, said as a bare number after a name: "I'm Marcus, 41, …"
AGE_AFTER_NAME = re.compile(r"(?i)(?:aged\s+)?\d{1,2}(?:\s*(?:yo|y/o|years?\s+old|yrs?(?:\s+old)?))?")
# …and of a pet or a relative just named, said with a pronoun: "I have a cat named Mochi, she's 14"
THEIR_AGE = re.compile(
    r"(?i)(?:she|he|it)(?:'s|s|\s+is|\s+just\s+turned)\s+(?:almost\s+|nearly\s+|only\s+|just\s+)?"
    r"\d{1,2}(?:\s*(?:yo|y/o|years?(?:\s+old)?|yrs?(?:\s+old)?|months?(?:\s+old)?))?(?:\s+now)?"
)
# a clause that only says when what the clause before names recurs, with a verb or a clock time and no
# object of its own ("我最近在练游泳，每周二四晚上去", "我在学吉他，每周六上午上课", "…，一般6点起"):
# its schedule
SCHEDULE_ONLY = re.compile(
    r"(?:每周|每个?星期|每个?礼拜|每天|每晚|每个?周末|周末|平时|一般|通常)[一二三四五六日天末、和跟]*"
    r"(?:早上|上午|中午|下午|晚上|傍晚)?(?:[0-9一二两三四五六七八九十]+点半?(?:左右)?)?(?:都|会|要)?"
    r"(?:(?:去|过去|上课|练|训练|练习|上|起|起床|出门|出发)(?:一次|一趟|一下)?|(?<=点)|(?<=点半)|(?<=左右)"
    r"|(?<=早上)|(?<=上午)|(?<=中午)|(?<=下午)|(?<=晚上)|(?<=傍晚)|(?<=[一二三四五六日天]))"
    r"(?:的|吧)?"
)
# a clause that only says how strongly the clause before holds: "我不吃香菜，一点都不行", "not even a
# little", "我超爱吃火锅，越辣越好", "the spicier the better"
EMPHASIS_ONLY = re.compile(
    r"越[\u4e00-\u9fff]{1,2}越好|(?i:the\s+\w+(?:er|re)\s+the\s+better)"
    r"|(?:一点|一口|一滴|半点|丝毫|一次)(?:都|也)(?:不行|不能|不可以|不吃|不喝|不碰|不要|受不了|接受不了)"
    r"(?:的|啊|哦|呀)?|(?:完全|绝对|坚决|实在|根本)(?:不行|不能|不可以|受不了|接受不了|不碰)(?:的|啊|哦|呀)?"
    r"|(?i:not\s+even\s+a\s+(?:little|bit|drop|bite|tiny\s+bit)|not\s+at\s+all|none\s+(?:at\s+all|whatsoever)"
    r"|never\s+ever|zero\s+exceptions|no\s+exceptions)"
)
# a clause that only says who with (跟我姐一起, "together with my wife"): of the clause before
COMPANY_ONLY = re.compile(
    r"(?:是|都是|也是)?(?:跟|和|同|与|陪)(?:我的?|我家)?[\u4e00-\u9fff]{1,4}?一起(?:的|去的?|哈|呢|啦|哦)?"
    r"|(?i:(?:together\s+)?with\s+(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?(?:\s+too)?)"
)
# how an apology to the listener opens ("sorry I went quiet", "I'm so sorry your flight…"); "sorry to say"
# opens news ("I'm sorry to say I can't make it")
SORRY = (
    r"(?i:^(?:(?:oh|omg|aw+|so|ok)\s+)*(?:i'?m\s+|im\s+)?(?:so\s+|really\s+|very\s+)?sorry\b(?!\s+to\s+say))"
)
# how a passing feeling is named in English, as an alternation (the Chinese rules take it too, for
# mixed text: 我好stressed, 有点nervous); a fear "of" something is lasting, not a mood
_FEELING_WORDS = (
    "tired exhausted knackered shattered drained wiped_out wrecked dead_tired sleepy worn_out burnt_out "
    "burned_out annoyed irritated cranky grumpy salty hangry angry mad livid furious fuming pissed "
    "fed_up happy glad giddy stoked pumped hyped buzzing thrilled ecstatic elated overjoyed "
    "over_the_moon psyched excited relieved proud sad upset blue gloomy bummed gutted heartbroken "
    "devastated crushed hurt disappointed miserable lonely homesick stressed overwhelmed swamped anxious "
    "nervous jittery antsy restless on_edge uneasy worried freaked_out spooked panicking embarrassed "
    "mortified ashamed guilty jealous envious bored numb confused baffled depressed frustrated cross chuffed "
    "frazzled peeved miffed rattled nostalgic sentimental wired "
    # how the body feels this moment
    "hungover jet-lagged jetlagged jet_lagged famished stuffed queasy"
)
FEELINGS = "|".join(w.replace("_", r"\s+") for w in _FEELING_WORDS.split())
FEELINGS += r"|(?:scared|terrified|frightened)(?!\s+of\b)|starving(?!\s+(?:myself|themselves))"
# at a loss, said of the moment ("I don't know what to do", "no idea what to do anymore"; not "what to
# do for dinner")
FEELINGS += (
    rf"|at\s+a\s+(?:complete\s+)?loss|{_DONT_KNOW}\s+what\s+to\s+do"
    r"(?=\s*(?:anymore|any\s+more|now|lol|tbh|honestly|rn)?\W*$)"
)
# a passing feeling, said in Chinese: a clause it names is a mood (rules_zh)
MOOD_ZH = (
    r"(?<!麻)烦(?!恼的事|人的)|心烦|烦躁|(?<![积劳连拖])累(?!计|积)|疲惫|(?<!困)困(?!难|扰|境)|犯困|开心|高兴"
    r"|快乐|难过|伤心|郁闷|焦虑|紧张|生气|气死|无聊|崩溃|沮丧|失落|兴奋|激动|心累|闹心|(?<![a-z])emo(?![a-z])|不爽"
    r"|压力(?:好|很|太|特别)?大"
    r"|心情|委屈|孤独|寂寞|害怕|担心|失眠|想哭|哭了|^唉|^哎+|无语|难受"
    # the feeling words below name the clause only when it is short (about little else)
    r"|^(?=.{0,14}$).*?(?:"
    r"不放心|发愁|愁死|愁得|头大|烦死|心塞|心慌慌|慌得一批|抓狂|暴躁|火大|恼火|窝火|憋屈"
    r"|气到|好馋|馋哭|痛苦|煎熬|迷茫|纠结|懵了|傻眼|麻了|裂开|破防|绷不住|吓死|吓坏|吓出|喘口气|松了?一?大?口气|蔫了|脑子(?:已经|都|快|要|有点)*(?:废|糊|炸|乱|短路|转不动|不太?转|转不过来)了?|解脱了|吓(?:了|我)?一跳|被吓到|惊喜|失望|绝望|欣慰|感动|后悔"
    r"|内疚|愧疚|尴尬|丢人|羡慕|嫉妒|心疼|幸福|踏实|安心|(?<!不)放心了|脑瓜子?(?:都|直)?嗡嗡|放松|无奈|无力|疲倦|累瘫|被掏空|没劲|提不起劲"
    r"|(?:好|太|真)丧|颓废|慌了|怕怕|心态(?:崩|炸)|(?:人|我)(?:都|快|要)*崩了|不想说话|气得|懵|要疯了|气笑|服了|压力山大|小期待|好期待"
    r"|太忙了|忙死|忙成狗|好chill|有点down|别[说问提催]了|别烦我|让我静一?静|别管我"
    r"|不知道?(?:该|要)?(?:怎么办|咋办|如何是好)(?:才好)?了?[。！!~～啊呀吧哈]*$"
    # how a texter exclaims: "离谱", "真的会谢", "心在滴血", "钱包在哭泣", "要了我的老命", "终于解放了"
    r"|离谱|会谢|在(?:滴血|哭泣)|要命|老命|(?:终于|总算|finally)(?:解放|自由|free)了|社死|(?:好|太)?上头"
    r"|(?:急|笑|愁|吓|饿|馋|闷|懒|乐|酸|冻|疼|痛|热|冷|晒|撑|渴|吵|挤|晕|羡慕|尴尬|心疼)死(?:我|人)?了|都?快(?:断|瞎|废)了"
    rf"|(?i:(?<![a-z])(?:{FEELINGS})(?![a-z]))"
    r")"
    r"|被.{0,6}?(?:骂|批评|训|凶|吼|怼|数落|说)了"  # scolded: a passing hurt, not an event to keep
)

# a feeling or an exclamation, the whole of what is left of a message: said on its own or tacked on
# at the end without a stop ("got my black belt last weekend buzzing", "…on friday eeek", "…so proud of
# myself", "…i'm still annoyed", "…pray for me", "…so worth it"), it is a passing mood
FEELING_TAIL = (
    r"(?i:(?:i'?m|im|i\s+am|we'?re|feeling|honestly)\s+)?"
    r"(?i:(?:so|absolutely|totally|really|pretty|super|proper|bloody|kinda|a\s+bit|still|lowkey|way\s+too)\s+)?"
    r"(?i:(?:" + FEELINGS + r")(?:\s+for\s+(?:her|him|them|you|us))?"
    r"|proud\s+of\s+myself|worth\s+it|e{2,}k+|u+g+h+|ya+y+|wo+(?:ho+)?|omg+|finally|whew|phew"
    r"|feels?\s+(?:so\s+)?(?:good|great|amazing|surreal|weird)(?:\s+man)?"
    r"|pray\s+for\s+me|send\s+help|kill\s+me(?:\s+now)?|rip|what\s+a\s+(?:day|week|night|morning|year)"
    r"|panic\s+over|not\s+bad|(?:my\s+)?brain\s+is\s+(?:fried|mush)|felt\s+like\s+a\s+(?:genius|legend|pro)"
    r"|best\s+(?:decision|day|thing)\s+ever|haven'?t\s+stopped\s+smiling(?:\s+since)?|can'?t\s+stop\s+smiling"
    r"|screaming|dying|dead|can'?t\s+believe\s+it|doesn'?t\s+feel\s+real|now\s+we\s+wait|now\s+the\s+waiting\s+game|fingers\s+crossed)\b"
    r"(?:\s+(?i:lol|lmao|haha+|omg|tbh|ngl|honestly|man))*[\s!.\U0001F300-\U0001FAFF\u2600-\u27BF]*$"
)
# (keywords, Chinese tag, English tag): a clause mentioning a keyword gets both tags, so that a memory
# written in one language can still be found by tag from the other.
# fmt: off
TOPICS: tuple[tuple[str, str, str], ...] = (
    ("咖啡 美式 拿铁 冷萃 卡布奇诺 摩卡 浓缩 手冲 星巴克 瑞幸 coffee americano latte cold_brew "
     "espresso cappuccino mocha flat_white starbucks", "咖啡", "coffee"),
    ("茶 奶茶 绿茶 红茶 乌龙 普洱 tea matcha boba", "茶", "tea"),
    ("iphone 手机 三星 华为 小米 oppo vivo 荣耀 苹果手机 pixel galaxy samsung android phone smartphone",
     "手机", "phone"),
    ("摄影 拍照 相机 镜头 单反 photography photo photos camera", "摄影", "photography"),
    ("辣 火锅 香菜 川菜 湘菜 海鲜 甜食 美食 spicy hot_pot cilantro coriander seafood sushi pizza food "
     "dessert noodles", "饮食", "food"),
    ("旅游 旅行 出差 机票 酒店 度假 日本 travel trip flight hotel vacation holiday", "旅行", "travel"),
    ("健身 跑步 游泳 瑜伽 马拉松 健身房 骑行 篮球 足球 羽毛球 gym running swimming yoga marathon "
     "cycling workout", "运动", "fitness"),
    ("猫 狗 宠物 cat dog pet puppy kitten", "宠物", "pet"),
    ("快递 物流 包裹 订单 发货 配送 退款 退货 delivery order package parcel shipping refund",
     "物流", "delivery"),
    ("医院 过敏 看病 生病 体检 hospital allergic allergy doctor sick medicine", "健康", "health"),
    ("python java 编程 代码 程序 programming code coding", "编程", "programming"),
    ("开会 会议 上班 加班 工作 meeting office work", "工作", "work"),
    ("汽车 开车 买车 car driving", "汽车", "car"),
    ("音乐 听歌 演唱会 music song concert", "音乐", "music"),
    ("阅读 看书 小说 book books reading novel", "阅读", "reading"),
    ("电影 电视剧 追剧 movie film series", "影视", "movies"),
    ("电脑 笔记本 耳机 平板 ipad macbook laptop headphones tablet", "数码", "gadgets"),
)
# fmt: on

DRINKS = words(
    "咖啡 美式 拿铁 冷萃 卡布奇诺 摩卡 浓缩 手冲 茶 奶茶 绿茶 红茶 乌龙 普洱 果汁 可乐 雪碧 "
    "汽水 啤酒 红酒 白酒 葡萄酒 酒 牛奶 豆浆 酸奶 气泡水 椰汁 coffee americano latte cold_brew "
    "cappuccino espresso mocha flat_white tea green_tea milk_tea bubble_tea boba juice soda coke beer "
    "wine whisky whiskey milk sparkling_water smoothie matcha"
)
FOODS = words(
    "辣 辣椒 香菜 葱 姜 蒜 火锅 川菜 湘菜 粤菜 海鲜 牛肉 猪肉 羊肉 鸡肉 鱼 虾 甜食 甜品 蛋糕 "
    "巧克力 面 米饭 饺子 寿司 披萨 汉堡 肉 素食 蔬菜 水果 花生 零食 烧烤 炸鸡 内脏 生冷 鸡蛋 "
    "spicy spicy_food cilantro coriander hot_pot seafood beef pork lamb chicken fish shrimp sweets "
    "dessert cake chocolate noodles rice dumplings sushi pizza burger meat vegetables fruit peanuts "
    "snacks bbq onion garlic eggs"
)
# Heads of job titles: 我是产品经理 / I'm a data engineer are jobs, 我是上海人 / I'm a bit tired are not.
JOBS_ZH = words(
    "经理 工程师 设计师 程序员 医生 大夫 护士 老师 教师 律师 会计 会计师 学生 研究生 大学生 "
    "本科生 博士生 硕士生 留学生 高中生 初中生 博士 教授 司机 厨师 记者 编辑 作家 演员 歌手 主管 "
    "总监 主任 老板 销售 运营 产品 客服 公务员 警察 军人 农民 工人 店主 分析师 顾问 研究员 科学家 "
    "实习生 翻译 秘书 助理 保安 快递员 外卖员 店员 服务员 架构师 开发 码农 全职妈妈 家庭主妇 "
    "自由职业者 创业者 画家 艺术家 企业家 音乐家 摄影师 咨询师 药剂师 建筑师 电工 技术员 教练 "
    "导游 主播 博主 UP主 HR PM CEO CTO"
)
JOBS_EN = words(
    "engineer developer programmer manager designer scientist analyst consultant teacher professor student "
    "nurse doctor physician surgeon dentist lawyer attorney accountant chef cook pilot driver writer author "
    "journalist editor artist musician architect researcher founder co-founder ceo cto cfo pm salesperson "
    "marketer pharmacist therapist photographer translator freelancer intern officer firefighter farmer "
    "mechanic electrician plumber cashier waiter waitress barista librarian secretary assistant entrepreneur "
    "investor banker trader economist vet veterinarian paramedic coach trainer tutor lecturer technician "
    "administrator clerk receptionist soldier cop carpenter baker realtor broker recruiter owner director "
    "executive specialist coordinator supervisor lead undergrad postdoc dev sre tester"
)


def _word_pattern(phrases: list[str], plural: str = "s?") -> re.Pattern[str]:
    """One pattern for many phrases: whole words for English (with a plural), substrings for Chinese."""
    parts = [
        rf"\b{re.escape(w)}{plural}\b" if w.isascii() else re.escape(w)
        for w in sorted(set(phrases), key=len, reverse=True)
    ]
    return re.compile("|".join(parts), re.IGNORECASE)


_TOPIC_TAGS = {word: (zh, en) for keys, zh, en in reversed(TOPICS) for word in words(keys)}
_TOPIC_RE = _word_pattern(list(_TOPIC_TAGS), "(?:s|es)?")
_DRINK_RE = _word_pattern(DRINKS)
_FOOD_RE = _word_pattern(FOODS)


def topic_tags(text: str, limit: int = 4) -> list[str]:
    """Topic tags for a clause, in both languages (美式 -> 咖啡, coffee)."""
    out: list[str] = []
    for m in _TOPIC_RE.finditer(text):
        word = m.group(0).lower()
        tags = _TOPIC_TAGS.get(word) or _TOPIC_TAGS.get(word[:-1]) or _TOPIC_TAGS.get(word[:-2])  # plurals
        for tag in tags or ():
            if tag not in out:
                out.append(tag)
        if len(out) >= limit:
            break
    return out[:limit]


def consumable_slot(verb: str | None, objects: list[str]) -> str | None:
    """``"drink"`` or ``"food"`` for what is drunk or eaten (喝美式, eating sushi), else None."""
    verb = (verb or "").lower()
    if verb in ("喝", "drink", "drinking", "drinks", "drank"):
        return "drink"
    if verb in ("吃", "eat", "eating", "eats", "ate"):
        return "food"
    joined = " ".join(objects)
    if _DRINK_RE.search(joined):
        return "drink"
    if _FOOD_RE.search(joined):
        return "food"
    return None
