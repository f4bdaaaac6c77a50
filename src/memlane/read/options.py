"""What a search looks at and returns: one typed value for the Python API, the CLI and the REST API.

:class:`SearchOptions` is the one definition of a search's filters. ``Memory.search`` and
``Memory.context`` take it (or the same names as keyword arguments, which win over its fields), the
CLI's ``search`` builds its options from its fields (``--kind``, ``--tag``, ``--since``...), and the
REST request bodies of ``/v1/search`` and ``/v1/context`` are subclasses of it, so a filter is written
once and checked once::

    from memlane import Memory, SearchOptions

    recent_coffee = SearchOptions(limit=5, kinds=("semantic",), tags=("coffee",), since=last_month)
    mem.search("推荐一杯早上的饮料", user_id="u1", options=recent_coffee)
    mem.search("推荐一杯早上的饮料", user_id="u1", options=recent_coffee, limit=3)  # the keyword wins

A value that does not fit is an :class:`~memlane.errors.InvalidInput` of one line
(``limit=0 is not valid: expected greater than or equal to 1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memlane import validate
from memlane.domain import Kind
from memlane.errors import InvalidInput
from memlane.problems import one_line
from memlane.settings import Settings
from memlane.vocabulary import MemoryQuery

MAX_LIMIT = 1000  # hits one search returns at most


class SearchOptions(BaseModel):
    """How many hits a search returns and which records it looks at; every field is optional.

    Filters combine (a record must pass each one given); an empty one filters nothing.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    limit: int | None = Field(
        default=None,
        ge=1,
        le=MAX_LIMIT,
        description="hits to return; default: the search_limit setting (10), 20 for a context block",
    )
    kinds: tuple[Kind, ...] = Field(
        default=(), description="only records of these kinds: semantic, episodic, profile, summary, log"
    )
    categories: tuple[str, ...] = Field(default=(), description="only records of these categories")
    tags: tuple[str, ...] = Field(default=(), description="only records with any of these tags")
    from_session: str | None = Field(
        default=None, description="only records said in this conversation (its session id)"
    )
    since: datetime | None = Field(
        default=None,
        description="only records of this time or later (an event's date, else when it was said); "
        "naive times are UTC",
    )
    until: datetime | None = Field(default=None, description="only records before this time")
    include_log: bool = Field(
        default=True, description="raw conversation turns too, where no memory stands for them"
    )
    min_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="leave out hits scoring below this; default: the min_score setting",
    )
    include_sensitive: bool = Field(
        default=False,
        description="include memories whose original is encrypted, with that original (docs/privacy.md)",
    )

    @classmethod
    def of(cls, base: SearchOptions | None = None, **values: Any) -> SearchOptions:
        """``base`` (or the defaults) with the ``values`` that are not None over it, checked:
        :class:`~memlane.errors.InvalidInput` names a value that does not fit.

        >>> chosen = SearchOptions.of(SearchOptions(limit=5, tags=("coffee",)), limit=3, kinds=None)
        >>> chosen.limit, chosen.tags, chosen.kinds
        (3, ('coffee',), ())
        """
        given = {name: value for name, value in values.items() if value is not None}
        if base is not None and not given:
            return base
        merged = {**(base.model_dump(include=set(cls.model_fields)) if base is not None else {}), **given}
        try:
            return cls(**merged)
        except ValidationError as exc:
            said = one_line(exc, lambda name: f"{name}={_shown(merged.get(name))!r}")
            raise InvalidInput(said) from None


def _shown(value: Any) -> Any:
    """A value as the caller wrote it: a tuple (the CLI's repeated option) as a list."""
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class SearchPlan:
    """Search options resolved against the settings: what :class:`~memlane.read.search.Searcher` runs."""

    limit: int = 10
    query: MemoryQuery = field(default_factory=MemoryQuery)
    include_log: bool = True
    min_score: float = 0.0
    candidates: int = 50  # how many each index contributes before fusion


def plan(options: SearchOptions, settings: Settings, default_limit: int | None = None) -> SearchPlan:
    """The plan for ``options``: defaults from ``settings`` (or ``default_limit``), times checked."""
    limit = options.limit or default_limit or settings.search_limit
    query = MemoryQuery(
        kinds=options.kinds,
        categories=options.categories,
        tags=options.tags,
        session_id=options.from_session,
        since=validate.when(options.since, options.since) if options.since else None,
        until=validate.when(options.until, options.until) if options.until else None,
    )
    threshold = settings.min_score if options.min_score is None else options.min_score
    return SearchPlan(limit=limit, query=query, include_log=options.include_log, min_score=threshold)
