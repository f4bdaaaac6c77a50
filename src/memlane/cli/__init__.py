"""The ``memlane`` command: a thin shell over :class:`memlane.Memory`.

Every error a user can cause prints one line and exits with code 2. A text argument (a message, a
query, a correction) or a file argument given as ``-`` is read from standard input. Commands about
one memory take its full id, as ``list`` prints it, or an unambiguous prefix of it; ``--user`` is
optional there (the CLI is a single-tenant tool: :meth:`memlane.Memory.owner_of` finds the user).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any, BinaryIO, ParamSpec, TypeVar

import click
from rich.console import Console
from rich.table import Table

from memlane.cli.options import search_options
from memlane.errors import InvalidInput, MemlaneError
from memlane.memory import Memory
from memlane.read.options import SearchOptions

P = ParamSpec("P")
R = TypeVar("R")

CALLER = "cli"  # the name the audit log records for what this command does

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


def _text(value: str) -> str:
    """``value``, or standard input when it is ``-`` (one trailing newline dropped)."""
    if value != "-":
        return value
    stream: BinaryIO = sys.stdin.buffer
    data = stream.read()
    try:
        text: str = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"standard input is not valid UTF-8 (byte {exc.start})") from None
    return text[:-1] if text.endswith("\n") else text


class _Commands(click.Group):
    """A click group whose usage errors and memlane errors are one line (``error: ...``) and exit
    code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            ctx.exit(2)
        except MemlaneError as exc:  # a command's own (a bad MEMLANE_* value read outside _fail_cleanly)
            click.echo(f"error: {exc}", err=True)
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
    """Add a message ("-": read it from standard input): extract, judge and store what is worth
    remembering."""
    message = _text(text)
    with _memory(ctx) as mem:
        result = mem.add(
            message, user_id=user_id, session_id=session_id, role=role, at=_parse_time(at), caller=CALLER
        )
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
@click.option("--json", "as_json", is_flag=True)
@search_options
@click.pass_context
@_fail_cleanly
def search(ctx: click.Context, query: str, user_id: str, as_json: bool, options: SearchOptions) -> None:
    """Search a user's memories ("-": the query from standard input); each hit says why it matched.

    The options are the fields of memlane.SearchOptions, checked as the Python API checks them.
    """
    with _memory(ctx) as mem:
        hits = mem.search(_text(query), user_id=user_id, options=options)
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
    """Print the prompt-ready context block for a query ("-": from standard input)."""
    with _memory(ctx) as mem:
        block = mem.context(
            _text(query), user_id=user_id, session_id=session_id, max_tokens=max_tokens, caller=CALLER
        )
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
    """List a user's memories, newest first, by full id (what show, update and delete take)."""
    with _memory(ctx) as mem:
        items = mem.list(user_id, kinds=kinds, status=status, limit=limit)
    if as_json:
        _dump([m.to_dict() for m in items])
        return
    table = Table("id", "kind", "category", "text", "importance", "expires")
    table.columns[0].no_wrap = True  # an id is copied whole, never cut or folded
    for m in items:
        expires = m.expires_at.date().isoformat() if m.expires_at else "-"
        table.add_row(m.id, m.kind.value, m.category.value, m.text, f"{m.importance:.2f}", expires)
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


@main.command(name="end-session")
@click.option("--user", "user_id", required=True)
@click.option("--session", "session_id", required=True, help="The conversation to end.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def end_session(ctx: click.Context, user_id: str, session_id: str, as_json: bool) -> None:
    """End a conversation now: write its episode summary and promote repeated conditions."""
    with _memory(ctx) as mem:
        written = mem.end_session(user_id, session_id)
    if as_json:
        _dump([m.to_dict() for m in written])
        return
    table = Table("id", "kind", "text")
    table.columns[0].no_wrap = True
    for m in written:
        table.add_row(m.id, m.kind.value, m.text)
    console.print(table)
    click.echo(f"ended session {session_id}: {len(written)} memories written")


@main.command()
@click.option("--now", "now", help="Pretend it is this time (ISO 8601).")
@click.option(
    "--every",
    type=click.FloatRange(min=1.0),
    help="Keep running: maintain every this many seconds (a schedule for the embedded default).",
)
@click.option("--runs", type=click.IntRange(min=1), help="With --every: stop after this many runs.")
@click.option("--json", "as_json", is_flag=True, help="Print each run's report as JSON.")
@click.pass_context
@_fail_cleanly
def maintain(
    ctx: click.Context, now: str | None, every: float | None, runs: int | None, as_json: bool
) -> None:
    """Run the lifecycle jobs that are due: end idle sessions, merge trends, compress old events,
    expire, decay, rebuild user summaries. With --every, keep doing so on a schedule.
    """
    from memlane.cli.records import report_table

    with _memory(ctx) as mem:
        done = 0
        while True:
            report = mem.maintain(now=_parse_time(now))
            if as_json:
                _dump(dataclasses.asdict(report))
            else:
                console.print(report_table(report))
            done += 1
            if every is None or (runs is not None and done >= runs):
                return
            time.sleep(every)


from memlane.cli.eval import eval_group  # noqa: E402  (registered last: the group lives in its own module)
from memlane.cli.eval_changes import changes  # noqa: E402

eval_group.add_command(changes)
main.add_command(eval_group)
from memlane.cli.simulate import simulate  # noqa: E402

main.add_command(simulate)
from memlane.cli.bench import bench  # noqa: E402  (registered last: the group lives in its own module)

main.add_command(bench)
from memlane.cli.privacy import audit, data_key, export, forget, restore  # noqa: E402
from memlane.cli.records import delete, feedback, history, show, update  # noqa: E402
from memlane.cli.serve import keys, link, serve, worker  # noqa: E402

main.add_command(serve)
main.add_command(worker)
main.add_command(keys)
main.add_command(link)
from memlane.cli.agents import mcp, proxy  # noqa: E402
from memlane.cli.doctor import doctor  # noqa: E402

main.add_command(mcp)
main.add_command(proxy)
main.add_command(doctor)
for command in (show, history, update, delete, feedback, forget, export, restore, audit, data_key):
    main.add_command(command)
