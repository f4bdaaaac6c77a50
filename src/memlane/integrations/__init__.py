"""memlane inside agent frameworks, one module per framework, each behind its own extra:

- :mod:`memlane.integrations.langgraph`: ``MemlaneStore``, a LangGraph ``BaseStore``
  (``pip install 'memlane[langgraph]'``);
- :mod:`memlane.integrations.openai_agents`: ``MemlaneSession``, an OpenAI Agents SDK ``Session``
  (``pip install 'memlane[openai-agents]'``);
- :mod:`memlane.integrations.langchain`: ``MemlaneChatMessageHistory``, a LangChain
  ``BaseChatMessageHistory`` (``pip install 'memlane[langchain]'``).

``pip install 'memlane[integrations]'`` brings all three. Importing :mod:`memlane` (or this package)
imports no framework; importing an adapter whose framework is missing says which extra to install.
:mod:`memlane.integrations.items` is the framework-free item store the LangGraph adapter and the REST
service's ``/store`` routes share (docs/integrations.md).
"""

from __future__ import annotations

from memlane.errors import ConfigurationError


class MissingExtra(ConfigurationError, ImportError):
    """An adapter's framework is not installed; the message names the ``pip install`` to run."""

    code = "missing_extra"


def missing(framework: str, extra: str, exc: ImportError) -> MissingExtra:
    """The error an adapter raises when ``framework`` cannot be imported."""
    return MissingExtra(
        f"{framework} is not installed ({exc.msg}); run: pip install 'memlane[{extra}]' "
        "(or 'memlane[integrations]' for every framework adapter)"
    )


__all__ = ["MissingExtra", "missing"]
