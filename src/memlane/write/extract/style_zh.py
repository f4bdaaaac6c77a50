"""How the user wants to be answered, in Chinese words: more detail or less, plain words, and an
instruction for every later answer. :mod:`memlane.write.extract.rules_zh` turns each into a style rule
(a slot where the words name one: ``response_style``, ``plain_language``), as
:mod:`memlane.write.extract.style_en` does for English.
"""

from __future__ import annotations

# what answering is called
REPLY = r"(?:回复|回答|答复|回|说|讲|写|答|解释|输出|表达|说话|(?i:reply|answer|respond)\s*)"
DETAILED = (
    rf"{REPLY}.{{0,4}}?(?:详细|具体|仔细|展开|全面)|(?:详细|具体)(?:一?点|一?些)"
    r"|多(?:说|讲|解释)(?:一?点|一?些)|展开(?:讲讲|说说)"
)
PLAIN = (
    r"通俗(?:易懂|一?点|的话)|说人话|大白话|浅显(?:易懂|一?点)|(?:别|不要|少)(?:用|说|讲|带)(?:太多|那么多|这么多)?"
    r"(?:专业)?(?:术语|名词|行话|黑话)"
)
CONCISE = (
    rf"{REPLY}.{{0,4}}?(?:简洁|简短|简单|精简|短|简明|扼要|直接|干脆)"
    # …or not long: "你回我别整太长啊", "回复不要写那么多"
    rf"|{REPLY}.{{0,3}}?(?:别|不要|甭|不用)(?:整|弄|搞|写|说|讲)?(?:太|那么|这么)(?:长|多)"
    # alone, said of the answer: not "冬天的衣服得精简" (what to pack), "团队要精简" (a team)
    r"|^(?:以后|今后|往后|每次)?(?:你)?(?:都|就|也)?(?:要|请|麻烦|尽量)?(?:简洁|简短|精简|简明扼要)(?:一?点|一?些)?(?:吧|哦|啊|哈|就行|就好)?$"
    r"|(?:别|不要)(?:太)?啰嗦|少说废话|(?:说|讲|挑)重点|直接说结论|长话短说|不要长篇大论|简单说(?:说|一下)?$"
    r"|^(?:用)?(?:一两句|一句话|两三句)(?:话)?(?:说清楚|讲清楚|说完|讲完|概括)"
    r"|^(?:给我)?(?:列|列出|分点列|写)(?:个|几个)?要点(?:就行|就好|就可以)"
    r"|直接(?:给|上|贴|说)我?(?:代码|答案|结论|结果)|只要(?:代码|答案|结论)|(?:不用|别|不要)(?:多)?解释(?:那么多|太多|了)?$"
)
# a standing instruction: how every later answer should be given ("以后这种你就直接给清单", "以后一条一条说",
# "讲题的时候先给我答案再讲思路", "你教的时候 一步一步教我"), not what to do now ("以后再说")
STANDING = (
    r"^(?:以后|今后|往后|每次|从现在起|从今往后)(?:这种|这类|遇到这种)?(?:的话)?[，,\s]*(?!我|再说|再看|再聊)"
    r"(?:你|您)?(?:就|都|还是|也)?.{0,12}?(?:说|讲|写|列|给|回|发|(?<!不)用|标|附|加|放|教|排)"
    r"|(?:讲|说|教|回答|解释|回复)[\u4e00-\u9fff]{0,3}的时候[，,\s]*(?:你)?(?:先|都|就|要|请)?(?:给我|跟我|帮我|教我|一步一步|一条一条|分步"
    r"|多(?:给|举|放|写|加|配)|附上|加上|带上|标(?:上|明|出)|给出)"
)
