"""A video's reading of the generic edition: the fitted recogniser, its whole cards read again by their faces."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from datasets.edition import ensure_generic
from scoring.cards import Card
from vision.read.matcher import FaceMatcher
from vision.read.recogniser import Reading
from vision.read.whole_by_faces import SURE_FITTED, WholeCardsByFaces

from .test_vision_matcher import CARD, lay, table


@dataclass
class Misreading:
    """A fitted recogniser that reads every box as ``card`` at ``confidence`` (one that misreads a whole card the
    same way frame after frame, as the shipped one read a 25 as a 200 on a development photo-real hand)."""

    card: Card | None
    confidence: float
    edition: str = "generic"
    asked: list[int] = field(default_factory=list)

    def read(self, image: np.ndarray, boxes: list[np.ndarray]) -> list[Reading]:
        self.asked.append(len(boxes))
        return [Reading(self.card, self.confidence) for _ in boxes]


@pytest.fixture(scope="module")
def faces() -> FaceMatcher:
    return FaceMatcher.from_folder(ensure_generic().folder)


def test_a_whole_card_the_fitted_recogniser_misreads_is_read_by_its_face_on_its_outline_its_box_kept(faces):
    image = lay(ensure_generic().face(Card.DISTANCE_25), CARD, table())
    loose = CARD + np.array([[-4.0, -3.0], [3.0, -4.0], [4.0, 3.0], [-3.0, 4.0]])  # a detector's box, a little wide
    reader = WholeCardsByFaces(Misreading(Card.DISTANCE_200, 0.7), faces)
    (reading,) = reader.read(image, [loose])
    assert reading.card is Card.DISTANCE_25 and reader.faces_read == 1
    assert reading.outline is None  # the box stays the card's corners, as in every frame of a video


def test_a_sure_fitted_reading_stands_without_the_faces(faces):
    image = lay(ensure_generic().face(Card.DISTANCE_25), CARD, table())
    reader = WholeCardsByFaces(Misreading(Card.DISTANCE_200, SURE_FITTED), faces)
    (reading,) = reader.read(image, [CARD])
    assert reading.card is Card.DISTANCE_200 and reader.faces_read == 0


def test_a_column_strip_keeps_the_fitted_reading(faces):
    # the card's top third shows, the next card of the column covers the rest: no whole card for the faces
    image = lay(ensure_generic().face(Card.DISTANCE_50), CARD, table())
    image = lay(ensure_generic().face(Card.DISTANCE_100), CARD + (CARD[3] - CARD[0]) * 0.34, image)
    strip = np.array([CARD[0], CARD[1], CARD[1] + (CARD[2] - CARD[1]) * 0.34, CARD[0] + (CARD[3] - CARD[0]) * 0.34])
    reader = WholeCardsByFaces(Misreading(Card.DISTANCE_75, 0.6), faces)
    (reading,) = reader.read(image, [strip])
    assert reading.card is Card.DISTANCE_75 and reader.faces_read == 0


def test_where_the_faces_are_unsure_the_fitted_reading_stands(faces):
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (124, 80, 3), dtype=np.uint8)  # a foreign picture with a card's proportions
    image = lay(noise, CARD, table())
    reader = WholeCardsByFaces(Misreading(Card.STOP, 0.5), faces)
    (reading,) = reader.read(image, [CARD])
    assert reading.card is Card.STOP and reading.confidence == 0.5


def test_the_generic_video_reading_is_fitted_with_whole_cards_by_faces_an_edition_of_faces_alone_by_its_faces():
    from vision.read.models import load_video_recogniser

    generic = load_video_recogniser("generic")
    assert isinstance(generic, WholeCardsByFaces) and not isinstance(generic.fitted, FaceMatcher)
    assert generic.edition == "generic"
    enrolled = load_video_recogniser(str(ensure_generic().folder))  # an edition folder: faces, no fitted recogniser
    assert isinstance(enrolled, FaceMatcher)
