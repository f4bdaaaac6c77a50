"""English extraction rules, tried in order on one clause; the first that accepts it decides.

Every pattern is case-insensitive (``(?i)``) except inside ``(?-i:…)``, where a capital letter is the
evidence: a name after "call me", a city after "work in", an employer after "at". The order follows the
Chinese table: names, contact and style first, family before likes, dislikes before likes, plans and
events before the catch-all first-person fact.
"""

from __future__ import annotations

import re

from memlane.domain import Category as C
from memlane.domain import EventStatus

from . import builds_en as b
from . import style_en as style
from .channels import CHANNEL_WORD, contact
from .dated import moved_plan, routine, timed
from .events_en import (
    ARRANGED,
    CALLED_OFF,
    DID,
    DONE,
    FOUND_OUT,
    HAPPENED,
    INTENT,
    MOVED,
    SPENT,
    in_its_tense,
)
from .events_en import SUBJECT as _I
from .events_en import SUBJECT_IS as _IM
from .holds import DEFERRED, ONE_OFF_EN, STATE_NOW
from .lexicon import JOBS_EN
from .moods_en import MOOD as _MOOD
from .present_en import HERE_NOW, NOW, THEY_NOW
from .problems import PROBLEM_EN as _PROBLEM
from .problems import RESOLVED_EN as _RESOLVED
from .rule import Build, Context, Draft, favorite, fixed, liking, rule, slot_value, this_while
from .rule import any_of as _any

# "keep it casual", "make things more formal": how what is written for the user should sound
_KEEP_IT = r"\b(?:keep|make)\s+(?:it|things|the\s+tone)\s+(?:more\s+)?"
# …unless it is only for this one ("just for today's client notes keep it formal")
_NOT_ONE_OFF = rf"^(?!.*{ONE_OFF_EN}).*?"
_FORMAL = (
    rf"(?i){_NOT_ONE_OFF}(?:\b(?:be\s+)?more\s+(?:formal|polite|professional)\b|\bformal\s+tone\b"
    rf"|{_KEEP_IT}(?:formal|polite|professional)\b)"
)
_CASUAL = (
    rf"(?i){_NOT_ONE_OFF}(?:\b(?:be\s+)?more\s+(?:casual|friendly|relaxed)\b|\b(?:casual|friendly)\s+tone\b"
    rf"|{_KEEP_IT}(?:casual|informal|friendly|relaxed|chill|laid[\s-]back)\b"
    r"|\btalk\s+to\s+me\s+like\s+(?:a\s+)?(?:friend|mate|buddy|normal\s+person)\b"
    r"|\bno\s+need\s+to\s+be\s+(?:so\s+)?(?:stiff|formal|polite)\b|\bdon'?t\s+be\s+(?:so\s+)?(?:stiff|formal)\b)"
)
_NAME = r"(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})"
_STOP = _any("with since for and but now at near right because today too as on in from")
# a place's name, in English or (mixed text: "I live in 杭州") in Chinese
_PLACE = rf"(?:[\u4e00-\u9fff]{{2,8}}|[A-Za-z][\w.'-]*(?:\s+(?!(?i:{_STOP})\b)(?-i:[A-Z][\w.'-]*))*)"
_ORG = r"(?P<emp>(?-i:[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*))"
_JOB = "|".join(JOBS_EN)
# a word of a job's name before its head ("high school chemistry teacher"), not one that makes it something
# else ("a huge fan of the teacher")
_JOB_WORD = r"(?!(?:of|the|and|with|for|to)\s)[\w-]+"
# "I've been a nurse for ten years", "I have been working as a paralegal since 2019": the job is current
_HAVE_BEEN = r"(?:'ve|\s+have)\s+been\s+"
_HOW_LONG = (
    r"(?:the\s+)?(?:(?:about|almost|over|nearly|like|a|an|\d+|a\s+few|a\s+couple(?:\s+of)?|\w+)\s+)?"
    r"(?:years?|months?|decades?)\b"
)
_FOR_HOW_LONG = rf"(?:for\s+{_HOW_LONG}|since\s+[\w\s]{{2,20}})"
_ADVERBS = _any(
    "really absolutely just also totally do kind_of kinda sort_of sorta still usually generally truly "
    "actually so very quite sometimes always mostly now definitely much simply"
)
_ADV = rf"(?:(?:{_ADVERBS})\s+)*"
_GERUNDS = _any("drinking eating using playing watching listening_to wearing reading to_drink to_eat to_use")
_VERB = rf"(?P<verb>{_GERUNDS})?\s*"
# fmt: off
_LANGUAGES = {"english": "en", "chinese": "zh", "mandarin": "zh", "japanese": "ja", "spanish": "es",
              "french": "fr", "german": "de", "korean": "ko", "cantonese": "yue"}
