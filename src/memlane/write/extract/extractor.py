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
from memlane.privacy.sensitive import PLACEHOLDER
from memlane.text.lang import detect, fold, has_cjk, normalize
from memlane.text.recurrence import recurrence
from memlane.text.timeparse import find_times

from . import rules_en, rules_zh
from .addressed import to_listener
from .clauses import Clause, split_clauses
from .current import now_habit
from .dated import as_said, just_a_time
from .dropped_en import AT_KINDS, with_subject
from .entities import OPAQUE, en_entities, zh_entities
from .forgetting import corrected, withdrawal
from .holds import LASTING, MOMENT, SESSION_ONLY
from .joins import MAX_ENTITIES, MAX_TAGS, joined
from .leaving import change_said, left_behind
from .lexicon import HEDGE, HYPOTHETICAL, LAUGHTER, REQUEST, SIGN_OFF, SMALLTALK, SMALLTALK_RUN, topic_tags
from .occasion import in_the_moment, of_the_plan, of_the_request, of_today, plans
from .others import EN_SELF, about_other
from .reference import mentions_kin, names_kin, of_an_acquaintance, refers_back, still_meant, taken_up
from .rule import Context, Draft, Rule, first_match

_RULES: dict[str, Sequence[Rule]] = {"zh": rules_zh.RULES, "en": rules_en.RULES}
_CATEGORY_TAGS = {
    Category.CONTACT: "contact",
    Category.STYLE: "style",
    Category.BUDGET: "budget",
    Category.ROUTINE: "routine",
}


# a Chinese clause that says nothing of the user, its subject dropped or not: how good something is
# ("面包巨好吃", "节奏慢多了", "省钱又省事") or an invitation ("来捧场呗", "夏天来玩啊", "别忘了给我过啊")
_ZH_REMARK = re.compile(
    r"呗$|^(?:别|来|快来|一起|有空)|(?:巨|超|太|真|挺|蛮|特别|贼|非常|相当)[\u4e00-\u9fff]{1,3}[了啊呀哈的啦]*$"
    r"|(?:多了|极了|绝了)$|^[\u4e00-\u9fff]{1,2}又[\u4e00-\u9fff]{1,2}$"
)
_ZH_TRAILING = re.compile(r"(?:[哈呵嘿嘻h]+|[\s!！~～]|[\U0001F300-\U0001FAFF])+$")
_EN_WORD = re.compile(r"[a-z']+")
# what the user can or cannot do, said with no subject at all: "不会游泳", "会弹吉他", "从没出过国"
_ZH_CAN = re.compile(
    r"(?:也|还|都)?(?:不会|会(?![议员计])|从没|从来没|不能)(?![吧吗呢啊呀哦嘛了])[\u4e00-\u9fff]"
)

# what the user's own attribute is said with, no 我 before it: "小名豆豆", "大名王浩然", "老家衡阳的"
_ZH_OWN = re.compile(r"(?:小名|大名|本名|真名|网名|外号|昵称|绰号|老家|家乡|籍贯|生日)")


def _is_smalltalk(text: str) -> bool:
    """Greetings, thanks, laughter and acknowledgements, alone or together ("哈哈谢谢", "lol ok thanks")."""
    norm = normalize(text)
    if not norm or norm in SMALLTALK or LAUGHTER.fullmatch(norm) is not None:
        return True
    if has_cjk(norm) and SMALLTALK_RUN.fullmatch(norm) is not None:
        return True  # "哈哈谢谢", "多谢多谢", "ok了解": small talk said twice or together
    if SIGN_OFF.fullmatch(text.strip()) is not None:  # leaving the conversation: "I must go", 我先撤了
        return True
    spoken = _EN_WORD.findall(text.lower())
    return bool(spoken) and not has_cjk(text) and all(w in SMALLTALK or LAUGHTER.fullmatch(w) for w in spoken)


