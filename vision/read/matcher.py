"""Reading a card by matching it against the faces of its edition: no training, an honest "unknown".

An edition is its faces. Each outline is straightened, long side down, in both turns (upright and upside
down), and compared with every face of the edition on the part that shows: the whole face for a whole
card, the face's end band for a column's strip (the outline's length against a card's proportions says
how much shows). The comparison is a correlation in Lab at ``TEMPLATE_WIDTH`` × ``TEMPLATE_HEIGHT``
pixels, each channel brought to zero mean and unit spread (so light and white balance do not count).
Where the two best faces differ only in a small region (distance cards sharing their art, told apart by
the numeral), that region is compared again at the resolution the frame has. The reading is the best
face when it correlates well and clearly better than the next card; otherwise "unknown".

>>> blocks = np.random.default_rng(0).integers(0, 256, (2, 6, 4, 3), dtype=np.uint8)
>>> faces = np.stack([cv2.resize(b, (80, 124), interpolation=cv2.INTER_NEAREST) for b in blocks])
>>> matcher = FaceMatcher("toy", (Card.DISTANCE_25, Card.DISTANCE_50), faces)
>>> image = np.zeros((100, 100, 3), np.uint8); image[20:82, 30:70] = cv2.resize(faces[1], (40, 62))
>>> box = np.array([[70, 82], [30, 82], [30, 20], [70, 20.0]])  # any corner first: here the bottom right
>>> [r.card for r in matcher.read(image, [box])]
[<Card.DISTANCE_50: 'distance_50'>]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.errors import ModelError
from vision.read.crops import CARD_ASPECT, clockwise, cut_card
from vision.read.recogniser import Reading

TEMPLATE_WIDTH = 40
TEMPLATE_HEIGHT = 62
"""The size faces are compared at (a card's proportions, 56 × 87 mm)."""
REFERENCE_WIDTH = 120
REFERENCE_HEIGHT = 186
"""The size an edition's faces are kept at (three times the template's, for the closer look)."""
WHOLE_SHARE = 0.85
"""An outline at least this share of a card's length is compared as a whole card."""
MIN_SHARE = 0.18
"""Bands shorter than this share of a card's length are not read (a sliver under a pile)."""
MIN_CORRELATION = 0.45
"""Below this best correlation the card is "unknown": raising it trades readings for certainty."""
MIN_MARGIN = 0.04
"""The best card must correlate at least this much better than the next card, else "unknown"."""
DETAIL_MARGIN = 0.15
"""When the two best cards are closer than this, the region where their faces differ is compared again
at the frame's resolution."""
SOFTEN = 1.0
"""Faces and crops are blurred by this many template pixels before they are compared: a photo is softer
than a scan (development stills: generic whole cards 0.922 → 0.980 read right, against no blur)."""
MIN_DETAIL_MARGIN = 0.05
"""After the closer look, the best face must fit the region where the faces differ this much better than
the next, else "unknown"."""
MIN_DETAIL_FIT = 0.3
"""... and the region must depart from what the faces share the way the best face does, at least this
well (a correlation): where the print that tells them apart is too small to show, it is "unknown"."""
ALIGN_CANDIDATES = 3
"""Faces tried when aligning a card's outline (the best correlating first)."""
MIN_ALIGNED_FIT = 0.5
"""An alignment whose correlation with the face stays under this is no alignment."""
MAX_GROUP = 6
"""At most this many near-equal faces are compared again."""
BACK = "back"


@dataclass
class FaceMatcher:
    """The faces of one edition, ready to be matched (implements :class:`~vision.read.recogniser.Recogniser`)."""

    edition: str
    cards: tuple[Card, ...]
    faces: NDArray[np.uint8] = field(repr=False)
    """``(len(cards), H, W, 3)`` BGR faces at a reference size (at least twice the template's)."""
    back: NDArray[np.uint8] | None = field(default=None, repr=False)
    """The edition's card back (BGR, the faces' size), read as a face-down card; ``None``: no back known."""
    min_correlation: float = MIN_CORRELATION
    min_margin: float = MIN_MARGIN
    min_detail_margin: float = MIN_DETAIL_MARGIN
    min_detail_fit: float = MIN_DETAIL_FIT
    _bands: dict[int, NDArray[np.float32]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_folder(cls, folder: Path, name: str | None = None) -> FaceMatcher:
        """The matcher of an edition folder (``edition.json`` naming a face file per card id, ``back`` optional).

        :raises ModelError: no edition there, or a face missing or unreadable.
        """
        import json

        try:
            meta = json.loads((folder / "edition.json").read_text(encoding="utf-8"))
            files = {key: folder / str(file) for key, file in meta["faces"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise ModelError(f"{folder}: not an edition folder ({e})") from None
        return cls.from_files(name or str(meta.get("name", folder.name)), files)

    @classmethod
    def from_files(cls, name: str, files: dict[str, Path]) -> FaceMatcher:
        """The matcher of the face files of an edition, by card id (and ``back``, optional).

        :raises ModelError: a card's face missing or unreadable.
        """
        faces = []
        for card in Card:
            if card.value not in files:
                raise ModelError(f"edition {name}: no face for {card.value}")
            faces.append(_reference(_read(files[card.value])))
        back = _reference(_read(files[BACK])) if BACK in files else None
        return cls(name, tuple(Card), np.stack(faces), back)

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        """The reading of each outline in a BGR frame."""
        return [self._read_one(image, box) for box in boxes]

    def scores(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> tuple[NDArray[np.float64], list[tuple[NDArray[np.float64], float]]]:
        """Correlations ``(views, len(cards) [+ 1 for the back])`` of each way the outline can show a card
        (:func:`_views`, slivers left out) with every face, and those views."""
        views = [(q, share) for q, share in _views(box) if share >= MIN_SHARE]
        rows = np.zeros((len(views), len(self.cards) + (self.back is not None)))
        for n, (q, share) in enumerate(views):
            height = _rows(share)
            crop = _normalised(cut_card(image, q, width=TEMPLATE_WIDTH, height=height))
            templates = self._templates(height)
            rows[n] = templates.reshape(len(templates), -1) @ crop.ravel()
        return rows, views

    def aligned(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> NDArray[np.float64] | None:
        """The outline of a whole card, found by aligning the faces it may show with the frame
        (:func:`vision.read.alignment.align_face`; the :data:`ALIGN_CANDIDATES` faces that correlate best,
        the best fit kept); ``None`` where the box is no whole card or no face settles."""
        from vision.read.alignment import align_face

        scores, views = self.scores(image, box)
        whole = [n for n, (_, share) in enumerate(views) if share >= WHOLE_SHARE]
        if not whole:
            return None
        per_card = scores[whole, : len(self.cards)].max(axis=0)
        best: tuple[float, NDArray[np.float64] | None] = (MIN_ALIGNED_FIT, None)
        for k in np.argsort(-per_card)[:ALIGN_CANDIDATES]:
            view = whole[int(scores[whole, k].argmax())]
            fitted = align_face(image, views[view][0], self.faces[int(k)])
            if fitted is not None and fitted[1] > best[0]:
                best = (fitted[1], fitted[0])
        return best[1]

    def _read_one(self, image: NDArray[np.uint8], box: NDArray[np.floating]) -> Reading:
        scores, views = self.scores(image, box)
        if not views:
            return Reading(None, 0.0)
        per_card = scores.max(axis=0)
        order = np.argsort(-per_card)
        first, second = int(order[0]), int(order[1])
        best, margin = float(per_card[first]), float(per_card[first] - per_card[second])
        view = int(scores[:, first].argmax())
        group = [int(k) for k in order[:MAX_GROUP] if per_card[k] >= best - DETAIL_MARGIN and k < len(self.cards)]
        needed = self.min_margin
        if len(group) >= 2 and first < len(self.cards):
            first, margin, fit = self._closer_look(image, views[view], group)
            needed = self.min_detail_margin if fit >= self.min_detail_fit else np.inf
        confidence = _confidence(best, margin)
        turn = _turn(clockwise(box), views[view][0])
        if best < self.min_correlation or margin < needed:
            return Reading(None, confidence, turn)
        if first == len(self.cards):
            return Reading(None, confidence, turn, back=True)
        return Reading(self.cards[first], confidence, turn)

    def _closer_look(self, image: NDArray[np.uint8], view: tuple[NDArray[np.float64], float],
                     group: list[int]) -> tuple[int, float, float]:
        """Of faces that correlate almost equally, the one that matches best where they differ, compared at
        the frame's resolution and allowed a shift of a few pixels (text is thin: a pixel off is a miss);
        returns it, its margin over the next and its fit."""
        q, share = view
        whole = min(share, 1.0) >= WHOLE_SHARE
        length = float(np.linalg.norm(q[3] - q[0])) / max(min(share, 1.0), 1e-6)
        height = int(np.clip(round(length * 1.5), TEMPLATE_HEIGHT, self.faces.shape[1]))
        width = round(height * CARD_ASPECT)
        rows = height if whole else max(8, round(height * share))
        faces = [self.faces[k][: None if whole else max(2, round(self.faces.shape[1] * share))] for k in group]
        templates = np.stack([cv2.GaussianBlur(_lab(cv2.resize(f, (width, rows), interpolation=cv2.INTER_AREA)), (0, 0), SOFTEN)
                              for f in faces])
        spread = np.linalg.norm(templates.std(axis=0), axis=2)
        if float(spread.max()) < 8.0:
            return group[0], 0.0, 0.0
        pad = max(2, round(height * 0.03))
        # where the faces differ, widened a little: thin print moves by a pixel or two in a photo
        mask = cv2.dilate((spread >= 0.25 * float(spread.max())).astype(np.uint8), np.ones((2 * pad + 1,) * 2, np.uint8)) > 0
        ys, xs = np.nonzero(mask)
        ref = _standard(templates[:, ys, xs])  # (group, pixels, 3)
        # each face by how it departs from the group's mean face: what they share does not count
        common = ref.mean(axis=0)
        apart = (ref - common).reshape(len(group), -1)
        apart /= np.linalg.norm(apart, axis=1, keepdims=True) + 1e-6
        fits = np.full(len(group), -1.0)
        for turned in (q, np.roll(q, -2, axis=0)):  # faces alike are often alike upside down too
            crop = cv2.GaussianBlur(_lab(cut_card(image, turned, width=width, height=rows)), (0, 0), SOFTEN)
            crop = cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            for dy, dx in itertools.product(range(2 * pad + 1), repeat=2):
                seen = (_standard(crop[ys + dy, xs + dx][None])[0] - common).ravel()
                fits = np.maximum(fits, apart @ (seen / (np.linalg.norm(seen) + 1e-6)))
        ranked = np.argsort(-fits)
        return group[int(ranked[0])], float(fits[ranked[0]] - fits[ranked[1]]), float(fits[ranked[0]])

    def _templates(self, rows: int) -> NDArray[np.float32]:
        """Every face (and the back) as the top ``rows`` of a ``TEMPLATE_HEIGHT`` card, normalised."""
        if rows not in self._bands:
            faces = list(self.faces) + ([self.back] if self.back is not None else [])
            share = rows / TEMPLATE_HEIGHT
            self._bands[rows] = np.stack([
                _normalised(cv2.resize(f[: max(2, round(f.shape[0] * share))], (TEMPLATE_WIDTH, rows),
                                       interpolation=cv2.INTER_AREA)) for f in faces])
        return self._bands[rows]


def _views(box: NDArray[np.floating]) -> list[tuple[NDArray[np.float64], float]]:
    """The ways an outline can show a card, each as its corners from the face's top left (clockwise) and the
    share of the card's length it shows: its long side along the card (a whole card, or most of one), or
    across it (a band at one end: a column's strip); each upright and turned half round. A box shaped like
    a whole card may be a strip of 40 %, so both are tried where both fit."""
    q = clockwise(box)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = np.roll(q, -1, axis=0)  # the first side is now a short one
        sides = np.roll(sides, -1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if short <= 0:
        return []
    views = []
    along = float(long * CARD_ASPECT / short)
    if along <= 1.3:
        views += [(q, along), (np.roll(q, -2, axis=0), along)]
    across = float(short * CARD_ASPECT / long)
    if across < WHOLE_SHARE:
        band = np.roll(q, -1, axis=0)  # the long side first: the card's width
        views += [(band, across), (np.roll(band, -2, axis=0), across)]
    return views


def _rows(share: float) -> int:
    """The template rows a view showing ``share`` of a card's length is compared on."""
    return TEMPLATE_HEIGHT if share >= WHOLE_SHARE else max(6, round(TEMPLATE_HEIGHT * share))


def _turn(box: NDArray[np.float64], view: NDArray[np.float64]) -> int:
    """Quarter turns of the box's corner order that give the view's."""
    return min(range(4), key=lambda k: float(np.abs(np.roll(box, -k, axis=0) - view).sum()))


def _lab(bgr: NDArray[np.uint8]) -> NDArray[np.float32]:
    out: NDArray[np.float32] = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return out


def _normalised(bgr: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Lab, softened by :data:`SOFTEN`, each channel at zero mean and unit spread (a flat channel stays
    flat), then the whole scaled to unit length, so that the dot product of two is their correlation."""
    lab = cv2.GaussianBlur(_lab(bgr), (0, 0), SOFTEN)
    lab = (lab - lab.mean(axis=(0, 1))) / (lab.std(axis=(0, 1)) + 2.0)
    out: NDArray[np.float32] = lab / (float(np.linalg.norm(lab)) + 1e-6)
    return out


def _standard(pixels: NDArray[Any]) -> NDArray[np.float32]:
    """Pixels ``(n, k, 3)`` with each channel of each row at zero mean and unit spread."""
    p = np.asarray(pixels, dtype=np.float32)
    out: NDArray[np.float32] = (p - p.mean(axis=1, keepdims=True)) / (p.std(axis=1, keepdims=True) + 2.0)
    return out


def _confidence(best: float, margin: float) -> float:
    """A 0–1 confidence from the best correlation and its margin over the next card (to be calibrated)."""
    return float(np.clip((best - 0.2) / 0.6, 0, 1) * np.clip(margin / 0.15, 0, 1))


def _reference(rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A face as BGR at the reference size, portrait."""
    if rgb.shape[1] > rgb.shape[0]:
        rgb = np.ascontiguousarray(np.rot90(rgb))
    return cv2.resize(rgb[..., ::-1], (REFERENCE_WIDTH, REFERENCE_HEIGHT), interpolation=cv2.INTER_AREA)  # type: ignore[return-value]



def _read(path: Path) -> NDArray[np.uint8]:
    """An image file as RGB.

    :raises ModelError: missing or unreadable.
    """
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ModelError(f"{path}: missing or not a readable image")
    return np.ascontiguousarray(image[..., ::-1])
