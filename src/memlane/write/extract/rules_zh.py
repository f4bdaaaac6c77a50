"""Chinese extraction rules, tried in order on one clause; the first that accepts it decides.

Order matters where phrasings overlap: contact and style before constraints (周末别给我打电话 is a
contact rule, not a generic 别), family before likes (我爱人 is a spouse), dislikes before likes
(不喜欢 holds 喜欢), plans and events before the catch-all first-person fact.
"""

from __future__ import annotations

import re

from memlane.domain import Category as C
from memlane.domain import EventStatus
from memlane.text.names_zh import reads_as_name
from memlane.text.timeparse import number

from . import events_zh
from .channels import CHANNEL_WORD, contact
from .dated import moved_plan, routine, timed, unless_a_habit
from .family_zh import MARITAL, MARITAL_SAID, MINE, PARTED, PETS, REL, family
from .holds import DEFERRED, LASTING, STATE_NOW
from .lexicon import JOBS_ZH, MOOD_ZH, STOPPED_ZH, THING_SPEC_ZH
from .money import budget_draft
from .present_zh import AWAY, HABIT, NOW, habit
from .problems import PROBLEM_ZH as _PROBLEM
from .problems import RESOLVED_ZH as _RESOLVED
from .rule import Build, Context, Draft, favorite, fixed, liking, rule, slot_value, this_while, zh_objects
from .style_zh import CONCISE, DETAILED, PLAIN, REPLY, STANDING
from .work_zh import GREW_UP, SUBJECTS, WORKS_AT, employer, job, place, teacher, work_place

P = EventStatus.PLANNED

_ME = "(?:我|本人)"
_ADV = (
    r"(?:最近|现在|目前|平时|平常|一般|通常|一直|也|都|还|就|真的|真|其实|特别|非常|很|超级|超|挺|"
    r"比较|蛮|最|更|还挺|向来|从来|从小|本来|总是|经常|常常|更加|尤其|十分|相当|太|好)*"
)
_V = r"(?P<verb>喝|吃|用|玩|看|听|穿|逛|读|打|追|戴|开)?"
_CUT = r"[^，。,]"  # anything up to the end of the clause
_AT = r"(?<![现正实存所])在"  # 在 as "at", not the end of 现在 ("现在一般骑车上班")
# fmt: off
_LANGUAGES = {"英文": "en", "英语": "en", "中文": "zh", "汉语": "zh", "普通话": "zh", "简体中文": "zh",
              "日语": "ja", "日文": "ja", "粤语": "yue", "繁体": "zh-Hant", "繁体中文": "zh-Hant",
              "韩语": "ko"}
# fmt: on
_LANG = "|".join(sorted(_LANGUAGES, key=len, reverse=True))
_REQUEST = re.compile(r"(?:想|要)?(?:问|咨询|了解)一?下|想知道|请问|帮我|麻烦你?|能不能|可不可以|可以帮")
_CN = r"[一二两三四五六七八九十]{1,3}"
_JOBS = "|".join(JOBS_ZH)


def _called(m: re.Match[str], ctx: Context) -> Draft | None:
    """叫我 X: what the user is called, unless X is what someone calls them to do ("妈妈叫我吃饭",
    "老板叫我了": a verb or a particle where the name would start)."""
    at = 0
    for word, flag in ctx.words:
        if at == m.start("v"):
            if flag[:1] in ("v", "u", "y", "p", "d", "f"):
                return None
            break
        at += len(word)
    return slot_value("nickname", entity=True)(m, ctx)


def _birthday(m: re.Match[str], ctx: Context) -> Draft | None:
    month, day = number(m.group("m")), number(m.group("d"))
    if month is None or day is None or not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return Draft(slot="birthday", value=f"{month:02d}-{day:02d}")


def _self_name(m: re.Match[str], ctx: Context) -> Draft | None:
    name = m.group("v")
    named = reads_as_name(name) and any(flag.startswith("nr") and word == name for word, flag in ctx.words)
    return Draft(slot="name", value=name, entities=[name]) if named else None


