"""The rule-based extractor: a message in, one candidate per clause that says something.

Per clause: small talk is recognised first (so the judge can say why it discards it); then the rules of
the clause's language are tried, then, for mixed text (I love 火锅, 我prefer email), the other
language's; the catch-all first-person fact comes last. The extractor then adds what every candidate
carries: hedges, one-off markers, requests to remember, topic tags and named entities.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memlane.domain import Candidate, Category, Message
from memlane.text.lang import detect, has_cjk, normalize
from memlane.text.timeparse import find_times, recurrence

from . import rules_en, rules_zh
from .clauses import Clause, split_clauses
from .lexicon import FORGET, HEDGE, LASTING, LAUGHTER, REQUEST, SESSION_ONLY, SMALLTALK, topic_tags, words
from .rule import Context, Draft, Rule, first_match

_RULES: dict[str, Sequence[Rule]] = {"zh": rules_zh.RULES, "en": rules_en.RULES}
_ZH_OTHER = re.compile(r"^(?:你们?|您|他们?|她们?|它们?|大家|别人|人家|这|那)")
_EN_OTHER = re.compile(
    r"(?i)^(?:you|he|she|they|it|its|it's|this|that|these|those|there|there's|his|her|their|your)\b"
)
_EN_SELF = re.compile(r"(?i)\b(?:i|me|my|mine|i'm|i've|i'd|i'll|im)\b")
_CATEGORY_TAGS = {
    Category.CONTACT: "contact",
    Category.STYLE: "style",
    Category.BUDGET: "budget",
    Category.ROUTINE: "routine",
}
_PLACEHOLDER = re.compile(r"\[[^\[\]]{1,60}\]")
_ZH_ENTITY_FLAGS = ("nr", "ns", "nt", "nz", "nrt", "nrfg")
# Words jieba's tagger often marks as names but that name nothing.
_ZH_NOT_ENTITY = frozenset(words("过敏 有点 有点烦 好累 美式 冷萃 拿铁 上课 开会"))
_EN_ENTITY = re.compile(r"(?:\b[A-Z][\w&'-]*|\b[a-z]+[A-Z][\w-]*)(?:\s+(?:[A-Z][\w&'-]*|\d[\w-]*))*")
# Capitalised words that start a sentence or name a day, not a thing.
_EN_NOT_ENTITY = frozenset(
    words(
        "i i'm i've i'd i'll im my me we we're you're they're it's there's let's the a an please hi hello "
        "hey thanks thank ok okay yes no but and so also remember note don't never can could would will you "
        "he she they it this that there maybe perhaps just actually oh well btw what when where why how is "
        "are was do does did if then today tomorrow yesterday last next every each on in at for to of "
        "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
        "july august september october november december ugh lol keep make be email call text send use "
        "answer reply write tell give show let contact reach avoid stop"
    )
)
_MAX_ENTITIES = 6
_MAX_TAGS = 6


def _is_smalltalk(text: str) -> bool:
    norm = normalize(text)
    return not norm or norm in SMALLTALK or LAUGHTER.fullmatch(norm) is not None


def _about_other(text: str, lang: str) -> bool:
    """The clause's subject is someone other than the user (他喜欢猫 / you look busy)."""
    if lang == "zh":
        return _ZH_OTHER.match(text) is not None and "我" not in text
    return _EN_OTHER.match(text) is not None and _EN_SELF.search(text) is None


def _zh_entities(ctx: Context) -> list[str]:
    hidden = "".join(_PLACEHOLDER.findall(ctx.text))
    out: list[str] = []
    tokens = ctx.words
    for i, (word, flag) in enumerate(tokens):
        if word in hidden:
            continue
        if (
            flag in _ZH_ENTITY_FLAGS
            and len(word) >= 2
            and word not in _ZH_NOT_ENTITY
            and not word.startswith("加")
        ):
            out.append(word)
        elif flag == "eng" and (any(c.isupper() for c in word) or any(c.isdigit() for c in word)):
            # join a model number: iPhone 16, Galaxy S24
            name = word
            rest = tokens[i + 1 : i + 3]
            if len(rest) == 2 and rest[0][0] == " " and rest[1][1] in ("m", "eng"):
                name = f"{word} {rest[1][0]}"
            if not any(name in o for o in out):
                out.append(name)
    return out


def _en_entities(text: str) -> list[str]:
    out: list[str] = []
    for m in _EN_ENTITY.finditer(_PLACEHOLDER.sub(" ", text)):
        parts = m.group(0).split()
        while parts and parts[0].lower().strip(".,!?") in _EN_NOT_ENTITY:
            parts.pop(0)
        if parts and not (len(parts) == 1 and parts[0].isdigit()):
            out.append(" ".join(parts))
    return out


def _inferred_interest(ctx: Context) -> Draft | None:
    """A bare mention of a named thing (iPhone 16) is taken as a weak sign of interest."""
    if ctx.question or ctx.about_other:
        return None
    text = ctx.text.strip()
    if ctx.lang == "zh":
        if len(text) > 20 or any(flag.startswith("v") for _, flag in ctx.words):
            return None
        named = _zh_entities(ctx)
    else:
        if len(text.split()) > 4 or _EN_SELF.search(text):
            return None
        named = _en_entities(text)
    if not named:
        return None
    return Draft(category=Category.PREFERENCE, objects=[text], explicit=False)


