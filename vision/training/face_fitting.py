"""Fitting a face recogniser for a deck edition from scenes the data engine renders with its faces.

The crops are cut as at run time, along the box of each card's visible part with its corners
jittered as a detector would give them, upright (the run time tries the four turns of each box),
so the recogniser learns whole cards, top strips in columns, cards under a hand, blur and glare.
Views cut straight from the face images (:mod:`vision.training.face_samples`) add many more examples of each
face at table resolution for little time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.geometry import polygon_area
from vision.read.crops import CROP_HEIGHT, CROP_WIDTH, cut_card
from vision.read.mlp import fit_mlp
from vision.read.recogniser import FaceRecogniser, face_features
from vision.training.tiles import is_photo_validation

if TYPE_CHECKING:
    from datasets.scene import CardView, Scene

CLASSES: tuple[Card, ...] = tuple(Card)
TURNED = len(CLASSES)
"""The extra training class of crops with nothing to read as a card: a face under a wrong quarter turn,
or a sliver of a card mostly hidden under others (the detector boxes those too)."""
BACK = TURNED + 1
"""The training class of a card's back under any turn: the draw pile, which the detector boxes as face up
now and then (on photo-real development stills, every draw pile missed was boxed so); read as a back
it counts as the face-down card it is."""
BACK_VIEW_SHARE = 0.05
"""The share of the face views cut from the edition's back."""
MIN_VISIBLE = 0.08
"""The least share of its face a card shows for the benches to ask the recogniser to read it."""
SLIVER_VISIBLE = 0.15
"""Cards showing less of their face than this are slivers, taught as nothing to read: a 10 % sliver of
a Speed Limit under an End of Limit, turned over, looks like the top band of a 200. No card that
scores shows so little (a column's strips show 20–30 mm of 87)."""
MIN_SIDE_PX = 5.0
MIN_BOX_FILL = 0.6
"""A visible box must be this much the card's own pixels: a sliver showing round a card on top of it
in a pile gets a box full of the other card, and nothing of its own to read."""
TABLE_BOXES_PER_SCENE = 6
"""Boxes of a card's shape cut from each scene where no card lies (the table, a hand, a mug, coins,
a phone), taught as nothing to read: the detector boxes a few of those, and a recogniser that had
only seen faces read a blank floor tile as a Repairs."""
TABLE_BOX_MAX_CARD = 0.1
"""The most of a table box that card pixels may fill."""
PHOTO_TABLE_BOXES_PER_SCENE = 12
"""Boxes on no card cut from each photo-real scene, whatever deck it was printed from (a table is a table):
the photographs' wood, lamp glare and soft shadows are what the detector boxes on photo-like tables, and a
recogniser taught six boxes from the scenes of its own deck alone read a bare table as a 75 km card on
development stills."""


def box_fill(corners: NDArray[np.floating], visible_corners: NDArray[np.floating], visible: float) -> float:
    """Share of the visible box covered by the card's own visible pixels."""
    box = polygon_area(visible_corners)
    return float(visible * polygon_area(corners) / box) if box > 0 else 0.0


@dataclass(frozen=True)
class ReadableFace:
    """A face-up card of a rendered scene with enough of its face in its visible box to be read."""

    card: Card
    corners: NDArray[np.floating]
    visible_corners: NDArray[np.floating]
    visible: float


def readable_faces(views: Sequence[CardView], min_visible: float = MIN_VISIBLE) -> list[ReadableFace]:
    """The face-up views showing at least ``min_visible`` of the face and filling at least
    :data:`MIN_BOX_FILL` of their visible box: what a recogniser is asked to read."""
    return [
        ReadableFace(v.placed.card, v.corners, v.visible_corners, v.visible) for v in views
        if v.placed.card is not None and v.visible_corners is not None and v.visible >= min_visible
        and box_fill(v.corners, v.visible_corners, v.visible) >= MIN_BOX_FILL
    ]


@dataclass(frozen=True)
class CropSet:
    """Straightened crops with their card and the visible share of each card's face."""

    crops: NDArray[np.uint8]
    labels: NDArray[np.int64]
    visible: NDArray[np.float64]

    def joined(self, other: CropSet) -> CropSet:
        return CropSet(
            crops=np.concatenate([self.crops, other.crops]),
            labels=np.concatenate([self.labels, other.labels]),
            visible=np.concatenate([self.visible, other.visible]),
        )


