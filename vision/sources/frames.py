"""Frames and the sources that deliver them: the types every source shares, and the one pacing helper."""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
DEFAULT_FPS = 10.0
"""The frame rate assumed for a folder of frames (and for a video that does not say); the rate the pipeline's
counts of frames that stand for a time are set for (:func:`frames_for`)."""


def frames_for(frames: int, fps: float) -> int:
    """``frames`` at :data:`DEFAULT_FPS` as frames at ``fps``: the same time, rounded up, never under one frame.

    >>> frames_for(3, 5), frames_for(5, 5), frames_for(3, 30), frames_for(1, 1)
    (2, 3, 9, 1)
    """
    return max(1, math.ceil(frames * fps / DEFAULT_FPS - 1e-9))


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
