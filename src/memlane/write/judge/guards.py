"""What the learned judge may not take apart: the structure the rules' word keeps.

A clause the rules decide alone (:func:`exact`), an instruction for every later answer
(:func:`standing`), a plan on a named day (:func:`on_its_day`), a habit (:func:`habitual`, never taken
for this moment), a statement of which
choice the user has now (:func:`states_a_choice`) and a long number no detector named
(:data:`LONG_NUMBER`) stay the rules' however the n-gram model or the second look reads them
(:mod:`memlane.write.judge.combined`).
"""

from __future__ import annotations

import re

from memlane.domain import Action, Candidate, Category, Decision, EventStatus
from memlane.text.recurrence import recurrence
from memlane.text.timeparse import find_times
from memlane.write.extract.events_en import FOUND_OUT
from memlane.write.extract.events_zh import FOUND_OUT as FOUND_OUT_ZH
from memlane.write.extract.holds import DEVICE_NOW, FROM_NOW_ON, HABITUAL, MOMENT, STANDING
from memlane.write.extract.leaving import left_behind, left_job
from memlane.write.extract.present_en import HABIT as HABIT_EN
from memlane.write.extract.present_en import THEY_NOW
from memlane.write.extract.present_zh import HABIT
from memlane.write.extract.rule import FAVORITE

# six digits or more, spaced, dotted or dashed: a number is the detectors' to name, so a clause holding
# one that the rules did not keep is never the model's to keep (it was trained on masked values only)
LONG_NUMBER = re.compile(r"\d(?:[\s.\-]?\d){5,}")
# how the user wants to be answered or reached
_INSTRUCTIONS = {Category.STYLE, Category.CONTACT}
# what the user does as a rule: "mostly i just take the bus", "我出门基本坐公交", "通勤路上我听播客"
_HABITS = {Category.PREFERENCE, Category.DISLIKE, Category.ROUTINE, Category.FACT}
# …said in the plain present
_HABIT_ZH, _HABIT_EN = re.compile(HABIT), re.compile(HABIT_EN)


def tier(action: Action) -> str:
    """``discard``, ``session`` or ``long-term``: the tier of an action."""
    return {Action.DISCARD: "discard", Action.SESSION: "session"}.get(action, "long-term")


def exact(candidate: Candidate) -> bool:
    """What the rules decide alone: anything the sensitive-data detectors found (never stored, masked
    or sealed by the policy), another speaker, a withdrawal, a request to remember."""
    return (
        candidate.role != "user"
        or candidate.remember_request
        or candidate.category in (Category.FORGET, Category.SENSITIVE)
        or candidate.event_status is EventStatus.RESOLVED  # closes an open complaint: structure
        or bool(candidate.sensitive)  # what the detectors found is the policy's business, exactly
    )


def standing(candidate: Candidate) -> bool:
    """Whether ``candidate`` tells how the user wants to be answered or reached from now on: an
    instruction for every later conversation, however much its words look like a request of this one
    ("以后这种你就直接给清单" reads as a request, 0.88; "if you would always set out instructions in
    numbered steps" as an imagined case, 0.68), unlike one for the task at hand ("I'm driving, keep it
    short", rightly one-off context to the model)."""
    return candidate.category in _INSTRUCTIONS and STANDING.search(candidate.text) is not None


# a calendar date, not a day named by the week ("周末", "on saturday": said of a habit as often as not)
_DATE = re.compile(
    r"\d|[一二三四五六七八九十]+\s*[号日]|月|(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
)


def on_its_day(candidate: Candidate) -> bool:
    """Whether ``candidate`` is a plan its words put on a date ("学校说11月8号开家长会", "our inspection
    is booked for april 10"), not on a day of the week or every such day: the date is structure the
    rules read exactly, and the n-gram model's lasting fact (background, 0.76) would keep it with no
    day to pass or to move."""
    if candidate.category is not Category.PLAN or candidate.event_time is None:
        return False
    if recurrence(candidate.text) is not None:
        return False  # "周末一般去爬山": every weekend, which the model may read as the habit it is
    said = find_times(candidate.text, candidate.event_time)
    return any(t.granularity in ("day", "hour", "minute") and _DATE.search(t.text) for t in said)


def momentary(candidate: Candidate) -> bool:
    """Whether the words of ``candidate`` say it is this moment's: the phone the user types on, how long
    they have, "right now" (holds.DEVICE_NOW, MOMENT), what someone else is in the middle of ("They
    are calling my name": an event to the model, 0.71; present_en.THEY_NOW)."""
    text = candidate.text
    return any(p.search(text) is not None for p in (DEVICE_NOW, MOMENT, _THEY_NOW))


def habitual(candidate: Candidate) -> bool:
    """Whether ``candidate`` is a habit the rules keep: a preference, routine or fact said with a word of
    habit or in the plain present (present_zh.HABIT, present_en.HABIT), and nothing that makes it this
    moment's. The n-gram model, which predates the training messages written for habits, reads "mostly i
    just take the bus" as one-off context (0.88), "通勤路上我听播客" too (0.79), and "I take the bus to
    work" (0.76)."""
    return (
        candidate.category in _HABITS
        and not candidate.session_only
        and any(p.search(candidate.text) for p in (HABITUAL, _HABIT_ZH, _HABIT_EN))
    )


def from_now_on(candidate: Candidate) -> bool:
    """Whether ``candidate``'s words say it holds from a time on ("from next monday my buses go dey run
    ikotun to oshodi only": a condition of the task to the n-gram model, 0.94), not for the task at hand."""
    return FROM_NOW_ON.search(candidate.text) is not None


def states_a_choice(decision: Decision) -> bool:
    """Whether ``decision`` keeps a statement of which choice the user has now: a change of mind that
    names what it leaves behind ("咖啡不喝了", "恐怖片看腻了", "switched from duolingo to wanikani",
    我离职了) or a favourite ("my favorite show is Friends", 我最喜欢的剧是繁花: one of its kind at a
    time). Kept, it retires the memories of the old choice, so no learned class takes it apart
    ("恐怖片看腻了" reads as a mood, 0.87; "My favorite show is Friends" as talk about the world)."""
    c = decision.candidate
    return (
        c is not None
        and tier(decision.action) == "long-term"
        and (
            bool(c.slot and c.slot.startswith(FAVORITE))
            or bool(left_behind(c.text))
            or left_job(c.text) is not None
        )
    )


_THEY_NOW = re.compile(THEY_NOW)
# what a check found: it settles what the user guessed before ("the man at the nursery examined the
# plant and said the yellowing is caused by overwatering" reads as a guess to the model, 0.86)
_FOUND_OUT = re.compile(f"{FOUND_OUT}|{FOUND_OUT_ZH}")


def settles(decision: Decision) -> bool:
    """Whether ``decision`` keeps a problem the user reported, a plan they called off or what a check
    found: its status is what later messages settle, a call-off settles an earlier plan ("I regret
    to say that the talent show has been cancelled" reads as a withdrawal to the second look, 0.72),
    and a finding settles a guess."""
    c = decision.candidate
    if decision.category is Category.COMPLAINT:
        return True
    return c is not None and (
        c.category is Category.COMPLAINT
        or (c.category is Category.PLAN and c.event_status is EventStatus.CANCELLED)
        or (c.category is Category.EVENT and _FOUND_OUT.search(c.text) is not None)
    )
