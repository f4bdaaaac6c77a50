"""Database files only their owner can read: memories, the job queue and the API keys.

A SQLite file holds what users said (the queue, until a job is done) and what was learned about
them, so it is created ``0600`` in a directory created ``0700``; SQLite gives its ``-wal`` and
``-shm`` files the main file's mode. A file found readable by others (made by an older memlane, or
by a umask of 022) is narrowed to ``0600`` when memlane opens it::

    private_file("~/.local/share/memlane/memlane.db")   # the path, expanded, ready for sqlite3
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from memlane.errors import StoreUnavailable

FILE_MODE = 0o600
DIRECTORY_MODE = 0o700
_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_file(path: str | Path, what: str = "database") -> str:
    """``path`` expanded, its directory made (``0700``) and the file created or narrowed to ``0600``.

    :class:`~memlane.errors.StoreUnavailable` names the directory when it cannot be made or the
    file cannot be created (a read-only disk, a path under a file, no permission).
    """
    target = Path(path).expanduser()
    try:
        if not target.parent.exists():
            target.parent.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
        # created with its mode from the start: never readable by others, not even for a moment
        with contextlib.suppress(FileExistsError):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        for candidate in (target, *(target.with_name(target.name + s) for s in _SIDE_FILES)):
            _narrow(candidate)
    except OSError as exc:
        raise StoreUnavailable(
            f"cannot create the {what} file {str(target)!r}: {exc.strerror or exc}"
        ) from exc
    return str(target)


def _narrow(path: Path) -> None:
    """Take group and other permissions off ``path`` if it exists and is ours to change."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    if stat.S_IMODE(mode) & 0o077 and path.stat().st_uid == os.getuid():
        os.chmod(path, stat.S_IMODE(mode) & ~0o077)
