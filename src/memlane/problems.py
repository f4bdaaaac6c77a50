"""A pydantic validation report as the one line memlane's errors are: each problem names where the
value came from, the value and what is expected::

    >>> from pydantic import BaseModel, ValidationError
    >>> class Limits(BaseModel):
    ...     limit: int
    >>> try:
    ...     Limits(limit="many")
    ... except ValidationError as exc:
    ...     print(one_line(exc, lambda name: f"{name}={'many'!r}"))
    limit='many' is not valid: expected a valid integer, unable to parse string as an integer
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import ValidationError


def one_line(exc: ValidationError, where: Callable[[str], str], unknown: str = "no such field") -> str:
    """Every problem of ``exc``, joined by ``; ``. ``where(name)`` says where the field ``name`` came
    from (``limit=0``, ``MEMLANE_EMBED_THREADS='many'``); ``unknown`` is what a field the model does
    not have is told."""
    said = []
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else ""
        expected = (
            unknown
            if error["type"] == "extra_forbidden"
            else re.sub(r"^Input should be ", "expected ", error["msg"])
        )
        said.append(f"{where(name)} is not valid: {expected}")
    return "; ".join(said)
