"""Token estimates for prompt budgets, without a model-specific tokenizer.

The estimate is deliberately a little pessimistic for common chat models: one token per Chinese
character, and one per four characters of other text.
"""

from __future__ import annotations

import math

from memlane.text.lang import _CJK


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` costs in a prompt."""
    cjk = len(_CJK.findall(text))
    rest = len(text) - cjk
    return cjk + math.ceil(rest / 4)
