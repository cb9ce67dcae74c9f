"""One frame in, the cards on the table out: detector, then recogniser on full-resolution crops."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.read.detections import Detections
from vision.read.detector import CardDetector, OnnxCardDetector
from vision.read.fine_tiles import FineTiledDetector
from vision.read.matcher import FaceMatcher
from vision.read.motion import Glance, Region
from vision.read.numerals import NumeralRecogniser
from vision.read.recogniser import Reading, Recogniser
from vision.read.sighting import Sighting
from vision.read.tiling import LIVE_TILE_SHARE, MOVING_EVERY, STILL_TILE_SHARE, TiledDetector
from vision.sources.frames import frames_for

FACE_UP_CLASS = "card_face_up"
MIN_READABLE_PX = 22.0
"""When the face-up boxes' long sides are typically shorter than this, the faces are too small to read
(a card 56 mm wide under 22 px): the camera should come closer."""
UNREAD_KEPT_CONFIDENCE = 0.8
"""A face-up box whose face the recogniser cannot read is kept (as an unknown card) only when the
detector is at least this sure of it; fainter unread boxes are a floor tile's grout, a finger or a coin
(development scenes, seed 9300: dropping them removed 54 of 77 boxes on no card and 1 of 650 cards)."""
READ_KEPT_CONFIDENCE = 0.4
"""A box read as a card is kept only when the detector's confidence times the reading's is at least this;
else it counts as unread (and, fainter than :data:`UNREAD_KEPT_CONFIDENCE`, is dropped). Faint boxes on a
wood grain, a cup or a card's end band read as a card at little more than even odds. A recogniser may say
its own (``kept_confidence``): the matched faces' confidence is calibrated, and theirs is 0.25
(:data:`vision.read.matcher.KEPT_CONFIDENCE`)."""


@dataclass(frozen=True)
class FrameReading:
    """The cards found in one frame, and whether they were big enough to read."""

    sightings: tuple[Sighting, ...]
    typical_card_px: float | None
    """The median long side of the face-up boxes, in pixels (``None`` when there were none)."""

    @property
    def too_small(self) -> bool:
        return self.typical_card_px is not None and self.typical_card_px < MIN_READABLE_PX


class FrameReader:
    """Finds every card in a frame and reads the faces of those lying face up."""

    def __init__(self, detector: CardDetector, recogniser: Recogniser, outliner: FaceMatcher | None = None,
                 *, moved_only: bool = False) -> None:
        self.detector = detector
        self.recogniser = recogniser
        self.outliner = outliner
        """Outlines the cards a recogniser that outlines none read (the edition's faces aligned with the frame)."""
        self.moved_only = moved_only
        """Video: a tile still since the detector last ran on it keeps its boxes, and a box still since it was
        read keeps its reading (:mod:`vision.read.motion`); the frames of a hand are read in order."""
        self.seconds: dict[str, float] = {}
        """The last frame's time per stage: ``detect`` (the tiled detector) and ``read`` (outlines and faces)."""
        self.readings_kept = 0
        """Face-up boxes whose reading was kept because nothing moved there (``moved_only``)."""
        self.readings_made = 0
        self.detected: Detections | None = None
        """The detector's boxes in the last frame, before reading kept or dropped any (for the benches)."""
        self._read: list[tuple[NDArray[np.float64], Region, Reading]] = []
        self._face_up = detector.class_names.index(FACE_UP_CLASS) if FACE_UP_CLASS in detector.class_names else 0

    @classmethod
    def from_models(cls, edition: str = "generic", *, still: bool = False, detector: Path | None = None,
                    moved_only: bool | None = None) -> FrameReader:
        """The shipped detector, tiled, with the reading of ``edition``; ``still``: for one photo, with smaller
        tiles that find more of a column's strips at three times the work (see
        :data:`vision.read.tiling.STILL_TILE_SHARE`) and each card read outlined (by the matched faces, or,
        where a fitted recogniser reads, by its face aligned with the frame: development stills, the generic's
        whole cards 3.9 % → 1.6 % median corner error, the same sides counted), else for video. ``detector``:
        another ONNX detector than the shipped one (benches compare a newly trained model with it).
        ``moved_only`` (default: for video) reads again only what moved (:attr:`moved_only`).

        :raises ModelError: a model is missing or unreadable.
        """
        from vision.read.models import detector_path, load_recogniser, load_video_recogniser

        share = STILL_TILE_SHARE if still else LIVE_TILE_SHARE
        tiling = FineTiledDetector if still else TiledDetector  # a large photo: again on tiles sized by its cards
        tiled = tiling(OnnxCardDetector(detector or detector_path()), tile_share=share)
        recogniser = load_recogniser(edition, outline_first=True) if still else load_video_recogniser(edition)
        outliner: FaceMatcher | None = None
        if still and not isinstance(recogniser, FaceMatcher | NumeralRecogniser):
            try:
                faces = load_recogniser(edition, faces=True)  # only its outlines are asked for
                outliner = faces if isinstance(faces, FaceMatcher) else None
            except ModelError:  # no faces to outline with: the boxes stand
                outliner = None
        return cls(tiled, recogniser, outliner, moved_only=not still if moved_only is None else moved_only)

    def pace(self, fps: float) -> None:
        """Frames come ``fps`` a second: a tile where something keeps moving is run again after the same time as
        at 10 (:data:`~vision.read.tiling.MOVING_EVERY` frames then), not after as many frames."""
        if isinstance(self.detector, TiledDetector):
            self.detector.moving_every = frames_for(MOVING_EVERY, fps)

    def read(self, image: NDArray[np.uint8]) -> FrameReading:
        started = time.perf_counter()
        glance = Glance(image) if self.moved_only else None
        held = None
        if glance is not None and isinstance(self.detector, TiledDetector):
            found = self.detector.detect_moved(image, glance)
            held = self.detector.held
        else:
            found = self.detector.detect(image)
        detected = time.perf_counter()
        self.detected = found
        face_up = found.class_id == self._face_up
        boxes = [found.corners[i] for i in np.flatnonzero(face_up)]
        if glance is None:
            read = self.recogniser.read(image, boxes)
        else:
            boxes, read = self._read_moved(image, boxes, glance, [] if held is None else list(held[face_up]))
            corners = found.corners.copy()
            if boxes:
                corners[np.flatnonzero(face_up)] = np.stack(boxes)
            found = Detections(corners, found.confidence, found.class_id)
        readings = iter(read)
        kept = float(getattr(self.recogniser, "kept_confidence", READ_KEPT_CONFIDENCE))
        sightings = []
        for i in range(len(found)):
            if face_up[i]:
                reading = next(readings)
                if reading.card is not None and found.confidence[i] * reading.confidence < kept:
                    reading = Reading(None, reading.confidence, reading.turn)
                if reading.card is None and (not reading.back or reading.wider_cut) and found.confidence[i] < UNREAD_KEPT_CONFIDENCE:
                    continue  # an unsure box nothing reads, or reads as a back only when cut wider
                # a back read on a box the detector called face up: a face-down card (the draw pile)
                outline = reading.outline
                if outline is None and self.outliner is not None and reading.card is not None:
                    outline = self.outliner.outline(image, found.corners[i])
                corners = found.corners[i] if outline is None else outline
                weight = HELD_EVIDENCE if held is not None and held[i] else 1.0
                sightings.append(Sighting(corners, not reading.back, reading.card,
                                          float(found.confidence[i]) * reading.confidence * weight))
            else:
                sightings.append(Sighting(found.corners[i], False, None, float(found.confidence[i])))
        longs = [max(np.linalg.norm(b[1] - b[0]), np.linalg.norm(b[3] - b[0])) for b in boxes]
        self.seconds = {"detect": detected - started, "read": time.perf_counter() - detected}
        return FrameReading(tuple(sightings), float(np.median(longs)) if longs else None)

    def _read_moved(self, image: NDArray[np.uint8], boxes: list[NDArray[np.float64]], glance: Glance,
                    held: list[bool]) -> tuple[list[NDArray[np.float64]], list[Reading]]:
        """The readings of the face-up boxes, each kept from the frame it was read on where the same box (within
        :data:`SAME_BOX_PX`) lies there and nothing moved under it since, or where the detector's tile ``held``
        the box (a tile where an arm is moving keeps its boxes and their readings a few frames: what the frame
        showed before the arm); the others read now. Returns the boxes (a kept reading's as it was read, its turn
        counted from them) and their readings."""
        kept: list[tuple[NDArray[np.float64], Region, Reading] | None] = []
        same = _same_boxes(np.array(boxes).reshape(-1, 4, 2), np.array([e[0] for e in self._read]).reshape(-1, 4, 2))
        for i in range(len(boxes)):
            was_held = i < len(held) and held[i]
            match = next((self._read[j] for j in np.flatnonzero(same[i]) if was_held or glance.still(self._read[j][1])), None)
            kept.append(match)
        fresh = iter(self.recogniser.read(image, [b for b, entry in zip(boxes, kept, strict=True) if entry is None]))
        entries = []
        for box, entry in zip(boxes, kept, strict=True):
            entries.append(entry if entry is not None else (box, glance.region(box), next(fresh)))
        self.readings_kept += sum(entry is not None for entry in kept)
        self.readings_made += sum(entry is None for entry in kept)
        self._read = entries
        return [e[0].copy() for e in entries], [e[2] for e in entries]


HELD_EVIDENCE = 0.5
"""A box a moving tile kept from an earlier frame is shown again at this share of its confidence: it is what the
tile showed before, not new evidence, so a fragment seen once under a passing arm is not counted as a card seen
in three frames (the tracker adds up the confidences of a card's sightings)."""
SAME_BOX_PX = 1.5
"""Two boxes whose corners lie this close (in any order) are one box: a tile's boxes kept, or given again by the
detector on a frame that barely changed."""


def _same_boxes(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """``(len(a), len(b))``: which boxes of ``a`` and ``b`` are one box (:data:`SAME_BOX_PX`, corners in any order)."""
    distances = np.linalg.norm(a[:, None, :, None, :] - b[None, :, None, :, :], axis=4)  # (n, m, 4, 4)
    out: NDArray[np.bool_] = distances.min(axis=3).max(axis=2) <= SAME_BOX_PX
    return out