def collect_crops(
    edition: str,
    *,
    scenes: int,
    seed: int,
    width: int = 1280,
    height: int = 720,
    jitter_px: float = 1.5,
    progress: Callable[[int], None] | None = None,
) -> CropSet:
    """Render ``scenes`` scenes of the edition and cut every readable face-up card out of them."""
    from datasets.generate import scene_for
    from datasets.scene import SceneRenderer, SceneSpec

    renderer = SceneRenderer(SceneSpec(width=width, height=height, edition=edition, random_faces=0.0))
    rng = np.random.default_rng([seed, 7])
    cut = _Cuts()
    for i in range(scenes):
        scene = scene_for(seed, i, renderer)
        image = np.ascontiguousarray(scene.image[..., ::-1])
        for view in scene.views:
            if view.visible_corners is None or view.random_face:
                continue
            if view.placed.card is None:
                cut.back(image, view.corners, view.visible_corners, view.visible, rng, jitter_px)
            else:
                cut.card(image, view.placed.card, view.corners, view.visible_corners, view.visible, rng, jitter_px)
        for box in table_boxes(scene, rng, TABLE_BOXES_PER_SCENE):
            cut.add(cut_card(image, box), TURNED, 0.0)
        if progress is not None:
            progress(i + 1)
    return cut.crop_set()


def collect_photo_crops(
    folders: list[Path], edition: str, *, seed: int, jitter_px: float = 1.5,
    progress: Callable[[int], None] | None = None,
) -> CropSet:
    """Cut every readable face-up card out of the photo-real scenes (``borne data photos``) printed from
    ``edition``: the light, gloss, white rims and denoised texture of a photograph, which 2-D scenes lack;
    and, from every scene whatever its deck, boxes where no card lies, as nothing to read
    (:func:`photo_table_boxes`), so the photographs do not teach that anything soft and lit is a card. The
    scenes the detector validates on are left out (:func:`~vision.training.tiles.is_photo_validation`).

    A scene's deck is its truth's ``edition`` (scenes written before it was recorded count as the generic
    edition's only in a folder rendered with ``--edition generic``, the default)."""
    import json

    rng = np.random.default_rng([seed, 17])
    cut = _Cuts()
    done = 0
    for folder in folders:
        for k, path in enumerate(sorted((folder / "truth").glob("*.json"))):
            if is_photo_validation(k):
                continue
            truth = json.loads(path.read_text())
            ours = truth.get("edition", "generic") == edition
            loaded = cv2.imread(str(folder / truth["image"]))
            if loaded is None:
                continue
            image = np.asarray(loaded, dtype=np.uint8)
            cards = [c for side in truth["sides"] for c in side["cards"]] + truth["table_cards"]
            for c in cards:
                if not ours or c["visible_corners"] is None or c["random_face"]:
                    continue
                corners = np.asarray(c["corners"], np.float64)
                box = np.asarray(c["visible_corners"], np.float64)
                if c["card"] == "back":
                    cut.back(image, corners, box, float(c["visible"]), rng, jitter_px)
                else:
                    cut.card(image, Card(c["card"]), corners, box, float(c["visible"]), rng, jitter_px)
            for box in photo_table_boxes(cards, image.shape[:2], rng, PHOTO_TABLE_BOXES_PER_SCENE):
                cut.add(cut_card(image, box), TURNED, 0.0)
            done += 1
            if progress is not None:
                progress(done)
    return cut.crop_set()


