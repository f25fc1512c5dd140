"""The live push in tests: the ASGI server of the streams (tournaments/web/live.py under
uvicorn, in a thread of the test process, on the test database and the test broker's Redis),
the settings that switch the push on, and a reader of a stream.

The pages stay on pytest-django's live_server; the streams are on another port, as a stack
with no proxy in front serves them (LIVE_URL absolute: CORS and the CSP's connect-src).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings

from config import celery_app


def _broker() -> str:
    return celery_app.conf.broker_url


@pytest.fixture(scope="session")
def stream_server() -> Iterator[str]:
    """``http://127.0.0.1:<port>``: uvicorn serving the streams for the whole session."""
    import uvicorn

    from tournaments.web import live

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        live.application,
        lifespan="on",
        log_level="warning",
        loop="asyncio",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    saved = django_settings.LIVE_REDIS_URL
    django_settings.LIVE_REDIS_URL = _broker()  # the hub subscribes with it, once
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if get(url + "/live/readyz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        else:
            pytest.fail("the streams' server did not become ready (Redis?)")
    finally:
        django_settings.LIVE_REDIS_URL = saved
    yield url
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def live_push(settings, stream_server) -> str:
    """The push on for this test, the pages pointing at the streams' server."""
    settings.LIVE_REDIS_URL = _broker()
    settings.LIVE_URL = stream_server + "/live/"
    directives = dict(settings.CONTENT_SECURITY_POLICY["DIRECTIVES"])
    directives["connect-src"] = [*directives["connect-src"], stream_server]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": directives}
    return stream_server


def get(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        conn.request(
            "GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {}
        )
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Stream:
    """An open stream, read frame by frame (a thread reads its lines as they come)."""

    def __init__(self, url: str, headers: dict | None = None) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.conn.request("GET", path, headers=headers or {})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.getheaders()}
        self.lines: queue.Queue = queue.Queue()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in iter(self.response.readline, b""):
                self.lines.put(line.decode().rstrip("\n"))
        except Exception:
            pass
        self.lines.put(None)

    def events(self, count: int, wait: float = 5.0) -> list[dict]:
        """The next ``count`` events (their data, with ``id``), or fewer after ``wait`` s."""
        found: list[dict] = []
        deadline = time.monotonic() + wait
        frame: dict = {}
        while len(found) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            if line.startswith("id: "):
                frame["id"] = int(line[4:])
            elif line.startswith("data: "):
                frame.update(json.loads(line[6:]))
            elif line == "" and "kind" in frame:
                found.append(frame)
                frame = {}
        return found

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def connected(wait: float = 0.3) -> None:
    """Let a stream just opened register with the hub before something is published."""
    time.sleep(wait)


def drop_streams() -> None:
    """End every open stream from the server's side, as a web node killed or a venue's Wi-Fi
    dropping does: the browsers reconnect with their Last-Event-ID."""
    from tournaments.web import live

    loop = live.hub.task.get_loop()
    loop.call_soon_threadsafe(live.hub.close_all)
