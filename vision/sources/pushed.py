"""Frames pushed to Borne from outside: a phone's browser sending JPEGs over a WebSocket (``borne run --source browser``).

The sender hands each picture in with :meth:`PushedSource.offer` and never waits: only the newest picture is
kept, one the pipeline had not taken yet is replaced and counted as dropped, and a picture is decoded only when
the pipeline takes it (so a dropped one costs nothing but its copy). The pipeline reads :meth:`PushedSource.frames`
as from any live camera; it waits while no sender is connected.

>>> import cv2, numpy as np
>>> source = PushedSource(name="phone")
>>> ok, jpeg = cv2.imencode(".jpg", np.zeros((36, 64, 3), np.uint8))
>>> source.sender_joined(); source.offer(jpeg.tobytes()); source.offer(jpeg.tobytes())
>>> source.stats.dropped, source.latest(timeout=0.1).image.shape
(1, (36, 64, 3))
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.sources.frames import Frame, FrameSource

MAX_PICTURE_BYTES = 8 << 20
"""The largest JPEG taken (a 4K picture at high quality is about 3 MB); a larger one is counted as corrupt."""

RATE_WINDOW_S = 3.0
"""The span over which the rate of pictures received is measured: longer smooths it, shorter follows it faster."""


@dataclass(frozen=True)
class FeedCounts:
    """What came over the feed so far, for the sender's page and the display's camera panel."""

    received: int
    """Pictures received from the sender(s)."""
    taken: int
    """Pictures the pipeline took (decoded and read)."""
    dropped: int
    """Pictures replaced by a newer one before the pipeline took them."""
    corrupt: int
    """Pictures that were not a readable JPEG (or too large)."""
    received_per_second: float
    """The rate pictures arrived at over the last :data:`RATE_WINDOW_S` seconds."""
    senders: int
    """Senders connected now."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["received_per_second"] = round(self.received_per_second, 1)
        return out


class PushedSource(FrameSource):
    """A live source fed from outside: :meth:`offer` keeps the newest picture, :meth:`frames` gives it to the pipeline."""

    live = True

    def __init__(self, *, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.name = name
        self._clock = clock
        self._started_at = clock()
        self._cond = threading.Condition()
        self._pending: tuple[float, bytes] | None = None
        self._closed = False
        self._delivered = 0
        self._received = 0
        self._senders = 0
        self._arrivals: deque[float] = deque()
        self.stats.message = f"{name}: waiting for a picture"

    # -- the sender's side (the web server's event loop: never blocks) ------------------------------

    def sender_joined(self) -> None:
        with self._cond:
            self._senders += 1
            self.stats.connected = True
            self.stats.message = f"{self.name}: connected"

    def sender_left(self) -> None:
        with self._cond:
            self._senders = max(0, self._senders - 1)
            if self._senders == 0:
                self.stats.connected = False
                self.stats.message = f"{self.name}: the sender left; waiting for it to come back"

    def offer(self, jpeg: bytes) -> None:
        """Keep ``jpeg`` as the newest picture; one the pipeline had not taken is dropped (counted)."""
        now = self._clock()
        with self._cond:
            self._received += 1
            self._arrivals.append(now)
            while self._arrivals and now - self._arrivals[0] > RATE_WINDOW_S:
                self._arrivals.popleft()
            if not 0 < len(jpeg) <= MAX_PICTURE_BYTES:
                self.stats.corrupt += 1
                return
            if self._pending is not None:
                self.stats.dropped += 1
            self._pending = (now, jpeg)
            self._cond.notify_all()

    def counts(self) -> FeedCounts:
        now = self._clock()
        with self._cond:
            recent = [t for t in self._arrivals if now - t <= RATE_WINDOW_S]
            span = min(RATE_WINDOW_S, now - self._started_at)
            rate = len(recent) / span if span > 0 else 0.0
            return FeedCounts(received=self._received, taken=self.stats.frames, dropped=self.stats.dropped,
                              corrupt=self.stats.corrupt, received_per_second=rate, senders=self._senders)

    # -- the pipeline's side ------------------------------------------------------------------------

    def _take(self, timeout: float | None) -> tuple[float, bytes] | None:
        """The newest picture, waiting up to ``timeout`` (``None``: until one comes or the source closes)."""
        deadline = None if timeout is None else self._clock() + timeout
        with self._cond:
            while self._pending is None and not self._closed:
                left = 0.2 if deadline is None else min(0.2, deadline - self._clock())
                if left <= 0:
                    return None
                self._cond.wait(left)
            taken, self._pending = self._pending, None
            return taken

    def _decode(self, jpeg: bytes) -> NDArray[np.uint8] | None:
        import cv2

        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image is None or image.ndim != 3 or image.shape[0] < 8 or image.shape[1] < 8:
            self.stats.corrupt += 1
            return None
        return image.astype(np.uint8, copy=False)

    def frames(self) -> Iterator[Frame]:
        while True:
            taken = self._take(None)
            if taken is None:
                return
            frame = self._frame(*taken)
            if frame is not None:
                yield frame

    def latest(self, timeout: float = 1.0) -> Frame | None:
        """The newest picture, waiting up to ``timeout`` seconds for one; ``None`` if none came."""
        deadline = self._clock() + timeout
        while (left := deadline - self._clock()) > 0:
            taken = self._take(left)
            if taken is None:
                return None
            frame = self._frame(*taken)
            if frame is not None:
                return frame
        return None

    def _frame(self, at: float, jpeg: bytes) -> Frame | None:
        image = self._decode(jpeg)
        if image is None:
            return None
        self.stats.frames += 1
        self._delivered += 1
        return Frame(self._delivered - 1, at - self._started_at, image)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