# fmt: on
_REL = r"(?P<rel>" + "|".join(sorted(b.RELATIONS, key=len, reverse=True)) + r")(?:s|ren)?"
_LANG = "|".join(_LANGUAGES)

# Patterns too long for one line are named here, so that the table below reads as a table.
_LIVE = (
    rf"{_I}(?:currently\s+|now\s+|still\s+)?"
    r"(?:live|'ve\s+lived|have\s+lived|reside|am\s+living|'re\s+living|'m\s+living|am\s+based|'m\s+based)"
)


# what a problem with nothing named is said with: "that didn't work", "still not working", "it crashed"
_BARE = re.compile(
    r"(?i)\b(?:it|it's|its|that|this|still|again|just|yeah|ugh|ok|okay|lol|now|the|same|and|but|so|nope"
    r"|work|works|working|either|either\s+way|anymore)\b"
)


def _unless_here_now(build: Build) -> Build:
    """``build`` for a problem to follow up on, unless it is one of this moment: where the user is
    right now, or about nothing it names (what was just tried in this conversation)."""

    def problem(m: re.Match[str], ctx: Context) -> Draft | None:
        if HERE_NOW.search(ctx.text):
            return None
        if not re.search(r"[a-z]{2}", _BARE.sub("", ctx.text[: m.start()] + ctx.text[m.end() :]), re.I):
            return Draft(category=C.CONTEXT, session_only=True)
        return build(m, ctx)

    return problem


_PET = "|".join([*sorted((k.replace(" ", r"\s+") for k in b.BREEDS), key=len, reverse=True), *b.PETS])
_DISLIKE = _any(
    "hate dislike detest loathe can't_stand cannot_stand can't_bear don't_like don't_really_like don't_love "
    "don't_enjoy don't_care_for do_not_like do_not_love do_not_enjoy"
)
_NOT_INTO = r"(?:am|'m)\s+not\s+(?:a\s+(?:big\s+)?fan\s+of|into|keen\s+on|fond\s+of)"
_INTO = _any(
    "into interested_in passionate_about obsessed_with a_fan_of a_big_fan_of a_huge_fan_of keen_on fond_of "
    "hooked_on addicted_to"
)
_CONDITION = (
    r"(?i)\b(?:it|they|this|that|the\s+\w+)\s+(?:must|needs?\s+to|has\s+to|have\s+to|should)\s+"
    r"(?:be|have|arrive|come|ship|fit|support|include|work)\b|\bmust\s+(?:be|have)\b"
    r"|\bi\s+need\s+it\s+(?:by|before)\b|\bneeds?\s+to\s+(?:arrive|be\s+delivered|ship)\b"
    r"|\bsize\s+(?:xs|s|m|l|xl|xxl|\d+)\b|\bfree\s+shipping\b"
    r"|\b(?:in|the)\s+(?:red|blue|black|white|green|pink|grey|gray|silver|gold|purple|yellow)\b(?:\s+one)?"
    r"|\b(?:under|less\s+than|below|over|at\s+least|lighter\s+than)\s+\d+(?:\.\d+)?\s*"
    r"(?:kg|g|lbs?|inches|in|cm|mm|gb|tb|mah|w)\b"
    # how long, said alone after a request ("under 20 min please"; not "I ran under 20 minutes")
    r"|^(?:and\s+|ideally\s+|preferably\s+)?(?:under|less\s+than|within|no\s+more\s+than|max)\s+\d+\s*"
    r"(?:min|mins|minutes?|hours?|hrs?)\b"
    # the task's deadline: "has to go out by 5pm today", "need it done by friday", "due thursday"
    r"|\b(?:done|finished|submitted|sent|out|in|ready|delivered|back)\s+by\s+(?:this\s+|next\s+)?(?:monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|today|noon|midnight|eod|end\s+of\s+(?:the\s+)?"
    r"(?:day|week)|\d{1,2}(?::\d\d)?\s*(?:am|pm))\b"
    r"|\b(?:deadline(?:'s|\s+is)|it'?s\s+due|due)\s+(?:on\s+|by\s+)?(?:this\s+|next\s+)?(?:monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|today|eod|end\s+of\s+(?:the\s+)?(?:day|week))\b"
)
_MARITAL = r"(?P<v>married|single|divorced|engaged|widowed)"
_PARTNER = r"(?:boyfriend|girlfriend|bf|gf|partner|fianc[ée]e?|husband|wife|hubby)"
_SINGLE = {"broke up": "single", "split up": "single", "split": "single"}
_DIETS = _any("vegan vegetarian pescatarian plant-based plant_based keto paleo gluten-free dairy-free sober")
# adverbs a first-person statement may open with: "mostly I write Python"
_LEADS = _any(
    "mostly usually also really actually basically generally normally often sometimes now these_days"
)
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)


