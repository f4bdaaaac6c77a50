"""The ``memlane`` command: a thin shell over :class:`memlane.Memory`.

Every error a user can cause prints one line and exits with code 2.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import click
from rich.console import Console
from rich.table import Table

from memlane.errors import MemlaneError
from memlane.memory import Memory

P = ParamSpec("P")
R = TypeVar("R")

console = Console()


def _fail_cleanly(command: Callable[P, R]) -> Callable[P, R]:
    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except MemlaneError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return run


def _memory(ctx: click.Context) -> Memory:
    path = ctx.obj.get("db") if ctx.obj else None
    return Memory(path) if path else Memory()


def _parse_time(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date or date-time (2024-06-10T09:00)") from None


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


class _Commands(click.Group):
    """A click group whose usage errors are one line (``error: ...``) and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            ctx.exit(2)


@click.group(cls=_Commands)
@click.option("--db", envvar="MEMLANE_PATH", help="SQLite file (default: the user's data directory).")
@click.version_option(package_name="memlane")
@click.pass_context
def main(ctx: click.Context, db: str | None) -> None:
    """memlane: long-term memory for LLM applications, offline by default."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@main.command()
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@click.option("--db", "demo_db", help="Keep the demo's memories in this file instead of a temporary one.")
@_fail_cleanly
def demo(lang: str, demo_db: str | None) -> None:
    """Walk through a scenario: what is remembered, where, why, and what later questions recall."""
    from memlane.cli.demo import run_demo

    run_demo(console, lang, demo_db)


@main.command()
@click.argument("text")
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option("--session", "session_id", help="Conversation (short-term memory) id.")
@click.option("--role", type=click.Choice(["user", "assistant"]), default="user", show_default=True)
@click.option("--at", "at", help="Message time, ISO 8601 (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the decisions as JSON.")
@click.pass_context
@_fail_cleanly
def add(
    ctx: click.Context,
    text: str,
    user_id: str,
    session_id: str | None,
    role: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Add a message: extract, judge and store what is worth remembering."""
    with _memory(ctx) as mem:
        result = mem.add(text, user_id=user_id, session_id=session_id, role=role, at=_parse_time(at))
    if as_json:
        _dump(
            [
                {
                    "action": d.action.value,
                    "text": d.text,
                    "reason": d.reason,
                    "outcome": d.outcome,
                    "memory_id": d.memory.id if d.memory else None,
                }
                for d in result.decisions
            ]
        )
        return
    from memlane.cli.demo import decisions_table

    console.print(decisions_table(result.decisions))