def _condition(m: re.Match[str], ctx: Context) -> Draft | None:
    mention = ctx.time()
    return Draft(event_time=mention.at if mention else None, session_only=LASTING.search(ctx.text) is None)


def _budget(m: re.Match[str], ctx: Context) -> Draft | None:
    return budget_draft(ctx, "元")


_STATIVE = frozenset(
    [
        "是",
        "有",
        "觉得",
        "感觉",
        "知道",
        "明白",
        "懂",
        "好",
        "行",
        "可以",
        "要",
        "想",
        "会",
        "能",
        "算",
        "叫",
        "说",
        "没",
        "不",
    ]
)


def _did(m: re.Match[str], ctx: Context) -> Draft | None:
    """Something done (了 / 过 after an action verb), even without a time."""
    if not any(flag.startswith("v") and word not in _STATIVE for word, flag in ctx.words):
        return None
    return timed(EventStatus.DONE, -1)(m, ctx)


def _fact_about(slot: str) -> Build:
    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        what = next((v for k, v in m.groupdict().items() if k.startswith("obj") and v), "")
        objects = zh_objects(what, ctx)
        if not objects:
            return None
        return Draft(slot=slot, value=objects[0], objects=objects)

    return build


def _pet(m: re.Match[str], ctx: Context) -> Draft | None:
    name = m.group("name")
    return Draft(slot=f"pet:{PETS[m.group('pet')]}", value=name, entities=[name] if name else [])


def _first_person(m: re.Match[str], ctx: Context) -> Draft | None:
    if _REQUEST.search(ctx.text) or len(ctx.text) < 3:
        return None
    return Draft(polarity=-1 if re.match(rf"{_ME}{_ADV}(?:不|没)", ctx.text) else 1)


def _skill(m: re.Match[str], ctx: Context) -> Draft | None:
    return Draft(objects=zh_objects(m.group("obj"), ctx))


def _interest(m: re.Match[str], ctx: Context) -> Draft | None:
    draft = liking(1)(m, ctx)
    if draft is not None:
        draft.objects = [o for o in (re.sub(r"^(?:我|对)+", "", o) for o in draft.objects) if o]
    return draft if draft and draft.objects else None


