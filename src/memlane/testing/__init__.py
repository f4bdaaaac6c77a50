"""Test doubles and the store contract, for memlane's tests and for users' own.

- :func:`memory_stores`: every store role in process (a real implementation, not a mock);
- :class:`HashingEmbedder`: a deterministic embedder of hashed character n-grams;
- :class:`ScriptedServer`: an OpenAI-compatible HTTP server answering from a script
  (:mod:`memlane.testing.llm`);
- :mod:`memlane.testing.contract`: the contract every store adapter must meet, as a pytest class
  to subclass with a ``make_stores`` fixture.

::

    from memlane import Memory
    from memlane.testing import HashingEmbedder, memory_stores

    with Memory(store=memory_stores(), embedder=HashingEmbedder()) as mem:
        mem.remember("I prefer email", user_id="u1")
"""

from __future__ import annotations

from memlane.embed.hashing import HashingEmbedder
from memlane.testing.llm import Scripted, ScriptedServer
from memlane.testing.memory_roles import memory_stores

__all__ = ["HashingEmbedder", "Scripted", "ScriptedServer", "memory_stores"]
