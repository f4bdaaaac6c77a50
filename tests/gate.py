"""A TCP gate in front of a real server, to stage an outage: :meth:`Gate.cut` drops every connection
through it and refuses new ones (as a stopped server does), :meth:`Gate.open` lets them through
again (as a restarted one does: the connections a client pooled before are dead).

::

    with Gate("/tmp/pg/.s.PGSQL.5432") as gate:       # a unix socket, or ("127.0.0.1", 5432)
        url = f"postgresql://postgres@127.0.0.1:{gate.port}/db"
        gate.cut(); ...; gate.open()
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType
from urllib.parse import parse_qs, urlsplit


def postgres_target(url: str) -> str | tuple[str, int]:
    """Where a ``postgresql://`` URL's server listens: its unix socket, or its host and port."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = (query.get("host") or [parts.hostname or "127.0.0.1"])[0]
    port = int((query.get("port") or [parts.port or 5432])[0])
    return f"{host}/.s.PGSQL.{port}" if host.startswith("/") else (host, port)


def through(url: str, port: int) -> str:
    """The same database as ``url``, reached through a gate on ``port``."""
    parts = urlsplit(url)
    user = parts.username or "postgres"
    return f"postgresql://{user}@127.0.0.1:{port}{parts.path or '/postgres'}"


class Gate:
    """Forwards 127.0.0.1:``port`` to ``target`` until cut."""

    def __init__(self, target: str | tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port: int = self._listener.getsockname()[1]
        self._open = threading.Event()
        self._open.set()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def __enter__(self) -> Gate:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def cut(self) -> None:
        """Drop every connection and refuse new ones."""
        self._open.clear()
        with self._lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._sockets.clear()

    def open(self) -> None:
        """Let connections through again."""
        self._open.set()

    def close(self) -> None:
        """Stop the gate."""
        self._stopped = True
        self.cut()
        self._listener.close()

    def _upstream(self) -> socket.socket:
        if isinstance(self.target, str):
            up = socket.socket(socket.AF_UNIX)
            up.connect(self.target)
            return up
        return socket.create_connection(self.target)

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._open.is_set():
                client.close()  # refused, at once, as by a server that is not there
                continue
            try:
                upstream = self._upstream()
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
