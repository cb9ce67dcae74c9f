"""Where frames come from: a webcam, a video file, a stream URL, a folder of images, or the demo.

File and folder sources deliver every frame in order, deterministically (``borne replay``).
Live sources (webcam, stream) run a capture thread that keeps only the newest frame: a slow
pipeline skips frames, it never queues them. When a camera stops delivering, the source says so,
reopens it with a growing pause between tries, and counts the reconnections. Frames that cannot
be decoded are skipped and counted.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
DEFAULT_FPS = 10.0
"""The frame rate assumed for a folder of frames (and for a video that does not say)."""


class SourceError(VisionError):
    """A source that cannot be opened (no such file, not a video, an empty folder, a bad URL)."""


@dataclass(frozen=True)
class Frame:
    """One picture of the table."""

    index: int
    """0, 1, … in the order the source delivered them (skipped frames leave gaps in live sources)."""
    time: float
    """Seconds since the source started (the video's own clock for files)."""
    image: NDArray[np.uint8] = field(repr=False)
    """BGR pixels ``(H, W, 3)``."""
    name: str = ""
    """The file the frame was read from, for folder and demo sources ("" otherwise)."""


@dataclass
class SourceStats:
    """What a source has been through; read it at any time (it is updated by the capture thread)."""

    frames: int = 0
    """Frames delivered to the pipeline."""
    corrupt: int = 0
    """Frames that could not be decoded and were skipped."""
    dropped: int = 0
    """Frames a live source replaced by a newer one before the pipeline took them."""
    reconnects: int = 0
    """Times a live source reopened its camera after losing it."""
    connected: bool = False
    message: str = ""
    """The latest news for people ("camera lost, reconnecting in 2 s")."""


class FrameFeed(Protocol):
    """What the pipeline needs of a source: a :class:`FrameSource`, or a wrapper that follows one after another."""

    live: bool

    @property
    def stats(self) -> SourceStats: ...

    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class FrameSource(ABC):
    """An iterable of frames with statistics; close it when done."""

    live: bool = False
    """Live sources drop frames to stay current; file sources deliver every frame."""

    def __init__(self) -> None:
        self.stats = SourceStats()

    @abstractmethod
    def frames(self) -> Iterator[Frame]:
        """The frames, in order, until the source ends or is closed."""

    def close(self) -> None:  # noqa: B027 - most sources hold nothing
        """Release the camera or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Pacer:
    """Holds frames back to the pace of their own clock, as a camera would deliver them.

    The one pacing helper: the demo and ``borne run`` reading a file or folder both use it. ``sleep``
    may be an ``Event.wait``, so that closing a source stops the wait at once.

    >>> waited = []
    >>> pacer = Pacer(sleep=waited.append, clock=lambda: 10.0)
    >>> pacer.wait_for(0.5); pacer.wait_for(0.0); waited
    [0.5]
    """

    def __init__(self, *, sleep: Callable[[float], object] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._sleep = sleep
        self._clock = clock
        self.started = clock()
        """The clock's reading at frame time 0."""

    def wait_for(self, frame_time: float) -> None:
        """Wait until ``frame_time`` seconds have passed since :attr:`started` (no wait when already late)."""
        wait = self.started + frame_time - self._clock()
        if wait > 0:
            self._sleep(wait)


def paced(frames: Iterable[Frame]) -> Iterator[Frame]:
    """``frames`` delivered no faster than their own ``time`` (a file or folder played as a camera)."""
    pacer = Pacer()
    for frame in frames:
        pacer.wait_for(frame.time)
        yield frame


# -- files ----------------------------------------------------------------------------------


class FolderSource(FrameSource):
    """The images of a folder, sorted by file name, at ``fps`` frames per second."""

    def __init__(self, folder: str | Path, *, fps: float = DEFAULT_FPS) -> None:
        super().__init__()
        p = Path(folder)
        if not p.is_dir():
            raise SourceError(f"{folder}: no such folder")
        self.paths = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file())
        if not self.paths:
            raise SourceError(f"{folder}: holds no JPEG or PNG frames")
        self.fps = fps

    def frames(self) -> Iterator[Frame]:
        from vision.image import read_image

        self.stats.connected = True
        for i, path in enumerate(self.paths):
            try:
                image = read_image(path)
            except VisionError:
                self.stats.corrupt += 1
                continue
            self.stats.frames += 1
            yield Frame(i, i / self.fps, image, str(path))