class _Cuts:
    """Crops gathered with their labels: each readable card upright, and again under a wrong quarter turn."""

    def __init__(self) -> None:
        self.crops: list[NDArray[np.uint8]] = []
        self.labels: list[int] = []
        self.visible: list[float] = []

    def add(self, crop: NDArray[np.uint8], label: int, visible: float) -> None:
        self.crops.append(crop)
        self.labels.append(label)
        self.visible.append(visible)

    def card(self, image: NDArray[np.uint8], card: Card, corners: NDArray[np.floating], box: NDArray[np.floating],
             visible: float, rng: np.random.Generator, jitter_px: float) -> None:
        q = self._box_unless_sliver(image, corners, box, visible, rng, jitter_px)
        if q is None:
            return
        self.add(cut_card(image, q), CLASSES.index(card), visible)
        # The same box under a wrong quarter turn teaches the recogniser what a face read askew looks like.
        self.add(cut_card(image, np.roll(q, -int(rng.integers(1, 4)), axis=0)), TURNED, visible)

    def back(self, image: NDArray[np.uint8], corners: NDArray[np.floating], box: NDArray[np.floating],
             visible: float, rng: np.random.Generator, jitter_px: float) -> None:
        """A face-down card: its back upright and under another quarter turn, both a back."""
        q = self._box_unless_sliver(image, corners, box, visible, rng, jitter_px)
        if q is None:
            return
        self.add(cut_card(image, q), BACK, visible)
        self.add(cut_card(image, np.roll(q, -int(rng.integers(1, 4)), axis=0)), BACK, visible)

    def _box_unless_sliver(self, image: NDArray[np.uint8], corners: NDArray[np.floating], box: NDArray[np.floating],
                      visible: float, rng: np.random.Generator, jitter_px: float) -> NDArray[np.float64] | None:
        """The visible box jittered as a detector gives it, or ``None`` when there is nothing of this card to
        read: a box too thin to cut, or a sliver, which this adds as a crop with nothing to read."""
        sides = np.linalg.norm(np.roll(box, -1, axis=0) - box, axis=1)
        if sides.min() < MIN_SIDE_PX:
            return None
        q = box + rng.normal(0, jitter_px, (4, 2))
        if visible < SLIVER_VISIBLE or box_fill(corners, box, visible) < MIN_BOX_FILL:
            # a sliver: what the recogniser must not read as a card
            self.add(cut_card(image, np.roll(q, -int(rng.integers(0, 4)), axis=0)), TURNED, visible)
            return None
        return np.asarray(q, np.float64)

    def crop_set(self) -> CropSet:
        return CropSet(
            crops=np.asarray(self.crops, dtype=np.uint8).reshape(-1, CROP_HEIGHT, CROP_WIDTH, 3),
            labels=np.asarray(self.labels, dtype=np.int64),
            visible=np.asarray(self.visible, dtype=np.float64),
        )


def table_boxes(scene: Scene, rng: np.random.Generator, count: int) -> list[NDArray[np.float64]]:
    """Up to ``count`` boxes of a card's shape (40–110 % of a card's length, any angle) lying where no
    card shows: a third on a hand, mug, coin or phone when the scene has one, a third within two card
    lengths of a card, a third anywhere."""
    from datasets.occluders import OCCLUDER

    shown = [v.corners for v in scene.views if v.visible_corners is not None]
    occluder = np.argwhere(scene.idbuf == OCCLUDER)[:, ::-1]
    return _boxes_off_cards((scene.idbuf >= 0).astype(np.uint8), occluder, shown, rng, count)


def photo_table_boxes(
    cards: list[dict[str, Any]], shape: tuple[int, int], rng: np.random.Generator, count: int,
) -> list[NDArray[np.float64]]:
    """:func:`table_boxes` for a photo-real scene, from its truth's cards alone: a photograph keeps no
    object-index image, so each card's whole outline counts as card (covered parts too) and the boxes
    meant for objects go anywhere instead — on an arm reaching in as often as the arm is there."""
    outlines = [np.asarray(c["corners"], np.float64) for c in cards]
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(o).astype(np.int32) for o in outlines], 1)
    shown = [o for o, c in zip(outlines, cards, strict=True) if c["visible_corners"] is not None]
    return _boxes_off_cards(mask, np.empty((0, 2), np.int64), shown, rng, count)


