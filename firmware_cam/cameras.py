"""The cameras the agent reads, behind one small interface: the Pi camera (``picamera2``) and OpenCV
(a USB webcam, or a video file standing in for a camera in tests).

Each gives BGR pictures ``(H, W, 3)`` as OpenCV wants them. A camera that has nothing to give returns
``None`` from :meth:`Camera.read`; the agent's watchdog decides when that means it is lost.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import time
from abc import ABC, abstractmethod
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from firmware_cam.config import CameraConfig

log = logging.getLogger("borne-cam")


class CameraError(RuntimeError):
    """A camera that cannot be opened (none at that index, no such file, picamera2 missing)."""


class Camera(ABC):
    """One open camera; :meth:`close` it when done (also from another thread, to unblock a stuck read)."""

    backend: str = ""
    """``picamera2`` or ``opencv``, for the status."""

    @abstractmethod
    def read(self) -> NDArray[np.uint8] | None:
        """The next picture (BGR), waiting for it; ``None``: nothing came (the watchdog counts the time)."""

    @abstractmethod
    def close(self) -> None:
        """Release the camera."""

    def describe(self) -> str:
        return self.backend


def _rotated(image: NDArray[np.uint8], rotation: int) -> NDArray[np.uint8]:
    return image[::-1, ::-1] if rotation == 180 else image


# -- OpenCV: a webcam or a video file ------------------------------------------------------------


class OpenCVCamera(Camera):
    """A webcam by index (``"0"``) or a video file, read with ``cv2.VideoCapture``.

    A video file plays at its own frame rate and size, once: at its end the camera gives nothing, as a
    stuck camera would, and the watchdog's restart plays it again.
    """

    backend = "opencv"

    def __init__(self, config: CameraConfig) -> None:
        import cv2

        self.config = config
        self.is_file = not config.source.isdigit()
        if self.is_file:
            if not Path(config.source).is_file():
                raise CameraError(f"{config.source}: no such video file")
            self._capture = cv2.VideoCapture(config.source)
        else:
            self._capture = cv2.VideoCapture(int(config.source))
        if not self._capture.isOpened():
            self._capture.release()
            what = "not a video OpenCV can read" if self.is_file else "no camera at this index (is it plugged in?)"
            raise CameraError(f"{config.source}: {what}")
        if self.is_file:
            fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
            self.fps = fps if 1.0 <= fps <= 240.0 else config.fps
        else:
            self._set_up_webcam(cv2)
            self.fps = config.fps
        self._next_at = time.monotonic()
        self._ended = False

    def _set_up_webcam(self, cv2: Any) -> None:
        c, cap = self.config, self._capture
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, c.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, c.height)
        cap.set(cv2.CAP_PROP_FPS, c.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued in the driver
        if c.exposure == "fixed":
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)  # V4L2's "manual" (0.75 is automatic)
            cap.set(cv2.CAP_PROP_EXPOSURE, float(c.exposure_us or 0) / 100.0)  # V4L2 counts 100 µs
            if c.gain is not None:
                cap.set(cv2.CAP_PROP_GAIN, c.gain)
        if c.focus == "manual":
            cap.set(cv2.CAP_PROP_AUTOFOCUS, 0)
            cap.set(cv2.CAP_PROP_FOCUS, float(c.lens_position or 0.0))
        else:
            cap.set(cv2.CAP_PROP_AUTOFOCUS, 1)

    def read(self) -> NDArray[np.uint8] | None:
        if self._ended:
            time.sleep(0.05)
            return None
        if self.is_file:
            wait = self._next_at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._next_at = max(self._next_at + 1.0 / self.fps, time.monotonic() - 1.0 / self.fps)
        ok, image = self._capture.read()
        if not ok or image is None or getattr(image, "ndim", 0) != 3:
            if self.is_file:
                self._ended = True
                log.info("%s: the video file ended", self.config.source)
            return None
        return _rotated(np.asarray(image, dtype=np.uint8), self.config.rotation)

    def close(self) -> None:
        self._capture.release()

    def describe(self) -> str:
        return f"opencv ({'video file' if self.is_file else 'webcam ' + self.config.source})"


# -- the Raspberry Pi camera ------------------------------------------------------------------------


SETTLE_FRAMES = 30
"""With ``exposure = "lock"``, frames of automatic exposure before it is held (about 3 s at 10 frames/s)."""


class PiCamera(Camera):
    """The Raspberry Pi camera module through ``picamera2`` (libcamera).

    ``module`` is the ``picamera2`` module (a test passes a stand-in). The main stream is asked for in
    ``RGB888``, which libcamera lays out in memory as B, G, R: the array is already in OpenCV's order and
    is used as it is (``BGR888`` would be R, G, B and need swapping; ``XRGB8888`` has a fourth byte to drop).
    """

    backend = "picamera2"
    FORMAT = "RGB888"

    def __init__(self, config: CameraConfig, *, module: ModuleType | Any | None = None) -> None:
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError:
                raise CameraError("picamera: the picamera2 package is not installed (on Raspberry Pi OS: "
                                  "sudo apt install python3-picamera2, and a venv made with --system-site-packages; "
                                  "firmware_cam/install/install.sh does both)") from None
        self.config = config
        try:
            self._cam = module.Picamera2()
        except Exception as e:  # libcamera finds no camera, or another process holds it
            raise CameraError(f"picamera: no camera module found or it is busy: {e}") from None
        try:
            video = self._cam.create_video_configuration(
                main={"size": (config.width, config.height), "format": self.FORMAT},
                controls={"FrameRate": float(config.fps)}, buffer_count=2)
            self._cam.configure(video)
            controls = self.controls(config)
            if controls:
                self._cam.set_controls(controls)
            self._cam.start()
        except Exception as e:
            self.close()
            raise CameraError(f"picamera: the camera would not start at {config.width}×{config.height}, "
                              f"{config.fps:g} frames/s: {e}") from None
        self._frames = 0
        self._locked = config.exposure != "lock"

    @staticmethod
    def controls(config: CameraConfig) -> dict[str, Any]:
        """libcamera controls for the configured exposure and focus (``AfMode``: 0 manual, 1 auto, 2 continuous)."""
        out: dict[str, Any] = {}
        if config.exposure == "fixed":
            out.update(AeEnable=False, ExposureTime=int(config.exposure_us or 0), AnalogueGain=float(config.gain or 1.0))
        if config.focus == "manual":
            out.update(AfMode=0, LensPosition=float(config.lens_position or 0.0))
        elif config.focus == "continuous":
            out.update(AfMode=2)
        else:
            out.update(AfMode=1, AfTrigger=0)
        return out

    def read(self) -> NDArray[np.uint8] | None:
        array = self._cam.capture_array("main")
        if array is None or getattr(array, "ndim", 0) != 3:
            return None
        image = np.ascontiguousarray(array[:, :, :3], dtype=np.uint8)  # XRGB8888: drop the fourth byte
        self._frames += 1
        if not self._locked and self._frames >= SETTLE_FRAMES:
            self._lock_exposure()
        return _rotated(image, self.config.rotation)

    def _lock_exposure(self) -> None:
        """Hold the exposure, gain and white balance the automatic loops settled on."""
        self._locked = True
        try:
            meta = self._cam.capture_metadata()
            held: dict[str, Any] = {"AeEnable": False, "ExposureTime": int(meta["ExposureTime"]),
                                    "AnalogueGain": float(meta["AnalogueGain"])}
            if "ColourGains" in meta:
                held.update(AwbEnable=False, ColourGains=tuple(meta["ColourGains"]))
            self._cam.set_controls(held)
            log.info("exposure locked at %d µs, gain %.2f", held["ExposureTime"], held["AnalogueGain"])
        except Exception as e:  # the picture stays automatic: worse in changing light, never fatal
            log.warning("could not lock the exposure (it stays automatic): %s", e)

    def close(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        for step in ("stop", "close"):
            try:
                getattr(cam, step)()
            except Exception as e:
                log.debug("picamera2 %s: %s", step, e)

    def describe(self) -> str:
        return f"picamera2 ({self.config.width}×{self.config.height})"


def picamera_available() -> bool:
    return importlib.util.find_spec("picamera2") is not None


def open_camera(config: CameraConfig, *, picamera2: ModuleType | Any | None = None) -> Camera:
    """The camera ``config.source`` names (``auto``: the Pi camera when picamera2 is there, else webcam 0).

    :raises CameraError: saying what is missing.
    """
    source = config.source
    if source == "auto":
        source = "picamera" if picamera2 is not None or picamera_available() else "0"
    if source == "picamera":
        return PiCamera(replace(config, source="picamera"), module=picamera2)
    return OpenCVCamera(replace(config, source=source))


# -- the Pi as the whole Borne: `borne run --source picamera` -----------------------------------------


PI_PROFILE = CameraConfig(source="picamera", width=1280, height=720, fps=4.0, jpeg_quality=80, exposure="lock",
                          focus="continuous")
"""The live pipeline on a Raspberry Pi: the camera at 1280 × 720 (the detector's two 720-px tiles, each
read at the model's 640 px, as on a laptop: smaller pictures would make a column's strips too thin to
find), asked for 4 frames per second, about what a Pi 5 reads (docs/measured.md: the estimate and its basis); the
pipeline always takes the newest frame, so a slower Pi 4 reads fewer without a queue building up."""


class CaptureAdapter:
    """A :class:`Camera` seen as the ``cv2.VideoCapture``-like object ``vision.sources.LiveSource`` reads."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, Any]:
        image = self.camera.read()
        return image is not None, image

    def release(self) -> None:
        self.camera.close()


def picamera_source(config: CameraConfig = PI_PROFILE, *, picamera2: ModuleType | Any | None = None) -> Any:
    """This Pi's camera as a live source of the pipeline (``vision.sources.LiveSource``).

    :raises CameraError: picamera2 is missing or finds no camera.
    """
    from vision.sources import LiveSource

    PiCamera(config, module=picamera2).close()  # say now, not in a retry loop, when there is no camera
    return LiveSource(lambda: CaptureAdapter(PiCamera(config, module=picamera2)), name="picamera")
