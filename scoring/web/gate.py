"""What a request must pass before any route reads it: a Host the display answers to, a body small
enough, and for a write the table's token, with a slowdown for a client that keeps guessing it.

All of it runs as ASGI middleware on the headers alone, so a refused request costs no parsing and no
memory for its body: an unauthenticated 12 MB POST is answered 401 without reading it, one with the
token 413 from its ``Content-Length`` (or, sent in chunks, as soon as it runs past the limit).
The routes' own ``require_token`` stays, so the OpenAPI document shows which routes need the token.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import math
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

FREE_WRONG_TOKENS = 5
"""Wrong tokens a client may send before it has to wait (a person mistyping); lowering it locks out sooner."""

FIRST_LOCKOUT_S = 1.0
MAX_LOCKOUT_S = 300.0
"""Each wrong token past the free ones doubles the wait, from FIRST_LOCKOUT_S up to MAX_LOCKOUT_S: at the cap a
guesser gets about 290 tries a day, against a 74-bit token."""

THROTTLED_CLIENTS = 4096
"""Client addresses remembered at once (least recently seen forgotten first), so guessing holds bounded memory."""


class TokenThrottle:
    """Counts wrong tokens per client address and says how long that client must wait before the next try.

    While a client waits, its writes are answered 429 without looking at the token, so guessing in parallel
    gains nothing. A right token clears the count.

    >>> clock = [0.0]
    >>> throttle = TokenThrottle(clock=lambda: clock[0])
    >>> for _ in range(FREE_WRONG_TOKENS): throttle.wrong("10.0.0.7")
    >>> throttle.wait_s("10.0.0.7")
    0.0
    >>> throttle.wrong("10.0.0.7"); throttle.wait_s("10.0.0.7"), throttle.wait_s("10.0.0.8")
    (1.0, 0.0)
    >>> clock[0] = 1.0; throttle.wrong("10.0.0.7"); throttle.wait_s("10.0.0.7")
    2.0
    >>> throttle.right("10.0.0.7"); throttle.wait_s("10.0.0.7")
    0.0
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._clients: OrderedDict[str, tuple[int, float]] = OrderedDict()
        """address → (wrong tokens so far, monotonic time before which it must wait)"""

    def wait_s(self, client: str) -> float:
        """Seconds ``client`` must still wait before a token it sends is looked at (0: none)."""
        entry = self._clients.get(client)
        return 0.0 if entry is None else max(0.0, entry[1] - self._clock())

    def wrong(self, client: str) -> None:
        failures = self._clients.pop(client, (0, 0.0))[0] + 1
        over = failures - FREE_WRONG_TOKENS
        wait = 0.0 if over <= 0 else min(MAX_LOCKOUT_S, FIRST_LOCKOUT_S * 2 ** min(over - 1, 30))
        self._clients[client] = (failures, self._clock() + wait)
        while len(self._clients) > THROTTLED_CLIENTS:
            self._clients.popitem(last=False)

    def right(self, client: str) -> None:
        self._clients.pop(client, None)


def machine_names() -> set[str]:
    """This machine's own names, as a phone on the LAN may type them: its host name, ``NAME.local``, its FQDN."""
    names = {"localhost"}
    with contextlib.suppress(OSError):
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname.split('.')[0]}.local"}
        names.add(socket.getfqdn().lower())
    return {n for n in names if n}


