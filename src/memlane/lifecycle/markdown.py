"""An export as a readable Markdown file, in Chinese or English: what memlane remembers about a user,
laid out for a person rather than a program (the JSON export stays the one to restore from).

Every piece of stored text is escaped, so a memory that says ``[click](https://evil.example)`` or
``<script>`` reads as those characters in any Markdown viewer and never becomes a link or markup::

    document = mem.export("u1")
    Path("u1.md").write_text(to_markdown(document, "zh"), encoding="utf-8")
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

from memlane.lifecycle.portrait import SLOT as PORTRAIT

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&:])")
_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "What memlane remembers about {user}",
        "exported": "Exported {at} (UTC). The JSON export holds the same, and can be restored.",
        "summary": "Summary",
        "profile": "Profile",
        "slot": "Slot",
        "value": "Value",
        "since": "Since",
        "semantic": "Facts and preferences",
        "episodic": "Events",
        "summaries": "Summaries and digests",
        "sessions": "Current conversations",
        "inactive": "No longer active",
        "why": "why kept",
        "scores": "importance {i}, confidence {c}",
        "status": "status",
        "turns": "{n} turns",
        "log": "Conversation log: {n} turns (kept for a limited time, sensitive values masked).",
        "audit": "Audit trail: {n} entries (writes, reads, exports, deletions).",
        "none": "Nothing.",
    },
    "zh": {
        "title": "memlane 记得的关于 {user} 的内容",
        "exported": "导出于 {at}（UTC）。JSON 导出包含相同内容，并可用于恢复。",
        "summary": "概要",
        "profile": "个人资料",
        "slot": "项目",
        "value": "值",
        "since": "起始",
        "semantic": "事实与偏好",
        "episodic": "事件",
        "summaries": "摘要与汇总",
        "sessions": "当前对话",
        "inactive": "已不再生效",
        "why": "保留原因",
        "scores": "重要度 {i}，可信度 {c}",
        "status": "状态",
        "turns": "{n} 轮",
        "log": "对话记录：{n} 轮（保留有限时间，敏感信息已遮盖）。",
        "audit": "审计记录：{n} 条（写入、读取、导出、删除）。",
        "none": "无。",
    },
}


def escape(text: object) -> str:
    """``text`` as literal Markdown: every character that could start markup is backslash-escaped,
    and line breaks become spaces (a memory is one line of the file)."""
    flat = " ".join(str(text).split())
    return _SPECIAL.sub(r"\\\1", flat)


def _when(value: Any) -> str:
    if not value:
        return ""
    try:
        at = datetime.fromisoformat(str(value))
    except ValueError:
        return escape(value)
    if at.tzinfo is not None:
        at = at.astimezone(timezone.utc)
    return at.strftime("%Y-%m-%d %H:%M")


def _items(rows: Iterable[Mapping[str, Any]], t: dict[str, str], dated: bool = False) -> list[str]:
    out = []
    for m in rows:
        head = f"{_when(m.get('valid_from') or m.get('created_at'))} · " if dated else ""
        status = f" ({t['status']}: {escape(m['event_status'])})" if m.get("event_status") else ""
        scores = t["scores"].format(
            i=f"{float(m.get('importance', 0)):.2f}", c=f"{float(m.get('confidence', 0)):.2f}"
        )
        why = f" — {t['why']}: {escape(m['reason'])}" if m.get("reason") else ""
        out.append(f"- {head}{escape(m.get('text', ''))}{status}  \n  {scores}{why}")
    return out or [t["none"]]


def to_markdown(document: Mapping[str, Any], lang: str = "en") -> str:
    """The export ``document`` (``Memory.export``) as Markdown, labelled in ``lang`` (zh or en)."""
    t = _LABELS.get(lang, _LABELS["en"])
    sealed = {s["memory_id"]: s["text"] for s in document.get("sealed") or []}
    memories = [{**m, "text": sealed.get(m["id"], m.get("text", ""))} for m in document.get("memories", [])]
    active = [m for m in memories if m.get("status") == "active"]
    by_kind = {
        k: [m for m in active if m.get("kind") == k] for k in ("semantic", "episodic", "profile", "summary")
    }
    lines = [
        f"# {t['title'].format(user=escape(document.get('user_id', '')))}",
        "",
        t["exported"].format(at=_when(document.get("exported_at"))),
        "",
    ]
    portrait = [m for m in by_kind["summary"] if m.get("slot") == PORTRAIT]
    if portrait:
        lines += [f"## {t['summary']}", "", escape(portrait[0]["text"]), ""]
    lines += [f"## {t['profile']}", ""]
    versions = [v for v in document.get("profile_versions", []) if v.get("current")]
    if versions:
        lines += [f"| {t['slot']} | {t['value']} | {t['since']} |", "|---|---|---|"]
        lines += [
            f"| {escape(v['slot'])} | {escape(v['value'])} | {_when(v.get('created_at'))} |" for v in versions
        ]
    else:
        lines.append(t["none"])
    lines += ["", f"## {t['semantic']}", "", *_items([*by_kind["profile"], *by_kind["semantic"]], t), ""]
    lines += [f"## {t['episodic']}", "", *_items(by_kind["episodic"], t, dated=True), ""]
    others = [m for m in by_kind["summary"] if m not in portrait]
    lines += [f"## {t['summaries']}", "", *_items(others, t, dated=True), ""]
    sessions = document.get("sessions", [])
    lines += [f"## {t['sessions']}", ""]
    for s in sessions:
        turns = t["turns"].format(n=len(s.get("turns", [])))
        lines.append(f"- {escape(s['id'])} · {_when(s.get('updated_at'))} · {turns}")
        lines += [
            f"  - {escape(turn.get('role', ''))}: {escape(turn.get('content', ''))}"
            for turn in s.get("turns", [])
        ]
    if not sessions:
        lines.append(t["none"])
    inactive = [m for m in memories if m.get("status") != "active"]
    if inactive:
        lines += ["", f"## {t['inactive']}", ""]
        lines += [
            f"- {escape(m.get('text', ''))} ({t['status']}: {escape(m.get('status'))})" for m in inactive
        ]
    lines += [
        "",
        t["log"].format(n=len(document.get("log", []))),
        "",
        t["audit"].format(n=len(document.get("audit", []))),
        "",
    ]
    return "\n".join(lines)
