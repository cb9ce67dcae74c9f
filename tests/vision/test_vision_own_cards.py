"""Which boxes of a frame are cards of their own, and which unread boxes a frame reading keeps."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.generate import scene_for
from datasets.scene import SceneRenderer, SceneSpec
from scoring.cards import Card
from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.read.frame_reader import UNREAD_KEPT_CONFIDENCE, FrameReader
from vision.read.models import recogniser_path
from vision.read.recogniser import FaceRecogniser
from vision.read.sighting import Sighting
from vision.table.census import take_census
from vision.table.layout import TableLayout
from vision.table.own_cards import FRAGMENT_SHARE, cards_of_their_own


def box(cx: float, top: float, bottom: float, w: float = 56.0) -> np.ndarray:
    return np.array([[cx - w / 2, top], [cx + w / 2, top], [cx + w / 2, bottom], [cx - w / 2, bottom]])


def test_a_faint_box_across_a_columns_strips_and_a_fragment_are_not_cards_of_their_own():
    strips = [Sighting(box(600, 500 + 25 * k, 525 + 25 * k), True, Card.DISTANCE_50, 0.9) for k in range(3)]
    whole = Sighting(box(600, 575, 662), True, Card.DISTANCE_50, 0.95)
    across = Sighting(box(590, 510, 560, w=40), True, Card.DISTANCE_50, 0.45)
    beside = Sighting(box(700, 500, 587), True, Card.DISTANCE_75, 0.4)  # faint, but a card of its own
    fragment = Sighting(box(660, 600, 600 + FRAGMENT_SHARE * 80, w=20), True, Card.DISTANCE_25, 0.9)  # among cards
    pile = Sighting(box(300, 300, 387), False, None, 0.3)  # face down: always kept
    kept = cards_of_their_own([*strips, whole, across, beside, fragment, pile])
    assert [id(s) for s in kept] == [id(s) for s in [*strips, whole, beside, pile]]


def test_a_strip_on_the_far_side_of_a_tilted_picture_is_a_card_of_its_own():
    """The camera's tilt makes far cards shorter: a far strip is measured against the far cards, not the near."""
    near = [Sighting(box(300 + 80 * k, 600, 700, w=64), True, Card.DISTANCE_25, 0.9) for k in range(6)]  # 100 px long
    far_whole = Sighting(box(600, 120, 195, w=48), True, Card.DISTANCE_50, 0.9)  # 75 px long up there
    far_strip = Sighting(box(600, 100, 114, w=0.44 * 100), True, Card.DISTANCE_50, 0.6)  # 44 px: a fragment near by
    kept = cards_of_their_own([*near, far_whole, far_strip])
    assert id(far_strip) in map(id, kept)
    near_fragment = Sighting(box(700, 500, 514, w=0.44 * 100), True, Card.DISTANCE_25, 0.6)
    assert id(near_fragment) not in map(id, cards_of_their_own([*near, near_fragment]))


def test_detect_counts_a_column_once_however_many_boxes_lie_across_it():
    layout = TableLayout.default(1280, 720)
    strips = [Sighting(box(600, 500 + 25 * k, 525 + 25 * k), True, Card.DISTANCE_100, 0.9) for k in range(3)]
    whole = Sighting(box(600, 575, 662), True, Card.DISTANCE_100, 0.95)
    across = Sighting(box(600, 512, 562, w=50), True, Card.DISTANCE_100, 0.5)
    census = take_census([*strips, whole, across], layout)
    south = next(s for s in census.sides if s.side == "South")
    assert south.distance[100] == 4 and len(south.cards) == 4


class ReplayedBoxes(CardDetector):
    """Gives the same face-up boxes for every frame."""

    class_names = ("card_face_up", "card_face_down")

    def __init__(self, corners: list[np.ndarray], confidence: list[float]) -> None:
        self.found = Detections(np.asarray(corners, np.float64), np.asarray(confidence, np.float64),
                                np.zeros(len(corners), np.int64))

    def detect(self, image: np.ndarray) -> Detections:
        return self.found


@pytest.fixture(scope="module")
def recogniser() -> FaceRecogniser:
    return FaceRecogniser.load(recogniser_path("generic"))


def test_an_unread_box_is_kept_only_when_the_detector_is_sure_of_it(recogniser):
    """On a bare table nothing reads as a card: a faint box there is dropped, a sure one stays as an
    unknown card; a card that reads stays however faint its box."""
    renderer = SceneRenderer(SceneSpec(width=1280, height=720, hands=0.0, distractors=0.0))
    scene = scene_for(9300, 0, renderer)
    image = np.ascontiguousarray(scene.image[..., ::-1])
    card = max((v for v in scene.views if v.placed.card is not None and v.visible_corners is not None),
               key=lambda v: v.visible)
    cards = scene.idbuf >= 0
    bare = next(b for x in range(40, 1200, 30) for y in range(40, 600, 30)
                if not cards[y : y + 88, x - 28 : x + 29].any() for b in [box(x, y, y + 87)])
    faint, sure = UNREAD_KEPT_CONFIDENCE - 0.3, UNREAD_KEPT_CONFIDENCE + 0.1
    reader = FrameReader(ReplayedBoxes([bare, bare + [0, 0.5], card.visible_corners], [faint, sure, faint]), recogniser)
    found = reader.read(image).sightings
    unknown = [s for s in found if s.card is None]
    read = [s for s in found if s.card is not None]
    assert len(unknown) == 1 and np.allclose(unknown[0].corners, bare + [0, 0.5])
    assert [s.card for s in read] == [card.placed.card]


def test_a_faint_box_read_at_little_more_than_even_odds_is_not_a_card(recogniser):
    """A box is a card when the detector and the reading together are sure enough
    (:data:`READ_KEPT_CONFIDENCE`): the same card read in a faint box is dropped, in a sure box kept."""
    from vision.read.frame_reader import READ_KEPT_CONFIDENCE

    renderer = SceneRenderer(SceneSpec(width=1280, height=720, hands=0.0, distractors=0.0))
    scene = scene_for(9300, 1, renderer)
    image = np.ascontiguousarray(scene.image[..., ::-1])
    card = max((v for v in scene.views if v.placed.card is not None and v.visible_corners is not None),
               key=lambda v: v.visible)
    reading = recogniser.read(image, [card.visible_corners])[0]
    assert reading.card == card.placed.card
    faint = 0.95 * READ_KEPT_CONFIDENCE / reading.confidence  # under the product, and under UNREAD_KEPT too
    sure = min(1.0, 1.05 * READ_KEPT_CONFIDENCE / reading.confidence + 0.2)
    assert faint < UNREAD_KEPT_CONFIDENCE
    assert FrameReader(ReplayedBoxes([card.visible_corners], [faint]), recogniser).read(image).sightings == ()
    kept = FrameReader(ReplayedBoxes([card.visible_corners], [sure]), recogniser).read(image).sightings
    assert [s.card for s in kept] == [card.placed.card]