def _unnamed(draft: Draft | None) -> bool:
    """Whether no rule named what the clause is (nothing, or only "other")."""
    return draft is None or draft.category in (None, Category.OTHER)


def _inferred_interest(ctx: Context) -> Draft | None:
    """A bare mention of a named thing (iPhone 16) is taken as a weak sign of interest."""
    if ctx.question or ctx.about_other:
        return None
    text = ctx.text.strip()
    if ctx.lang == "zh":
        if len(text) > 20 or any(flag.startswith("v") for _, flag in ctx.words):
            return None
        named = zh_entities(ctx)
    else:
        if len(text.split()) > 4 or EN_SELF.search(text):
            return None
        named = en_entities(text)
    if not named:
        return None
    # …unless its words say a change ("现在都用支付宝了": 用 reads as a preposition, not a verb)
    return Draft(category=Category.PREFERENCE, objects=[text], explicit=change_said(text) is not None)


# how a clause after "I'm <name>," reads with its subject said (the first that names a profile slot)
_INTRODUCED_LEADS = ("I'm ", "I'm a ", "I ")
# a clause that opens with a verb: its subject is the one before ("…but live in Toronto now")
_EN_BARE_VERB = re.compile(
    r"(?i)^(?:now\s+|also\s+|still\s+|currently\s+)?(?:live|work|moved|teach|grew|study|go|have|own)\b"
)
# how a message opens when the writer names themselves like on the phone: "This is Mei", "hi, it's Tom
# here", "Priya here, quick question" (read as "I'm <name>"; only where the message opens, since "this
# is Paris" later on shows a photo)
_ON_THE_PHONE = re.compile(
    r"^(?:(?i:this\s+is|it's)\s+(?P<v>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)(?:\s+(?i:here))?"
    r"|(?P<w>[A-Z][a-z'-]+)\s+(?i:here))\s*[.!]*$"
)


# the apostrophe texting leaves out of a negation or "I've": cant, dont, didnt, ive
_NOT_TYPED = re.compile(
    r"(?i)\b(?:can|don|won|didn|doesn|isn|aren|wasn|weren|haven|hasn|hadn|couldn|shouldn|wouldn)(?=t\b)|\bi(?=ve\b)"
)
# what texting puts before a statement, that no rule reads past: "so im a flight attendant, based out
# of halifax", "ok so we moved to Leeds", "btw my wife is allergic to nuts"
_EN_LEAD = re.compile(
    r"(?i)^(?:(?:so|ok(?:ay)?|well|anyways?|btw|fyi|oh|and|also|plus|hey|um+|uh+|lol|haha|honestly|tbh|ngl)"
    r"\b[\s,:—-]*)+(?=\w)"
)

# …and what chat puts before it in Chinese: "跟你说 老伴现在能扶着墙走到厨房了", "对了我晚上不跑车"
_ZH_LEAD = re.compile(
    r"^(?:跟你说(?:个事|件事)?|我跟你讲|对了|还有(?:个事|件事)?|另外|然后|话说|哦对了?)[\s，,：:]*(?=\w)"
)


def _draft(ctx: Context) -> Draft | None:
    lead = (_EN_LEAD if ctx.lang == "en" else _ZH_LEAD).match(ctx.text)
    said = _draft(replace(ctx, text=ctx.text[lead.end() :])) if lead else None
    if said is not None:
        return said  # what is said after the lead, read as if said alone
    other = "en" if ctx.lang == "zh" else "zh"
    draft = first_match(_RULES[ctx.lang], ctx, fallback=False)
    mixed = re.search(r"[A-Za-z]{2,}", ctx.text) if ctx.lang == "zh" else has_cjk(ctx.text)
    if draft is None and mixed:
        draft = first_match(_RULES[other], replace(ctx, lang=other), fallback=False)
    if draft is None:
        draft = first_match(_RULES[ctx.lang], ctx, fallback=True)
    return draft or _left_behind(ctx) or now_habit(ctx) or _inferred_interest(ctx)