# Patterns too long for one line are named here, so that the table below reads as a table.
# what a name is not: how it is thought of ("我的小名很土", "大名不好听")
_NOT_A_NAME = r"[很太挺真好不没也都还就是在有挺蛮]|可"
# what someone calls the user to do, not what they call the user ("叫我回家", "叫我过去")
_TO_DO = r"(?!回|去|来|过|起|下楼|上楼|出|别|不|快|赶紧|帮|一起)"
_NAME_IS = rf"(?:{_ME}的?名字(?:叫|是)|我叫(?!了|外卖|车|人|你|他|她)|我名叫|我的?全名(?:叫|是))"
_LIVE = (
    r"住在|(?<!老)家住在?|(?<!老)家在|定居在?|常住在?|生活在|现居"  # (老家在 is where the user is from)
    r"|住(?!院|宿|酒店|店|了|过|校|一|两|几|的|着|得|不|手|口)"
)
_PET = "|".join(sorted(PETS, key=len, reverse=True))
# a remark on the weather, the whole clause: small talk (a liking for rain is a preference, matched first)
_WEATHER = (
    # …wherever it is ("老家那边下雪了", "北京今天下雪了", "我们这边降温了")
    r"^(?:[\u4e00-\u9fff]{1,4}?(?:那边|这边|那儿|这儿|那里|这里)|[\u4e00-\u9fff]{2,3}(?=今天|今儿|又|也|终于|一直))?"
    r"(?:今天|今儿|外面|这边|又|也|终于|刚刚?|一直)?在?(?:下雨|下雪|下冰雹|刮大?风|降温|升温|出太阳|阴天|晴天"
    r"|好热|好冷|热死|冷死|闷热)(?:了|啦|呢|呀|哈)*$"
)
_CONDITION = (
    rf"(?:要|需要|得|必须|一定要|最好|希望)(?:是)?(?P<v>{_CUT}{{1,10}}?)的$"
    r"|(?:需要|必须|得|要|最好|希望).{0,8}?(?:送到|到货|发货|送达|寄到|到手|交付)"
    r"|包邮|开发票|要发票|货到付款|七天无理由|(?:颜色|尺码|尺寸|型号|配置|内存|容量)(?:要|是|选)"
    r"|(?:不超过|以内|以下|小于|低于|轻于|大于|至少)\s*\d+(?:\.\d+)?\s*"
    r"(?:kg|公斤|斤|克|g|寸|英寸|cm|厘米|毫米|mm|GB|G|TB|T|W|mAh)"
    # the task's deadline: "这周五前必须交初稿", "这周五之前我得把菜买好", "十一点半前得拍完",
    # "deadline是周三"
    r"|(?:之前|以前|(?<=[点号日天周一二三四五六末午晚半])前)[，,\s]*我?(?:得|必须|要|需要|一定要|务必)?把?.{0,8}?"
    r"(?:交|[\u4e00-\u9fff]完|搞定|完成|提交|发给|发出|寄给|寄出|寄到|送到|买好|准备好|定下来|上线|交付)"
    r"|(?i:deadline)(?:是|在|就是|定在)"
    # what will do for the task at hand: "开车半小时以内", "本地的就行", "二等座就行" (not what someone
    # told the user will do: "大夫让清淡点吃就行")
    r"|(?:以内|之内)[。！!~～啊呀吧]*$"
    r"|(?:^|[\s，,])(?:(?![让叫说])[^\s，,])*?(?<![我你他她])(?:就行|就可以)[。！!~～啊呀吧了]*$"
)
_INTENT = (
    r"打算|计划|准备|(?<!不)想要?(?!想|问|知道|了解|说|请教|咨询|起|到|法)"
    # 要 of its own, not of a word it ends (重要, 主要, 需要, 只要: "画画是我生活里很重要的一部分")
    r"|(?<![不想还要重主需只必紧摘首次])要(?=[\u4e00-\u9fff]{2})(?!是|不|求|要)|将要|将会|决定|考虑|争取|预计|安排了?|约了"
)
_MUCH = r"(?:很|特别|比较|非常|挺|超|还挺|蛮|十分|更)?"

