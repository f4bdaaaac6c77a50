"""The learned judge's files that ship in the package, each read once per process on first use.

Three models ship beside this module: the n-gram classifier (``model.npz``), the meaning head
(``meaning.npz``) and the ending head (``ending.npz``). Every judge and reconciler of a process
shares one copy of each, read the first time one is asked for (opening a :class:`memlane.Memory`
reads none)::

    head = shipped("ending.npz", EndingHead.load)  # None when the file is missing
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar, cast

T = TypeVar("T")

_READ: dict[str, object] = {}
_LOCK = threading.Lock()


def shipped_path(name: str) -> Path:
    """Where the package's file ``name`` is."""
    return Path(str(resources.files(__package__ or "memlane.write.judge").joinpath(name)))


def shipped(name: str, load: Callable[[Path], T]) -> T | None:
    """The package's file ``name`` as ``load`` reads it, read once per process (None while it is
    missing)."""
    path = shipped_path(name)
    with _LOCK:
        if name not in _READ and path.exists():
            _READ[name] = load(path)
        return cast("T | None", _READ.get(name))
