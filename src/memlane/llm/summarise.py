"""The LLM summariser: episode summaries at session end and monthly digests, with the rules as fallback.

Both answers are lists of short points; memlane writes the title ("Conversation on 2024-06-10: ...")
and joins the points itself, so digests keep growing in place exactly as with the rules.

- **Session summaries** (stage ``session_summary``): one call per ended session, from its (already
  redacted) turns and the rules' extractive points. A session where nothing was kept and the user said
  little (under 12 English words or 20 Chinese characters) costs no call.
- **Period digests** (stage ``period_summary``): one call when a monthly digest of three or more
  points is written or grows; the model merges points that say the same thing instead of cutting the
  list at its limit, and must keep every open issue.

A failure (unreachable, a refusal, two unusable answers, or an empty answer where the rules had
points) is logged on ``memlane.llm`` and counted, and the rules' points are used.
"""

from __future__ import annotations

import re

from memlane.domain import Session
from memlane.text.lang import detect

from .ask import Unusable, ask, fall_back
from .client import ChatClient, LLMStats, LLMUnavailable
from .extract import worth_asking
from .parse import ParseError
from .prompts import SummaryAnswer, period_summary_prompt, session_summary_prompt

SESSION_STAGE = "session_summary"
PERIOD_STAGE = "period_summary"
_SESSION_POINTS = 6
_PERIOD_POINTS = 12
_OPEN = {"zh": "未解决", "en": "unresolved"}  # how a digest marks an open issue (lifecycle/consolidate.py)
_SEPARATOR = re.compile(r"\s*[；;]\s*")  # separates points in a stored summary: not allowed inside one
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)、])\s*")


def _clean(points: list[str], most: int) -> list[str]:
    """Points as a stored summary can hold them: no bullets, no separators inside, no repeats."""
    out = []
    for point in points:
        text = _SEPARATOR.sub("，" if detect(point) == "zh" else ", ", _BULLET.sub("", point)).strip(
            " ,，。."
        )
        if text:
            out.append(text)
    return list(dict.fromkeys(out))[:most]


class LLMSummariser:
    """Writes session summaries and compresses period digests with an LLM (a
    :class:`~memlane.lifecycle.maintain.Summariser`).

    >>> from memlane.llm import ChatClient
    >>> summariser = LLMSummariser(ChatClient("http://localhost:11434/v1", "qwen2.5:7b"))  # doctest: +SKIP
    """

    def __init__(self, client: ChatClient) -> None:
        self.client = client

    @property
    def stats(self) -> LLMStats:
        """Calls, tokens, latency and failures by stage."""
        return self.client.stats

    def summarise_session(self, session: Session, draft: list[str]) -> list[str]:
        """The episode summary's points for ``session``; ``draft`` (the rules' points) on failure."""
        said = " ".join(t.content for t in session.turns if t.role == "user")
        if not draft and not worth_asking(said, min_words=12, min_chars=20):
            return draft
        lang = detect(" ".join(t.content for t in session.turns[-5:]) or " ".join(draft))
        turns = [(t.role, t.content) for t in session.turns]
        prompt = session_summary_prompt(turns, draft, session.created_at.date(), lang, _SESSION_POINTS)

        def check(answer: SummaryAnswer) -> None:
            if draft and not _clean(answer.points, _SESSION_POINTS):
                raise ParseError("the points were empty; summarise what the user said in a few points")

        try:
            answer = ask(
                self.client,
                prompt,
                SummaryAnswer,
                stage=SESSION_STAGE,
                lang=lang,
                list_key="points",
                check=check,
            )
        except (LLMUnavailable, Unusable) as exc:
            fall_back(self.client, SESSION_STAGE, f"session {session.id}", exc)
            return draft
        return _clean(answer.points, _SESSION_POINTS)

    def compress_period(self, title: str, points: list[str], lang: str) -> list[str]:
        """Fewer, merged points for the digest ``title``; ``points`` themselves on failure."""
        lang = lang if lang in _OPEN else "en"
        most = min(_PERIOD_POINTS, len(points))
        open_issue = _OPEN[lang]

        def check(answer: SummaryAnswer) -> None:
            kept = _clean(answer.points, most)
            if not kept:
                raise ParseError("the points were empty; give the compressed points")
            if any(open_issue in p for p in points) and not any(open_issue in p for p in kept):
                raise ParseError(f'an open issue was lost; keep every point marked "{open_issue}"')

        prompt = period_summary_prompt(title, points, lang, most)
        try:
            answer = ask(
                self.client,
                prompt,
                SummaryAnswer,
                stage=PERIOD_STAGE,
                lang=lang,
                list_key="points",
                check=check,
            )
        except (LLMUnavailable, Unusable) as exc:
            fall_back(self.client, PERIOD_STAGE, title, exc)
            return points
        return _clean(answer.points, most)
