"""What a clause is for, read with the rest of its message: a condition of the request before it
("帮我订机票，不要红眼航班"), or part of the moment the message tells ("正在医院排队取号，回复简短点"); or a
way to answer or to work said for today alone ("今天用英文回答我"). Each holds for this conversation
only, and never against later ones."""

from __future__ import annotations

import re
from dataclasses import replace

from memlane.domain import Candidate, Category, EventStatus
from memlane.text.lang import fold

from .clauses import Clause
from .holds import LASTING, STANDING, TODAY
from .lexicon import THING_SPEC_ZH, TO_BUY_ZH

# someone who does it, or an intention: what makes a time a plan rather than a due date
_SUBJECT = re.compile(
    r"我|咱|打算|准备|计划|(?i:\b(?:i|i'?m|i'?ll|we|we'?re|we'?ll|my|our|going\s+to|gonna|plan)\b)"
)

# a constraint said as lasting: by its words, or by its subject ("I never fly red-eye")
_LASTING_CONSTRAINT = re.compile(
    r"以后|平时|一般|从来|^我|(?i:\b(?:never|ever|any\s*more|no\s+longer)\b|^(?:i|we)\b)"
)

# how the assistant talks to the user, whatever it is asked: a way to answer that holds for every answer
# ("另外你说话简单点别整那么一大段", "and talk to me like a friend", "回答我直接上代码哈"), not how to word
# this letter
_HOW_YOU_TALK = re.compile(
    r"(?:你|您)(?:说话|讲话|回话)|跟我说话|和我说话|^(?:你|您)?(?:回答|回复)我"
    r"|(?i:\b(?:talk|speak)(?:ing)?\s+to\s+me\b|^(?:when\s+you\s+)?(?:answer|reply\s+to|respond\s+to)\s+me\b)"
)


def of_the_request(c: Candidate) -> Candidate:
    """A constraint, a way to answer or a time said after a request, bare (no subject, no word that
    makes it last), as what it is: a condition of that request ("帮我订机票，不要红眼航班", "find me a
    hotel in Rome, don't pick anything near the station", 帮我写封辞职信，语气客气点, 帮我订个蛋糕，周六下午
    送到), kept for this conversation and never against later ones."""
    if LASTING.search(c.text) or STANDING.search(c.text):
        return c
    if c.category is Category.STYLE and _HOW_YOU_TALK.search(c.text):
        return c
    # a bare constraint (not a profile slot such as avoid_channel), and when the thing asked for is due
    # (not a plan of the user's: "我周六去杭州")
    bare = c.value is None and not _LASTING_CONSTRAINT.search(fold(c.text))
    # (a plan called off or over is no time anything asked for is due: "cancelled netflix last week")
    due = not _SUBJECT.search(c.text) and c.event_status in (None, EventStatus.PLANNED)
    # …and what the thing asked for must be, said as one of the user's ("帮我挑个笔记本，内存32G")
    spec = c.category is Category.FACT and THING_SPEC_ZH.match(c.text) is not None
    if c.category is Category.STYLE:  # how to word this letter, not every answer
        c = replace(c, slot=None, value=None)
    elif not ((c.category is Category.CONSTRAINT and bare) or (c.category is Category.PLAN and due) or spec):
        return c
    return replace(c, category=Category.CONDITION, session_only=True, event_time=None, event_status=None)


def plans(c: Candidate, text: str) -> bool:
    """Whether a clause sets out to do or buy something ("this weekend's trip", "想买个手机"): a bare
    constraint after it, or what the thing must be, is a condition of that (:func:`of_the_plan`)."""
    return c.category is Category.PLAN or TO_BUY_ZH.search(text) is not None


def of_the_plan(c: Candidate) -> Candidate:
    """A bare constraint said after a plan ("this weekend's trip: no driving more than 2 hours"), or
    what one of the user's things is said after they set out to buy one ("想买个手机，内存32G的"), as
    what it is: a condition of that plan or purchase, not how the user lives or what they own."""
    if c.category is Category.CONSTRAINT or THING_SPEC_ZH.match(c.text):
        return of_the_request(c)
    return c


# the slots that say how the user wants to be answered or how they work: ways a day may change
_WAYS = ("language", "response_style", "tone", "plain_language", "work_mode")


def of_today(c: Candidate) -> Candidate:
    """A way to answer or to work said for today or this week alone, with no word that makes it last,
    as what it is: a condition of this conversation's answers ("今天用英文回答我", "今晚的回复简短一点"),
    or where the user is this while ("我今天在家办公"). It sets no profile slot."""
    if c.category is not Category.STYLE and c.slot not in _WAYS:
        return c
    if not TODAY.search(c.text) or LASTING.search(c.text):
        return c
    kind = Category.CONDITION if c.category is Category.STYLE else Category.CONTEXT
    return replace(c, category=kind, slot=None, value=None, session_only=True)


def in_the_moment(found: list[tuple[Candidate, Clause]]) -> list[tuple[Candidate, Clause]]:
    """A way to answer or to be reached said in a message about where the user is or what they are
    doing right now, with no word that makes it last, as what it is: part of this moment, kept for
    this conversation ("正在医院排队取号，回复简短点", "现在在开meeting，回我短一点", "I'm in a cab, be
    brief"). "please keep it short, i read these on my commute" tells a habit, and stays how to answer."""
    if not any(c.category is Category.CONTEXT for c, _ in found):
        return found
    return [
        (
            replace(c, category=Category.CONTEXT, slot=None, value=None, session_only=True)
            if c.category in (Category.STYLE, Category.CONTACT)
            and not LASTING.search(c.text)
            and not STANDING.search(c.text)
            else c,
            clause,
        )
        for c, clause in found
    ]
