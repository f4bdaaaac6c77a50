"""A scripted OpenAI-compatible server, in process, for tests of anything that talks to an LLM.

It speaks real HTTP and answers ``POST .../chat/completions`` from a script: a list of
:class:`Scripted` responses served in order (the last one repeats). Every request body is recorded,
so a test can assert how many calls were made and what they said. :func:`completion` builds a body
shaped exactly like OpenAI's.

::

    with ScriptedServer([Scripted(body=completion('{"memories": []}'))]) as server:
        client = ChatClient(server.url, "test")
        ...
        assert len(server.requests) == 1
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(
    content: str | None,
    *,
    finish_reason: str = "stop",
    refusal: str | None = None,
    prompt_tokens: int = 120,
    completion_tokens: int = 30,
    model: str = "test",
) -> dict[str, Any]:
    """A chat-completion body in OpenAI's shape, with ``content`` as the assistant's message."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1718000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def error_body(message: str, kind: str = "server_error") -> dict[str, Any]:
    """An error body in OpenAI's shape."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


@dataclass(frozen=True)
class Scripted:
    """One response: a status, a JSON body, headers, and how long to stall before answering."""

    body: dict[str, Any]
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    stall: float = 0.0  # seconds; longer than the client's timeout makes a timeout


class ScriptedServer:
    """An HTTP server on 127.0.0.1 that answers chat completions from a script; use it as a context."""

    def __init__(self, script: list[Scripted]) -> None:
        if not script:
            raise ValueError("the script needs at least one response")
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        # a short poll keeps shutdown quick: every test stops a server
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give a client (ends in ``/v1``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()  # wakes stalled handlers so that none outlives the server
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def _next(self, body: dict[str, Any]) -> Scripted:
        with self._lock:
            self.requests.append(body)
            return self.script[min(len(self.requests), len(self.script)) - 1]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                reply = server._next(json.loads(self.rfile.read(length) or b"{}"))
                if reply.stall and server._stop.wait(reply.stall):
                    return
                data = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        return Handler
