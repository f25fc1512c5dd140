"""A webhook receiver for tests: a local HTTP server in a thread (no internet), which records
every delivery and answers with the statuses it is told, or holds its answer until released."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    #: the statuses of the next answers, in order; 200 once they run out
    statuses: list[int] = field(default_factory=list)
    #: while set, every answer waits until it is released (a slow or hung receiver)
    hold: threading.Event | None = None
    release: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Event = field(default_factory=threading.Event)

    def events(self) -> list[str]:
        return [r.json["event"] for r in self.received]


@contextmanager
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            state.received.append(Received(self.path, dict(self.headers.items()), body))
            state.arrived.set()
            if state.hold is not None and state.hold.is_set():
                state.release.wait(30)
            status = state.statuses.pop(0) if state.statuses else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/amarrako"
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def closed_port_url() -> str:
    """A local URL where nothing listens: every connection is refused at once."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/dead"