# fmt: off
RULES = (
    # who the user is
    rule(C.NAME, rf"{_NAME_IS}(?P<v>{_CUT}{{1,12}}?)(?:就行|就好|吧|啊|哦|呀|哈)?$",
         slot_value("name", entity=True)),
    rule(C.NAME, rf"(?:你?可以|就|直接)?叫我{_TO_DO}(?P<v>{_CUT}{{1,12}}?)"
                 r"(?:就行了?|就好了?|就可以了?|吧|好了|啦)?$",
         _called, "any"),
    rule(C.NAME, rf"我的?(?:昵称|外号|小名|绰号|网名)(?:是|叫)?(?!{_NOT_A_NAME})(?P<v>{_CUT}{{1,12}})$",
         slot_value("nickname", entity=True)),
    rule(C.NAME, rf"我的?(?:大名|本名|真名)(?:是|叫)?(?!{_NOT_A_NAME})(?P<v>{_CUT}{{1,12}})$",
         slot_value("name", entity=True)),
    rule(C.NAME, r"我的?英文名字?(?:是|叫)(?P<v>[A-Za-z][A-Za-z .'-]{0,30})$",
         slot_value("english_name", entity=True)),
    rule(C.NAME, r"^我姓(?P<v>[\u4e00-\u9fff]{1,2})$", slot_value("surname")),
    rule(C.NAME, r"^我是(?P<v>[\u4e00-\u9fff]{2,3})$", _self_name),
    rule(C.NAME, r"^我是\s?(?P<v>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)$", slot_value("name", entity=True)),
    # how to reach and answer the user
    rule(C.CONTACT, CHANNEL_WORD.pattern, contact, "ask"),
    rule(C.STYLE, rf"用(?P<v>{_LANG})|(?<![会能在学])(?:{REPLY})(?P<v2>{_LANG})",
         slot_value("language", values=_LANGUAGES), "ask"),
    rule(C.STYLE, DETAILED, fixed("response_style", "detailed"), "ask"),
    rule(C.STYLE, CONCISE, fixed("response_style", "concise"), "ask"),
    rule(C.STYLE, PLAIN, fixed("plain_language", True), "ask"),
    # the shape of an answer: a style with no slot (用要点回答, 以后用表格给我, 分点列出来)
    rule(
        C.STYLE,
        r"(?:用|以|按)(?:要点|列表|表格|分点|条目|编号|(?i:markdown))(?:的形式|的方式|的格式)?(?:来)?"
        r"(?:回答|回复|列出来?|给我|展示|说|写)|(?:回答|回复)(?:都|请)?(?:用|以)(?:要点|列表|表格|分点)"
        r"|分点(?:回答|列出|说|写)",
        scope="ask",
    ),
    rule(C.STYLE, STANDING, scope="ask"),
    rule(C.STYLE, r"(?:语气|说话|回复|回答)?(?:正式|礼貌|客气|专业)一?点", fixed("tone", "formal"), "any"),
    rule(C.STYLE, r"(?:语气|说话|回复|回答)?(?:随意|轻松|口语化|幽默|活泼)一?点"
         r"|(?:语气|说话|回复|回答|聊天)随便一?点|(?:不用|不必|别)(?:那么|太)(?:正式|拘谨)|(?:不用|不必)(?:那么)?拘谨",
         fixed("tone", "casual"), "any"),
    # the current task
    rule(C.BUDGET, r"预算|价位|价格|价钱|花费|费用|不超过|以内|以下|左右|以上|最多|顶多", _budget, "ask"),
    # family, place, work
    rule(C.FAMILY, rf"我家?{_ADV}(?:已经)?有了?(?P<n>[一两二三四五六1-9])?(?:个|位|名)?(?P<rel>{REL})"
                   rf"(?:(?:叫|名叫)(?P<name>{_CUT}{{1,8}}))?", family),
    rule(C.FAMILY, r"我是(?P<n>[一两二三四五六1-9])个(?P<rel>孩子)的(?:妈妈|爸爸|妈|爸|母亲|父亲)", family),
    rule(C.FAMILY, rf"{MINE}(?P<rel>{REL})(?:的名字)?(?:叫|名叫|名字叫|名字是)"
                   rf"(?P<name>{_CUT}{{1,8}})", family),
    rule(C.FAMILY, rf"{MINE}(?P<rel>{REL})(?:今年|已经|才|刚)?(?P<age>\d{{1,2}}|{_CN})周?岁(?P<half>半)?",
         family),
    rule(C.FAMILY, rf"{MINE}(?P<rel>{REL})"
                   rf"(?P<detail>(?:是|在|住|上|读|喜欢|不|也|很|刚|特别|最近|今年|明年|现在|已经|说(?=[她他])|能|会){_CUT}+)",
         family),
    rule(C.FAMILY, MARITAL_SAID, slot_value("marital_status", values=MARITAL)),
    rule(C.FAMILY, PARTED, slot_value("marital_status", values=MARITAL)),
    rule(C.JOB, rf"{_ADV}{_AT}(?P<emp>{_CUT}{{1,15}}?)(?:做|当|担任|任|干(?![等着耗坐急瞪]))"
                rf"(?P<job>{_CUT}{{1,15}})", job),
    rule(C.JOB, rf"(?:跳槽到了?|跳槽去了?|入职了?|加入了?)(?P<v>{_CUT}{{2,15}}?)(?:公司|集团)?"
                r"(?:工作|上班|任职|了|啦)*$"
                rf"|(?:去了|进了|换到了?|转到了?|跳到了?)(?P<v2>{_CUT}{{2,15}}?)(?:公司|集团)?(?:工作|上班|任职)了?$",
         employer),
    rule(C.LOCATION, rf"{_ADV}(?:{_LIVE})(?P<v>{_CUT}{{1,20}})", place("home_city")),
    rule(C.LOCATION, rf"{_ADV}{_AT}(?P<v>[^，。,在]{{1,20}}?)(?:工作|上班|打工|任职|实习|就职|办公)",
         work_place),
    # 我是湖南人, 我是东北的, and in an introduction "…，合肥的，…"
    # (not what the user wants: "要天河区的" asks for a vet in 天河区)
    rule(C.LOCATION, r"^(?:我是|我)?(?P<v>(?:(?!是|在|有|做|老家|要|想|去|找|选|买|订)[\u4e00-\u9fff]){2,6}?)"
                     r"(?:人|的)"
                     r"(?:哈|啊|呀|哦|呢)?$",
         place("hometown")),
    rule(C.LOCATION, rf"(?:来自|老家(?:是|在)?|出生在|出生于|生在|籍贯是?)(?P<v>{_CUT}{{1,20}})",
         place("hometown")),
    rule(C.LOCATION, GREW_UP, place("hometown")),
    rule(C.LOCATION, WORKS_AT, work_place),
    rule(C.LOCATION, rf"(?:搬到了?|搬去了?|搬回了?|搬家到|移居到?)(?P<v>{_CUT}{{1,20}})",
         place("home_city", move=True)),
    # where the user is based, said the short way: 人在深圳, base上海, 坐标杭州
    rule(C.LOCATION, rf"^我?(?:人|常驻|(?i:base)|坐标)在?\s*(?!.*{AWAY})(?P<v>[\u4e00-\u9fff]{{2,8}})$",
         place("home_city", True)),
    rule(C.JOB, rf"(?:^|我{_ADV})是(?:一名|一个|一位|个|名|位)?"
                rf"(?P<job>{_CUT}{{0,10}}?(?:{_JOBS}))[啊哦呢哈]?$", job),
    rule(C.JOB, rf"(?:职业|工作|岗位|职位)是(?P<job>{_CUT}{{1,15}})", job),
    # teaching a subject is a teacher's job: 我在西安一所高中教语文 -> 语文老师
    rule(C.JOB, rf"^(?:我|本人){_ADV}(?:是)?(?:在(?P<emp>{_CUT}{{1,15}}?))?教(?P<subj>{SUBJECTS})(?:的)?$",
         teacher),
    rule(C.JOB, rf"(?:从事|做|干)(?P<job>{_CUT}{{1,10}}?)(?:工作|行业|这行|相关工作)"
                rf"|^我?{_ADV}是?(?:做|干)(?P<job2>{_CUT}{{1,8}})的$", job),
    # a trade named by what the user does for a living: 我是开出租的, 我是跑滴滴的, 我在钢厂开天车的
    rule(C.JOB, rf"^我?{_ADV}(?:是|在(?P<emp>[^，。,\s]{{1,12}}?))"
                r"(?P<job>(?:开|跑|送|卖|修|种|养|摆|拉|扛)(?!玩笑)[\u4e00-\u9fff]{1,5}?)"
                r"(?<![来去过])的(?=$|[ \u3000])", job),
    rule(C.JOB, r"我(?:已经)?(?P<v>退休|失业|待业)了?", slot_value("job")),
    # problems
    rule(C.CONTEXT, STATE_NOW.pattern, this_while, "any"),  # 信号只有一格, 感冒了
    rule(C.CONTEXT, DEFERRED.pattern, fixed(None, session_only=True), "any"),  # 我再想想, put off
    rule(C.COMPLAINT, _RESOLVED, timed(EventStatus.RESOLVED, None), "any"),
    rule(C.COMPLAINT, _PROBLEM, timed(EventStatus.UNRESOLVED, None), "ask"),
    # what the user does regularly, and lasting facts with a slot
    rule(C.ROUTINE, r".", routine),
    rule(C.FACT, rf"对(?P<obj>{_CUT}{{1,10}}?)过敏|(?P<obj2>[^，。,我对]{{1,10}}?)过敏",
         _fact_about("allergy")),
    rule(C.FACT, rf"(?:有|养了?)[一两二三1-9]?[只条个头匹]?(?P<pet>{_PET})"
                 rf"(?:(?:叫|名叫|名字叫)(?P<name>{_CUT}{{1,8}}))?", _pet),
    rule(C.FACT, rf"(?:最近|正在|在|开始|一直在)学(?:习)?(?!校|生|院|历|期)(?P<obj>{_CUT}{{1,20}})",
         _fact_about("learning")),
    # a strength or a weakness said of the thing first: "英语是我最弱的", "数学是我最拿手的"
    rule(C.FACT, rf"^(?!这|那|他|她|它)(?P<obj>{_CUT}{{1,10}}?)(?:是|算是)我(?:的)?最"
                 r"(?:弱|差|不擅长|不行|头疼|擅长|拿手|强)的(?:科目|一科|一门|一项|技能|地方)?$", _skill),
    rule(C.FACT, r"我是(?:个|一个)?(?:素食者|素食主义者|吃素的|纯素食者)|我吃素"
                 r"|(?<![不再没])(?:开始|改|改成|转为|决定)吃(?:全)?素",
         fixed("diet", "vegetarian")),
    rule(C.FACT, r"(?:开始|又|重新|现在)?(?:吃肉|吃荤)了|不(?:再)?吃素了|不再吃素|(?:开|破)荤了",
         fixed("diet", "omnivore")),
    rule(C.FACT, r"(?:开始|又|重新)(?:吃鱼|吃海鲜)了", fixed("diet", "pescatarian")),
    rule(C.FACT, rf"生日(?:是|在|为)?\s*(?P<m>\d{{1,2}}|{_CN})\s*月\s*(?P<d>\d{{1,2}}|{_CN})\s*[日号]?",
         _birthday),
    # likes and dislikes; a favourite first, whatever its name says (最喜欢的电影是霸王别姬)
    rule(C.PREFERENCE, rf"最(?:喜欢|爱)(?P<kind>{_CUT}{{0,4}}?)的(?P<kind2>{_CUT}{{0,5}}?)"
                       rf"(?:是|就是|要数|当属)(?P<obj>{_CUT}+)", favorite),
    # what the user cannot live without: 冷面是我的命, 榴莲简直是我的命
    rule(C.PREFERENCE, rf"^(?P<obj>{_CUT}{{1,10}}?)(?:简直|真的|就)?是我的(?:命|命根子|心头好|本命)",
         liking(1)),
    rule(C.DISLIKE, rf"对(?P<obj>{_CUT}+?)[不没](?:太|怎么|是很|大)?(?:感兴趣|感冒|有?兴趣)", liking(-1)),
    rule(C.DISLIKE, rf"(?:不|没那么|不是很|不太|不怎么|不大)(?:喜欢|爱)(?!人){_V}(?P<obj>{_CUT}*)",
         liking(-1)),
    rule(C.DISLIKE, rf"不想(?P<verb>吃|喝)(?P<obj>{_CUT}+)", liking(-1)),
    rule(C.DISLIKE, rf"(?:讨厌|厌恶|受不了|反感|烦透了|接受不了|忍受不了|吃不惯|喝不惯|用不惯|看不惯){_V}"
                    rf"(?P<obj>{_CUT}*)", liking(-1)),
    rule(C.DISLIKE, rf"(?P<obj>{_CUT}{{1,12}}?)我?(?:真的|实在|完全|有点)?"
                    r"(?:受不了|接受不了|吃不了|吃不惯|不感冒)", liking(-1)),
    rule(C.DISLIKE, r"(?:不再|从不|从来不|基本不|已经不|再也不|一点都不|绝不|不能|没法|不)"
                    rf"(?P<verb>喝|吃|碰|抽)(?P<obj>{_CUT}+)", liking(-1, need_objects=True)),
    rule(C.DISLIKE, r"戒(?!指|备|严)掉?了?(?P<obj>[^，。,了]{1,8})了?", liking(-1)),
    rule(C.PLAN, events_zh.CALLED_OFF, timed(EventStatus.CANCELLED, None)),  # before what was stopped:
    # what the user has stopped: 咖啡不喝了, 恐怖片看腻了, 没空爬山了
    *(rule(C.DISLIKE, stopped.pattern, liking(-1, need_objects=True)) for stopped in STOPPED_ZH),
    rule(C.CONSTRAINT, r"(?:千万|务必|请|一定|绝对|以后|永远|再也)?(?:不要|(?<![特区分告级性类识辨个派鉴])别"
                       r"(?!人|的|处|墅|[说问提闹催]了|烦我|管我)|不准|不许|禁止|不接受|勿|切勿|拒绝)"
                       rf"再?(?:给我|帮我|跟我|对我|向我|替我)?(?P<obj>{_CUT}+)", liking(-1), "any"),
    rule(C.PREFERENCE, r"(?:开始|改|换成了?|改成了?|换了?|转而|改为)"
                       rf"(?P<verb>喝|吃|用|玩|听|看|穿)(?P<obj>{_CUT}+)", liking(1)),
    # …and how the user now gets somewhere, sends or buys: "现在改走邮政", "改坐地铁上班", "改去菜市场买"
    rule(C.PREFERENCE, r"(?:改|换成了?|改成了?|转而|改为)"
                       rf"(?P<verb>走|坐|搭|骑|开|去|买|点|订|学|练|跑)(?P<obj>{_CUT}+)", liking(1)),
    # a whole switch to what the user now uses: "全面转达芬奇", "彻底换成安卓"
    rule(C.PREFERENCE, rf"(?:全面|彻底|全部|正式)(?:转|换|改)(?:用|到|成|向|投)?(?P<obj>{_CUT}+)", liking(1)),
    rule(C.PREFERENCE, rf"(?:现在|已经|终于|也)?(?:能|可以|敢|会)(?P<verb>吃|喝)(?P<obj>{_CUT}+?)了",
         liking(1)),
    # the thing first: "香菜现在也能吃了"
    rule(C.PREFERENCE, rf"(?:现在|已经|最近)?(?P<obj>{_CUT}{{1,8}}?)(?:现在|已经|终于|慢慢)?(?:也|都)?"
                       rf"(?:能|可以|敢)(?P<verb>吃|喝)了", liking(1)),
    rule(C.PREFERENCE, r"[更最]?(?:喜欢|偏好|偏爱|钟爱|热爱|爱上了?|迷上了?|喜爱|中意|倾向于?|习惯"
                       r"|看重|在意|在乎|重视|注重|讲究)"
                       rf"[在去]?{_V}(?P<obj>{_CUT}+)", liking(1)),
    rule(C.PREFERENCE, r"(?<![可恋亲热关宠溺疼心])爱(?!人|情|心|好|护|国|惜|面子|干净)"
                       rf"{_V}(?P<obj>{_CUT}+)", liking(1)),
    rule(C.PREFERENCE, rf"(?:爱好|兴趣|兴趣爱好)(?:是|有|包括)(?P<obj>{_CUT}+)", liking(1)),
    rule(C.PREFERENCE, rf"关注了?(?P<obj>{_CUT}+)", liking(1)),
    rule(C.PREFERENCE, rf"对(?P<obj>{_CUT}+?){_MUCH}(?:感兴趣|有兴趣)", _interest),
    rule(C.PREFERENCE, rf"感兴趣(?:的是)?(?P<obj>{_CUT}+)|(?P<obj2>{_CUT}{{1,20}}?){_MUCH}感兴趣", _interest),
    rule(C.PREFERENCE, r"(?:常常?|经常|总是|一般|通常|平时|天天|老是)"
                       rf"(?P<verb>喝|吃|用|玩|看|听|穿|逛)(?P<obj>{_CUT}+)", liking(1)),
    # a habit said with what it is for first: "去公司我坐轻轨", "跑步我戴佳明的表", "衣服我只在网上买"
    rule(C.PREFERENCE, HABIT, habit),
    rule(C.PREFERENCE, rf"(?P<obj>{_CUT}{{1,12}}?)是我的?最爱|是(?:个|一个)?(?P<obj2>{_CUT}{{1,8}}?)"
                       r"(?:迷|粉|粉丝|控|爱好者|发烧友)$", liking(1)),
    # the moment, the task, plans and events
    rule(C.MOOD, MOOD_ZH),
    rule(C.SMALLTALK, _WEATHER),
    rule(C.CONDITION, _CONDITION, _condition, "ask"),
    rule(C.PLAN, events_zh.MOVED, moved_plan),
    rule(C.PLAN, _INTENT, timed(P, 1)),
    rule(C.PLAN, r".", unless_a_habit(timed(P, 1, require_time=True))),
    rule(C.EVENT, r".", unless_a_habit(timed(EventStatus.DONE, -1, require_time=True))),
    # what a check found, settling a guess
    rule(C.EVENT, events_zh.FOUND_OUT, timed(EventStatus.DONE, -1), "any"),
    # where the user is this moment, said first, whatever is done after it ("我现在在延吉公寓躺着呢 腿都不是
    # 自己的了")
    rule(C.CONTEXT, r"^我?(?:现在|这会儿|此刻)(?:正)?在[^，。,\s]{1,14}?呢(?=$|[\s，,。])",
         fixed(None, session_only=True)),
    # done: 了 or 啦 (定啦), 过, or a choice made (最后选的蕾丝款)
    # (过 as a verb of its own: 过关, 过马路, 过生日)
    rule(C.EVENT, r"了|啦|过(?!敏|来|去|年|节|得|分|关|海关|安检|马路|桥|生日|周末|日子|夜)"
                  r"|(?:选|定|挑|买|订)的", _did),
    rule(C.CONTEXT, NOW, fixed(None, session_only=True)),
    # what the user's own things are, the "我的" left out: "电脑是16G内存的", "内存32G", "显卡是4070"
    rule(C.FACT, THING_SPEC_ZH.pattern),
    # …and what they pay or owe, by the month or the year: "房租一个月三千五", "月供六千多",
    # "房贷还有十年才还完"
    rule(C.FACT, r"^(?:家里的?)?(?:房租|房贷|月供|车贷|物业费?|学费|托费|保险费?)"
                 r"(?=.{0,8}?[\d一二两三四五六七八九十百千万])"),
    # anything else the user says about themselves
    # …first, or after what it is about ("家里网费电费都是我老婆交", "大庆是我老家", "狗是我早晚溜"; not
    # someone else's clause, "这是我最好的朋友", or someone doing something with or for the user: 陪我聊会儿,
    # 还特地给我寄特产, 比我男朋友还懂我)
    rule(C.FACT, rf"^{_ME}(?!们)|^(?![你您他她它这那])[^，,。！？]{{1,10}}?(?<![陪给帮替教让叫请跟比懂])"
                 r"我(?!们)", _first_person, "fallback"),
)
# fmt: on