class VideoFileSource(FrameSource):
    """Every frame of a video file, timed by the video's own frame rate."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        import cv2

        p = Path(path)
        if not p.is_file():
            raise SourceError(f"{path}: no such video file")
        self._capture = cv2.VideoCapture(str(p))
        if not self._capture.isOpened():
            raise SourceError(f"{path}: not a video OpenCV can read")
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else DEFAULT_FPS
        ok, raw = self._capture.read()
        if not ok or not _usable(raw):
            self._capture.release()
            raise SourceError(f"{path}: not a video OpenCV can read (no frame decodes)")
        self._first: NDArray[np.uint8] | None = np.asarray(raw, dtype=np.uint8)

    def frames(self) -> Iterator[Frame]:
        self.stats.connected = True
        i = 0
        failures = 0
        while True:
            image: NDArray[np.uint8] | None
            if self._first is not None:
                ok, image = True, self._first
                self._first = None
            else:
                ok, got = self._capture.read()
                image = np.asarray(got, dtype=np.uint8) if ok and got is not None else None
            if not ok or image is None:
                # the end of the file, or a frame the decoder gave up on: try a few more before stopping
                failures += 1
                if failures > 3 or not self._capture.grab():
                    break
                self.stats.corrupt += 1
                i += 1
                continue
            failures = 0
            if not _usable(image):
                self.stats.corrupt += 1
            else:
                self.stats.frames += 1
                yield Frame(i, i / self.fps, image)
            i += 1
        self.stats.connected = False

    def close(self) -> None:
        self._capture.release()


def _usable(image: Any) -> bool:
    return isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3 and image.size > 0


# -- live cameras -----------------------------------------------------------------------------


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


class StreamRefusedError(SourceError):
    """The camera answered but refused us: no token or a wrong one (HTTP 401 or 403)."""


def redact(url: str) -> str:
    """``url`` with its token hidden, for messages and the display.

    >>> redact("http://pi.local:8081/stream.mjpg?token=s3cret&x=1")
    'http://pi.local:8081/stream.mjpg?token=***&x=1'
    """
    import re

    return re.sub(r"(token=)[^&#]*", r"\1***", url)


class MjpegCapture:
    """An HTTP MJPEG stream (``multipart/x-mixed-replace``) read part by part: the Borne camera agent's
    ``/stream.mjpg`` (CONTRACT §10) or an IP camera's. It has the :class:`Capture` interface.

    A ``token`` in the URL's query is also sent as ``Authorization: Bearer``.

    :raises StreamRefusedError: the camera wants a token, or another one (with its own explanation).
    :raises SourceError: the server answered with something else than an MJPEG stream.
    :raises OSError: nothing answers (yet).
    """

    def __init__(self, url: str, *, timeout: float = 5.0) -> None:
        import http.client
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SourceError(f"{redact(url)}: not an http:// stream URL")
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._conn = kind(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "multipart/x-mixed-replace, image/jpeg"}
        token = parse_qs(parts.query).get("token")
        if token:
            headers["Authorization"] = f"Bearer {token[0]}"
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            self._conn.request("GET", path, headers=headers)
            response = self._conn.getresponse()
        except Exception:
            self._conn.close()
            raise
        if response.status in (401, 403):
            detail = _detail(response.read(2000))
            self._conn.close()
            what = "asks for a token" if response.status == 401 else "refused the token"
            raise StreamRefusedError(f"{redact(url)}: the camera {what} (HTTP {response.status}): {detail}")
        content_type = response.getheader("Content-Type", "")
        if response.status != 200 or "multipart" not in content_type.lower():
            self._conn.close()
            raise SourceError(f"{redact(url)}: not an MJPEG stream (HTTP {response.status}, {content_type or 'no type'})")
        boundary = next((p.split("=", 1)[1].strip().strip('"') for p in content_type.split(";")
                         if p.strip().lower().startswith("boundary=")), "")
        self._boundary = ("--" + boundary.removeprefix("--")).encode() if boundary else b"--"
        self._response = response
        self.captured_at: float | None = None
        """The agent's wall-clock capture time of the last frame read (its ``X-Timestamp``), when sent."""
        self.frame_number: int | None = None
        """The agent's number of the last frame read (``X-Frame``), when sent."""

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, Any]:
        """The next picture; ``(False, None)`` when the stream ended or stalled, ``(True, None)`` for a
        part that is not a picture (counted as corrupt)."""
        import http.client

        import cv2

        try:
            data = self._next_part()
        except (TimeoutError, OSError, http.client.HTTPException, ValueError):
            return False, None
        if data is None:
            return False, None
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return True, image

    def _next_part(self) -> bytes | None:
        r = self._response
        line = r.readline(1024)
        while line and not line.strip().startswith(self._boundary):
            line = r.readline(1024)
        if not line:
            return None
        length: int | None = None
        self.captured_at = self.frame_number = None
        for _ in range(32):
            header = r.readline(1024).strip()
            if not header:
                break
            name, _, value = header.decode("latin-1").partition(":")
            key = name.strip().lower()
            if key == "content-length":
                length = int(value)
            elif key == "x-timestamp":
                self.captured_at = float(value)
            elif key == "x-frame":
                self.frame_number = int(value)
        if length is None:  # no length: the picture runs to its end-of-image marker
            data = bytearray()
            while not data.endswith(b"\xff\xd9"):
                chunk = r.read(1)
                if not chunk or len(data) > 32 << 20:
                    return None
                data += chunk
            return bytes(data)
        if not 0 < length <= 32 << 20:
            raise ValueError(f"a part of {length} bytes")
        data = r.read(length)  # type: ignore[assignment]
        return data if len(data) == length else None  # type: ignore[return-value]

    def release(self) -> None:
        self._conn.close()


