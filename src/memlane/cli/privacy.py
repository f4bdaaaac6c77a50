"""``memlane forget / export / restore / audit / data-key``: what a user controls about their data.

::

    memlane forget --user u1 --tag 咖啡
    memlane forget --user u1 --all            # everything about u1: never without --all
    memlane export --user u1 -o u1.json
    memlane restore u1.json --user u1-copy    # or "-" for standard input
    memlane audit --user u1
"""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click
from rich.table import Table

from memlane.cli import CALLER, _Commands, _dump, _fail_cleanly, _memory, _parse_time, console
from memlane.errors import InvalidInput
from memlane.memory import Memory


@click.command()
@click.option("--user", "user_id", required=True)
@click.option("--tag", "tags", multiple=True, help="Forget the memories with this tag (repeatable).")
@click.option("--all", "everything", is_flag=True, help="Forget everything about the user.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
@_fail_cleanly
def forget(ctx: click.Context, user_id: str, tags: tuple[str, ...], everything: bool, yes: bool) -> None:
    """Delete a user's memories by tag (--tag), or everything about the user (--all)."""
    if everything == bool(tags):
        raise InvalidInput(
            "say what to forget: --tag TAG (repeatable), or --all for everything about the user"
        )
    what = f"memories tagged {', '.join(tags)}" if tags else "EVERYTHING"
    if not yes and not click.confirm(f"Delete {what} for user {user_id!r}?", err=True):
        sys.exit(1)
    with _memory(ctx) as mem:
        count = mem.forget(user_id, tags=list(tags) or None, all=everything, caller=CALLER)
    click.echo(f"deleted {count} memories")


@click.command()
@click.option("--user", "user_id", required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to a file.")
@click.pass_context
@_fail_cleanly
def export(ctx: click.Context, user_id: str, output: str | None) -> None:
    """Export everything held about a user as JSON."""
    with _memory(ctx) as mem:
        document = mem.export(user_id, caller=CALLER)
    text = json.dumps(document, ensure_ascii=False, indent=2, default=str)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text)


@click.command()
@click.argument("source", type=click.File("rb"))
@click.option("--user", "user_id", help="Restore under this user (default: the export's own).")
@click.pass_context
@_fail_cleanly
def restore(ctx: click.Context, source: BinaryIO, user_id: str | None) -> None:
    """Load an export (a file, or "-" for standard input) into an empty user."""
    try:
        document = json.loads(source.read())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"{source.name} is not a JSON export: {exc}") from None
    with _memory(ctx) as mem:
        report = mem.restore(document, user_id=user_id, caller=CALLER)
    click.echo(
        f"restored {report.memories} memories, {report.log} log turns, {report.history} history "
        f"records for user {report.user_id!r}"
    )


@click.command()
@click.option("--user", "user_id", required=True)
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


@click.group(name="data-key", cls=_Commands)
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
