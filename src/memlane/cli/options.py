"""The CLI's search options, made from the fields of :class:`memlane.SearchOptions`: one option per
field, named after it (``kinds`` is ``--kind``, repeatable; ``include_log`` is
``--include-log/--no-include-log``), with the field's description as its help. A command decorated
with :func:`search_options` receives one ``options`` value, checked as the Python API checks it.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import click

from memlane.read.options import SearchOptions

R = TypeVar("R")


def _singular(name: str) -> str:
    """``kinds`` → ``kind``, ``categories`` → ``category``: a repeatable option names one value."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name.removesuffix("s")


def _option(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of one field of :class:`SearchOptions`."""
    info = SearchOptions.model_fields[name]
    kind = info.annotation
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        kind = args[0]  # an optional value: None when not given
    help_text = info.description
    flag = name.replace("_", "-")
    if typing.get_origin(kind) is tuple:
        return click.option(f"--{_singular(flag)}", name, multiple=True, help=f"{help_text} (repeatable)")
    if kind is bool:
        return click.option(f"--{flag}/--no-{flag}", name, default=None, help=help_text)
    if kind is datetime:
        return click.option(f"--{flag}", name, metavar="ISO-TIME", help=help_text)
    return click.option(f"--{flag}", name, type=kind, help=help_text)


def search_options(command: Callable[..., R]) -> Callable[..., R]:
    """Give ``command`` an option per search option and call it with ``options=SearchOptions(...)``
    built from those given (an option not given leaves the field to its default)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> R:
        given = {name: kwargs.pop(name) for name in SearchOptions.model_fields}
        chosen = {name: value for name, value in given.items() if value not in (None, ())}
        return command(*args, options=SearchOptions.of(None, **chosen), **kwargs)

    decorated: Callable[..., R] = run
    for name in reversed(list(SearchOptions.model_fields)):
        decorated = _option(name)(decorated)
    return decorated
