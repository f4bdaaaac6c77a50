"""Extraction: turn a message into candidate memories for the judge.

:class:`Extractor` is the port: one method, ``extract(message) -> list[Candidate]``. The built-in
:class:`RuleExtractor` needs no model and no network; it understands Chinese, English and a mix of the
two. An LLM-backed extractor is a drop-in upgrade that implements the same method.

- ``clauses``: splitting a message into clauses and spotting requests to remember;
- ``rule``: what a rule is, what it sees, and the builders rules share;
- ``rules_zh`` / ``rules_en``: the rule tables;
- ``channels`` / ``money``: contact preferences and budgets, shared by both languages;
- ``lexicon``: the word lists;
- ``extractor``: :class:`RuleExtractor`, which ties them together.
"""

from __future__ import annotations

from typing import Protocol

from memlane.domain import Candidate, Message

from .extractor import RuleExtractor


class Extractor(Protocol):
    """Finds candidate memories in one message (already cleaned and redacted)."""

    def extract(self, message: Message, before: str | None = None) -> list[Candidate]:
        """The candidates found in ``message``, in text order; an empty list when it says nothing.
        ``before`` is what the user said in the turn before, for a pronoun that speaks of it."""
        ...


__all__ = ["Extractor", "RuleExtractor"]