def _left_behind(ctx: Context) -> Draft | None:
    """A clause no rule read that says the user left something behind ("sold the car, I bike to work
    now", "took a break from violin"): a dislike of it now, which retires what held it."""
    if ctx.question or ctx.about_other:
        return None
    left = left_behind(ctx.text)
    return Draft(category=Category.DISLIKE, objects=left, polarity=-1) if left else None


def _tags(draft: Draft, text: str) -> list[str]:
    tags = list(draft.tags)
    if draft.category in _CATEGORY_TAGS:
        tags.append(_CATEGORY_TAGS[draft.category])
    if draft.slot in ("drink", "food"):
        tags.append(draft.slot)
    tags += topic_tags(text)
    return list(dict.fromkeys(tags))[:MAX_TAGS]


# what a clause phrased as a request to the assistant is not
_NOT_WHEN_ASKED = {
    Category.PLAN,
    Category.EVENT,
    Category.FACT,
    Category.COMPLAINT,
    Category.CONDITION,
    Category.CONTEXT,
    Category.PREFERENCE,
    Category.SMALLTALK,
}


class RuleExtractor:
    """Finds candidate memories in Chinese, English and mixed messages with rules; no model, no network.

    Every clause gets a candidate: one no rule recognises is ``other`` (or a request, when it asks
    something), so the judge still decides it and says why. A clause that only elaborates the one
    before it (尤其是长焦 / especially in winter) joins that candidate, whose text is then the user's
    own span of both.

    >>> from datetime import datetime
    >>> from memlane.domain import Message
    >>> found = RuleExtractor().extract(Message("user", "我叫阿白，平时喜欢喝美式", datetime(2024, 6, 10)))
    >>> [(c.category.value, c.slot, c.value or c.objects) for c in found]
    [('name', 'name', '阿白'), ('preference', 'drink', ['美式'])]
    """

    def extract(self, message: Message, before: str | None = None) -> list[Candidate]:
        """One candidate per clause of ``message`` (an elaboration joined to the clause it elaborates),
        in text order; ``before``, the user's turn before it, may have named whom a he or she is."""
        found: list[tuple[Candidate, Clause]] = []
        self_said = False  # the clause before spoke of the user: a Chinese clause after it may drop 我
        introduced = False  # the user said "I'm <name>": a clause after it may say what they are
        # the clause (or the user's turn) before named the user's relative or pet: a he or she is them
        kin = before is not None and mentions_kin(before)
        topics: list[str] = []  # what the clause before was about: an "it" after it may be that
        opening = True  # nothing but a greeting so far
        asked = False  # a request came before: a bare constraint after it is a condition of it
        planned = False  # the clause before was a plan, or one to buy: a bare constraint is its condition
        # what the rules read: the whole message's reading (whether it is Cantonese is the message's)
        read = fold(message.content)
        for clause in split_clauses(message.content):
            candidate, topics = taken_up(
                self._candidate(clause, message, read, self_said, kin, introduced, opening), topics, MAX_TAGS
            )
            candidate = of_today(candidate)
            if asked:
                candidate = of_the_request(candidate)
            elif planned:
                candidate = of_the_plan(candidate)
            planned = plans(candidate, clause.text)
            asked = asked or candidate.category is Category.REQUEST
            introduced = introduced or candidate.slot == "name"
            opening = opening and candidate.category is Category.SMALLTALK
            said = fold(clause.text)
            self_said = candidate.category not in _NOT_ABOUT_USER and (
                candidate.lang != "zh" or _ZH_SELF.match(said) is not None or self_said
            )
            kin = names_kin(candidate, said) or (kin and still_meant(said, candidate.lang))
            found.append((candidate, clause))
        return [c for c, _ in joined(in_the_moment(corrected(found)), message.content, message.at)]

    def _candidate(
        self,
        clause: Clause,
        message: Message,
        read: str,
        self_said: bool,
        kin: bool,
        introduced: bool = False,
        opening: bool = False,
    ) -> Candidate:
        shown = clause.text
        # rules expect half-width forms and a plain apostrophe (I’m from a phone keyboard, "cant" typed
        # without one), and never look inside a placeholder left by redaction
        # the clause in its message's reading (``read``), where it stands in the message as said
        whole = message.content[clause.start : clause.end] == shown
        text = read[clause.start : clause.end] if whole else fold(shown)
        text = PLACEHOLDER.sub(OPAQUE, _NOT_TYPED.sub(r"\g<0>'", text.replace("’", "'")))
        only_masks = not normalize(text.replace(OPAQUE, ""))
        lang = detect(shown if only_masks else text)  # a mask speaks the language it was written in
        if (back := withdrawal(text)) is not None:  # "别记这个", "忘掉我住哪": what to forget, if named
            draft: Draft | None = Draft(category=Category.FORGET, objects=[back.topic] if back.topic else [])
            ctx = Context(text, lang, message.at)
        elif only_masks and OPAQUE in text:
            draft = Draft(category=Category.SENSITIVE)  # the clause was only a value redaction masked
            ctx = Context(text, lang, message.at)
        elif _is_smalltalk(text) or to_listener(text, lang):  # words to the listener are talk too
            draft = Draft(category=Category.SMALLTALK)
            ctx = Context(text, lang, message.at)
        elif HYPOTHETICAL.match(text):
            draft = Draft(category=Category.HYPOTHETICAL)
            ctx = Context(text, lang, message.at)
        else:
            theirs = kin and refers_back(text, lang)  # the relative or pet just named, not someone else
            ctx = Context(
                text,
                lang,
                message.at,
                times=(times := as_said(find_times(text, message.at), text)),
                schedule=recurrence(text),
                about_other=about_other(text, lang, times) and not theirs,
                question=clause.question,
            )
            named = _ON_THE_PHONE.match(text) if opening and lang == "en" else None
            draft = None
            if named:
                draft = _draft(replace(ctx, text=f"I'm {named['v'] or named['w']}", about_other=False))
            if draft is None or draft.slot != "name":  # "It's Monday", "This is Great": no one is named
                draft = _draft(ctx)
            if theirs and (draft is None or draft.category in _NOT_OF_KIN + _LIKES) and not ctx.question:
                # "my daughter started uni, she's studying law"; "给老婆挑个礼物，她喜欢香薰" is her liking
                draft = Draft(category=Category.FAMILY)
            if draft is not None and draft.category in _THEIRS and of_an_acquaintance(text, lang):
                draft = Draft(category=Category.OTHER)  # a coworker's plan, a friend's habit
            if (
                draft is None
                and lang == "zh"
                and _ZH_OWN.match(text)
                and not (ctx.about_other or ctx.question)
            ):
                # "小名豆豆": the user's own attribute, or the relative's just named (…闺女两岁半，小名糖糖)
                draft = Draft(category=Category.FAMILY) if kin else _draft(replace(ctx, text=f"我{text}"))
            if (
                draft is None
                and lang == "zh"
                and (self_said or _ZH_CAN.match(text) is not None)
                and not ctx.about_other
                and not ctx.question
                and _ZH_REMARK.search(_ZH_TRAILING.sub("", text)) is None
                and not just_a_time(ctx)
            ):
                # Chinese drops the subject it has just named: "我用的是 MacBook Pro，平时主要写 Python"
                draft = first_match(_RULES["zh"], replace(ctx, text=f"我{text}"), fallback=True)
            if lang == "en" and introduced and not ctx.question and (draft is None or draft.slot is None):
                # what follows a name says what the user is or does: "I'm Tom, a nurse from Leeds",
                # "I'm Sam, 34, software engineer at Google", "Im Jake, dad of two, live in Denver"
                said = (_draft(replace(ctx, text=f"{lead}{text}")) for lead in _INTRODUCED_LEADS)
                draft = next((d for d in said if d is not None and d.slot is not None), draft)
            elif lang == "en" and self_said and not ctx.question and _EN_BARE_VERB.match(text):
                # English drops the subject after "and" / "but": "I'm originally from Manila but live
                # in Toronto now" (only where that makes a profile slot of it)
                said_i = _draft(replace(ctx, text=f"I {text}", about_other=False))
                if said_i is not None and said_i.slot is not None and (draft is None or draft.slot is None):
                    draft = said_i
            if lang == "en" and not ctx.question and _unnamed(draft):
                # texting drops the "I" of what the writer did ("took the kids to Yellowstone over
                # spring break"), of how they live ("own a little sailboat") and of where they are
                # ("at a truck stop off I-40 near Amarillo")
                full, kinds = with_subject(text)
                said_i = _draft(replace(ctx, text=full, about_other=False)) if kinds else None
                if said_i is not None and said_i.category in kinds:
                    draft = said_i
                elif kinds == AT_KINDS:  # where the writer is, however the place is named
                    draft = Draft(category=Category.CONTEXT, session_only=True)
            asked = not clause.remember and REQUEST.search(text) is not None
            if asked and (draft is None or draft.category in _NOT_WHEN_ASKED):
                # "帮我看看明天的天气" names a time but is no plan of the user's; how the user wants
                # to be answered or contacted ("please keep it short") stays what it is
                draft = Draft(category=Category.REQUEST)
        if draft is None or draft.category is None:
            # no rule knows it: the judge still decides, and a question is something asked
            draft = Draft(category=Category.REQUEST if clause.question else Category.OTHER)
        assert draft.category is not None
        entities = list(draft.entities)
        if draft.category not in _NOT_ABOUT_USER:
            entities += zh_entities(ctx) if lang == "zh" else en_entities(text)
        moment = draft.slot is None and MOMENT.search(text) is not None
        one_off = (moment or SESSION_ONLY.search(text) is not None) and LASTING.search(text) is None
        return Candidate(
            text=shown,
            category=draft.category,
            lang=lang,
            slot=draft.slot,
            value=draft.value,
            objects=[o for o in draft.objects if OPAQUE not in o],
            polarity=draft.polarity,
            event_time=draft.event_time,
            event_status=draft.event_status,
            tags=_tags(draft, text),
            entities=list(dict.fromkeys(e for e in entities if e and OPAQUE not in e))[:MAX_ENTITIES],
            explicit=draft.explicit and message.role == "user",
            hedged=draft.category is not Category.BUDGET and HEDGE.search(text) is not None,
            session_only=draft.session_only or one_off,
            remember_request=clause.remember,
            change=change_said(text),
            role=message.role,
            message_id=message.id,
        )


# what a clause says of no one in particular, or of the conversation: nothing to learn about the user
_NOT_ABOUT_USER = {
    Category.SMALLTALK,
    Category.REQUEST,
    Category.FORGET,
    Category.OTHER,
    Category.HYPOTHETICAL,
}
_ZH_SELF = re.compile(r"^(?:我|本人)")
# what a clause of the relative just named is read as before it is theirs: nothing, or someone's moment
_NOT_OF_KIN = (None, Category.OTHER, Category.CONTEXT)
_LIKES = (Category.PREFERENCE, Category.DISLIKE, Category.ROUTINE, Category.FACT)  # a he or she's, theirs
# what a clause of someone else's may be read as when it is the user's (a plan, a habit, news, a job)
_THEIRS = {
    Category.PLAN,
    Category.EVENT,
    Category.PREFERENCE,
    Category.DISLIKE,
    Category.ROUTINE,
    Category.FACT,
    Category.JOB,
    Category.CONSTRAINT,
}
