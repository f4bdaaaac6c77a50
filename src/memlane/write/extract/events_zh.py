"""What became of a plan or a guess, in Chinese: the patterns of the plan and event rules of
:mod:`memlane.write.extract.rules_zh` (a plan moved to another time, or called off; what a check found),
as :mod:`memlane.write.extract.events_en` holds them for English.
"""

from __future__ import annotations

# a plan moved to another time (改到下周三)
MOVED = (
    r"(?:改到|改期到|改约到|约到|调到|调整到|推迟到|延期到|延后到|顺延到|提前到|挪到|推到|换到)"
    r"(?=.{0,3}?(?:明|后|下|这|本|周|星期|礼拜|\d|[一二三四五六七八九十]))|(?<![没未不])(?:延期|推迟|改期|延后)了"
)
# a plan called off (聚餐取消了)
CALLED_OFF = (
    r"(?<![没未不])(?:取消了|被取消|给取消|黄了|泡汤了|不办了|(?:先|就)?取消(?:吧|掉吧?))"
    # what can no longer happen: 云南去不成了, 聚会办不了了
    r"|[去来办做搞玩跑参]不(?:成|了)了"
    # …or did not happen after all: 演唱会最后没去成, 旅行最后没去
    r"|没(?:去|办|参加|赶上|约|见)成|(?:最后|最终|结果|后来)(?:还是)?没(?:去|参加|办)"
    # the user's own way out of it: 半马退赛了, 那个比赛我退出了, 婚礼不参加了
    r"|(?:退赛|弃赛|退出|不参加)了"
    # an occasion of a day, not gone to after all: 周六的饭局不去了, 明天的会不开了 (咖啡不喝了 is a habit)
    r"|(?:今天|今晚|明天|明晚|后天|这周末?|下周[一二三四五六日天末]?|周[一二三四五六日天末]|星期[一二三四五六日天]|下个?月)"
    r"的[\u4e00-\u9fff]{1,6}?(?:(?:就|也|先)?不(?:去|开|办|搞|聚|吃|约|见|上|参加|考|比|弄)了|没(?:去|参加)(?!过))"
    # a plan named as one, let go: 周末早起那个计划算了, 减肥计划不搞了
    r"|(?:计划|打算|安排)(?:就|也|先)?(?:算了(?!一下|算)|作罢|搁置了|不搞了|不弄了|放弃了)"
)
# what a check found, settling a guess: 原来是毛球症, 查了序列号确实是A7III, 后来才知道是保险丝烧了
FOUND_OUT = (
    r"^(?:原来是|结果(?:是|发现)|后来(?:才)?(?:发现|知道)"
    r"|(?:查|问|看|确认)了[^，,]{0,10}?(?:才知道|发现|确实|原来))"
    # …or what someone who looked at it said it is: 修车师傅说是火花塞的问题, 农技站的人说是缺镁 (not what
    # they said to do: 医生说是要多喝水)
    r"|^[^，,。]{0,8}?(?:医生|兽医|师傅|技术员|农技站|检查|化验|结果|报告|维修的?|修车的?|电工|专家)[^，,。]{0,5}?"
    r"(?:说|显示|确认|查出来)(?:了|的)?(?:是|就是)(?![要让得该])"
    # …or a guess said to be wrong: "我估计错了哈哈 不在二中"
    r"|(?:估计|猜|想|记)错了"
)
