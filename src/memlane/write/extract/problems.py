"""What says something of the user's broke, went missing or is late, and what says it was put right.

A problem (:data:`PROBLEM_EN`, :data:`PROBLEM_ZH`) is kept as an open complaint, and a resolution
(:data:`RESOLVED_EN`, :data:`RESOLVED_ZH`) settles the open complaint it shares words with
(:func:`memlane.write.episodes.resolved_complaint`): "our heating has been broken for a week" stays
open until "heating's back on, landlord sorted it". The words are those of things failing and being
fixed, in both languages, whatever the thing is: a machine that keeps doing something it should not
(keeps overheating, 老是蓝屏), one that will not start (won't start, 发动不了), a utility that is out
(the wifi is down, 一直断网), a thing lost or stolen (快递丢了, got stolen); and it is fixed, back on,
turned up, found, working again (修好了, 稳定了, 找到了).
"""

from __future__ import annotations

# what a machine, a service or a parcel does when something is wrong
_FAILING_EN = (
    r"crashing|freezing|failing|breaking|disconnecting|logging\s+me\s+out|dropping|overheating|shutting\s+down"
    r"|restarting|rebooting|leaking|buffering|cutting\s+out|glitching|lagging|tripping|beeping"
)
_THINGS_EN = (
    r"wifi|internet|power|heating|heater|electricity|hot\s+water|network|server|site|website|app|boiler|"
    r"broadband|signal|aircon|ac|fridge|freezer|oven|dishwasher|washer|dryer|car|phone|laptop|printer"
)
RESOLVED_EN = (
    r"(?i)\b(?:it'?s|it\s+is|it\s+has\s+been|it'?s\s+been|that'?s|problem|issue|bug|everything'?s?)\s+"
    r"(?:been\s+|now\s+|finally\s+|all\s+)?(?:fixed|resolved|solved|sorted)(?:\s+out)?\b"
    r"|\b(?:works|working)\s+(?:now|again|fine\s+now)\b|\b(?:finally|has|have|it)\s+(?:arrived|came|come)\b"
    r"|\bgot\s+(?:my\s+(?:order|package|parcel|refund|money\s+back))\b"
    r"|\brefund\s+(?:came\s+through|arrived|received)\b|\ball\s+good\s+now\b"
    # whatever broke: "the leak is fixed", "my car got repaired", "whatsapp finally transferred", "the
    # cable trick worked"
    r"|\b(?:is|was|are|were|got|has\s+been|have\s+been)\s+(?:now\s+|finally\s+|all\s+)?"
    r"(?:fixed|repaired|resolved|solved|sorted)(?!\s+(?:price|rate|term|income))\b"
    r"|\bfinally\s+(?:transferred|went\s+through|worked|synced|connected|installed|came\s+through)\b"
    r"|\b(?:trick|fix|workaround)\s+worked\b"
    # someone fixed it: "plumber came and fixed the washer", "landlord sorted it", "got the fan replaced"
    r"|\b(?:fixed|repaired|sorted)\s+(?:it|the|my|our)\b|\bgot\s+(?:the|my|our)\s+[\w\s-]{1,25}?\s+"
    r"(?:replaced|repaired|fixed)\b"
    # what was lost or taken is the user's again: "got the account back yesterday", "got my wallet back"
    r"|\bgot\s+(?:the|my|our)\s+(?:[\w-]+\s+)?(?:account|page|profile|login|access|phone|wallet|purse|keys?"
    r"|card|bike|car|truck|laptop|bag|luggage|suitcase|passport|licen[cs]e|deposit|money|dog|cat|ring|watch)"
    r"\s+back\b(?!\s+(?:to|in|on|at)\b)"
    r"|\b(?:account|page|phone|wallet|card|bike|car)\s+(?:is|was|got|has\s+been)\s+(?:recovered|restored|unlocked)\b"
    # it works again: "heating's back on", "wifi is back up", "the package turned up this morning"
    rf"|\b(?:{_THINGS_EN}|it)(?:'s|’s|\s+is|\s+was)\s+(?:finally\s+)?back\s+(?:on|up|online|to\s+normal)\b"
    r"|\b(?:package|parcel|order|delivery|luggage|suitcase|bag|refund|it)\s+(?:finally\s+)?(?:turned|showed)\s+up\b"
)
PROBLEM_EN = (
    r"(?i)\bstill\s+(?:hasn't|haven't|has\s+not|have\s+not|isn't|is\s+not|not|doesn't|does\s+not"
    r"|can't|won't|no)\b"
    rf"|\bkeeps?\s+(?:on\s+)?(?:{_FAILING_EN})\b"
    r"|\b(?:crash(?:es|ed)?|broken|damaged|defective|faulty|delayed|missing|wrong\s+item)\b"
    r"|\b(?:doesn't|does\s+not|didn't|won't|isn't)\s+work(?:ing)?\b|\bnot\s+working\b|\bstopped\s+working\b"
    r"|\b(?:hasn't|never|didn't)\s+(?:arrived|shown\s+up|come|been\s+delivered)\b"
    r"|\brefund\b|\bcomplain(?:t)?\b"
    r"|\b(?:terrible|awful|horrible|bad|poor)\s+(?:service|support|experience|quality)\b"
    r"|\b(?:too|so|really)\s+slow\b|\bwaiting\s+for\s+(?:weeks|days|ages)\b"
    r"|\b(?:order|package|delivery|parcel|shipment)\b.*\b(?:late|lost)\b"
    # "the washing machine is leaking again", "the car is acting up", "the wifi is down", "won't start"
    r"|\b(?:is|are|'s|has\s+been|have\s+been|'s\s+been)\s+(?:\w+\s+)?(?:leaking|overheating)\b"
    rf"|\b(?:{_THINGS_EN}|machine|it)(?:'s|’s|\s+is|\s+has\s+been|'s\s+been)\s+(?:\w+\s+)?(?:acting\s+up"
    r"|playing\s+up|making\s+(?:a|weird|strange|funny)\s+noises?)\b"
    rf"|\b(?:{_THINGS_EN})(?:'s|’s|\s+is|\s+has\s+been|'s\s+been)\s+(?:still\s+)?(?:down|out|off)\b"
    r"|\b(?:won't|wouldn't|doesn't|didn't|can't)\s+(?:start|turn\s+on|charge|boot(?:\s+up)?|load|connect|drain"
    r"|flush)\b"
    r"|\b(?:got|was|were|been)\s+(?:stolen|hacked|towed|scammed)\b"
)

