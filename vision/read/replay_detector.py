"""A detector that replays the true boxes of rendered frames (``truth/NNNNNN.json`` of a sequence).

It stands in for the trained detector in tests, in the demo when no detector is installed,
and in ``bench/bench_replay.py --truth-detector`` to measure what comes after the detector.
It boxes what a perfect detector trained on the sequence labels would: the visible part of each
card showing enough of itself (the same rule as the training labels).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.sources import Frame

MIN_VISIBLE = 0.04
"""Cards showing less than this share of their face are not boxed (as in the training labels)."""
MIN_PIXELS = 40.0


class TruthReplayDetector(CardDetector):
    """Call :meth:`seek` with each frame before the frame is read; ``detect`` then boxes its truth.

    The truth of a frame read from ``…/frames/000012.jpg`` is ``…/truth/000012.json``; frames
    without a file name (a video) use ``truth_dir`` and the frame's index.
    """

    class_names = ("card_face_up", "card_face_down")

    def __init__(self, truth_dir: str | Path | None = None, *, match_pictures: bool = False) -> None:
        """``match_pictures``: frames from a live source (a camera agent's stream of the sequence's video,
        which skips frames and starts wherever it was) are told by their picture: the truth used is that of
        the sequence frame (``truth_dir``'s sibling ``frames/``) that looks most like it."""
        self.truth_dir = Path(truth_dir) if truth_dir is not None else None
        self.match_pictures = match_pictures
        self._thumbs: NDArray[np.float32] | None = None
        self._truth: dict[str, Any] | None = None
        self.cards_read: list[str | None] = []
        """The true id of each face-up box of the last frame, in box order (``--truth-ids`` uses it)."""

    def seek(self, frame: Frame) -> None:
        if self.match_pictures and self.truth_dir is not None:
            path = self.truth_dir / f"{self._most_like(frame.image):06d}.json"
        elif frame.name:
            p = Path(frame.name)
            path = p.parent.parent / "truth" / f"{p.stem}.json"
        elif self.truth_dir is not None:
            path = self.truth_dir / f"{frame.index:06d}.json"
        else:
            raise ValueError("a frame without a file name needs truth_dir")
        for _ in range(20):  # the demo may still be writing the file
            try:
                self._truth = json.loads(path.read_text())
                return
            except (OSError, json.JSONDecodeError):
                import time

                time.sleep(0.02)
        self._truth = None

    THUMB = (48, 27)

    def _thumb(self, image: NDArray[np.uint8]) -> NDArray[np.float32]:
        import cv2

        small = cv2.resize(image, self.THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
        return small.reshape(-1)

    def _most_like(self, image: NDArray[np.uint8]) -> int:
        """The number of the sequence frame nearest ``image`` (mean squared difference of thumbnails)."""
        if self._thumbs is None:
            from vision.image import read_image

            assert self.truth_dir is not None
            frames = sorted((self.truth_dir.parent / "frames").glob("*.jpg"))
            if not frames:
                raise ValueError(f"{self.truth_dir.parent / 'frames'}: no frames to match pictures against")
            self._thumbs = np.stack([self._thumb(read_image(f)) for f in frames])
            self._numbers = [int(f.stem) for f in frames]
        distance = ((self._thumbs - self._thumb(image)) ** 2).mean(axis=1)
        return self._numbers[int(np.argmin(distance))]

    def detect(self, image: NDArray[np.uint8]) -> Detections:
        if self._truth is None:
            return Detections.empty()
        boxes: list[NDArray[np.float64]] = []
        classes: list[int] = []
        self.cards_read = []
        entries = [c for s in self._truth["sides"] for c in s["cards"]]
        entries += list(self._truth["table_cards"])
        for c in entries:
            if c["visible_corners"] is None or c["visible"] < MIN_VISIBLE or c.get("random_face"):
                continue
            box = np.asarray(c["visible_corners"], dtype=np.float64)
            e1, e2 = box[1] - box[0], box[3] - box[0]
            if abs(float(e1[0] * e2[1] - e1[1] * e2[0])) < MIN_PIXELS:
                continue
            boxes.append(box)
            face_up = c["card"] != "back"
            classes.append(0 if face_up else 1)
            if face_up:
                self.cards_read.append(c["card"])
        if not boxes:
            return Detections.empty()
        return Detections(np.asarray(boxes), np.full(len(boxes), 0.95), np.asarray(classes, dtype=np.int64))