@main.command()
@click.argument("query")
@click.option("--user", "user_id", required=True)
@click.option("--limit", default=5, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def search(ctx: click.Context, query: str, user_id: str, limit: int, as_json: bool) -> None:
    """Search a user's memories; each hit says why it matched."""
    with _memory(ctx) as mem:
        hits = mem.search(query, user_id=user_id, limit=limit)
    if as_json:
        _dump([{"memory": h.memory.to_dict(), "score": h.score, "explain": h.explain} for h in hits])
        return
    from memlane.cli.demo import hits_table

    console.print(hits_table(hits))


@main.command()
@click.argument("query")
@click.option("--user", "user_id", required=True)
@click.option("--session", "session_id")
@click.option("--max-tokens", default=800, show_default=True, type=int)
@click.pass_context
@_fail_cleanly
def context(ctx: click.Context, query: str, user_id: str, session_id: str | None, max_tokens: int) -> None:
    """Print the prompt-ready context block for a query."""
    with _memory(ctx) as mem:
        block = mem.context(query, user_id=user_id, session_id=session_id, max_tokens=max_tokens)
    click.echo(block.text)


@main.command(name="list")
@click.option("--user", "user_id", required=True)
@click.option("--kind", "kinds", multiple=True, help="semantic, episodic, profile, summary (repeatable).")
@click.option("--status", default="active", show_default=True)
@click.option("--limit", default=100, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def list_(
    ctx: click.Context, user_id: str, kinds: tuple[str, ...], status: str, limit: int, as_json: bool
) -> None:
    """List a user's memories, newest first."""
    with _memory(ctx) as mem:
        items = mem.list(user_id, kinds=kinds, status=status, limit=limit)
    if as_json:
        _dump([m.to_dict() for m in items])
        return
    table = Table("id", "kind", "category", "text", "importance", "expires")
    for m in items:
        expires = m.expires_at.date().isoformat() if m.expires_at else "-"
        table.add_row(m.id[:12], m.kind.value, m.category.value, m.text, f"{m.importance:.2f}", expires)
    console.print(table)


@main.command()
@click.argument("memory_id")
@click.option("--user", "user_id", help="Owner (checked when given).")
@click.pass_context
@_fail_cleanly
def show(ctx: click.Context, memory_id: str, user_id: str | None) -> None:
    """Show one memory with all its metadata."""
    with _memory(ctx) as mem:
        _dump(mem.get(memory_id, user_id=user_id).to_dict())


@main.command()
@click.argument("memory_id")
@click.option("--user", "user_id")
@click.pass_context
@_fail_cleanly
def history(ctx: click.Context, memory_id: str, user_id: str | None) -> None:
    """Show what happened to a memory, oldest first."""
    with _memory(ctx) as mem:
        records = mem.history(memory_id, user_id=user_id)
    table = Table("when", "op", "actor", "before", "after", "reason")
    for r in records:
        table.add_row(
            r.at.isoformat(timespec="seconds"), r.op, r.actor.value, r.before or "", r.after or "", r.reason
        )
    console.print(table)


@main.command()
@click.option("--user", "user_id", required=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def profile(ctx: click.Context, user_id: str, as_json: bool) -> None:
    """Show a user's profile slots."""
    with _memory(ctx) as mem:
        slots = mem.profile(user_id)
    if as_json:
        _dump(slots)
        return
    table = Table("slot", "value")
    for slot, value in slots.items():
        table.add_row(slot, str(value))
    console.print(table)


@main.command()
@click.option("--user", "user_id", required=True)
@click.option("--tag", "tags", multiple=True, help="Forget only memories with this tag (repeatable).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
@_fail_cleanly
def forget(ctx: click.Context, user_id: str, tags: tuple[str, ...], yes: bool) -> None:
    """Delete a user's memories by tag, or everything about the user."""
    what = f"memories tagged {', '.join(tags)}" if tags else "EVERYTHING"
    if not yes and not click.confirm(f"Delete {what} for user {user_id!r}?", err=True):
        sys.exit(1)
    with _memory(ctx) as mem:
        count = mem.forget(user_id, tags=list(tags) if tags else None)
    click.echo(f"deleted {count} memories")


@main.command()
@click.option("--user", "user_id", required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to a file.")
@click.pass_context
@_fail_cleanly
def export(ctx: click.Context, user_id: str, output: str | None) -> None:
    """Export everything held about a user as JSON."""
    with _memory(ctx) as mem:
        document = mem.export(user_id)
    text = json.dumps(document, ensure_ascii=False, indent=2, default=str)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text)


@main.command()
@click.argument("user_id")
@click.option("--limit", default=50, show_default=True, type=int, help="How many entries, newest first.")
@click.option("--since", help="Only entries at or after this time (ISO 8601).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def audit(ctx: click.Context, user_id: str, limit: int, since: str | None, as_json: bool) -> None:
    """Show a user's audit log: who wrote, changed, deleted, exported or put into a context which
    memories, and when (ids only, never memory text).
    """
    with _memory(ctx) as mem:
        entries = mem.audit(user_id, since=_parse_time(since), limit=limit)
    if as_json:
        _dump([e.to_dict() for e in entries])
        return
    table = Table("when", "op", "actor", "caller", "memories", "detail")
    for e in entries:
        ids = ", ".join(i[:12] for i in e.memory_ids[:3]) + (" …" if len(e.memory_ids) > 3 else "")
        table.add_row(e.at.isoformat(timespec="seconds"), e.op, e.actor.value, e.caller or "", ids, e.detail)
    console.print(table)


@main.group(name="data-key", cls=_Commands)
def data_key() -> None:
    """The key that encrypts memories whose sensitive kind is set to "encrypt" (MEMLANE_DATA_KEY)."""


@data_key.command(name="new")
def data_key_new() -> None:
    """Print a new random data key (base64), to put in MEMLANE_DATA_KEY."""
    from memlane.privacy.crypto import DataKey

    click.echo(DataKey.generate().encoded())


@data_key.command(name="rotate")
@click.option("--old-key", envvar="MEMLANE_DATA_KEY", required=True, help="Default: MEMLANE_DATA_KEY.")
@click.option("--new-key", envvar="MEMLANE_NEW_DATA_KEY", required=True, help="Or MEMLANE_NEW_DATA_KEY.")
@click.pass_context
@_fail_cleanly
def data_key_rotate(ctx: click.Context, old_key: str, new_key: str) -> None:
    """Re-encrypt every encrypted memory under a new key; then set MEMLANE_DATA_KEY to the new one."""
    path = ctx.obj.get("db") if ctx.obj else None
    with Memory(path, data_key=old_key) if path else Memory(data_key=old_key) as mem:
        count = mem.rotate_data_key(old_key, new_key)
    click.echo(f"re-encrypted {count} memories")


@main.command()
@click.option("--now", "now", help="Pretend it is this time (ISO 8601).")
@click.option(
    "--every",
    type=click.FloatRange(min=1.0),
    help="Keep running: maintain every this many seconds (a schedule for the embedded default).",
)
@click.option("--runs", type=click.IntRange(min=1), help="With --every: stop after this many runs.")
@click.pass_context
@_fail_cleanly
def maintain(ctx: click.Context, now: str | None, every: float | None, runs: int | None) -> None:
    """Run the lifecycle jobs that are due: end idle sessions, merge trends, compress old events,
    expire, decay, rebuild user summaries. With --every, keep doing so on a schedule.
    """
    with _memory(ctx) as mem:
        done = 0
        while True:
            report = mem.maintain(now=_parse_time(now))
            _dump(report.__dict__)
            done += 1
            if every is None or (runs is not None and done >= runs):
                return
            time.sleep(every)


from memlane.cli.eval import eval_group  # noqa: E402  (registered last: the group lives in its own module)

main.add_command(eval_group)
from memlane.cli.simulate import simulate  # noqa: E402

main.add_command(simulate)
from memlane.cli.bench import bench  # noqa: E402  (registered last: the group lives in its own module)

main.add_command(bench)
from memlane.cli.serve import keys, link, serve, worker  # noqa: E402

main.add_command(serve)
main.add_command(worker)
main.add_command(keys)
main.add_command(link)
from memlane.cli.agents import mcp, proxy  # noqa: E402

main.add_command(mcp)
main.add_command(proxy)
