"""memlane inside agent frameworks, one module per framework, behind the ``integrations`` extra:

- :mod:`memlane.integrations.langgraph`: ``MemlaneStore``, a LangGraph ``BaseStore``;
- :mod:`memlane.integrations.openai_agents`: ``MemlaneSession``, an OpenAI Agents SDK ``Session``;
- :mod:`memlane.integrations.langchain`: ``MemlaneChatMessageHistory``, a LangChain
  ``BaseChatMessageHistory``.

``pip install 'memlane[integrations]'`` brings all three (and the MCP SDK). Importing
:mod:`memlane` (or this package) imports no framework; importing an adapter whose framework is
missing raises :class:`~memlane.errors.MissingExtra`, which says what to install.
:mod:`memlane.integrations.items` is the framework-free item store the LangGraph adapter and the REST
service's ``/store`` routes share (docs/integrations.md).
"""

from __future__ import annotations

from memlane.errors import MissingExtra

__all__ = ["MissingExtra"]