def _draft(ctx: Context) -> Draft | None:
    other = "en" if ctx.lang == "zh" else "zh"
    draft = first_match(_RULES[ctx.lang], ctx, fallback=False)
    mixed = re.search(r"[A-Za-z]{2,}", ctx.text) if ctx.lang == "zh" else has_cjk(ctx.text)
    if draft is None and mixed:
        draft = first_match(_RULES[other], replace(ctx, lang=other), fallback=False)
    if draft is None:
        draft = first_match(_RULES[ctx.lang], ctx, fallback=True)
    return draft or _inferred_interest(ctx)


def _tags(draft: Draft, text: str) -> list[str]:
    tags = list(draft.tags)
    if draft.category in _CATEGORY_TAGS:
        tags.append(_CATEGORY_TAGS[draft.category])
    if draft.slot in ("drink", "food"):
        tags.append(draft.slot)
    tags += topic_tags(text)
    return list(dict.fromkeys(tags))[:_MAX_TAGS]


# what a clause phrased as a request to the assistant is not
_NOT_WHEN_ASKED = {
    Category.PLAN,
    Category.EVENT,
    Category.FACT,
    Category.CONDITION,
    Category.CONTEXT,
    Category.PREFERENCE,
    Category.SMALLTALK,
}


class RuleExtractor:
    """Finds candidate memories in Chinese, English and mixed messages with rules; no model, no network.

    >>> from datetime import datetime
    >>> from memlane.domain import Message
    >>> found = RuleExtractor().extract(Message("user", "我叫阿白，平时喜欢喝美式", datetime(2024, 6, 10)))
    >>> [(c.category.value, c.slot, c.value or c.objects) for c in found]
    [('name', 'name', '阿白'), ('preference', 'drink', ['美式'])]
    """

    def extract(self, message: Message) -> list[Candidate]:
        """One candidate per clause of ``message`` that says something, in text order."""
        found = [self._candidate(clause, message) for clause in split_clauses(message.content)]
        return _merge_complaints([c for c in found if c is not None])

    def _candidate(self, clause: Clause, message: Message) -> Candidate | None:
        shown = clause.text
        text = shown.replace("’", "'")  # rules expect a plain apostrophe (I’m from a phone keyboard)
        lang = detect(text)
        if FORGET.search(text):
            draft: Draft | None = Draft(category=Category.FORGET)
            ctx = Context(text, lang, message.at)
        elif _is_smalltalk(text):
            draft = Draft(category=Category.SMALLTALK)
            ctx = Context(text, lang, message.at)
        else:
            ctx = Context(
                text,
                lang,
                message.at,
                times=find_times(text, message.at),
                schedule=recurrence(text),
                about_other=_about_other(text, lang),
                question=clause.question,
            )
            draft = _draft(ctx)
            asked = not clause.remember and REQUEST.search(text) is not None
            if asked and (draft is None or draft.category in _NOT_WHEN_ASKED):
                # "帮我看看明天的天气" names a time but is no plan of the user's; how the user wants
                # to be answered or contacted ("please keep it short") stays what it is
                draft = Draft(category=Category.REQUEST)
        if draft is None or draft.category is None:
            return None
        entities = list(draft.entities)
        if draft.category not in (Category.SMALLTALK, Category.REQUEST, Category.FORGET):
            entities += _zh_entities(ctx) if lang == "zh" else _en_entities(text)
        one_off = SESSION_ONLY.search(text) is not None and LASTING.search(text) is None
        return Candidate(
            text=shown,
            category=draft.category,
            lang=lang,
            slot=draft.slot,
            value=draft.value,
            objects=draft.objects,
            polarity=draft.polarity,
            event_time=draft.event_time,
            event_status=draft.event_status,
            tags=_tags(draft, text),
            entities=list(dict.fromkeys(e for e in entities if e))[:_MAX_ENTITIES],
            explicit=draft.explicit and message.role == "user",
            hedged=draft.category is not Category.BUDGET and HEDGE.search(text) is not None,
            session_only=draft.session_only or one_off,
            remember_request=clause.remember,
            role=message.role,
            message_id=message.id,
        )


def _merge_complaints(candidates: list[Candidate]) -> list[Candidate]:
    """Consecutive clauses of one complaint (物流太慢了，到现在还没到) become one candidate."""
    out: list[Candidate] = []
    for c in candidates:
        prev = out[-1] if out else None
        if (
            prev is not None
            and c.category is Category.COMPLAINT
            and prev.category is Category.COMPLAINT
            and prev.event_status == c.event_status
            and prev.lang == c.lang
        ):
            prev.text = f"{prev.text}{'，' if c.lang == 'zh' else ', '}{c.text}"
            prev.objects = list(dict.fromkeys(prev.objects + c.objects))
            prev.tags = list(dict.fromkeys(prev.tags + c.tags))[:_MAX_TAGS]
            prev.entities = list(dict.fromkeys(prev.entities + c.entities))[:_MAX_ENTITIES]
            prev.event_time = prev.event_time or c.event_time
            prev.hedged = prev.hedged or c.hedged
            prev.remember_request = prev.remember_request or c.remember_request
            continue
        out.append(c)
    return out
