"""Where the user lives and works, said in Chinese: the builders of the place, job and employer slots
(:mod:`.rules_zh` holds the rules that use them)."""

from __future__ import annotations

import re

import jieba.posseg

from memlane.domain import Category as C

from .denials import FOR_NOW
from .rule import Build, Context, Draft, up_to_a_space

_PLACE_SUFFIX = ("市", "省", "区", "县", "州", "镇", "村", "岛")


# where the user grew up: 从小在大连长大, 打小在延吉长大 (their hometown)
GREW_UP = r"(?:从小|打小|自小)(?:就)?在(?P<v>[^，。,]{1,12}?)长大"
# where the user's work is, its subject the workplace: 公司在光谷, 工作地点在广州天河, office在厦门
WORKS_AT = r"^我?的?(?:公司|单位|工作地点|办公地点|上班的地方|(?i:office))(?:也|就)?在(?P<v>[^，。,]{1,20}?)$"


def is_place(text: str, ctx: Context) -> bool:
    """Whether ``text`` names a place: a place's suffix (市, 省, 岛) or a word jieba tags as one, and
    no piece of a name in the clause (美的的 is the brand 美的, not 美 the country)."""
    if _cuts_a_name(text, ctx):
        return False
    if text.endswith(_PLACE_SUFFIX):
        return True
    # the clause's words, or the phrase's own: 我是湖南人 is cut 我/是/湖南人
    return any(flag == "ns" and word in text for word, flag in ctx.words) or names_place(text)


def _cuts_a_name(text: str, ctx: Context) -> bool:
    """Whether ``text`` begins or ends inside a word of the clause that jieba tags as a name of a
    person, a brand or an organisation (湖南 of 湖南人 is a place; 美 of 美的 is not)."""
    at = ctx.text.find(text)
    if at < 0:
        return False
    start, end, n = at, at + len(text), 0
    for word, flag in ctx.words:
        first, n = n, n + len(word)
        inside = first < start < n or first < end < n
        if inside and flag.startswith(("nr", "nz", "nt")):
            return True
    return False


def names_place(text: str) -> bool:
    """Whether ``text`` on its own names a place (厦门, 浦东新区), as :func:`is_place` reads it."""
    return text.endswith(_PLACE_SUFFIX) or any(w.flag == "ns" for w in jieba.posseg.cut(text, HMM=False))


# what stands between 在 and 工作 when it says how or whether, not where ("我在考虑换工作", "我在努力工作")
_NOT_A_WORKPLACE = re.compile(r"^(?:考虑|打算|准备|想|找|换|犹豫|纠结|努力|认真|拼命|好好|继续|专心|开始|忙)")


# what follows a city's name when the rest describes a workplace rather than names one ("成都一家游戏公司")
_DESCRIBED = re.compile(r"^的?(?:一家|一个|一所|一间|一座|某家?|某个|家)")


def _leading_place(where: str, ctx: Context) -> str | None:
    """The city a workplace is said in, when the words start with it and go on to describe the
    workplace ("成都一家游戏公司" -> 成都, "上海的某外企" -> 上海); None otherwise."""
    for word, flag in ctx.words:
        if flag == "ns" and where.startswith(word) and len(where) > len(word):
            rest = where[len(word) :]
            return word if _DESCRIBED.match(rest) else None
    return None


# said of a place the user does not live or work in: "我不住上海", "我不在杭州工作", "老家不是湖南的"
_NOT_BEFORE = re.compile(r"(?:不|没|没有|并不|并没有?|从不|从没有?|从来(?:不|没有?)|不再)(?:是|再|曾经?)?$")
_NOT_WITHIN = ("不是", "不在", "没有", "没在", "并非", "并不是")


def negated(m: re.Match[str]) -> bool:
    """Whether the place ``m`` found (group ``v``) is one the clause says the user is not of."""
    return bool(_NOT_BEFORE.search(m.string[: m.start()])) or m.group("v").lstrip().startswith(_NOT_WITHIN)


def work_place(m: re.Match[str], ctx: Context) -> Draft | None:
    """我在X工作: X a city (work_city), home (remote) or an employer."""
    where = m.group("v").strip()
    if _NOT_A_WORKPLACE.match(where) or negated(m):
        return None
    if where in ("家", "家里"):
        return Draft(category=C.FACT, slot="work_mode", value="remote")
    city = _leading_place(where, ctx)
    if city is not None:
        return Draft(slot="work_city", value=city, entities=[where] if city != where else [])
    if is_place(where, ctx):
        return Draft(slot="work_city", value=where)
    return Draft(category=C.JOB, slot="employer", value=where, entities=[where])


