"""A flag's picture: the frame it names, around the card, the card outlined; few and small, kept per hand."""

from __future__ import annotations

import cv2
import numpy as np

from scoring.cards import Card
from tests.vision.test_vision_landing import card_corners, face_of, lay, table
from vision.flag_pictures import HANDS_KEPT, PICTURE_WIDTH, PICTURES_PER_HAND, FlagPictures, flag_key, flag_picture
from vision.pipeline import Pipeline
from vision.read.frame_reader import FrameReading
from vision.read.matcher import FaceMatcher
from vision.read.models import faces_folder
from vision.read.sighting import Sighting
from vision.sources import Frame
from vision.table.census import take_census
from vision.table.layout import TableLayout
from vision.track import Flag, FlagReason

W, H = 640, 360
LAYOUT = TableLayout.default(W, H)
AMBER = np.array([0, 215, 255])


def north_card(card: Card, x: float) -> Sighting:
    """A North card standing upright with its top edge towards the middle of the table (y = 110)."""
    corners = np.array([[x, 48.0], [x + 40, 48.0], [x + 40, 110.0], [x, 110.0]])
    return Sighting(corners, True, card, 0.95)


def decoded(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def amber_share(picture: np.ndarray) -> float:
    return float(np.mean(np.all(np.abs(picture.astype(int) - AMBER) < 60, axis=2)))


def test_the_picture_shows_the_card_outlined_around_it_small():
    image = np.full((H, W, 3), 90, np.uint8)
    census = take_census([north_card(Card.DISTANCE_100, 100), north_card(Card.DISTANCE_100, 400)], LAYOUT)
    flag = Flag(12, 1.2, "North", Card.DISTANCE_100, FlagReason.STOPPED, "…", (420.0, 110.0))
    picture = decoded(flag_picture(image, census, LAYOUT, flag))
    assert picture.shape[1] == PICTURE_WIDTH and picture.shape[0] < H  # cropped around the card
    assert amber_share(picture) > 0.01
    whole = decoded(flag_picture(image, census, LAYOUT, Flag(12, 1.2, None, None, FlagReason.UNFINISHED, "…")))
    assert whole.shape[1] == PICTURE_WIDTH and amber_share(whole) == 0  # the whole frame, nothing to outline
    assert len(flag_picture(image, census, LAYOUT, flag)) < 20_000


def test_pictures_are_few_a_hand_and_kept_for_the_latest_hands_only():
    pictures = FlagPictures()
    for k in range(PICTURES_PER_HAND + 2):
        kept = pictures.keep(1, f"1-{k}-{k}", b"jpeg")
        assert kept is (k < PICTURES_PER_HAND)
    for hand in range(2, HANDS_KEPT + 2):
        pictures.keep(hand, f"{hand}-0-0", b"jpeg")
    assert "1-0-0" not in pictures and pictures.get(f"{HANDS_KEPT + 1}-0-0") == b"jpeg"
    assert len(pictures) == HANDS_KEPT


class FirstView:
    """The whole table's reader: an empty table at the first view; its recogniser reads the landings."""

    def __init__(self, recogniser: FaceMatcher) -> None:
        self.recogniser = recogniser

    def read(self, image: object) -> FrameReading:
        return FrameReading((), None)


def test_a_flag_raised_in_a_frame_gets_that_frame_s_picture_on_the_display():
    matcher = FaceMatcher.from_folder(faces_folder("generic"), "generic")
    frames = [table()]
    for card, centre in ((Card.ROLL, (520, 290)), (Card.DISTANCE_100, (120, 290)), (Card.STOP, (520, 290)),
                         (Card.DISTANCE_100, (240, 290))):
        laid = lay(frames[-1], face_of(matcher, card), card_corners(centre, 0))
        frames += [laid] * 4
    pipeline = Pipeline(FirstView(matcher), LAYOUT, goal=1000)  # type: ignore[arg-type]
    for i, image in enumerate(frames):
        pipeline.process(Frame(i, i / 10, image))
    live = pipeline.live_hand()
    (flag,) = live.flags
    assert flag.reason == "stopped" and flag.card == "distance_100"
    key = flag_key(1, pipeline.state.flags[0], 0)  # type: ignore[union-attr]
    assert flag.picture == f"/api/camera/flags/{key}.jpg"
    assert amber_share(decoded(pipeline.flag_pictures.get(key))) > 0.01  # type: ignore[arg-type]
