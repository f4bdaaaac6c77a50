"""``memlane demo``: one user's conversations over two weeks, message by message, showing what memlane
remembers, where, and why; then what later questions recall, the profile, and a context block.
"""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from memlane.domain import Action, Decision, Hit
from memlane.memory import Memory

_START = datetime(2025, 3, 3, 8, 30, tzinfo=timezone(timedelta(hours=8)))

# (day offset, session, message)
SCENARIOS: dict[str, list[tuple[int, str, str]]] = {
    "zh": [
        (0, "s1", "我叫阿白，平时喜欢喝美式，工作日早上9点开会。"),
        (0, "s1", "客服回复简洁一点，优先邮件联系，周末别给我打电话。"),
        (0, "s1", "我今天有点烦"),
        (0, "s1", "我现在在地铁上"),
        (0, "s1", "本轮预算500元以内"),
        (0, "s1", "我的身份证号是440304198808151232，帮我查下订单"),
        (9, "s2", "我最近开始喝冷萃了，不喝美式了"),
        (9, "s2", "上周买了一台iPhone 16，物流太慢了，到现在还没到"),
        (9, "s2", "哈哈，谢谢"),
    ],
    "en": [
        (0, "s1", "My name is Alex. I love americanos, and I have a team meeting every weekday at 9am."),
        (0, "s1", "Keep answers short, email me rather than call, and don't call me on weekends."),
        (0, "s1", "I'm a bit annoyed today"),
        (0, "s1", "I'm on the train right now"),
        (0, "s1", "My budget this time is under $500"),
        (0, "s1", "My card number is 4111 1111 1111 1111, can you check my order?"),
        (9, "s2", "I switched to cold brew, I don't drink americano anymore"),
        (9, "s2", "I bought an iPhone 16 last week and my order still hasn't arrived"),
        (9, "s2", "haha, thanks"),
    ],
}
_SECRETS = ("440304198808151232", "4111111111111111", "4111 1111 1111 1111")
QUESTIONS = {
    "zh": ["帮我推荐明天早上的饮料", "怎么联系这位用户比较好？", "用户的快递到了吗"],
    "en": [
        "Suggest a drink for tomorrow morning",
        "How should we contact this user?",
        "Has the user's order arrived?",
    ],
}
_STYLE = {
    Action.DISCARD: "dim",
    Action.SESSION: "yellow",
    Action.SEMANTIC: "green",
    Action.EPISODIC: "cyan",
    Action.PROFILE: "magenta",
}


def decisions_table(decisions: list[Decision]) -> Table:
    """One row per decision: action, text, reason and what reconcile did."""
    table = Table("action", "text", "why", "outcome", show_lines=False, expand=True)
    for d in decisions:
        style = _STYLE.get(d.action, "")
        table.add_row(
            f"[{style}]{d.action.value}[/]", escape(d.text), escape(d.reason), escape(d.outcome or "-")
        )
    return table


def hits_table(hits: list[Hit]) -> Table:
    """One row per search hit: score, kind, text and why it matched."""
    table = Table("score", "kind", "memory", "why", expand=True)
    for h in hits:
        table.add_row(
            f"{h.score:.3f}", h.memory.kind.value, escape(h.memory.text), escape(h.explain.get("why", ""))
        )
    return table


def run_demo(console: Console, lang: str, path: str | None = None) -> None:
    """Play the scenario in ``lang`` into a fresh (or the given) database and narrate it."""
    with tempfile.TemporaryDirectory() as tmp:
        db = path or str(Path(tmp) / "demo.db")
        console.print(f"[bold]memlane demo[/] ({lang}) — database: {db}\n")
        with Memory(db) as mem:
            console.print(f"embedder: {mem.embedder.runs_on()}\n", markup=False, highlight=False)
            _play(console, mem, lang)
        # check the claim on the bytes of the database and its WAL, not on what the API returns
        raw = b"".join(p.read_bytes() for p in Path(db).parent.glob(Path(db).name + "*"))
        leaked = [n for n in _SECRETS if n.encode() in raw]
        verdict = (
            "found in the database file!" if leaked else "appears nowhere in the database file or its WAL."
        )
        console.print(f"The ID/card number {verdict}")


def _play(console: Console, mem: Memory, lang: str) -> None:
    user = "abai" if lang == "zh" else "alex"
    for day, session, text in SCENARIOS[lang]:
        at = _START + timedelta(days=day)
        result = mem.add(text, user_id=user, session_id=session, at=at)
        console.print(f"[bold blue]{at:%Y-%m-%d}[/] [dim]{session}[/]  {escape(text)}")
        console.print(decisions_table(result.decisions))

    later = _START + timedelta(days=10)
    console.rule("later, in a new session: what do questions recall?")
    for question in QUESTIONS[lang]:
        console.print(f"\n[bold]? {question}[/]")
        console.print(hits_table(mem.search(question, user_id=user, limit=4, now=later)))

    console.rule("profile")
    for slot, value in mem.profile(user).items():
        console.print(f"  {slot} = {value}")

    console.rule("history of the drink preference")
    superseded = list(mem.list(user, status="superseded"))
    for item in superseded:
        for record in mem.history(item.id, user_id=item.user_id):
            console.print(
                f"  {record.op:<10} {record.before or '':<20} → {record.after or ''}  ({record.reason})"
            )

    console.rule("context block for a prompt (session s2, 200 tokens)")
    block = mem.context(QUESTIONS[lang][0], user_id=user, session_id="s2", max_tokens=200, now=later)
    console.print(Panel(Text(block.text), expand=False))
    console.print(f"\n{len(mem.list(user))} active memories for {user}.")
