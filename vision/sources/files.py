"""Files and folders: every frame in order, deterministically (``borne replay``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError
from vision.sources.frames import DEFAULT_FPS, IMAGE_SUFFIXES, Frame, FrameSource, SourceError


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
