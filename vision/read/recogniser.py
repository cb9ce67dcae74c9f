"""The face recogniser: which of the 19 cards a straightened crop shows, or "unknown" when unsure.

Features are small and hand-made (colour layout, normalised grey pixels and gradient histograms)
and the classifier is a small perceptron, so that a recogniser for a new deck edition is fitted in minutes on
a laptop CPU with numpy alone, and runs anywhere OpenCV runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.errors import ModelError
from vision.read.crops import CROP_HEIGHT, CROP_WIDTH, cut_card, turns
from vision.read.mlp import Mlp

FORMAT_VERSION = 1

ORIENTATION_BINS = 9
CELL = 8
MIN_READABLE_ASPECT = 0.25
"""A box narrower than this share of its length is a sliver of a card under others (a pile's edge):
nothing to read. The thinnest part of a card that scores is a column's strip, 20 mm of a 56 mm wide
card (0.36)."""


def face_features(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Feature vectors ``(N, D)`` of BGR crops ``(N, CROP_HEIGHT, CROP_WIDTH, 3)``, computed for all at once.

    Three parts: the colour layout (Lab means over 4 × 4 blocks), the grey pattern (2 × 2 means,
    normalised per crop against lighting), and histograms of gradient orientation per 8 × 8 cell.
    """
    n = len(crops)
    if n == 0:
        return np.zeros((0, feature_size()), np.float32)
    h, w = CROP_HEIGHT, CROP_WIDTH
    stack = np.ascontiguousarray(crops.reshape(n * h, w, 3))
    lab = cv2.cvtColor(stack, cv2.COLOR_BGR2LAB).reshape(n, h, w, 3).astype(np.float32)
    colour = lab.reshape(n, h // 4, 4, w // 4, 4, 3).mean(axis=(2, 4)).reshape(n, -1) / 128.0 - 1.0
    grey = cv2.cvtColor(stack, cv2.COLOR_BGR2GRAY).reshape(n, h, w).astype(np.float32)
    small = grey.reshape(n, h // 2, 2, w // 2, 2).mean(axis=(2, 4)).reshape(n, -1)
    small = (small - small.mean(axis=1, keepdims=True)) / (small.std(axis=1, keepdims=True) + 8.0)
    return np.hstack([colour * 2.0, small * 0.5, _gradient_histograms(grey) * 3.0]).astype(np.float32)


def feature_size() -> int:
    h, w = CROP_HEIGHT, CROP_WIDTH
    return (h // 4) * (w // 4) * 3 + (h // 2) * (w // 2) + (h // CELL) * (w // CELL) * ORIENTATION_BINS


def _gradient_histograms(grey: NDArray[np.float32]) -> NDArray[np.float32]:
    """Unsigned gradient orientation histograms per cell, weighted by magnitude, L2-normalised per crop."""
    n, h, w = grey.shape
    gx = np.zeros_like(grey)
    gy = np.zeros_like(grey)
    gx[:, :, 1:-1] = grey[:, :, 2:] - grey[:, :, :-2]
    gy[:, 1:-1, :] = grey[:, 2:, :] - grey[:, :-2, :]
    magnitude = np.sqrt(gx * gx + gy * gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi)
    bins = np.minimum((angle / np.pi * ORIENTATION_BINS).astype(np.int64), ORIENTATION_BINS - 1)
    cells_y, cells_x = h // CELL, w // CELL
    cell = (np.arange(h)[:, None] // CELL) * cells_x + (np.arange(w)[None, :] // CELL)
    index = (np.arange(n)[:, None, None] * cells_y * cells_x + cell[None]) * ORIENTATION_BINS + bins
    hist = np.bincount(index.ravel(), weights=magnitude.ravel(), minlength=n * cells_y * cells_x * ORIENTATION_BINS)
    hist = hist.reshape(n, -1).astype(np.float32)
    return hist / (np.linalg.norm(hist, axis=1, keepdims=True) + 1e-3)


def _aspect(corners: NDArray[np.floating]) -> float:
    """Shorter over longer mean side of a four-cornered box."""
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(min(a, b) / max(a, b)) if max(a, b) > 0 else 0.0


SECOND_LOOK_DEGREES = (-30.0, -20.0, -12.0, -6.0, 6.0, 12.0, 20.0, 30.0)
"""The detector's angle is off by a few degrees now and then on small cards, and by up to 30 on the top
card of a battle pile whose cards lie at other angles; a crop cut askew shows background along two
edges and a slanted face, which the recogniser was not taught to read. Cutting an unknown box again at
these angles and keeping the surest reading recovers most of them (development scenes, seed 9300: face
accuracy 0.977 → 0.992 over ±8°). The recogniser has learnt the bare table, so the extra looks do not
turn floor tiles into cards."""


def turned_box(corners: NDArray[np.floating], degrees: float) -> NDArray[np.float64]:
    """The box turned by ``degrees`` about its centre (corner order kept).

    >>> turned_box(np.array([[0., 0.], [2., 0.], [2., 4.], [0., 4.]]), 90.0).round(6).tolist()
    [[3.0, 1.0], [3.0, 3.0], [-1.0, 3.0], [-1.0, 1.0]]
    """
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    a = np.deg2rad(degrees)
    rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (q - centre) @ rotation.T + centre


BACK_LOOK_GROWTH = (1.1, 1.2, 1.3)
"""The detector boxes the draw pile now and then by the inner panel of its back, which the recogniser was not
taught to read: a box still unknown after the turned looks is cut again this many times larger about its
centre, and read as the back where any of those cuts is (only the back: a grown box may take in a
neighbour's face), and its grown cut is the card's outline. Kept only on a box the detector is sure of
(:data:`vision.read.frame_reader.UNREAD_KEPT_CONFIDENCE`): a faint box on a tiled floor read as a back at a
grown cut kept a draw pile on the table after it ran out (held-out hand 70043). Development photo-real stills
(generic, 24): the draw pile right 20 → 22."""


def grown_box(corners: NDArray[np.floating], factor: float) -> NDArray[np.float64]:
    """The box made ``factor`` times larger about its centre.

    >>> grown_box(np.array([[0., 0.], [2., 0.], [2., 4.], [0., 4.]]), 1.5).tolist()
    [[-0.5, -1.0], [2.5, -1.0], [2.5, 5.0], [-0.5, 5.0]]
    """
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    return (q - centre) * factor + centre


def read_with_second_look(
    read_boxes: Callable[[NDArray[np.uint8], list[NDArray[np.floating]]], list[Reading]],
    image: NDArray[np.uint8], boxes: list[NDArray[np.floating]], angles: tuple[float, ...],
    growth: tuple[float, ...] = BACK_LOOK_GROWTH,
) -> list[Reading]:
    """Each box read by ``read_boxes`` (slivers narrower than :data:`MIN_READABLE_ASPECT` are not read); a
    readable box left unknown is cut again turned by each of ``angles`` and its surest reading kept, and one
    still unknown is cut again grown by each of ``growth``, read as the back where any of those cuts is."""
    readable = [i for i, box in enumerate(boxes) if _aspect(box) >= MIN_READABLE_ASPECT]
    out = [Reading(None, 0.0) for _ in boxes]
    if not readable:
        return out
    for i, reading in zip(readable, read_boxes(image, [boxes[i] for i in readable]), strict=True):
        out[i] = reading
    unsure = [i for i in readable if out[i].card is None and not out[i].back]
    if unsure and angles:
        again = read_boxes(image, [turned_box(boxes[i], a) for i in unsure for a in angles])
        for n, i in enumerate(unsure):
            best = max(again[n * len(angles) : (n + 1) * len(angles)], key=lambda r: r.confidence)
            if best.card is not None:
                out[i] = best
    unsure = [i for i in unsure if out[i].card is None]
    if unsure and growth:
        again = read_boxes(image, [grown_box(boxes[i], g) for i in unsure for g in growth])
        for n, i in enumerate(unsure):
            cuts = list(zip(again[n * len(growth) : (n + 1) * len(growth)], growth, strict=True))
            backs = [(r, g) for r, g in cuts if r.back]
            if backs:
                best, g = max(backs, key=lambda rg: rg[0].confidence)
                out[i] = replace(best, wider_cut=True, outline=grown_box(boxes[i], g))
    return out


@dataclass(frozen=True)
class Reading:
    """What the recogniser read on one card."""

    card: Card | None
    """``None``: unknown (not sure enough, or not a card of this edition)."""
    confidence: float
    turn: int = 0
    """Quarter turns of the box's corner order under which the face read upright."""
    back: bool = False
    """The box shows a card's back (``card`` is ``None``): a face-down card, the draw pile, which the
    detector now and then boxes as face up."""
    wider_cut: bool = False
    """A back read only on a cut larger than the box (:data:`BACK_LOOK_GROWTH`): the frame reader keeps it only
    where the detector is as sure of a card there as it must be of an unread box."""
    outline: NDArray[np.float64] | None = field(default=None, repr=False, compare=False)
    """The card's own corners, where the reader found them (the face aligned with the frame, or the card's
    edges); ``None``: the box stands. What ``detect`` lists and the tracker follows."""


class Recogniser(Protocol):
    """What the frame reader asks of a recogniser: the reading of each box of a frame."""

    @property
    def edition(self) -> str: ...

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]: ...


@dataclass
class FaceRecogniser:
    """A classifier over :func:`face_features` for one deck edition."""

    edition: str
    classes: tuple[Card, ...]
    mlp: Mlp
    min_confidence: float = 0.6
    """Below this the answer is "unknown"; raising it trades recall for precision."""
    second_look_degrees: tuple[float, ...] = SECOND_LOOK_DEGREES
    """A readable box left unknown is cut again turned by each of these angles about its centre."""
    reads_backs: bool = False
    """The model has a class for the card back, after its "nothing to read" class (fitted since the
    back was taught; earlier files have neither the class nor the flag)."""

    def read_crops(self, crops: NDArray[np.uint8]) -> NDArray[np.float64]:
        """Class probabilities ``(N, classes)`` of crops (without the "nothing to read" and back classes the
        model also has)."""
        return self.mlp.probabilities(face_features(crops))[:, : len(self.classes)]

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        """Read each box of a BGR frame, trying its four turns and keeping the surest; a readable box left
        unknown gets a second look, cut again turned by each of :attr:`second_look_degrees`."""
        return read_with_second_look(self._read_boxes, image, boxes, self.second_look_degrees)

    def _read_boxes(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        """Each box read under its four turns, the surest kept."""
        if not boxes:
            return []
        crops = np.asarray([cut_card(image, q) for box in boxes for q in turns(box)], dtype=np.uint8)
        every = self.mlp.probabilities(face_features(crops)).reshape(len(boxes), 4, -1)
        p = every[..., : len(self.classes)]
        out = []
        for row in range(len(boxes)):
            turn, k = np.unravel_index(int(p[row].argmax()), p[row].shape)
            conf = float(p[row, turn, k])
            if self.reads_backs:
                back_turn = int(every[row, :, len(self.classes) + 1].argmax())
                back = float(every[row, back_turn, len(self.classes) + 1])
                if back >= self.min_confidence and back > conf:
                    out.append(Reading(None, back, back_turn, back=True))
                    continue
            out.append(Reading(self.classes[k] if conf >= self.min_confidence else None, conf, int(turn)))
        return out

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        m = self.mlp
        with path.open("wb") as f:
            np.savez_compressed(
                f,
                version=np.array(FORMAT_VERSION),
                edition=np.array(self.edition),
                classes=np.array([c.value for c in self.classes]),
                min_confidence=np.array(self.min_confidence),
                reads_backs=np.array(self.reads_backs),
                mean=m.mean, scale=m.scale, w1=m.w1.astype(np.float16), b1=m.b1, w2=m.w2.astype(np.float16), b2=m.b2,
            )

    @classmethod
    def load(cls, path: Path) -> FaceRecogniser:
        """:raises ModelError: missing or not a recogniser file of this format."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["version"]) != FORMAT_VERSION:
                    raise ModelError(f"{path}: recogniser format {int(data['version'])}, expected {FORMAT_VERSION}")
                mlp = Mlp(*(data[k].astype(np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2")))
                return cls(
                    edition=str(data["edition"]),
                    classes=tuple(Card(c) for c in data["classes"]),
                    mlp=mlp,
                    min_confidence=float(data["min_confidence"]),
                    reads_backs="reads_backs" in data.files and bool(data["reads_backs"]),
                )
        except FileNotFoundError:
            raise ModelError(f"{path}: no such recogniser") from None
        except (KeyError, ValueError, OSError) as e:
            raise ModelError(f"{path}: not a recogniser file ({e})") from None
