"""``memlane proxy``: an OpenAI-compatible chat endpoint that gives any application memory.

Point an OpenAI SDK at the proxy (``base_url``, a memlane API key as ``api_key``) and name the user in
``X-Memlane-User``: each request gets the user's context block, the upstream answers as usual, and
the exchange is remembered in the background (docs/proxy.md).

========================  ===========================================================================
:mod:`memlane.proxy.app`  the service's app with the chat routes and the upstream's connection pool
:mod:`memlane.proxy.chat` the routes: inject, forward, relay, queue the write-back
:mod:`memlane.proxy.turns` what is read from and written into a request (pure functions)
========================  ===========================================================================
"""

from memlane.extras import require

require("server", "memlane proxy")
require("llm", "memlane proxy")
