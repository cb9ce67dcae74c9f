"""Live cameras: a capture thread keeps only the newest frame, so a slow pipeline skips frames and never
queues them; a camera that stops delivering is reopened with a growing pause, and the reconnections counted."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from vision.sources.files import _usable
from vision.sources.frames import Frame, FrameSource
from vision.sources.mjpeg import MjpegCapture, redact


class Capture(Protocol):
    """What a live source needs of ``cv2.VideoCapture`` (a test passes a fake)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's names
    def read(self) -> tuple[bool, Any]: ...
    def release(self) -> None: ...


@dataclass(frozen=True)
class LiveSettings:
    offline_after_s: float = 5.0
    """A camera that delivered nothing for this long is declared lost and reopened."""
    first_retry_s: float = 0.5
    """Pause before the first attempt to reopen a lost camera; it doubles after each failure."""
    max_retry_s: float = 10.0
    """The longest pause between two attempts."""
    max_failed_reads: int = 30
    """Reads in a row that return nothing before the camera is declared lost (a fast failure)."""


class LiveSource(FrameSource):
    """A camera read by a thread that keeps only the newest frame.

    ``open_capture`` opens the camera (``cv2.VideoCapture(0)``, a stream URL, a fake in tests).
    """

    live = True

    def __init__(self, open_capture: Callable[[], Capture], *, name: str, settings: LiveSettings = LiveSettings(),
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.name = name
        self.settings = settings
        self._open = open_capture
        self._clock = clock
        self._lock = threading.Condition()
        self._latest: tuple[float, NDArray[np.uint8]] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started_at = clock()
        self._delivered = 0
        self.open_error: str | None = None
        """Why the camera could not be opened the last time it was tried (``None``: it opened)."""
        self.log: list[str] = []
        """What happened to the camera, oldest first (lost, reconnecting, back)."""

    def start(self) -> LiveSource:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"capture {self.name}", daemon=True)
            self._thread.start()
        return self

    def frames(self) -> Iterator[Frame]:
        self.start()
        while not self._stop.is_set():
            with self._lock:
                while self._latest is None and not self._stop.is_set():
                    self._lock.wait(0.2)
                if self._latest is None:
                    break
                at, image = self._latest
                self._latest = None
            self.stats.frames += 1
            yield Frame(self._delivered, at - self._started_at, image)
            self._delivered += 1

    def latest(self, timeout: float = 1.0) -> Frame | None:
        """The newest frame, waiting up to ``timeout`` seconds for one; ``None`` if none came."""
        self.start()
        with self._lock:
            if self._latest is None:
                self._lock.wait(timeout)
            if self._latest is None:
                return None
            at, image = self._latest
            self._latest = None
        self.stats.frames += 1
        self._delivered += 1
        return Frame(self._delivered - 1, at - self._started_at, image)

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def _say(self, message: str) -> None:
        self.stats.message = message
        self.log.append(message)

    def _run(self) -> None:
        s = self.settings
        pause = s.first_retry_s
        first = True
        while not self._stop.is_set():
            capture = self._try_open()
            if capture is None:
                why = f" ({self.open_error})" if self.open_error else ""
                self._say(f"{self.name}: cannot open the camera{why}; trying again in {pause:g} s")
                self._stop.wait(pause)
                pause = min(pause * 2, s.max_retry_s)
                continue
            if not first:
                self.stats.reconnects += 1
                self._say(f"{self.name}: camera back (reconnection {self.stats.reconnects})")
            first = False
            pause = s.first_retry_s
            self.stats.connected = True
            self._read_until_lost(capture)
            capture.release()
            self.stats.connected = False
            if not self._stop.is_set():
                self._say(f"{self.name}: camera lost; reconnecting in {pause:g} s")
                self._stop.wait(pause)
                pause = min(pause * 2, s.max_retry_s)

    def _try_open(self) -> Capture | None:
        self.open_error = None
        try:
            capture = self._open()
        except Exception as e:  # a driver or network error: the camera is not there yet
            self.open_error = str(e)
            return None
        if not capture.isOpened():
            capture.release()
            return None
        return capture

    def _read_until_lost(self, capture: Capture) -> None:
        s = self.settings
        last_frame_at = self._clock()
        failed = 0
        while not self._stop.is_set():
            try:
                ok, image = capture.read()
            except Exception:
                ok, image = False, None
            now = self._clock()
            if ok and _usable(image):
                failed = 0
                last_frame_at = now
                with self._lock:
                    if self._latest is not None:
                        self.stats.dropped += 1
                    self._latest = (now, image)
                    self._lock.notify_all()
                continue
            if ok:  # something arrived but it is not a picture
                self.stats.corrupt += 1
            failed += 1
            if failed >= s.max_failed_reads or now - last_frame_at >= s.offline_after_s:
                return
            self._stop.wait(0.01)


def webcam_source(index: int, **kwargs: Any) -> LiveSource:
    import cv2

    return LiveSource(lambda: cv2.VideoCapture(index), name=f"camera {index}", **kwargs)


def stream_source(url: str, **kwargs: Any) -> LiveSource:
    """An RTSP or HTTP (MJPEG) stream: HTTP is read by :class:`MjpegCapture` (which says why a camera
    refused it), anything else by OpenCV."""
    import cv2

    if url.lower().startswith(("http://", "https://")):
        return LiveSource(lambda: MjpegCapture(url), name=redact(url), **kwargs)
    return LiveSource(lambda: cv2.VideoCapture(url), name=redact(url), **kwargs)
