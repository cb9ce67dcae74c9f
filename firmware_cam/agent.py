"""The agent's heart: a capture thread, the newest frame, a watchdog, and the status.

The capture thread reads the camera and encodes each picture as JPEG into a :class:`FrameHub` that holds
one frame only, the newest: clients wait on it for a frame newer than the one they sent, so a slow client
skips frames and nothing queues. The :class:`Watchdog` notices when no frame came for
``watchdog.stall_s`` and restarts the camera (a new capture thread on a newly opened camera; the old one
is closed, which unblocks a stuck read), no more often than ``watchdog.min_restart_interval_s``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from firmware_cam.cameras import Camera, CameraError
from firmware_cam.config import CamConfig
from firmware_cam.system import pi_health

log = logging.getLogger("borne-cam")


@dataclass(frozen=True)
class JpegFrame:
    """One encoded frame as clients get it."""

    number: int
    """1, 2, … since the agent started (across camera restarts)."""
    captured_at: float
    """Wall-clock time (``time.time()``) the picture came from the camera."""
    jpeg: bytes
    width: int
    height: int


class FrameHub:
    """The newest frame and nothing else; clients wait here for a newer one.

    >>> hub = FrameHub()
    >>> hub.publish(JpegFrame(1, 0.0, b"a", 2, 2)); hub.publish(JpegFrame(2, 0.0, b"b", 2, 2))
    >>> hub.wait_newer(0, timeout=0).jpeg
    b'b'
    >>> hub.wait_newer(2, timeout=0) is None
    True
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._frame: JpegFrame | None = None
        self.skipped = 0
        """Frames replaced before a client took them, summed over clients (a slow client's skipped frames)."""

    def publish(self, frame: JpegFrame) -> None:
        with self._cond:
            self._frame = frame
            self._cond.notify_all()

    def newest(self) -> JpegFrame | None:
        with self._cond:
            return self._frame

    def wait_newer(self, after: int, *, timeout: float) -> JpegFrame | None:
        """The newest frame if its number is above ``after``, waiting up to ``timeout`` s for one."""
        with self._cond:
            if self._frame is None or self._frame.number <= after:
                self._cond.wait(timeout)
            if self._frame is None or self._frame.number <= after:
                return None
            return self._frame

    def count_skipped(self, n: int) -> None:
        with self._cond:
            self.skipped += n

    def wake_all(self) -> None:
        with self._cond:
            self._cond.notify_all()


CameraFactory = Callable[[], Camera]


