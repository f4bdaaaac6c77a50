"""A scripted OpenAI-compatible server, in process, for tests of anything that talks to an LLM.

It speaks real HTTP and answers every ``POST`` (``.../chat/completions``, ``.../responses``) from a
script: a list of :class:`Scripted` responses served in order (the last one repeats). Every request
body is recorded (with its headers and path), so a test can assert how many calls were made and what
they said. :func:`completion` builds a Chat Completions body shaped exactly like OpenAI's,
:func:`response` a Responses API one (what the OpenAI Agents SDK asks for by default); :func:`chunks`
a streamed reply (server-sent events, as OpenAI sends ``"stream": true`` replies), text or tool calls;
``GET .../models`` answers :func:`models`.

::

    with ScriptedServer([Scripted(body=completion('{"memories": []}'))]) as server:
        client = ChatClient(server.url, "test")
        ...
        assert len(server.requests) == 1
"""

from __future__ import annotations

import contextlib
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


def chunks(
    content: str | None = None,
    *,
    pieces: int = 4,
    tool_calls: list[dict[str, Any]] | None = None,
    model: str = "test",
) -> list[dict[str, Any]]:
    """A streamed chat completion in OpenAI's shape: the role, ``content`` in ``pieces`` deltas (or
    each tool call's name and then its arguments in two deltas), and the finish reason."""
    base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1718000000, "model": model}

    def event(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    out = [event({"role": "assistant", "content": "" if content is not None else None})]
    if content:
        step = max(1, -(-len(content) // pieces))
        out += [event({"content": content[i : i + step]}) for i in range(0, len(content), step)]
    for n, call in enumerate(tool_calls or []):
        head = {
            "index": n,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["name"], "arguments": ""},
        }
        out.append(event({"tool_calls": [head]}))
        out.append(event({"tool_calls": [{"index": n, "function": {"arguments": call["arguments"]}}]}))
    out.append(event({}, "tool_calls" if tool_calls else "stop"))
    return out


def models(*names: str) -> dict[str, Any]:
    """A model list in OpenAI's shape."""
    data = [
        {"id": n, "object": "model", "created": 1718000000, "owned_by": "test"} for n in names or ("test",)
    ]
    return {"object": "list", "data": data}


def response(
    text: str, *, input_tokens: int = 120, output_tokens: int = 30, model: str = "test"
) -> dict[str, Any]:
    """A Responses API body in OpenAI's shape: one completed assistant message saying ``text``."""
    return {
        "id": "resp_test",
        "object": "response",
        "created_at": 1718000000,
        "model": model,
        "status": "completed",
        "output": [
            {
                "type": "message",
                "id": "msg_test",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


def error_body(message: str, kind: str = "server_error") -> dict[str, Any]:
    """An error body in OpenAI's shape."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


@dataclass(frozen=True)
class Scripted:
    """One response: a status, a JSON body (or server-sent events), headers, and how long to stall
    before answering; ``events`` (from :func:`chunks`) are sent ``gap`` seconds apart, then ``[DONE]``."""

    body: dict[str, Any] = field(default_factory=dict)
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    stall: float = 0.0  # seconds; longer than the client's timeout makes a timeout
    events: list[dict[str, Any]] | None = None
    gap: float = 0.0


class ScriptedServer:
    """An HTTP server on 127.0.0.1 that answers chat completions from a script; use it as a context."""

    def __init__(self, script: list[Scripted], *, model_list: dict[str, Any] | None = None) -> None:
        if not script:
            raise ValueError("the script needs at least one response")
        self.script = list(script)
        self.model_list = model_list or models()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # each request's headers, in order
        self.paths: list[str] = []  # the path of each request, beside its body
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        # a short poll keeps shutdown quick: every test stops a server
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    def play(self, script: list[Scripted]) -> None:
        """Answer from ``script`` from now on, with the recorded requests cleared (a server shared by
        several tests)."""
        if not script:
            raise ValueError("the script needs at least one response")
        with self._lock:
            self.script = list(script)
            self.requests.clear()
            self.headers.clear()

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

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str) -> Scripted:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            self.paths.append(path)
            return self.script[min(len(self.requests), len(self.script)) - 1]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if not self.path.rstrip("/").endswith("/models"):
                    self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                self._json(200, server.model_list)

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _events(self, reply: Scripted) -> None:
                self.send_response(reply.status)
                self.send_header("content-type", "text/event-stream")
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()  # no length: HTTP/1.0 ends the body by closing the connection
                for event in [*(reply.events or []), None]:
                    line = "[DONE]" if event is None else json.dumps(event, ensure_ascii=False)
                    self.wfile.write(f"data: {line}\n\n".encode())
                    self.wfile.flush()
                    if event is not None and reply.gap and server._stop.wait(reply.gap):
                        return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._next(json.loads(self.rfile.read(length) or b"{}"), headers, self.path)
                if reply.stall and server._stop.wait(reply.stall):
                    return
                if reply.events is not None:
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client left
                        self._events(reply)
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
