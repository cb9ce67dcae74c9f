"""Where frames come from: a webcam, a video file, a stream URL, a folder of images, or the demo (handed in).

File and folder sources deliver every frame in order, deterministically (``borne replay``).
Live sources (webcam, stream) run a capture thread that keeps only the newest frame: a slow
pipeline skips frames, it never queues them. When a camera stops delivering, the source says so,
reopens it with a growing pause between tries, and counts the reconnections. Frames that cannot
be decoded are skipped and counted.

Modules: :mod:`~vision.sources.frames` (the types, pacing), :mod:`~vision.sources.files`,
:mod:`~vision.sources.live` (cameras), :mod:`~vision.sources.mjpeg` (HTTP streams); :func:`open_source`
picks one from a command line's words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from vision.sources.files import FolderSource, VideoFileSource
from vision.sources.frames import (
    DEFAULT_FPS,
    IMAGE_SUFFIXES,
    Frame,
    FrameFeed,
    FrameSource,
    Pacer,
    SourceError,
    SourceStats,
    paced,
)
from vision.sources.live import Capture, LiveSettings, LiveSource, stream_source, webcam_source
from vision.sources.mjpeg import MjpegCapture, StreamRefusedError, check_stream, redact

__all__ = [
    "DEFAULT_FPS", "IMAGE_SUFFIXES", "Capture", "FolderSource", "Frame", "FrameFeed", "FrameSource", "LiveSettings",
    "LiveSource", "MjpegCapture", "Pacer", "SourceError", "SourceStats", "StreamRefusedError", "VideoFileSource",
    "check_stream", "open_source", "paced", "redact", "stream_source", "webcam_source",
]


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
