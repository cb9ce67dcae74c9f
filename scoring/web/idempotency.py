"""Retried writes: a write sent with an ``Idempotency-Key`` is carried out once; a retry gets the first answer.

A phone whose connection drops after sending a hand cannot tell whether the hand was stored. The page
sends one key per entry, so its retry (or a person pressing Save again) is answered with the stored
answer (``Idempotent-Replayed: true``) instead of adding the hand twice. The key is committed in the
same transaction as the change (:data:`scoring.storage.CURRENT_REQUEST`); the answer right after it.
Only successful answers are kept: a refused write changed nothing and may simply be tried again.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable

from scoring.storage import CURRENT_REQUEST, GameStore, IdempotentRequest
from scoring.web.gate import WRITE_METHODS, ASGIApp, Message, Receive, Scope, Send, json_reply

KEY_HEADER = b"idempotency-key"
MAX_KEY_LENGTH = 200
REPLAYED_HEADER = "idempotent-replayed"
KEPT_HEADERS = ("content-type", "etag", "location")
"""The headers of an answer that a replay repeats."""


def valid_key(raw: bytes) -> str | None:
    """The key as text when it is 1 to MAX_KEY_LENGTH printable ASCII characters, else ``None``.

    >>> valid_key(b"4f1c-entry-7"), valid_key(b""), valid_key("\u00b2".encode())
    ('4f1c-entry-7', None, None)
    """
    try:
        key = raw.decode("ascii").strip()
    except UnicodeDecodeError:
        return None
    return key if 0 < len(key) <= MAX_KEY_LENGTH and key.isprintable() else None


class IdempotentWrites:
    """ASGI middleware: writes under an ``Idempotency-Key`` are done once and their answer replayed."""

    def __init__(self, app: ASGIApp, *, store: Callable[[], GameStore]) -> None:
        self.app = app
        self.store = store
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """key → (its lock, requests holding or awaiting it)"""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = None
        if scope["type"] == "http" and scope["method"] in WRITE_METHODS:
            raw = next((v for k, v in scope.get("headers", []) if k.lower() == KEY_HEADER), None)
        if raw is None:
            await self.app(scope, receive, send)
            return
        key = valid_key(raw)
        if key is None:
            for m in json_reply(422, f"Idempotency-Key is 1 to {MAX_KEY_LENGTH} printable ASCII characters"):
                await send(m)
            return
        body = await read_body(receive)
        if body is None:
            return  # the client went away
        digest = hashlib.sha256()
        for part in (scope["method"], scope["path"], scope.get("query_string", b"").decode("latin-1")):
            digest.update(part.encode() + b"\0")
        digest.update(body)
        request = IdempotentRequest(key=key, fingerprint=digest.hexdigest())
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:  # a retry sent while the first try is still being served waits for its answer
                await self._once(scope, body, send, request)
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    async def _once(self, scope: Scope, body: bytes, send: Send, request: IdempotentRequest) -> None:
        store = self.store()
        stored = await asyncio.to_thread(store.stored_answer, key=request.key)
        if stored is not None:
            if stored.fingerprint != request.fingerprint:
                reply = json_reply(422, "this Idempotency-Key was already used for another request; "
                                   "send a new key with each new change")
            elif stored.status is None:
                reply = json_reply(409, "this change was already made, but its answer was lost; reload the game")
            else:
                headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in stored.headers]
                reply = [{"type": "http.response.start", "status": stored.status,
                          "headers": [*headers, (b"content-length", str(len(stored.body)).encode()),
                                      (REPLAYED_HEADER.encode(), b"true")]},
                         {"type": "http.response.body", "body": stored.body}]
            for m in reply:
                await send(m)
            return

        start: Message = {}
        chunks: list[bytes] = []

        async def replay_receive() -> Message:
            nonlocal body
            message = {"type": "http.request", "body": body, "more_body": False}
            body = b""
            return message

        async def store_then_send(message: Message) -> None:
            # the answer is held until it is stored: a client that has it can always have it again
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            status = int(start["status"])
            if 200 <= status < 300:
                kept = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in start.get("headers", [])
                        if k.decode("latin-1").lower() in KEPT_HEADERS]
                await asyncio.to_thread(store.store_answer, request=request, status=status, headers=kept,
                                        body=b"".join(chunks))
            await send(start)
            await send({"type": "http.response.body", "body": b"".join(chunks)})

        token = CURRENT_REQUEST.set(request)
        try:
            await self.app(scope, replay_receive, store_then_send)
        finally:
            CURRENT_REQUEST.reset(token)

async def read_body(receive: Receive) -> bytes | None:
    """The whole request body (the gate has capped its size), or ``None`` if the client disconnected."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)

