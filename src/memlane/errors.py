"""memlane's exceptions: one tree, so callers can catch :class:`MemlaneError` and nothing else.

::

    MemlaneError
    ├── InvalidInput          bad text, ids, options or arguments (the caller can fix it)
    │   └── TextTooLong       text beyond ``Settings.max_text_chars``
    ├── NotFound              no such memory, session or job in this user's scope
    ├── StoreUnavailable      the database or cache could not be reached
    └── ConfigurationError    settings that cannot work together
        └── MissingExtra      a feature whose optional dependencies are not installed

A store translates its driver's exceptions at the boundary (``raise StoreUnavailable(...) from exc``).
Another user's memory id is reported exactly like an unknown one: :class:`NotFound`.
"""

from __future__ import annotations


class MemlaneError(Exception):
    """Base of every error memlane raises on purpose."""

    code = "memlane_error"


class InvalidInput(MemlaneError, ValueError):
    """The input cannot be used as given; nothing was written."""

    code = "invalid_input"


class TextTooLong(InvalidInput):
    """The text is longer than the configured limit; nothing was written."""

    code = "text_too_long"


class NotFound(MemlaneError, KeyError):
    """No such record in the caller's scope."""

    code = "not_found"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "not found"


class StoreUnavailable(MemlaneError):
    """A storage backend could not be reached or failed; nothing was half-written."""

    code = "store_unavailable"


class ConfigurationError(MemlaneError):
    """Settings that cannot work (an unknown store URL scheme, a bad threshold...)."""

    code = "configuration_error"


class MissingExtra(ConfigurationError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    ``pip install 'memlane[...]'`` to run (:mod:`memlane.extras`)."""

    code = "missing_extra"
