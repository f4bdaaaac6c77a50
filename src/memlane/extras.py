"""The optional parts of memlane, and the one way its code imports an optional dependency.

``pip install memlane`` is the embedded library: SQLite, the bundled e5 model, jieba, the rules and
the CLI. Each extra adds one kind of deployment; ``memlane[all]`` adds every one:

================  ==============================================  ===============================
extra             what it adds                                    modules it brings
================  ==============================================  ===============================
``server``        ``memlane serve`` / ``worker``: REST, metrics   fastapi, uvicorn, prometheus
``postgres``      the PostgreSQL + pgvector store                 psycopg, psycopg_pool
``redis``         Redis sessions and the Redis job queue          redis
``llm``           the LLM stages and ``memlane proxy``            openai, httpx
``crypto``        sensitive memories kept encrypted               cryptography
``plots``         the PNG plots of simulate, eval and bench       matplotlib
``integrations``  LangGraph, OpenAI Agents, LangChain, MCP        langgraph, agents, langchain…
================  ==============================================  ===============================

Code that imports one of these modules does it inside :func:`optional`, which turns the
``ModuleNotFoundError`` of a missing extra into :class:`~memlane.errors.MissingExtra` naming the
command to run::

    with optional("a PostgreSQL store"):
        from memlane.store.postgres import open_postgres
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from memlane.errors import MissingExtra

# extra -> the top-level modules it installs (pyproject.toml's [project.optional-dependencies])
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("fastapi", "starlette", "uvicorn", "prometheus_client"),
    "postgres": ("psycopg", "psycopg_pool"),
    "redis": ("redis",),
    "llm": ("openai", "httpx"),
    "crypto": ("cryptography",),
    "plots": ("matplotlib",),
    "integrations": ("langgraph", "langchain_core", "agents", "mcp"),
}
_EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (a dotted name is its top-level package), or None.

    >>> extra_of("psycopg.rows"), extra_of("json")
    ('postgres', None)
    """
    return _EXTRA_OF.get(module.partition(".")[0])


@contextmanager
def optional(feature: str) -> Iterator[None]:
    """Imports for ``feature``: a module that an extra installs and that is missing raises
    :class:`~memlane.errors.MissingExtra` with the ``pip install`` to run; any other import error
    is raised as it is.
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        extra = extra_of(exc.name or "")
        if extra is None:
            raise
        raise MissingExtra(
            f"{feature} needs {exc.name}, which is not installed; run: pip install 'memlane[{extra}]'"
        ) from exc


def require(extra: str, feature: str) -> None:
    """Import every module of ``extra`` now, so a missing one fails at once, naming the command."""
    with optional(feature):
        for module in EXTRAS[extra]:
            importlib.import_module(module)


__all__ = ["EXTRAS", "extra_of", "optional", "require"]
