"""Per-user consent: whether memlane may remember anything about a user, and which kinds of thing.

The settings live in the long-term store beside the user's memories (and go when the user is
forgotten). With memory off, ``Memory.add`` keeps nothing at all: no long-term memory, no log turn,
no session turn. With a list of allowed categories, candidates of any other category are discarded
with a reason::

    mem.set_consent("u1", categories=["name", "preference"])
    mem.add("我住在深圳，喜欢喝美式", user_id="u1")   # the location is discarded: not consented to
"""

from __future__ import annotations

from collections.abc import Iterable

from memlane.domain import Category
from memlane.errors import InvalidInput

# categories that are never memories, so a consent list need not (and cannot usefully) name them
_NOT_MEMORIES = frozenset({Category.MOOD, Category.SMALLTALK, Category.FORGET, Category.REQUEST})


def categories(values: Iterable[str] | None) -> tuple[str, ...] | None:
    """Validated, de-duplicated category names (None stays None: every category)."""
    if values is None:
        return None
    if isinstance(values, str):
        raise InvalidInput("categories must be a list of category names, not one string")
    known = {c.value for c in Category if c not in _NOT_MEMORIES}
    chosen = list(dict.fromkeys(str(v) for v in values))
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise InvalidInput(
            f"unknown categories {', '.join(unknown)}; choose among {', '.join(sorted(known))}"
        )
    return tuple(sorted(chosen))
