"""Synthetic memories and questions for benchmarks: sentences a real user would leave behind, in
Chinese and English, from templates over vocabularies (preferences, dated events, routines, places,
people, products) rather than random tokens.

Item ``i`` of a stream depends only on the seed and ``i``, so a stream can be extended and cut into
chunks. Embedding 100,000 sentences with the bundled model takes the better part of an hour on two
cores, and every store being compared needs the same vectors; so each chunk of a stream is embedded
once (in batches, through ``embed_passages``) and cached under the user cache directory, keyed by
embedder, generator version, seed and chunk (:func:`embeddings`)::

    >>> [m.text for m in memories(seed=1, start=0, count=2)]  # doctest: +SKIP
    ['我通常周末下午去西湖边跑步', 'Last March I bought a Kindle Paperwhite and it arrived broken']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import platformdirs

from memlane.domain import Category, Kind
from memlane.embed import Embedder, Vector

# bump when templates or vocabularies change: cached embeddings of older streams no longer apply
GENERATOR_VERSION = 1
CHINESE_SHARE = 0.6
EPOCH = datetime(2023, 1, 1, tzinfo=timezone.utc)
_SPAN_DAYS = 900


def _pairs(block: str) -> list[tuple[str, str]]:
    """``"中文|English; ..."`` as (Chinese, English) pairs."""
    out = []
    for entry in block.split(";"):
        zh, en = entry.strip().split("|")
        out.append((zh, en))
    return out


DRINKS = _pairs(
    "美式|americanos; 拿铁|lattes; 冷萃|cold brew; 燕麦拿铁|oat lattes; 乌龙茶|oolong tea; 抹茶|matcha; "
    "普洱|pu-erh tea; 豆浆|soy milk; 柠檬水|lemonade; 热巧克力|hot chocolate; 气泡水|sparkling water; "
    "茉莉花茶|jasmine tea; 红茶|black tea; 椰子水|coconut water; 手冲咖啡|pour-over coffee"
)
FOODS = _pairs(
    "火锅|hotpot; 寿司|sushi; 川菜|Sichuan food; 粤菜|Cantonese food; 拉面|ramen; 沙拉|salads; "
    "饺子|dumplings; 披萨|pizza; 烧烤|barbecue; 牛肉面|beef noodles; 小笼包|soup dumplings; "
    "螺蛳粉|river snail noodles; 咖喱|curry; "
    "煎饼果子|jianbing; 韩式炸鸡|Korean fried chicken; 素食|vegetarian food"
)
DISLIKES = _pairs(
    "香菜|coriander; 辣的东西|spicy food; 海鲜|seafood; 羊肉|lamb; 洋葱|onions; 榴莲|durian; "
    "苦瓜|bitter melon; 太甜的甜点|very sweet desserts; 生鸡蛋|raw eggs; 芹菜|celery"
)
PLACES = _pairs(
    "上海|Shanghai; 杭州|Hangzhou; 北京|Beijing; 深圳|Shenzhen; 成都|Chengdu; 西湖边|West Lake; "
    "外滩|the Bund; 公司楼下的咖啡馆|the cafe downstairs from work; 健身房|the gym; 图书馆|the library; "
    "东京|Tokyo; 大阪|Osaka; 伦敦|London; 新加坡|Singapore; 三亚|Sanya; 苏州|Suzhou; 南京|Nanjing; "
    "迪士尼乐园|Disneyland; 798艺术区|the 798 art district; 奥森公园|Olympic Forest Park"
)
PEOPLE = _pairs(
    "妈妈|my mom; 爸爸|my dad; 同事小王|my colleague Wang; 老板|my boss; 女朋友|my girlfriend; "
    "男朋友|my boyfriend; 大学室友|my college roommate; 儿子|my son; 女儿|my daughter; 姐姐|my sister; "
    "客户陈总|our client Mr Chen; 邻居李阿姨|our neighbour Mrs Li; "
    "健身教练|my personal trainer; 表弟|my cousin"
)
PRODUCTS = _pairs(
    "iPhone 16|an iPhone 16; MacBook Air|a MacBook Air; Kindle|a Kindle Paperwhite; "
    "索尼降噪耳机|Sony noise-cancelling headphones; 小米手环|a Xiaomi band; 戴森吸尘器|a Dyson vacuum; "
    "Switch游戏机|a Nintendo Switch; 机械键盘|a mechanical keyboard; 空气净化器|an air purifier; "
    "电动牙刷|an electric toothbrush; 登山鞋|hiking boots; 咖啡机|an espresso machine; 投影仪|a projector"
)
ACTIVITIES = _pairs(
    "跑步|go running; 游泳|swim; 练瑜伽|do yoga; "
    "爬山|go hiking; 看电影|watch a movie; 打羽毛球|play badminton; "
    "练吉他|practise guitar; 学日语|study Japanese; 骑车|go cycling; 做饭|cook; 逛书店|browse bookshops; "
    "打篮球|play basketball; 写周报|write the weekly report; 冥想|meditate; 遛狗|walk the dog"
)
TIMES = _pairs(
    "每天早上7点|every morning at 7; 每周三晚上|every Wednesday evening; 周末下午|on weekend afternoons; "
    "工作日中午|at lunchtime on weekdays; 每个月初|at the start of every month; 下班以后|after work; "
    "周五晚上|on Friday nights; 每天睡前|every night before bed"
)
OUTCOMES = _pairs(
    "用着很满意|I'm very happy with it; 到货的时候坏了|it arrived broken; "
    "物流太慢了|the delivery was very slow; "
    "后来退货了|I returned it later; 比想象中好用|it's better than I expected; 价格有点贵|it was a bit pricey"
)
CHANNELS = _pairs("邮件|email; 微信|WeChat; 电话|phone calls; 短信|text messages")
TOPICS = _pairs(
    "新项目|the new project; 换工作|changing jobs; 装修|the renovation; 旅行计划|travel plans; "
    "孩子上学|the kids' school; 年终奖|the year-end bonus; 买房|buying a flat; 健身计划|the fitness plan"
)

SINCE = _pairs(
    "最近|lately; 从去年开始|since last year; 从小|since I was a kid; 工作以后|since I started working; "
    "冬天的时候|in winter; 夏天的时候|in summer; 一直|always; "
    "这几个月|these past months; 出差的时候|when travelling; "
    "周末|at weekends; 加班的时候|when working late; 心情好的时候|when I'm in a good mood"
)

# (weight, kind, category, Chinese template, English template); {date} comes from the event time.
# Weights follow how many sentences a template can make, so that few sentences repeat.
_TEMPLATES: list[tuple[int, Kind, Category, str, str]] = [
    (
        2,
        Kind.SEMANTIC,
        Category.PREFERENCE,
        "我{since}喜欢在{place}喝{drink}",
        "{since} I like drinking {drink} at {place}",
    ),
    (
        2,
        Kind.SEMANTIC,
        Category.PREFERENCE,
        "我特别喜欢吃{food}，尤其是和{person}在{place}的时候",
        "I love {food}, especially with {person} in {place}",
    ),
    (
        1,
        Kind.SEMANTIC,
        Category.DISLIKE,
        "我不吃{dislike}，{person}也不吃",
        "I don't eat {dislike}, and neither does {person}",
    ),
    (
        1,
        Kind.SEMANTIC,
        Category.CONTACT,
        "{person}{since}更喜欢用{channel}联系",
        "{since} {person} prefers to be reached by {channel}",
    ),
    (
        4,
        Kind.SEMANTIC,
        Category.ROUTINE,
        "我{time}会和{person}去{place}{activity}",
        "{time} I {activity} at {place} with {person}",
    ),
    (
        4,
        Kind.SEMANTIC,
        Category.FACT,
        "{person}住在{place}，{time}会{activity}",
        "{person} lives in {place} and likes to {activity} {time}",
    ),
    (
        1,
        Kind.SEMANTIC,
        Category.FACT,
        "{person}{since}喜欢喝{drink}",
        "{since} {person} has been into {drink}",
    ),
    (
        4,
        Kind.EPISODIC,
        Category.EVENT,
        "{date}买了{product}，{outcome}",
        "On {date} I bought {product}; {outcome}",
    ),
    (
        4,
        Kind.EPISODIC,
        Category.EVENT,
        "{date}和{person}在{place}{activity}",
        "On {date} I went to {place} to {activity} with {person}",
    ),
    (
        4,
        Kind.EPISODIC,
        Category.EVENT,
        "{date}去{place}出差，和{person}聊了{topic}",
        "On {date} I travelled to {place} for work and talked with {person} about {topic}",
    ),
    (
        3,
        Kind.EPISODIC,
        Category.EVENT,
        "{date}{person}过生日，我们去吃了{food}",
        "On {date} it was {person}'s birthday and we had {food}",
    ),
    (
        3,
        Kind.EPISODIC,
        Category.PLAN,
        "{date}打算和{person}去{place}",
        "On {date} I plan to visit {place} with {person}",
    ),
]
_WEIGHTS = [t[0] for t in _TEMPLATES]

_QUESTIONS: list[tuple[str, str]] = [
    ("我平时喝什么", "what do I usually drink"),
    ("推荐一家{place}的餐厅", "recommend a restaurant in {place}"),
    ("{person}最近怎么样", "how is {person} doing"),
    ("我什么时候{activity}", "when do I {activity}"),
    ("我买过{product}吗", "did I buy {product}"),
    ("我有什么忌口", "is there anything I don't eat"),
    ("怎么联系我比较好", "how should you contact me"),
    ("上次去{place}是什么时候", "when was I last in {place}"),
    ("我和{person}聊过{topic}吗", "did I talk with {person} about {topic}"),
    ("周末有什么安排", "what are my plans for the weekend"),
]

_SLOTS = {
    "drink": DRINKS,
    "food": FOODS,
    "dislike": DISLIKES,
    "place": PLACES,
    "person": PEOPLE,
    "product": PRODUCTS,
    "activity": ACTIVITIES,
    "time": TIMES,
    "outcome": OUTCOMES,
    "channel": CHANNELS,
    "topic": TOPICS,
    "since": SINCE,
}


@dataclass(frozen=True)
class SyntheticMemory:
    """One generated memory: its sentence and the metadata a store needs."""

    text: str
    kind: Kind
    category: Category
    lang: str
    at: datetime  # event time for episodic memories, creation time otherwise


def _fill(template: str, rng: random.Random, side: int, when: datetime) -> str:
    values = {
        name: rng.choice(options)[side] for name, options in _SLOTS.items() if "{" + name + "}" in template
    }
    if "{date}" in template:
        values["date"] = (
            f"{when.year}年{when.month}月{when.day}日" if side == 0 else when.strftime("%B %-d, %Y")
        )
    text = template.format(**values)
    return text[0].upper() + text[1:]


def memory_at(seed: int, index: int) -> SyntheticMemory:
    """Item ``index`` of the stream ``seed``."""
    rng = random.Random(f"memlane-bench:{GENERATOR_VERSION}:{seed}:{index}")
    _, kind, category, zh, en = rng.choices(_TEMPLATES, weights=_WEIGHTS)[0]
    side = 0 if rng.random() < CHINESE_SHARE else 1
    when = EPOCH + timedelta(days=rng.uniform(0, _SPAN_DAYS))
    return SyntheticMemory(_fill((zh, en)[side], rng, side, when), kind, category, ("zh", "en")[side], when)


def memories(seed: int, start: int, count: int) -> list[SyntheticMemory]:
    """Items ``start`` to ``start + count`` of the stream ``seed``."""
    return [memory_at(seed, i) for i in range(start, start + count)]


def questions(seed: int, count: int) -> list[str]:
    """Questions a user might ask about such memories, in both languages."""
    rng = random.Random(f"memlane-bench-questions:{GENERATOR_VERSION}:{seed}")
    out = []
    for _ in range(count):
        zh, en = rng.choice(_QUESTIONS)
        side = 0 if rng.random() < CHINESE_SHARE else 1
        out.append(_fill((zh, en)[side], rng, side, EPOCH))
    return out


def messages(seed: int, count: int) -> list[str]:
    """New things a user says, for timing ``Memory.add`` through the whole write path."""
    return [m.text for m in memories(seed, 0, count)]


# -- embeddings, cached by chunk ----------------------------------------------------------------------

CHUNK = 1000
_BATCH = 64


def cache_dir() -> Path:
    """Where embedded chunks are kept."""
    return platformdirs.user_cache_path("memlane") / "bench"


def _chunk_path(embedder: Embedder, seed: int, chunk: int) -> Path:
    return cache_dir() / f"{embedder.name}-{embedder.dim}-v{GENERATOR_VERSION}-s{seed}-c{chunk}.npy"


def embed_chunk(
    embedder: Embedder, seed: int, chunk: int, step: Callable[[int], None] | None = None
) -> Vector:
    """The embeddings of one chunk of the stream, from the cache or computed (and then cached)."""
    path = _chunk_path(embedder, seed, chunk)
    if path.exists():
        cached: Vector = np.load(path)
        if step:
            step(len(cached))
        return cached
    texts = [m.text for m in memories(seed, chunk * CHUNK, CHUNK)]
    parts = []
    for i in range(0, len(texts), _BATCH):
        parts.append(embedder.embed_passages(texts[i : i + _BATCH]))
        if step:
            step(len(parts[-1]))
    vectors = np.concatenate(parts).astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(path)  # a chunk is either whole or absent, even if two runs fill the cache at once
    return vectors


def embeddings(
    embedder: Embedder, seed: int, start: int, count: int, step: Callable[[int], None] | None = None
) -> Vector:
    """The embeddings of items ``start`` to ``start + count`` of the stream ``seed``."""
    first, last = start // CHUNK, (start + count - 1) // CHUNK
    chunks = [embed_chunk(embedder, seed, c, step) for c in range(first, last + 1)]
    offset = start - first * CHUNK
    out: Vector = np.concatenate(chunks)[offset : offset + count]
    return out


def is_cached(embedder: Embedder, seed: int, chunk: int) -> bool:
    """Whether a chunk's embeddings are already on disk."""
    return _chunk_path(embedder, seed, chunk).exists()