def _boxes_off_cards(
    cards: NDArray[np.uint8], occluder: NDArray[np.integer], shown: Sequence[NDArray[np.floating]],
    rng: np.random.Generator, count: int,
) -> list[NDArray[np.float64]]:
    """Boxes on the pixels ``cards`` leaves bare (at most :data:`TABLE_BOX_MAX_CARD` card), sized by the
    cards ``shown``; ``occluder`` lists the (x, y) pixels of objects to aim a third of them at."""
    height, width = cards.shape
    if not shown:
        return []
    length = float(np.median([max(np.linalg.norm(c[3] - c[0]), np.linalg.norm(c[1] - c[0])) for c in shown]))
    out: list[NDArray[np.float64]] = []
    for attempt in range(count * 8):
        if len(out) == count:
            break
        if attempt % 3 == 0 and len(occluder):
            centre = occluder[int(rng.integers(len(occluder)))].astype(np.float64)
        elif attempt % 3 == 1:
            near = shown[int(rng.integers(len(shown)))].mean(axis=0)
            centre = near + rng.uniform(0.5, 2.0) * length * _unit(rng.uniform(0, 2 * np.pi))
        else:
            centre = rng.uniform([0, 0], [width, height])
        tall = length * rng.uniform(0.4, 1.1)
        wide = tall * rng.uniform(0.4, 0.8)
        down = _unit(rng.uniform(0, 2 * np.pi))
        across = np.array([-down[1], down[0]])
        box = centre + np.array([-across * wide / 2 - down * tall / 2, across * wide / 2 - down * tall / 2,
                                 across * wide / 2 + down * tall / 2, -across * wide / 2 + down * tall / 2])
        if box.min() < 0 or box[:, 0].max() >= width or box[:, 1].max() >= height:
            continue
        inside = np.zeros_like(cards)
        cv2.fillPoly(inside, [np.round(box).astype(np.int32)], 1)
        area = int(inside.sum())
        if area and int((inside & cards).sum()) <= TABLE_BOX_MAX_CARD * area:
            out.append(box)
    return out


def _unit(angle: float) -> NDArray[np.float64]:
    return np.array([np.cos(angle), np.sin(angle)])


ASKEW_VIEW_SHARE = 0.2
MIN_CONFIDENCE = 0.5
"""The fitted recogniser's "unknown" threshold. The class of slivers and askew reads takes its share
of every doubtful crop, so 0.5 answers as surely as 0.6 did without it (generic, held-out: precision
0.998 at 0.5)."""


def collect_face_views(
    edition: str, count: int, *, seed: int, progress: Callable[[int], None] | None = None
) -> CropSet:
    """``count`` views cut straight from the edition's face images, a fifth of them read askew, and a
    twentieth of them from its back (the generic back where it has none), under any turn."""
    from datasets.edition import BACK as BACK_FACE
    from datasets.edition import load_edition
    from vision.training.face_samples import face_views

    deck = load_edition(edition)
    faces = [deck.face(card) for card in CLASSES]
    backs = round(count * BACK_VIEW_SHARE)
    askew = round(count * ASKEW_VIEW_SHARE)
    upright = count - askew - backs
    upright_crops, upright_labels = face_views(faces, upright, seed=seed, progress=progress)
    askew_crops, _ = face_views(faces, askew, seed=seed + 1, askew=True,
                                progress=None if progress is None else lambda n: progress(upright + n))
    back_up, _ = face_views([deck.face(BACK_FACE)], backs - backs // 2, seed=seed + 2)
    back_turned, _ = face_views([deck.face(BACK_FACE)], backs // 2, seed=seed + 3, askew=True)
    labels = np.concatenate([upright_labels, np.full(askew, TURNED, np.int64), np.full(backs, BACK, np.int64)])
    return CropSet(crops=np.concatenate([upright_crops, askew_crops, back_up, back_turned]), labels=labels,
                   visible=np.ones(count, np.float64))


def fit_recogniser(
    edition: str, train: CropSet, *, epochs: int = 40, seed: int = 0,
    progress: Callable[[int, float], None] | None = None,
) -> FaceRecogniser:
    """Fit the recogniser's perceptron on upright crops: the cards, nothing to read, and the back."""
    mlp = fit_mlp(face_features(train.crops), train.labels, BACK + 1, epochs=epochs, seed=seed,
                  progress=progress)
    return FaceRecogniser(edition=edition, classes=CLASSES, mlp=mlp, min_confidence=MIN_CONFIDENCE, reads_backs=True)
