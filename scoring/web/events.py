"""Live updates: a broadcaster that fans out game changes to every open event stream (SSE).

Writes happen in worker threads; :meth:`Broadcaster.publish` hands each event to the event loop,
which puts it on every subscriber's bounded queue. A subscriber too slow to keep up is dropped
(its browser reconnects and reloads the game) instead of holding memory or slowing the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
from dataclasses import dataclass, field
from typing import Any

SUBSCRIBER_QUEUE_SIZE = 64
"""Events a stream may fall behind by before it is closed; raising it holds more memory per client."""

RECONNECT_MS = 1000
"""How long a browser waits before reconnecting a dropped stream (the SSE ``retry`` field)."""


@dataclass(frozen=True)
class GameEvent:
    """Something happened to a game: ``created``, ``add``, ``replace``, ``delete`` or ``undo``."""

    kind: str
    game_id: int
    revision: int
    game: dict[str, Any]
    """The game document after the change (as ``GET /api/games/{id}`` returns it)."""
    hand: int | None = None
    """The hand number the change was about, when there is one."""

    def to_sse(self, seq: int) -> str:
        data = {"kind": self.kind, "game_id": self.game_id, "revision": self.revision, "hand": self.hand, "game": self.game}
        return f"id: {seq}\nevent: game\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


LIVE_HAND_EVENT = "camera"
"""The SSE event type of the hand the camera follows (``event: camera``)."""


@dataclass(frozen=True)
class LiveHandEvent:
    """The hand the camera follows changed: its counts, confidence, flags, or the pending hand."""

    hand: dict[str, Any]
    """As ``GET /api/camera/hand`` returns it."""

    def to_sse(self, seq: int) -> str:
        return f"id: {seq}\nevent: {LIVE_HAND_EVENT}\ndata: {json.dumps(self.hand, separators=(',', ':'))}\n\n"


Event = GameEvent | LiveHandEvent


class TooManyStreamsError(Exception):
    """Opening one more stream would pass the cap, in all or for this client; the page polls instead."""


@dataclass(eq=False)
class Subscription:
    """One open event stream; ``game_id`` ``None`` follows every game."""

    game_id: int | None
    client: str = ""
    """The client's address, for the per-client cap."""
    queue: asyncio.Queue[tuple[int, Event] | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=SUBSCRIBER_QUEUE_SIZE)
    )

    def wants(self, event: Event) -> bool:
        """Every stream hears the camera's hand; a game's stream hears only that game's changes."""
        return self.game_id is None or isinstance(event, LiveHandEvent) or self.game_id == event.game_id


class Broadcaster:
    """Fans events out to subscribers. ``publish`` may be called from any thread."""

    def __init__(self, *, max_streams: int = 200, max_streams_per_client: int = 8) -> None:
        self.max_streams = max_streams
        """Open streams in all; each holds a connection, that is an open file of the server."""
        self.max_streams_per_client = max_streams_per_client
        self._subscribers: set[Subscription] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._seq = itertools.count(1)
        self._lock = threading.Lock()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver on this event loop (the server's, set at start-up)."""
        self._loop = loop

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    def subscribe(self, game_id: int | None, *, client: str = "") -> Subscription:
        """A new stream. :raises TooManyStreamsError: the cap in all or for ``client`` is reached."""
        if len(self._subscribers) >= self.max_streams:
            raise TooManyStreamsError(f"the display has {self.max_streams} live streams open, its most")
        if client and sum(1 for s in self._subscribers if s.client == client) >= self.max_streams_per_client:
            raise TooManyStreamsError(f"{client} has {self.max_streams_per_client} live streams open, its most")
        sub = Subscription(game_id=game_id, client=client)
        self._subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self._subscribers.discard(sub)

    def publish(self, event: Event) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with self._lock:
            seq = next(self._seq)
        with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
            loop.call_soon_threadsafe(self._deliver, seq, event)

    def close_all(self) -> None:
        """End every stream (server shutting down); browsers reconnect to the next server."""
        for sub in list(self._subscribers):
            self._drop(sub)

    def _deliver(self, seq: int, event: Event) -> None:
        for sub in list(self._subscribers):
            if not sub.wants(event):
                continue
            try:
                sub.queue.put_nowait((seq, event))
            except asyncio.QueueFull:
                self._drop(sub)

    def _drop(self, sub: Subscription) -> None:
        self._subscribers.discard(sub)
        while True:  # make room for the end-of-stream marker
            try:
                sub.queue.get_nowait()
            except asyncio.QueueEmpty:
                break
        sub.queue.put_nowait(None)
