"""The agent's HTTP side (CONTRACT.md §10): ``/stream.mjpg``, ``/snapshot.jpg`` and ``/status``, each needing
the camera's token as ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``.

The standard library's threaded server, one thread per connection, at most ``server.max_clients``
connections at once (more get 503). A stream client is sent the newest frame each time it has taken
the last one: a slow client skips frames (counted as ``dropped``), a client that takes nothing for
``server.send_timeout_s`` is dropped, and a vanished one ends its thread at the next write. So the
memory held is one frame per client at most, whatever the clients do.
"""

from __future__ import annotations

import hmac
import json
import logging
import socket
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from firmware_cam.agent import Agent
from firmware_cam.system import release_freed_memory

log = logging.getLogger("borne-cam")

BOUNDARY = "borneframe"
SEND_BUFFER_BYTES = 256 << 10
"""The kernel's send buffer per stream client (a 1280 × 720 JPEG is 50-200 kB)."""
REFUSAL_LOG_EVERY_S = 30.0
"""A client refused for its token is logged once in this long, so a misconfigured client cannot flood the journal."""


class CamServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, agent: Agent, token: str, address: tuple[str, int]) -> None:
        self.agent = agent
        self.token = token
        self.slots = threading.BoundedSemaphore(agent.config.server.max_clients)
        self.stopping = threading.Event()
        self._refusals: dict[str, float] = {}
        self._refusals_lock = threading.Lock()
        super().__init__(address, CamHandler)

    def note_refusal(self, client: str, why: str) -> None:
        now = time.monotonic()
        with self._refusals_lock:
            if now - self._refusals.get(f"{client} {why}", -1e9) < REFUSAL_LOG_EVERY_S:
                return
            self._refusals[f"{client} {why}"] = now
            if len(self._refusals) > 256:  # bounded, whoever knocks
                self._refusals.clear()
        log.warning("refused a client at %s: %s", client, why)

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away is ordinary (debug); anything else is one line in the journal."""
        import sys

        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            log.debug("client %s went away: %s", client_address, error)
        else:
            log.error("serving %s failed: %s: %s", client_address, type(error).__name__, error)

    def shutdown(self) -> None:
        self.stopping.set()
        self.agent.hub.wake_all()
        super().shutdown()


class CamHandler(BaseHTTPRequestHandler):
    server: CamServer
    protocol_version = "HTTP/1.1"
    server_version = "borne-cam/1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        url = urlsplit(self.path)
        routes = {"/stream.mjpg": self._stream, "/snapshot.jpg": self._snapshot, "/status": self._status}
        route = routes.get(url.path)
        if route is None:
            self._text(HTTPStatus.NOT_FOUND, f"no such page: {url.path} (the camera serves "
                                             "/stream.mjpg, /snapshot.jpg and /status)")
            return
        if not self._authorised(url.query):
            return
        if not self.server.slots.acquire(blocking=False):
            self._text(HTTPStatus.SERVICE_UNAVAILABLE,
                       f"the camera serves {self.server.agent.config.server.max_clients} clients at once; try later",
                       headers={"Retry-After": "5"})
            return
        self.server.agent.clients += 1
        try:
            route()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            log.debug("%s went away", self.address_string())
        finally:
            self.server.agent.clients -= 1
            self.server.slots.release()
            if route == self._stream:
                release_freed_memory()

    def _authorised(self, query: str) -> bool:
        given: str | None = None
        header = self.headers.get("Authorization", "")
        if header.lower().startswith("bearer "):
            given = header[7:].strip()
        else:
            tokens = parse_qs(query).get("token")
            given = tokens[0] if tokens else None
        if given is None:
            self.server.note_refusal(self.client_address[0], "no token")
            self._text(HTTPStatus.UNAUTHORIZED, "this camera needs its token: Authorization: Bearer TOKEN or "
                       "?token=TOKEN (printed by borne-cam when it starts; in /etc/borne-cam.toml on a Pi)",
                       headers={"WWW-Authenticate": 'Bearer realm="borne-cam"'})
            return False
        if not hmac.compare_digest(given.encode(), self.server.token.encode()):
            self.server.note_refusal(self.client_address[0], "wrong token")
            self._text(HTTPStatus.FORBIDDEN, "wrong token for this camera (see borne-cam's output or "
                       "/etc/borne-cam.toml on the Pi)")
            return False
        return True

    def _text(self, status: HTTPStatus, message: str, *, headers: dict[str, str] | None = None) -> None:
        body = json.dumps({"detail": message}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _status(self) -> None:
        body = json.dumps(self.server.agent.status()).encode()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _snapshot(self) -> None:
        agent = self.server.agent
        frame = agent.hub.newest() if agent.camera_ok() else None
        if frame is None:
            frame = agent.hub.wait_newer(0 if agent.hub.newest() is None else agent.hub.newest().number,  # type: ignore[union-attr]
                                         timeout=min(agent.config.watchdog.stall_s, 5.0))
        if frame is None:
            self._text(HTTPStatus.SERVICE_UNAVAILABLE, "the camera gives no picture just now: "
                       + (agent.last_error or "it is starting or being restarted"), headers={"Retry-After": "2"})
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(frame.jpeg)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Frame", str(frame.number))
        self.send_header("X-Timestamp", f"{frame.captured_at:.6f}")
        self.end_headers()
        self.wfile.write(frame.jpeg)

    def _stream(self) -> None:
        server, hub = self.server, self.server.agent.hub
        self.connection.settimeout(server.agent.config.server.send_timeout_s)
        # a small send buffer: the kernel holds a frame or so for a slow client, not seconds of stale ones
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        last = 0
        while not server.stopping.is_set():
            frame = hub.wait_newer(last, timeout=1.0)
            if frame is None:
                continue
            if last and frame.number > last + 1:
                hub.count_skipped(frame.number - last - 1)
            last = frame.number
            head = (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(frame.jpeg)}\r\n"
                    f"X-Frame: {frame.number}\r\nX-Timestamp: {frame.captured_at:.6f}\r\n\r\n").encode()
            self.wfile.write(head)  # apart, so the picture is not copied once more per client
            self.wfile.write(frame.jpeg)
            self.wfile.write(b"\r\n")
            self.wfile.flush()
