"""``memlane show / history / update / delete / feedback``: one memory, by the full id ``list`` prints.

The CLI serves one person's database, so ``--user`` may be left out: the memory's owner is looked
up (:meth:`memlane.Memory.owner_of`) and every call is then made for that owner, as the library's
isolation requires. Given, ``--user`` is checked: another user's id reads as unknown.

::

    memlane update 3f2a... "我现在更喜欢电话联系"
    echo "corrected text" | memlane update 3f2a... -
    memlane feedback 3f2a... wrong --note "I never said that"
    memlane delete 3f2a... --yes
"""

from __future__ import annotations

import dataclasses
import sys

import click
from rich.table import Table

from memlane.cli import CALLER, _dump, _fail_cleanly, _memory, _text, console
from memlane.lifecycle.maintain import MaintenanceReport
from memlane.memory import Memory

_USER = click.option("--user", "user_id", help="The memory's user (default: whoever it belongs to).")


def _owner(mem: Memory, memory_id: str, user_id: str | None) -> str:
    return user_id if user_id is not None else mem.owner_of(memory_id)


@click.command()
@click.argument("memory_id")
@_USER
@click.pass_context
@_fail_cleanly
def show(ctx: click.Context, memory_id: str, user_id: str | None) -> None:
    """Show one memory with all its metadata (JSON)."""
    with _memory(ctx) as mem:
        _dump(mem.get(memory_id, user_id=_owner(mem, memory_id, user_id)).to_dict())


@click.command()
@click.argument("memory_id")
@_USER
@click.pass_context
@_fail_cleanly
def history(ctx: click.Context, memory_id: str, user_id: str | None) -> None:
    """Show what happened to a memory, oldest first (a deleted one's too)."""
    with _memory(ctx) as mem:
        records = mem.history(memory_id, user_id=_owner(mem, memory_id, user_id))
    table = Table("when", "op", "actor", "before", "after", "reason")
    for r in records:
        table.add_row(
            r.at.isoformat(timespec="seconds"), r.op, r.actor.value, r.before or "", r.after or "", r.reason
        )
    console.print(table)


@click.command()
@click.argument("memory_id")
@click.argument("text")
@_USER
@click.pass_context
@_fail_cleanly
def update(ctx: click.Context, memory_id: str, text: str, user_id: str | None) -> None:
    """Correct a memory's text ("-": read it from standard input); its history keeps the old one."""
    corrected = _text(text)
    with _memory(ctx) as mem:
        item = mem.update(memory_id, corrected, user_id=_owner(mem, memory_id, user_id), caller=CALLER)
    click.echo(f"updated {item.id}: {item.text}")


@click.command()
@click.argument("memory_id")
@_USER
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
@_fail_cleanly
def delete(ctx: click.Context, memory_id: str, user_id: str | None, yes: bool) -> None:
    """Delete one memory from every table and index (its history keeps a tombstone, no text)."""
    with _memory(ctx) as mem:
        owner = _owner(mem, memory_id, user_id)
        item = mem.get(memory_id, user_id=owner)
        if not yes and not click.confirm(f"Delete {item.text!r} of user {owner!r}?", err=True):
            sys.exit(1)
        mem.delete(memory_id, user_id=owner, caller=CALLER)
    click.echo(f"deleted {memory_id}")


@click.command()
@click.argument("memory_id")
@click.argument("verdict", type=click.Choice(["helpful", "outdated", "wrong"]))
@click.option("--note", help="Why (kept in the memory's history).")
@_USER
@click.pass_context
@_fail_cleanly
def feedback(ctx: click.Context, memory_id: str, verdict: str, note: str | None, user_id: str | None) -> None:
    """How a memory served: helpful strengthens it, outdated expires it, wrong supersedes it."""
    with _memory(ctx) as mem:
        owner = _owner(mem, memory_id, user_id)
        item = mem.feedback(memory_id, verdict, note=note, user_id=owner, caller=CALLER)
    click.echo(f"{verdict}: {item.id} is {item.status.value}, importance {item.importance:.2f}")


def report_table(report: MaintenanceReport) -> Table:
    """A maintenance run as a two-column table (what, how many), stale preferences counted per user."""
    table = Table("maintenance", "count", title="memlane maintain")
    for field in dataclasses.fields(report):
        value = getattr(report, field.name)
        if isinstance(value, dict):
            value = sum(len(v) for v in value.values())
            label = f"{field.name.replace('_', ' ')} (preferences to confirm, over {len(report.stale)} users)"
        else:
            label = field.name.replace("_", " ")
        table.add_row(label, str(value))
    return table