RESOLVED_ZH = (
    r"(?:问题|故障|bug|毛病)?(?:已经|终于|总算|已)(?:解决|修好|处理好?|搞定|收到|到货|到账|退款|退回|恢复|好)了?"
    r"|(?<![没未不])(?:解决了|修好了|换好了|弄好了|搞定了|处理好了|恢复正常了?|到货了|退款到账了?|放行了|清关了|批下来了)"
    r"|(?:快递|包裹|订单|东西|货)(?:已经|终于|总算)?(?:收到|到)了"
    # it works again: "wifi稳定了", "网通了", "电脑重装系统后好了", "快递找到了", "钱退回来了"
    r"|(?<![没未不])(?:又能用|能用|正常|稳定|好用)了$|(?:网|网络|电话|信号)(?:终于|又|总算)?通了|(?:重装|重启|换了|修了|更新)[^，。,]{0,8}?后?就?好了"
    # the warning is gone: "换了个传感器 现在故障灯不亮了", "不报警了" (not "卧室的灯不亮了": a lamp out)
    r"|(?:故障灯|报警灯|警示灯|指示灯)(?:现在|已经|终于|也)?(?:不亮|灭)了|(?<!还)不(?:报警|报错|提示故障)了"
    # replaced with a new one: "热水器换新的了", "换了个新的" (not "我想换新的了")
    r"|(?<!想)(?<!要)(?<!打算)(?<!准备)(?:换(?:了个?|成|上)?新的?了|换了(?:一?个|台)新的)"
    r"|(?:快递|包裹|钱包|手机|钥匙|行李|卡|证件|身份证)(?:已经|终于|总算)?找(?:到|回来)了|(?:钱|款)[^，。,]{0,4}?(?:退|退回来|到账)了"
)
PROBLEM_ZH = (
    r"投诉|太慢|好慢|慢死|还没(?:有)?(?:到|收到|发货|回复|处理|解决|退|修好|送到|到账)"
    r"|一直没(?:到|收到|发货|回复|处理|解决|人)|迟迟|延迟|延误|坏了|破了|漏了|碎了|裂了|摔(?:坏|裂|碎)了?"
    r"|有问题|出问题|出了问题|故障"
    r"|闪退|卡死|卡顿|打不开|用不了|不能用|不好用|没反应|差评|退款|退货|(?<![没未不])被坑|质量(?:太|很|真)?差"
    r"|态度(?:太|很|真)?差|不满意|没人(?:管|理|回)|联系不上|不发货|发错|少发|漏发|丢件"
    # what keeps going wrong ("电脑老是蓝屏", "家里wifi一直断"), will not start, got lost or stolen
    r"|(?:老是|总是|一直|经常|动不动就?|又)(?:断网?|掉线|蓝屏|死机|黑屏|自动重启|重启|漏水|停电|跳闸|报错|没信号)"
    r"|发动不了|启动不了|开不了机|充不进电|连不上|上不了网|打不着火"
    r"|(?:快递|包裹|钱包|手机|钥匙|行李|卡|证件|身份证)(?:又|被人?)?(?:丢了|找不到了|偷了)(?![^，。,]*(?:啥|什么|吗|怎么|哪))"
    r"|被盗刷|被偷了"
    # held up on its way: "有一批货在海关被查验", "已经卡了三天了", "货被扣在港口"
    r"|被(?:海关)?(?:查验|扣留|扣押|扣下|扣在|拦下)|卡(?:了|在)[^，。,]{0,6}?(?:[\d一二两三四五六七八九十几]+|好几)(?:天|周|个?星期|个?月)"
)
