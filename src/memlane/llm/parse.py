"""A tolerant JSON reader for what language models actually send back, then pydantic validation.

Small local models wrap JSON in code fences, put prose around it, leave trailing commas, use single
quotes or Python's ``True`` / ``False`` / ``None``. :func:`loads` repairs those, in that order, and only
as far as needed: strict JSON is tried first, so a well-behaved model pays nothing. :func:`parse` then
validates against the stage's pydantic model; a top-level list is wrapped as ``{"<list_key>": [...]}``
so that ``[...]`` and ``{"memories": [...]}`` both work.

>>> loads("Sure! ```json\\n{'a': True, 'b': [1, 2,],}\\n```")
{'a': True, 'b': [1, 2]}
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|python)?[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PY_WORDS = re.compile(r"\b(True|False|None)\b")
_JSON_WORDS = {"True": "true", "False": "false", "None": "null"}
_JSON_IN_PYTHON = re.compile(r"\b(true|false|null)\b")
_PYTHON_WORDS = {"true": "True", "false": "False", "null": "None"}


class ParseError(ValueError):
    """The reply could not be read as the expected JSON; the message is fit to show the model."""


def _balanced(text: str) -> str | None:
    """The first complete ``{...}`` or ``[...]`` in ``text``, honouring strings; None when unclosed."""
    start = next((i for i, c in enumerate(text) if c in "{["), None)
    if start is None:
        return None
    depth = 0
    quote: str | None = None
    escaped = False
    for i in range(start, len(text)):
        c = text[i]
        if quote is not None:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = None
        elif c in "\"'":
            # an apostrophe inside a word (I'm) opens no string
            if c == "'" and i > 0 and text[i - 1].isalnum():
                continue
            quote = c
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def _candidates(text: str) -> list[str]:
    """Stretches of ``text`` that may be the JSON, most likely first."""
    out = [text.strip()]
    out += [m.group(1).strip() for m in _FENCE.finditer(text)]
    for piece in list(out):
        found = _balanced(piece)
        if found is not None:
            out.append(found)
    return list(dict.fromkeys(p for p in out if p))


def _repairs(piece: str) -> list[str]:
    no_commas = _TRAILING_COMMA.sub(r"\1", piece)
    return [piece, no_commas, _PY_WORDS.sub(lambda m: _JSON_WORDS[m.group(1)], no_commas)]


def _python_literal(piece: str) -> Any:
    """``piece`` read as a Python literal (single quotes), with JSON's true/false/null allowed."""
    for source in (piece, _JSON_IN_PYTHON.sub(lambda m: _PYTHON_WORDS[m.group(1)], piece)):
        try:
            # literal_eval evaluates literals only and runs no code
            return ast.literal_eval(source)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def loads(text: str) -> Any:
    """The JSON value in a model's reply, repairing the usual slips; raises :class:`ParseError`."""
    if not text or not text.strip():
        raise ParseError("the reply was empty; answer with one JSON object")
    for piece in _candidates(text):
        for fixed in _repairs(piece):
            try:
                return json.loads(fixed)
            except json.JSONDecodeError:
                pass
        value = _python_literal(_TRAILING_COMMA.sub(r"\1", piece))
        if isinstance(value, (dict, list)):
            return value
    raise ParseError("the reply was not valid JSON; answer with one JSON object and nothing else")


def parse(text: str, model: type[M], list_key: str | None = None) -> M:
    """The reply validated as ``model``; raises :class:`ParseError` with a message for the model.

    >>> from pydantic import BaseModel
    >>> class Answer(BaseModel):
    ...     items: list[int]
    >>> parse("[1, 2]", Answer, list_key="items").items
    [1, 2]
    """
    value = loads(text)
    if isinstance(value, list) and list_key is not None:
        value = {list_key: value}
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'top level'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise ParseError(f"the JSON did not match the expected shape: {problems}") from exc