def host_name(host_header: str) -> str:
    """The name or address of a ``Host`` header, without port and brackets, lower case.

    >>> host_name("Example.local:8000"), host_name("[::1]:8000"), host_name("192.168.1.20")
    ('example.local', '::1', '192.168.1.20')
    """
    value = host_header.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """Which ``Host`` headers the display answers to.

    DNS rebinding makes a browser send the attacker's own name as the Host to a server on the LAN or on
    loopback, so a name is allowed only if it is this machine's, ``--host``, or given with ``--allowed-host``.
    An IP address cannot be rebound, so any is allowed: a phone opens ``http://192.168.1.20:8000/``.

    >>> check = HostCheck(["borne.example"])
    >>> [check.allows(h) for h in ("127.0.0.1:8000", "[::1]", "localhost", "borne.example", "evil.example")]
    [True, True, True, True, False]
    """

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.names = machine_names() | {host_name(n) for n in extra if n.strip()}

    def allows(self, host_header: str | None) -> bool:
        if not host_header:
            return False  # HTTP/1.1 requires one; a client without one is not a browser
        name = host_name(host_header)
        return name in self.names or is_ip_address(name)


def json_reply(status: int, message: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> list[Message]:
    """The ASGI messages of a small JSON error (the shape of :class:`scoring.web.schemas.ErrorOut`)."""
    body = json.dumps({"detail": message, "message": message}).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    return [{"type": "http.response.start", "status": status, "headers": head},
            {"type": "http.response.body", "body": body}]


class BodyTooLargeError(Exception):
    """A chunked body ran past the limit; the gate has answered 413 already."""


class Gate:
    """ASGI middleware: the Host, the body's size and a write's token, checked before the app reads anything."""

    def __init__(self, app: ASGIApp, *, token: str, max_body_bytes: int, hosts: HostCheck,
                 throttle: TokenThrottle | None = None, large_bodies: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.token = token.encode()
        self.max_body_bytes = max_body_bytes
        self.large_bodies = dict(large_bodies or {})
        """Paths that take larger bodies than ``max_body_bytes`` (a photo), with their own limit."""
        self.hosts = hosts
        self.throttle = throttle or TokenThrottle()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            await self._reply(send, 400, f"this display does not answer to the host {host[:60]!r}; open it by "
                              "its address, or start it with --allowed-host NAME")
            return
        if scope["method"] in WRITE_METHODS and scope["path"].startswith("/api/"):
            refused = self._check_token(scope, headers.get(b"authorization"))
            if refused is not None:
                await self._send_all(send, refused)
                return
        limit = self.large_bodies.get(scope["path"], self.max_body_bytes)
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            status = 413 if length.isdigit() else 400
            await self._reply(send, status, f"a request body is at most {limit:,} bytes"
                              if status == 413 else "Content-Length must be a number of bytes")
            return
        await self._forward_limited(scope, receive, send, limit)

    def _check_token(self, scope: Scope, authorization: bytes | None) -> list[Message] | None:
        """The refusal of a write without the right token, or ``None`` to let it through."""
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.throttle.wait_s(client)
        if wait > 0:
            return json_reply(429, f"too many wrong tokens from {client}; try again in {math.ceil(wait)} s",
                              [(b"retry-after", str(math.ceil(wait)).encode())])
        bearer = [(b"www-authenticate", b"Bearer")]
        if not authorization:
            return json_reply(401, "this change needs the table's token (Authorization: Bearer TOKEN)", bearer)
        scheme, _, given = authorization.partition(b" ")
        if scheme.lower() != b"bearer" or not given.strip():
            return json_reply(401, "send the token as Authorization: Bearer TOKEN", bearer)
        if not secrets.compare_digest(given.strip(), self.token):
            self.throttle.wrong(client)
            return json_reply(403, "wrong token for this table")
        self.throttle.right(client)
        return None

    async def _forward_limited(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """Pass the request on, counting the body as it arrives; past the limit answer 413 and stop."""
        received = 0
        answered = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, answered
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    if not started:
                        answered = True
                        await self._reply(send, 413, f"a request body is at most {limit:,} bytes")
                    raise BodyTooLargeError
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if answered:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not answered:  # after our 413, how the app failed to read the rest is of no interest
                raise

    async def _reply(self, send: Send, status: int, message: str) -> None:
        await self._send_all(send, json_reply(status, message))

    @staticmethod
    async def _send_all(send: Send, messages: list[Message]) -> None:
        for m in messages:
            await send(m)