def _detail(body: bytes) -> str:
    import json

    try:
        detail = json.loads(body).get("detail")
        if isinstance(detail, str):
            return detail
    except (ValueError, AttributeError):
        pass
    return body.decode("utf-8", "replace").strip()[:200] or "no reason given"


def check_stream(url: str, *, timeout: float = 5.0) -> None:
    """Try an HTTP stream once: a camera that refuses the token is refused now, with its reason; one that
    does not answer yet may come later (nothing is raised).

    :raises StreamRefusedError:
    :raises SourceError: the URL answers with something that is not an MJPEG stream.
    """
    try:
        MjpegCapture(url, timeout=timeout).release()
    except SourceError:
        raise
    except Exception:
        return


def open_source(spec: str | None, *, replay: bool = False,
                demo: Callable[[], FrameSource] | None = None) -> FrameSource:
    """The source a command line names: a webcam index, a video file, a folder, a URL, or ``demo``.

    ``None`` or ``"demo"`` is the built-in demo, made by ``demo`` (the data engine renders it, so the
    command that offers it hands it in: the runtime itself never imports ``datasets``). With ``replay``,
    only files and folders are accepted.

    :raises SourceError: naming what is wrong with ``spec``.
    """
    if spec is None or spec == "demo":
        if replay:
            raise SourceError("replay needs a video file or a folder of frames")
        if demo is None:
            raise SourceError("the demo is not offered here: name a camera, a video file, a folder or a stream URL")
        return demo()
    if spec.isdigit() and not replay:
        return webcam_source(int(spec))
    if "://" in spec:
        if replay:
            raise SourceError(f"{spec}: replay reads a video file or a folder of frames, not a stream")
        return stream_source(spec)
    p = Path(spec)
    if p.is_dir():
        return FolderSource(p)
    if p.is_file():
        return VideoFileSource(p)
    raise SourceError(f"{spec}: no such file or folder")