class Agent:
    """Captures from the camera ``open_camera`` makes, into :attr:`hub`; see :meth:`status`."""

    def __init__(self, config: CamConfig, open_camera: CameraFactory, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.hub = FrameHub()
        self._open_camera = open_camera
        self._clock = clock
        self._lock = threading.Lock()
        self._generation = 0
        self._camera: Camera | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.started_at = clock()
        self.last_frame_at: float | None = None
        self.frames = 0
        self.corrupt = 0
        self.restarts = 0
        self.last_restart_at: float | None = None
        self.last_error: str | None = None
        self.backend = ""
        self.encode_s = 0.0
        """CPU-side seconds spent encoding JPEG, summed (bench)."""
        self.bytes_out = 0
        """Bytes of JPEG produced, summed (bench)."""
        self.clients = 0
        self.watchdog = Watchdog(self)

    # -- capture ---------------------------------------------------------------------------------

    def start(self) -> Agent:
        self._start_capture()
        self.watchdog.start()
        return self

    def _start_capture(self) -> None:
        with self._lock:
            self._generation += 1
            generation = self._generation
        self._thread = threading.Thread(target=self._capture, args=(generation,), name=f"capture {generation}",
                                        daemon=True)
        self._thread.start()

    def restart_camera(self, reason: str) -> None:
        """Close the camera (a stuck read returns) and open it again in a new capture thread."""
        self.restarts += 1
        self.last_restart_at = self._clock()
        log.warning("restarting the camera (restart %d): %s", self.restarts, reason)
        with self._lock:
            camera, self._camera = self._camera, None
        if camera is not None:
            _close_quietly(camera)
        self._start_capture()

    def _current(self, generation: int) -> bool:
        return generation == self._generation and not self._stop.is_set()

    def _capture(self, generation: int) -> None:
        try:
            camera = self._open_camera()
        except CameraError as e:
            self._error(str(e))
            return
        except Exception as e:  # a driver error: say so, the watchdog tries again later
            self._error(f"the camera would not open: {type(e).__name__}: {e}")
            return
        with self._lock:
            if not self._current(generation):
                _close_quietly(camera)
                return
            self._camera = camera
        self.backend = camera.describe()
        log.info("camera open: %s", self.backend)
        import cv2

        quality = [int(cv2.IMWRITE_JPEG_QUALITY), self.config.camera.jpeg_quality]
        while self._current(generation):
            try:
                image = camera.read()
            except Exception as e:
                if self._current(generation):
                    self._error(f"the camera failed while reading: {type(e).__name__}: {e}")
                return
            if image is None:
                continue
            if not self._current(generation):
                return
            captured = time.time()
            if not _usable(image):
                self.corrupt += 1
                continue
            t0 = time.process_time()
            ok, buf = cv2.imencode(".jpg", image, quality)
            self.encode_s += time.process_time() - t0
            if not ok:
                self.corrupt += 1
                continue
            data = buf.tobytes()
            self.bytes_out += len(data)
            self.frames += 1
            self.last_frame_at = self._clock()
            h, w = image.shape[:2]
            self.hub.publish(JpegFrame(self.frames, captured, data, w, h))

    def _error(self, message: str) -> None:
        if message != self.last_error:
            log.error("%s", message)
        self.last_error = message

    def close(self) -> None:
        self._stop.set()
        self.watchdog.stop()
        with self._lock:
            camera, self._camera = self._camera, None
        if camera is not None:
            _close_quietly(camera)
        self.hub.wake_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    # -- status ------------------------------------------------------------------------------------

    def camera_ok(self) -> bool:
        at = self.last_frame_at
        return at is not None and self._clock() - at < self.config.watchdog.stall_s

    def status(self) -> dict[str, object]:
        """What ``GET /status`` answers: frames, dropped, uptime, camera ok or lost, and the Pi's health."""
        newest = self.hub.newest()
        now = self._clock()
        out: dict[str, object] = {
            "camera": "ok" if self.camera_ok() else "lost",
            "frames": self.frames,
            "dropped": self.hub.skipped,
            "corrupt": self.corrupt,
            "restarts": self.restarts,
            "uptime_s": round(now - self.started_at, 1),
            "last_frame_age_s": None if self.last_frame_at is None else round(now - self.last_frame_at, 2),
            "backend": self.backend,
            "source": self.config.camera.source,
            "width": newest.width if newest else None,
            "height": newest.height if newest else None,
            "fps": self.config.camera.fps,
            "jpeg_quality": self.config.camera.jpeg_quality,
            "mean_jpeg_bytes": round(self.bytes_out / self.frames) if self.frames else None,
            "clients": self.clients,
            "error": None if self.camera_ok() else self.last_error,
        }
        out.update(pi_health())
        return out


def _usable(image: NDArray[np.uint8]) -> bool:
    return isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3 and image.size > 0


def _close_quietly(camera: Camera) -> None:
    try:
        camera.close()
    except Exception as e:
        log.debug("closing the camera: %s", e)


class Watchdog:
    """Restarts a camera that gave no frame for ``stall_s``, at most once per ``min_restart_interval_s``."""

    CHECK_EVERY_S = 0.25

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lost_said = False

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def due(self, now: float) -> str | None:
        """Why the camera should be restarted now (``None``: it should not)."""
        a, w = self.agent, self.agent.config.watchdog
        since = a.last_frame_at if a.last_frame_at is not None else a.started_at
        if a.last_restart_at is not None:
            since = max(since, a.last_restart_at)
            if now - a.last_restart_at < w.min_restart_interval_s:
                return None
        if now - since < w.stall_s:
            return None
        return f"no frame for {now - since:.1f} s" + (f" ({a.last_error})" if a.last_error else "")

    NOTIFY_EVERY_S = 5.0
    """How often systemd hears that the agent is alive (the unit's ``WatchdogSec`` is 30 s)."""

    def _run(self) -> None:
        from firmware_cam.system import sd_notify

        notified = -1e9
        while not self._stop.wait(self.CHECK_EVERY_S):
            now = self.agent._clock()
            if now - notified >= self.NOTIFY_EVERY_S:
                sd_notify("WATCHDOG=1")
                notified = now
            ok = self.agent.camera_ok()
            if not ok and not self._lost_said and self.agent.frames:
                log.error("camera lost: no frame for %.1f s", self.agent.config.watchdog.stall_s)
            self._lost_said = not ok
            reason = self.due(now)
            if reason is not None:
                self.agent.restart_camera(reason)
