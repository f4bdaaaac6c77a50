"""Find sensitive data in Chinese and English text, and mask it.

``scan`` returns what it found; ``redact`` writes a placeholder in the text's language in place of each
value; ``kinds`` reads the placeholders back out of a redacted text. Kinds in ``NEVER_STORE`` must not
reach long-term memory even in redacted form, because the surrounding sentence still says they exist.

>>> redact("我的密码是hunter2，别告诉别人")
'我的密码是[已隐藏:密码]，别告诉别人'
>>> kinds("call me at [redacted: phone]")
['phone']

One module per detector family (``ids``, ``secrets``, ``credentials``, ``spanning``, ``contacts``,
``addresses``, ``health``), each with a ``find(text)``. ``spanning`` reads a value that an earlier
clause of the message announces ("…的密码是一样的，都是 launch0x9"), which is why a whole message is scanned.
The kinds themselves, their placeholders, labels and never-store flag are one table (:mod:`.table`).
Patterns over runs of digits or letters start behind a look-behind, so a match can begin only where a
run begins, and repeats that sit side by side are bounded: a megabyte of digits, letters or blanks
costs linear time, not quadratic.
"""

from __future__ import annotations

from .mask import kinds, redact, reveal
from .scan import Finding, scan
from .table import KINDS, NEVER_STORE, PLACEHOLDER, Kind, described

__all__ = [
    "KINDS",
    "NEVER_STORE",
    "PLACEHOLDER",
    "Finding",
    "Kind",
    "described",
    "kinds",
    "redact",
    "reveal",
    "scan",
]
