"""How a clause asks, by its words alone: its last word (吗, 呢, a bare 不), the shape of its verb (要不要),
a question word that stands for nothing known (附近哪有宠物医院), or how an English question opens.

:mod:`~memlane.write.extract.separators` splits a run-on where a question starts, and
:mod:`~memlane.write.extract.clauses` marks a clause that asks.
"""

from __future__ import annotations

import re

# a question by its last word: 吗 / 呢, or a bare 不 / 没 after what is asked about (附近有啥餐厅不,
# 你吃了没); 我不 / 还没 / 都没有 are answers, not questions
QUESTION_END = re.compile(r"(?:吗|么|嘛|呢)[啊呀]?$|(?<![我他她它才就也都还并从])(?:不|没|没有)[啊呀]?$")
# 呢 after what is going on is no question: "在医院排队呢", "正在考试呢", "还有四十多个人呢"
GOING_ON = re.compile(r"[在正着还][^吗么嘛]*呢[啊呀]?$")
# a question by its shape: a verb asked as itself, not and itself again (要不要, 会不会, 是不是, 有没有,
# 可不可以); 时不时 and 动不动 are adverbs ("I run now and then"), 还没还 is "not yet repaid", and the 在
# of 现在 / 正在 / 实在 starts no 在不在 ("我现在不在家")
A_NOT_A = re.compile(r"(?![时动还])(?<![现正实存所])([\u4e00-\u9fff])[不没]\1")
# a question by its words, with no mark: a Chinese question word (附近哪有宠物医院, 开锁一般多少钱, 晚饭咋整)
# that stands for nothing known and is not "any" (啥都吃, 谁劝都没用, 水果什么的, 没啥爱好, 不知道吃啥)
ASKED_ZH = re.compile(
    r"(?<![没不])(?:什么|啥|哪(?!怕)|多少(?!有点|会|也)|多久|多长时间|几点|几号|周几|星期几|怎么(?!说呢)|咋|如何|为什么"
    r"|为啥|是否|谁)"
)
NOT_ASKED_ZH = re.compile(
    r"(?:不知道|不晓得|不清楚|忘了|记不得|记不清|不记得|想不起|没想好|不确定).{0,8}"
    r"(?:什么|啥|哪|多少|多久|几|怎么|咋|如何|为什么|为啥|谁)"
    r"|(?:什么|啥|哪|谁|怎么|多久)\S{0,3}?(?:都|也)|(?:什么|啥)的|那个啥|不怎么|(?:什么|啥)\S{1,3}(?:什么|啥)"
    r"|(?:别|不要|不许|甭)[\u4e00-\u9fff]{1,2}(?:什么|啥)"  # "别写什么纯天然无毒这种词": whatever it is
)
# an English question by how it opens: a question word that is not the start of a statement ("what I
# love is…", "when I was a kid", "which is why", "what a day"), a form of be or does, another verb
# asked of someone (can I, did you, will it), or "any…" ("any lounges here", "anything good on today")
ASKED_EN = re.compile(
    r"(?i:^(?:(?:so|and|anyway|also|ok|okay|oh|btw|quick\s+q(?:uestion)?)[,:]?\s+)?(?:"
    r"(?:what|whats|what's|which|where|wheres|where's|who|whos|who's|why|how|hows|how's|when|when's)\b"
    r"(?!\s+(?:i|i'm|im|i've|we|we're|my|our|he|she|they|it's|its)\b)"
    r"(?!\s+a\s+(?:day|week|night|mess|relief|pain|joke|nightmare)\b)"
    r"(?!\s+(?:(?:is|was)\s+(?!better|best|cheaper|faster|easier|safer|healthier|closer|more|less|the)|means|meant|made|makes)\b)"
    r"|(?:is|are|isn'?t|aren'?t|does|doesn'?t)\s+(?=\S)"
    r"|(?:do|don'?t|did|didn'?t|can|could|should|would|will|was|were|shall|have|has)"
    r"\s+(?:i|you|u|we|they|he|she|it|there|both|y'?all|my|your|this|that|these|those)\b"
    r"|(?:any|anything|anyone|anybody|anywhere)\s+(?!(?:day|time|way|more|longer)\b)(?=\S)))"
)
# what runs on after an English question is said, not asked: "…who's in for brunch sunday I already
# booked a table", "…any good lunch spots, walking distance only"
SAID_AFTER_ASKED = re.compile(
    r",|(?i:\b(?:i'm|im|i've|ive|we're|we've|i\s+(?:already|just|am|have|had|was|got))\b)"
)
