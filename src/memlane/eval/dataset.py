"""LoCoMo-format data: conversations, questions, session date-times and the evidence repairs.

The schema is LoCoMo's (github.com/snap-research/locomo). A sample splits into two parts that never
meet before a conversation has been ingested: :func:`read_conversation` sees only the
``conversation`` mapping (speakers, turns, image captions, session date-times), and
:func:`read_questions` reads ``qa`` afterwards. ``observation``, ``session_summary`` and
``event_summary`` are never read at all.

>>> parse_when("1:56 pm on 8 May, 2023").isoformat()
'2023-05-08T13:56:00'
>>> parse_when("2023年5月8日 下午1:56").isoformat()
'2023-05-08T13:56:00'
>>> repair_evidence(["D8:6; D9:17", "D:11:26", "D30:05", "D99:1"], {"D8:6", "D9:17", "D11:26", "D30:5"})
['D8:6', 'D9:17', 'D11:26', 'D30:5']
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memlane.errors import InvalidInput
from memlane.text.lang import has_cjk

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
"""LoCoMo category codes as used in ``locomo10.json`` (checked against the paper's counts)."""

CATEGORY_ORDER = ("single-hop", "multi-hop", "temporal", "open-domain", "adversarial")
"""The order categories are reported in."""

SCORABLE_QUESTIONS = 1982
"""Questions left with evidence after the repairs, on the full ``locomo10.json``."""

LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
"""The published file the reference numbers were measured on."""

TURN_SPACING = timedelta(seconds=30)  # successive turns of a session get increasing times, keeping order

_SESSION = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D:?0*(\d+):0*(\d+)")  # repairs 'D:11:26' (stray colon) and 'D30:05' (leading zero)
_MONTH_NAMES = "january february march april may june july august september october november december".split()
_MONTHS = (
    {name: i + 1 for i, name in enumerate(_MONTH_NAMES)}
    | {name[:3]: i + 1 for i, name in enumerate(_MONTH_NAMES)}
    | {"sept": 9}
)
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_EN_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?", re.IGNORECASE)
_EN_DAY_MONTH = re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?,?\s+(\d{{4}})", re.IGNORECASE)
_EN_MONTH_DAY = re.compile(rf"({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})", re.IGNORECASE)
_NUMERIC_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_24H_CLOCK = re.compile(r"(?<![\d:])(\d{1,2})[:：](\d{2})(?![\d:])")
_ZH_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?")
_ZH_CLOCK = re.compile(
    r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?\s*(\d{1,2})\s*(?:[:：]\s*(\d{2})|点\s*(?:(\d{1,2})\s*分|(半))?)"
)
_ZH_AFTERNOON = {"中午", "下午", "傍晚", "晚上", "夜里"}


@dataclass(frozen=True)
class Turn:
    """One turn of a conversation, as a chat app would receive it."""

    dia_id: str
    speaker: str
    text: str  # the utterance, with the shared photo's caption as text when there is one
    at: datetime

    def message(self) -> dict[str, Any]:
        """The message dict passed to :meth:`memlane.Memory.add`; its id becomes the provenance."""
        return {"role": "user", "content": self.text, "name": self.speaker, "id": self.dia_id, "at": self.at}


@dataclass(frozen=True)
class SessionLog:
    """One session: its key (``session_3``), its date-time and its turns in order."""

    key: str
    at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Conversation:
    """What a memory system may read of a sample: speakers, sessions, turns, captions and times."""

    sample_id: str
    sessions: tuple[SessionLog, ...]

    @property
    def turns(self) -> list[Turn]:
        """Every turn, in order."""
        return [t for s in self.sessions for t in s.turns]

    @property
    def turn_ids(self) -> frozenset[str]:
        """The ``dia_id`` of every turn: the ids evidence may point at."""
        return frozenset(t.dia_id for t in self.turns)

    @property
    def ended_at(self) -> datetime:
        """The time of the last turn."""
        return max(t.at for t in self.turns)

    def transcript(self) -> str:
        """The whole conversation as ``speaker: text`` lines: what a prompt without memory would hold."""
        return "\n".join(f"{t.speaker}: {t.text}" for t in self.turns)


@dataclass(frozen=True)
class Question:
    """A scorable question: its category name and its repaired, existing evidence turns."""

    sample_id: str
    index: int  # position in the sample's ``qa`` list
    text: str
    category: str
    evidence: tuple[str, ...]


def load(path: str | Path) -> list[Mapping[str, Any]]:
    """The samples of a LoCoMo-format JSON file (a list of ``{sample_id, conversation, qa, ...}``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from None
    if not isinstance(data, list) or not all(
        isinstance(s, Mapping) and "sample_id" in s and "conversation" in s for s in data
    ):
        raise InvalidInput(f"{path} is not a list of LoCoMo samples with sample_id and conversation")
    return data


def parse_when(text: str) -> datetime:
    """A session date-time in English (``1:56 pm on 8 May, 2023``), ISO 8601 or Chinese
    (``2023年5月8日 下午1:56``), as a naive datetime; a date without a clock time means midnight.
    """
    value = text.strip()
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError:
        pass
    day = _date(value)
    if day is None:
        raise InvalidInput(f"cannot read the date-time {text!r}")
    hour, minute = _clock(value)
    return day.replace(hour=hour, minute=minute)


def _date(value: str) -> datetime | None:
    try:
        if m := _ZH_DATE.search(value):
            return datetime(int(m[1]), int(m[2]), int(m[3]))
        if m := _NUMERIC_DATE.search(value):
            return datetime(int(m[1]), int(m[2]), int(m[3]))
        if m := _EN_DAY_MONTH.search(value):
            return datetime(int(m[3]), _MONTHS[m[2].lower()], int(m[1]))
        if m := _EN_MONTH_DAY.search(value):
            return datetime(int(m[3]), _MONTHS[m[1].lower()], int(m[2]))
    except ValueError:  # 31 June and the like
        return None
    return None


def _clock(value: str) -> tuple[int, int]:
    if m := _EN_CLOCK.search(value):
        hour = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
        return hour, int(m[2] or 0)
    # the Chinese clock is looked for after the date, so that 5月8日 is not read as a time
    date = _ZH_DATE.search(value)
    rest = value[date.end() :] if date else value
    if date and (m := _ZH_CLOCK.search(rest)):
        hour = int(m[2])
        if m[1] in _ZH_AFTERNOON and hour < 12:
            hour += 12
        minute = 30 if m[5] else int(m[3] or m[4] or 0)
        return hour % 24, minute
    if m := _24H_CLOCK.search(rest):
        return int(m[1]) % 24, int(m[2])
    return 0, 0


def _turn_text(raw: Mapping[str, Any]) -> str:
    text = str(raw.get("text") or "").strip()
    caption = str(raw.get("blip_caption") or "").strip()
    if not caption:
        return text
    shared = f"[分享了一张照片：{caption}]" if has_cjk(caption) else f"[shares a photo: {caption}]"
    return f"{text} {shared}".strip()


def read_conversation(sample_id: str, conversation: Mapping[str, Any]) -> Conversation:
    """The sessions that have turns, in session order, each turn timed from its session's date-time."""
    numbered = sorted(
        (int(m[1]), key)
        for key in conversation
        if (m := _SESSION.fullmatch(key)) and isinstance(conversation[key], list) and conversation[key]
    )
    sessions: list[SessionLog] = []
    for _, key in numbered:
        stamp = conversation.get(f"{key}_date_time")
        if not isinstance(stamp, str):
            raise InvalidInput(f"{sample_id}: {key} has turns but no {key}_date_time")
        try:
            start = parse_when(stamp)
        except InvalidInput as exc:
            raise InvalidInput(f"{sample_id}: {key}_date_time: {exc}") from None
        turns: list[Turn] = []
        for raw in conversation[key]:
            text = _turn_text(raw)
            if text:  # an empty turn is nothing a chat app would receive
                at = start + TURN_SPACING * len(turns)
                turns.append(Turn(dia_id=str(raw["dia_id"]), speaker=str(raw["speaker"]), text=text, at=at))
        sessions.append(SessionLog(key=key, at=start, turns=tuple(turns)))
    if not sessions:
        raise InvalidInput(f"{sample_id}: the conversation has no sessions with turns")
    return Conversation(sample_id=sample_id, sessions=tuple(sessions))


def repair_evidence(evidence: Sequence[str], known: Collection[str]) -> list[str]:
    """Evidence ids split on ``;`` and spaces, without stray colons or leading zeros, and only those
    that name an existing turn, each once and in order.
    """
    out: list[str] = []
    for entry in evidence:
        for token in re.split(r"[;,\s]+", str(entry)):
            m = _DIA_ID.fullmatch(token.strip())
            if m is None:
                continue
            dia_id = f"D{int(m[1])}:{int(m[2])}"
            if dia_id in known and dia_id not in out:
                out.append(dia_id)
    return out


def read_questions(sample_id: str, qa: Sequence[Mapping[str, Any]], known: Collection[str]) -> list[Question]:
    """The sample's scorable questions: those left with evidence after :func:`repair_evidence`."""
    out = []
    for i, raw in enumerate(qa):
        code = raw.get("category")
        if code not in CATEGORIES:
            raise InvalidInput(f"{sample_id}: qa[{i}] has an unknown category {code!r}")
        evidence = repair_evidence(raw.get("evidence") or [], known)
        if evidence:
            text = str(raw["question"])
            out.append(Question(sample_id, i, text, CATEGORIES[code], tuple(evidence)))
    return out


def scorable(samples: Sequence[Mapping[str, Any]]) -> list[Question]:
    """Every scorable question of ``samples`` (reads ``qa``: call it only to count or after ingestion)."""
    out: list[Question] = []
    for sample in samples:
        sample_id = str(sample["sample_id"])
        known = read_conversation(sample_id, sample["conversation"]).turn_ids
        out.extend(read_questions(sample_id, sample.get("qa") or [], known))
    return out