# fmt: off
_BUDGET = rf"(?i)\b(?:{_any('budget price spend afford cost under below max at_most no_more_than around')})\b"
_FAMILY_DETAIL = _any("is are was works lives likes loves has hates does doesnt will just recently also")
_ONE_TO_SIX = r"(?P<n>a|an|one|two|three|four|five|six|\d)"
_WORK_STATUS = _any("retired unemployed self-employed between_jobs a_stay-at-home_parent a_freelancer")
RULES = (
    # who the user is
    rule(C.NAME, r"(?i)\b(?:my\s+(?:full\s+)?name\s+is|my\s+name's|my\s+names(?!\s+(?:are|is)\b)"
                 r"|i'?m\s+called|i\s+am\s+called|name's)\s+"
                 r"(?P<v>[A-Za-z][\w'.-]*(?-i:(?:\s+[A-Z][\w'.-]*){0,2}))", slot_value("name", entity=True)),
    rule(C.NAME, r"(?i)\b(?:(?:you\s+can\s+|please\s+|just\s+)?call\s+me|i\s+go\s+by|^go\s+by"
                 r"|(?:\bmy\s+|^)nickname(?:\s+is|'s)"
                 rf"|(?:friends|people|everyone)\s+calls?\s+me)\s+(?P<v>{_NAME}|\"[^\"]+\"|[a-z][\w'-]*$)",
         b.nickname, "any"),
    rule(C.NAME, r"^(?i:i'?m|i\s+am)\s+(?P<v>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)$", b.self_name),
    # how to reach and answer the user
    rule(C.CONTACT, CHANNEL_WORD.pattern, contact, "ask"),
    rule(C.STYLE, r"(?i)\b(?:answer|reply|respond|speak|talk|write|chat)(?:\s+to\s+me)?\s+in\s+"
                  rf"(?P<v>{_LANG})\b|\buse\s+(?P<v2>{_LANG})\b|^(?P<v3>{_LANG})\s+please\b",
         slot_value("language", values=_LANGUAGES), "ask"),
    rule(C.STYLE, style.DETAILED, fixed("response_style", "detailed"), "ask"),
    rule(C.STYLE, style.CONCISE, fixed("response_style", "concise"), "ask"),
    rule(C.STYLE, style.PLAIN, fixed("plain_language", True), "ask"),
    rule(C.STYLE, style.FORMAT, scope="ask"),  # the shape of an answer: a style with no slot
    rule(C.STYLE, style.STANDING, scope="ask"),
    rule(C.STYLE, _FORMAL, fixed("tone", "formal"), "any"),
    rule(C.STYLE, _CASUAL, fixed("tone", "casual"), "any"),
    # the current task
    rule(C.BUDGET, _BUDGET, b.budget, "ask"),
    # family, place, work
    rule(C.FAMILY, rf"(?i)\bi(?:\s+|(?='))(?:now\s+|still\s+|also\s+)?(?:have|'ve\s+got|have\s+got)\s+"
                   rf"{_ONE_TO_SIX}\s+"
                   rf"(?:little\s+|young\s+|grown\s+|adult\s+|teenage\s+)?{_REL}\b", b.family),
    rule(C.FAMILY, rf"(?i)\bi'?m\s+a\s+(?:mother|father|mom|dad|mum|parent)\s+of\s+{_ONE_TO_SIX}\b",
         b.family),
    rule(C.FAMILY, rf"(?i)\bmy\s+{_REL}(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called)\s+"
                   r"(?P<name>(?-i:[A-Z][\w'-]+))", b.family),
    rule(C.FAMILY, rf"\b(?P<name>[A-Z][\w'-]+)\s+is\s+my\s+(?i:{_REL})\b", b.family),
    rule(C.FAMILY, rf"(?i)\bmy\s+{_REL}\s+is\s+(?P<age>\d{{1,2}})(?:\s+years?\s+old)?\b", b.family),
    rule(C.FAMILY, rf"(?i)\bmy\s+{_REL}\s+(?P<detail>(?:{_FAMILY_DETAIL}|can't|doesn't)\b.+)", b.family),
    rule(C.FAMILY, rf"(?i){_IM}(?:happily\s+)?{_MARITAL}\b"
                   r"|\bi\s+(?:just\s+)?got\s+(?P<v2>married|divorced|engaged)\b",
         slot_value("marital_status")),
    # a couple parting: "we broke up", "my boyfriend and I split up", "we got divorced", "I broke up with
    # Sam" (not "I split the bill", nor "we broke up for a bit")
    rule(C.FAMILY, rf"(?i)^(?:so\s+|well\s+|yeah\s+)?(?:we|(?:my|me\s+and\s+my)\s+{_PARTNER}(?:\s+and\s+i)?)"
                   r"\s+(?:finally\s+|just\s+|officially\s+)?(?:(?P<v>broke\s+up|split\s+up)"
                   r"|(?P<v2>split)(?=\s*(?:$|[.,!]))|(?:got\s+|are\s+|'re\s+)?(?P<v3>divorced))\b"
                   r"(?!\s+(?:for\s+a\s+(?:bit|while|week)|temporarily))"
                   rf"|^i\s+(?:finally\s+|just\s+|officially\s+)?(?P<v4>broke\s+up)\s+with\s+"
                   rf"(?:my\s+{_PARTNER}|(?-i:[A-Z]))",
         slot_value("marital_status", values=_SINGLE)),
    rule(C.JOB, rf"(?i)\bi(?:\s+work|{_HAVE_BEEN}working|(?:'ve|\s+have)\s+worked|\s+am\s+working"
                r"|'m\s+working)\s+as\s+(?P<job>(?:an?\s+)?[\w\s-]{2,40}?)"
                rf"(?:\s+(?:at|for|in|with)\s+(?!{_HOW_LONG}){_ORG})?(?:\s+{_FOR_HOW_LONG})?$", b.job),
    rule(C.JOB, rf"(?i)(?:{_IM}|\bi{_HAVE_BEEN})an?\s+(?P<job>(?:{_JOB_WORD}\s+){{0,3}}?(?:{_JOB}))\b"
                rf"(?:\s+(?:at|for|with|in)\s+(?!{_HOW_LONG}){_ORG})?", b.job),
    rule(C.LOCATION, rf"(?i){_LIVE}\s+in\s+(?P<v>{_PLACE})|\bmy\s+home\s+is\s+in\s+(?P<v2>{_PLACE})"
                     rf"|^based\s+in\s+(?P<v3>{_PLACE})"
                     # "i'm olivia, wedding photographer based in nashville"
                     rf"|^(?:i'?m|i\s+am)\s(?:(?!\b(?:is|are|was|were|it|they|he|she|we)\b)[^.!?;])*?"
                     rf"\bbased\s+(?:in|out\s+of)\s+(?P<v4>{_PLACE})"
                     # "im in a studio in gateshead now"
                     rf"|{_IM}(?:now\s+)?in\s+(?:a|an|my|our)\s+(?:[\w-]+\s+){{0,2}}?(?:{b.HOME})\s+in\s+(?P<v5>{_PLACE})",
         b.place("home_city")),
    rule(C.LOCATION, rf"(?i)\bi\s+(?:currently\s+)?work\s+in\s+(?P<v>{_PLACE})", b.work_in),
    rule(C.JOB, rf"(?i){_I}(?:currently\s+|now\s+)?(?:work|am\s+working|'m\s+working|intern)\s+(?:at|for)\s+"
                rf"{_ORG}", b.job),
    rule(C.JOB, rf"(?i){_I}(?:just\s+|recently\s+|finally\s+|have\s+|'ve\s+)*"
                rf"(?:joined|started\s+(?:working\s+)?at|got\s+(?:a\s+job|hired)\s+at|was\s+hired\s+(?:at|by)"
                rf"|signed\s+with)\s+{_ORG}(?:\s+(?:as|last|this|in)\b.*)?$", b.employer),
    rule(C.JOB, rf"(?i){_I}(?:currently\s+|now\s+|still\s+)?teach\s+"
                r"(?P<subj>(?:\d+(?:st|nd|rd|th)\s+)?[a-z]+(?:\s+[a-z]+)?)"
                r"(?:\s+(?:at|in|to)\b.*)?$", b.teacher),
    rule(C.JOB, rf"(?i){_I}(?:currently\s+|now\s+|still\s+|also\s+)?coach\s+(?P<subj>[a-z' ]{{2,40}}?)"
                r"(?:\s+(?:at|in|for|with|on|every|each|after|before|twice|once)\b.*)?$", b.coach),
    rule(C.JOB, r"(?i)\bmy\s+(?:job|profession|occupation|role)\s+is\s+(?P<job>.+)"
                rf"|{_IM}(?P<job2>{_WORK_STATUS})\b", b.job),
    rule(C.LOCATION, rf"(?i){_IM}(?:(?:originally|actually|really)\s+)?from\s+(?P<v>{_PLACE})"
                     rf"|(?:\bi\s+|^)(?:grew\s+up|was\s+born|(?:was\s+)?born\s+(?:and|n|&)\s+raised)"
                     rf"\s+(?:in|outside(?:\s+of)?|near|around)\s+(?P<v2>{_PLACE})"
                     rf"|\bmy\s+hometown\s+is\s+(?P<v3>{_PLACE})", b.place("hometown")),
    rule(C.LOCATION, rf"(?i)(?:{_I}(?:'ve\s+|’ve\s+|have\s+)?|^)"
                     rf"(?:(?:recently|finally|officially|{_ADVERBS})\s+)*"
                     rf"(?:moved|relocated)\s+to\s+(?P<v>{_PLACE})", b.place("home_city")),
    # problems
    rule(C.CONTEXT, STATE_NOW.pattern, this_while, "any"),  # 信号只有一格, 感冒了
    rule(C.CONTEXT, DEFERRED.pattern, fixed(None, session_only=True), "any"),  # 我再想想, put off
    rule(C.COMPLAINT, _RESOLVED, timed(EventStatus.RESOLVED, None), "any"),
    rule(C.COMPLAINT, _PROBLEM, _unless_here_now(timed(EventStatus.UNRESOLVED, None)), "ask"),
    # what the user does regularly, and lasting facts with a slot
    rule(C.ROUTINE, r".", routine),
    rule(C.FACT, rf"(?i){_IM}(?:very\s+|severely\s+|mildly\s+|really\s+)?allergic\s+to\s+(?P<obj>.+)"
                 r"|\bi\s+have\s+an?\s+(?P<obj2>[\w\s]+?)\s+allergy\b", b.fact_about("allergy")),
    rule(C.FACT, rf"(?i)\b(?:i|we)(?:\s+|(?='))(?:have|own|'ve\s+got|have\s+got)\s+"
                 rf"(?:an?|one|two|three|\d)\s+(?:little\s+|pet\s+|old\s+|young\s+)?(?P<pet>{_PET})s?\b"
                 r"(?:\s+(?:named|called)\s+(?P<name>(?-i:[A-Z][\w'-]*)))?", b.pet),
    rule(C.FACT, rf"(?i){_IM}(?:currently\s+|now\s+)?(?:learning|studying)\s+(?P<obj>.+)"
                 r"|\bi\s+(?:started|began)\s+learning\s+(?P<obj2>.+)", b.fact_about("learning")),
    rule(C.FACT, rf"(?i)(?:{_IM}|\b(?:went|gone|turned|became|become|going)\s+"
                 r"|(?<!never\s)(?<!not\s)\bbeen\s+)"  # "I've been vegan for 5 years", not "never been"
                 r"(?:a\s+|fully\s+|full\s+)?(?P<v>vegetarian|vegan|pescatarian)\b", slot_value("diet")),
    rule(C.FACT, rf"(?i){_IM}(?:no\s+longer|not)\s+(?:a\s+)?(?:vegetarian|vegan)(?:\s+any\s*more)?\b"
                 r"|(?:\bi\s+|^)(?:eat|started\s+eating|'m\s+eating|am\s+eating|eating)\s+(?:meat|chicken|beef|pork)"
                 r"(?:\s+(?:again|now))?\b",
         fixed("diet", "omnivore")),
    # fish again, no meat: "started eating fish again, doctor said I needed more protein"
    rule(C.FACT, r"(?i)(?:\bi\s+|^)(?:started\s+eating|'m\s+eating|am\s+eating|eating|eat)\s+"
                 r"(?:fish|seafood)\s+(?:again|now)\b", fixed("diet", "pescatarian")),
    rule(C.FACT, rf"(?i)(?:\bmy\s+|^)(?:birthday|b-?day)(?:\s+is|\s*'s)\s+(?:on\s+)?(?:the\s+)?"
                 rf"(?:(?P<mon>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>{_MONTH}))\b"
                 rf"|\bi\s+was\s+born\s+on\s+(?:the\s+)?(?:(?P<mon3>{_MONTH})\.?\s+(?P<d3>\d{{1,2}})"
                 rf"|(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon4>{_MONTH}))\b", b.birthday),
    # likes and dislikes
    rule(C.DISLIKE, rf"(?i){_I}{_ADV}(?:{_DISLIKE}|{_NOT_INTO})\s+{_VERB}(?P<obj>.*)", liking(-1)),
    rule(C.DISLIKE, rf"(?i){_I}(?:don't|do\s+not|never|no\s+longer|can't|cannot|won't|don't\s+really)\s+"
                    r"(?P<verb>eat|drink|use|touch|smoke)\s+(?P<obj>.+)", liking(-1, need_objects=True)),
    rule(C.DISLIKE, r"(?i)\bno\s+(?:more|longer)\s+(?!than\b)(?P<verb>drinking|eating|using)?\s*(?P<obj>.+)",
         liking(-1, need_objects=True), "any"),
    rule(C.DISLIKE, rf"(?i){_I}(?:quit|gave\s+up|stopped|have\s+stopped|'ve\s+stopped|cut\s+out)\s+"
                    r"(?P<verb>drinking|eating|using|smoking)?\s*(?P<obj>.+)", liking(-1, need_objects=True)),
    rule(C.DISLIKE, r"(?i)^(?:hate|can't\s+stand|not\s+a\s+(?:big\s+)?fan\s+of)\b\s*(?P<obj>.*)", liking(-1)),
    # "crossfit's not for me anymore"
    rule(C.DISLIKE, r"(?i)^(?!(?:it|this|that|these|those|they)\b)(?P<obj>[\w' -]{2,30}?)"
                    r"(?:'s|\s+is|\s+are)\s+(?:just\s+|really\s+)?not\s+for\s+me\b",
         liking(-1, need_objects=True)),
    rule(C.CONSTRAINT, r"(?i)^(?:please\s+)?(?:don't|do\s+not|never|no\s+need\s+to|stop|avoid)\s+"
                       r"(?!(?:like|love|eat|drink|care|know|think|want|have|worry)\b)(?P<obj>.+)",
         liking(-1), "any"),
    # a thing ruled out, said bare: "no fish, cant stand it", "no nuts please" (not "no worries")
    rule(C.CONSTRAINT, r"(?i)^(?:and\s+|also\s+|oh\s+and\s+)?no\s+"
                       r"(?!(?:problem|probs?|worries|idea|way|thanks|thank"
                       r"|one|time|rush|pressure|clue|doubt|kidding|joke|biggie|stress|need|more|longer|matter|luck"
                       r"|sweat|offen[cs]e|chance|comment|point|reply|answer|news|word|signal|kids?|children|pets?"
                       r"|car|job|siblings?|partner|boyfriend|girlfriend|husband|wife)\b)(?!.*\b(?:yet|anymore|left)\b)"
                       r"(?P<obj>[a-z][\w -]{1,25}?)(?:\s+(?:please|pls|plz|for\s+me|ever|at\s+all))*"
                       r"(?:\s+(?:if|when|unless|whenever|before|after)\b.+)?$",
         liking(-1), "any"),
    # what the user cannot live without: "veggie patch is basically my whole personality", "tea is life"
    rule(C.PREFERENCE, r"(?i)^(?:my\s+)?(?P<obj>[\w' -]{2,30}?)\s+(?:is|are)\s+"
                       r"(?:basically\s+|literally\s+|honestly\s+)?"
                       r"(?:my\s+(?:life|jam|thing|whole\s+personality|religion|happy\s+place)|life)\b",
         liking(1)),
    rule(C.PREFERENCE, rf"(?i){_I}{_ADV}(?:like|love|prefer|enjoy|adore|fancy|dig|value"
                       r"|care\s+(?:a\s+lot\s+)?about)"
                       rf"\s+{_VERB}(?P<obj>.+)", liking(1)),
    rule(C.PREFERENCE, r"(?i)\bi\s+can\s+(?:now\s+|finally\s+)?(?P<verb>eat|drink|handle)\s+(?P<obj>.+?)"
                       r"(?:\s+(?:now|again|these\s+days))?$", liking(1)),
    rule(C.PREFERENCE, rf"(?i){_IM}{_ADV}(?:{_INTO})\s+{_VERB}(?P<obj>.+)", liking(1)),
    # a dislike the user got over: "I've come around on cilantro", "warmed up to jazz"
    rule(C.PREFERENCE, r"(?i)\b(?:come|came|coming)\s+(?:a)?round\s+(?:on|to)\s+(?P<obj>.+)"
                       r"|\b(?:warmed|warming)\s+up\s+to\s+(?P<obj2>.+)", liking(1)),
    rule(C.PREFERENCE, r"(?i)\bmy\s+(?:(?:new|all[\s-]time)\s+)?(?:favou?rite|fave|go-to)\s+"
                       r"(?P<kind>[\w\s]+?)\s+(?:is|are)\s+(?P<obj>.+)"
                       r"|\b(?P<obj2>.+?)\s+(?:is|are)\s+my\s+(?:new\s+)?(?:favou?rite|fave|go-to)"
                       r"(?:\s+(?P<kind2>\w+))?\b"
                       # "Succession is my show now", "ramen is my thing these days"
                       r"|^(?P<obj3>[\w' -]+?)\s+is\s+my\s+(?:new\s+)?"
                       r"(?P<kind3>show|thing|jam|drink|game|band|song|sport|spot)\s+(?:now|these\s+days|nowadays)\b"
                       # "Indian has replaced Thai as my go-to"
                       r"|(?:\b(?:these\s+days|nowadays|lately|now),?\s+)?\b(?P<obj4>[\w' -]+?)\s+"
                       r"(?:has\s+|have\s+)?replaced\s+[\w' -]+?\s+as\s+my\s+(?:new\s+)?"
                       r"(?:favou?rite|fave|go-to)(?:\s+(?P<kind4>\w+))?\b",
         favorite),
    rule(C.PREFERENCE, rf"(?i){_I}(?:(?:just|recently|have|'ve)\s+)*(?:switched|changed|converted|moved\s+on)"
                       rf"\s+to\s+{_VERB}(?P<obj>.+)", liking(1)),
    rule(C.PREFERENCE, r"(?i)\b(?:i'?ve\s+|i\s+have\s+|i\s+)?(?:recently\s+)?(?:started|begun|began)\s+"
                       r"(?P<verb>drinking|eating|using|playing|watching|reading|listening\s+to|having)\s+(?P<obj>.+)"
                       r"|\b(?:i'?ve\s+|i\s+have\s+|i\s+)?(?:taken\s+up|took\s+up|picked\s+up|got\s+into"
                       r"|gotten\s+into)\s+(?P<obj2>.+)", liking(1)),
    rule(C.PREFERENCE, r"(?i)\bi\s+(?:usually|always|often|mostly|normally|typically|tend\s+to)\s+"
                       r"(?P<verb>drink|eat|use|order|get|have|wear|play|watch|read|listen\s+to)\s+(?P<obj>.+)",
         liking(1)),
    rule(C.PREFERENCE, r"(?i)^(?:love|loving|really\s+like|enjoy|prefer)\s+(?P<obj>.+)", liking(1)),
    # a change of habit is a lasting preference, whatever feeling comes with it ("way less jittery")
    rule(C.PREFERENCE, r"(?i)\b(?:switched|converted|(?<!\bto\s)(?<!should\s)(?<!might\s)(?<!could\s)"
                       r"(?<!would\s)(?<!will\s)(?<!'ll\s)(?<!may\s)(?<!\bi\s)switch(?:es)?)\s+"
                       r"(?:over\s+)?(?:from\s+[\w' -]+?\s+)?to\s+(?P<obj>.+)"
                       rf"|\bwent\s+(?P<obj2>{_DIETS})\b", liking(1)),
    rule(C.DISLIKE, rf"(?i)^(?:(?:{_LEADS}|so|just|finally|recently|officially)\s+)*(?:i\s+|i've\s+|we\s+)?"
                    r"(?:(?:just|finally|recently|officially)\s+)?(?:quit|gave\s+up|ditched|cut\s+out"
                    r"|stopped\s+(?:drinking|eating|using|buying))\s+(?P<obj>.+)",
         liking(-1, need_objects=True)),
    # what put the user off it, however scary: "my dentist scared me off coffee"
    rule(C.DISLIKE, r"(?i)\b(?:scared|put|turned)\s+me\s+off(?:\s+of)?\s+(?P<obj>.+)",
         liking(-1, need_objects=True)),
    # the moment, the task, plans and events
    rule(C.MOOD, _MOOD),
    rule(C.CONDITION, _CONDITION, b.condition, "ask"),
    rule(C.PLAN, MOVED, moved_plan),
    rule(C.PLAN, CALLED_OFF, timed(EventStatus.CANCELLED, None)),
    rule(C.PLAN, INTENT, timed(EventStatus.PLANNED, 1)),
    rule(C.PLAN, ARRANGED, timed(EventStatus.PLANNED, None, require_time=True)),
    rule(C.PLAN, r".", in_its_tense(timed(EventStatus.PLANNED, 1, require_time=True), planned=True)),
    rule(C.EVENT, r".", in_its_tense(timed(EventStatus.DONE, -1, require_time=True), planned=False)),
    rule(C.EVENT, FOUND_OUT, timed(EventStatus.DONE, -1), "any"),
    rule(C.EVENT, DID, timed(EventStatus.DONE, -1)),
    rule(C.EVENT, SPENT, timed(EventStatus.DONE, -1)),
    rule(C.EVENT, HAPPENED, timed(EventStatus.DONE, -1)),
    rule(C.EVENT, DONE, timed(EventStatus.DONE, -1)),
    rule(C.CONTEXT, NOW, fixed(None, session_only=True)),
    rule(C.CONTEXT, THEY_NOW, fixed(None, session_only=True), "any"),
    # anything else the user says about themselves, or how things are from now on ("from now 50% advance
    # via easypaisa and rest on delivery")
    rule(C.FACT, rf"(?i)^(?:(?:{_LEADS})\s+)*(?:i|i'm|im|i've|i'd|i'll|my|we|we're"
                 r"|from\s+now|going\s+forward)\b", b.first_person, "fallback"),
)
# fmt: on