# who moves when a clause says 搬到: the user or their household ("我们家搬到郊区了"); a thing that
# moves (笔记都搬到语雀上了) says where it went, not where the user lives
_MOVERS = re.compile(
    r"我|咱|家|^(?:[去今前]年|上个?月|[上这]周|最近|刚刚?|已经|终于|早就|后来|[\d一二三四五六七八九十]+(?:年|月份?)|[^\u4e00-\u9fff])*$"
)


# what trails a place's name: 附近, 的, 一个人住 ("我搬回浦东一个人住了")
_TRAILING = re.compile(r"(?:附近|这边|那边|那里|这里|一带|的|了|啊|呢|哦|吧|一个人住?|自己住?|住)+$")
# where that is only beside someone: 住在一起, 住隔壁, 住楼上
_WITH_SOMEONE = re.compile(r"(?:一起|一块儿?|隔壁|对门|楼上|楼下)$")


def place(slot: str, named: bool = False, move: bool = False) -> Build:
    """A place slot; ``named``: only when the words are a place's name (人在深圳, not 人在外面);
    ``move``: the words say a move (搬到), which names a place or says the user moved."""

    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        where = _TRAILING.sub("", up_to_a_space(m.group("v"))).strip()
        if where and negated(m) and is_place(where, ctx) and not FOR_NOW.search(ctx.text):
            # "我现在不住杭州": a lasting fact, no slot; a slot that holds the place is retired
            # (memlane.write.changes.denied)
            return Draft(category=C.FACT)
        if not where or negated(m) or ((named or slot == "hometown") and not is_place(where, ctx)):
            return None
        if _WITH_SOMEONE.match(where):
            return None  # "我和女朋友住在一起": with whom, not where
        if move and not is_place(where, ctx) and not _MOVERS.search(m.string[: m.start()]):
            return None
        if slot == "home_city" and (ctx.time(1) or re.search(r"打算|准备|计划|要|想", ctx.text)):
            return None  # 下个月搬到北京 is a plan
        past = ctx.time(-1)
        return Draft(slot=slot, value=where, event_time=past.at if past else None)

    return build


# what one does (做核酸, 做PPT, 做饭), not what one is: "我在排队做核酸" is no job
_TASK = re.compile(
    r"^(?:核酸|体检|检查|手术|饭|菜|早饭|午饭|晚饭|作业|功课|题|PPT|ppt|报告|方案|表格|头发|美甲|按摩|家务|运动"
    r"|瑜伽|实验|笔记|蛋糕|面包|计划|攻略|决定|准备|梦)"
)


def job(m: re.Match[str], ctx: Context) -> Draft | None:
    groups = m.groupdict()
    job = re.sub(r"(?:的|了|工作|呢|啊)+$", "", groups.get("job") or groups.get("job2") or "").strip()
    employer = (groups.get("emp") or "").strip()
    if not job or employer in ("家", "家里", "这", "那") or _TASK.match(job):
        return None
    if up_to_a_space(employer) != employer or job.startswith(("了", "过")):
        return None  # "我在钢厂开天车的 干了十二年了": how long, across chat's stop, not a job named 了十二年
    return Draft(slot="job", value=job, entities=[employer] if employer else [])


SUBJECTS = (
    "语文|数学|英语|物理|化学|生物|历史|地理|政治|音乐|美术|体育|科学|信息技术|计算机|编程|钢琴|舞蹈|书法"
    "|日语|法语|德语|韩语|中文|汉语|对外汉语|经济学|法律|医学|会计"
)


def teacher(m: re.Match[str], ctx: Context) -> Draft | None:
    employer = (m.group("emp") or "").strip()
    return Draft(slot="job", value=f"{m.group('subj')}老师", entities=[employer] if employer else [])


_NOT_EMPLOYER = re.compile(r"健身房|俱乐部|群|会员|社团|小组|队|协会|课|班$")


def employer(m: re.Match[str], ctx: Context) -> Draft | None:
    """A change of employer: 跳槽到腾讯了 / 入职字节 (a place is a move, not an employer)."""
    where = (m.group("v") or m.group("v2") or "").strip()
    if not where or where in ("家", "家里", "这", "那", "公司"):
        return None
    if is_place(where, ctx) or _NOT_EMPLOYER.search(where):
        return None
    return Draft(category=C.JOB, slot="employer", value=where, entities=[where])
