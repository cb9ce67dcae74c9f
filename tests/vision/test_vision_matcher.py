"""Reading by matching the edition's faces: per turn, per visible band, the back, and an honest unknown."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.edition import ensure_generic
from scoring.cards import Card
from vision.read.matcher import FaceMatcher


@pytest.fixture(scope="module")
def matcher() -> FaceMatcher:
    return FaceMatcher.from_folder(ensure_generic().folder)


def lay(face_rgb: np.ndarray, corners: np.ndarray, image: np.ndarray) -> np.ndarray:
    """The face drawn onto the image with its top-left, top-right, bottom-right, bottom-left at ``corners``."""
    h, w = face_rgb.shape[:2]
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), corners.astype(np.float32))
    face = cv2.warpPerspective(face_rgb[..., ::-1], m, image.shape[1::-1], flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, image.shape[1::-1])
    out = image.copy()
    out[mask > 127] = face[mask > 127]
    return out


def table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal((60, 100, 140), 10, (240, 320, 3)), 0, 255).astype(np.uint8)


CARD = np.array([[120.0, 60.0], [176.0, 66.0], [167.0, 152.0], [111.0, 146.0]])
"""A card 56 × 87 px, turned 6°, corners from the face's top left, clockwise."""


@pytest.mark.parametrize("card", list(Card))
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_every_face_reads_in_every_corner_order(matcher, card, turn):
    image = lay(ensure_generic().face(card), CARD, table())
    reading = matcher.read(image, [np.roll(CARD, turn, axis=0)])[0]
    assert reading.card is card
    assert reading.confidence > 0.5


def test_a_face_laid_upside_down_reads_upside_down(matcher):
    image = lay(ensure_generic().face(Card.DISTANCE_75), np.roll(CARD, 2, axis=0), table())
    upright = matcher.read(lay(ensure_generic().face(Card.DISTANCE_75), CARD, table()), [CARD])[0]
    turned = matcher.read(image, [CARD])[0]
    assert upright.card is turned.card is Card.DISTANCE_75
    assert upright.turn != turned.turn


@pytest.mark.parametrize("card", [Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_100, Card.STOP, Card.DRIVING_ACE])
def test_a_column_strip_reads_from_its_visible_band(matcher, card):
    # the card's top third shows; the next card of the column covers the rest
    image = lay(ensure_generic().face(card), CARD, table())
    image = lay(ensure_generic().face(Card.DISTANCE_200), CARD + (CARD[3] - CARD[0]) * 0.34, image)
    band = np.array([CARD[0], CARD[1], CARD[1] + (CARD[2] - CARD[1]) * 0.34, CARD[0] + (CARD[3] - CARD[0]) * 0.34])
    for turn in (0, 2):
        assert matcher.read(image, [np.roll(band, turn, axis=0)])[0].card is card


def test_the_back_reads_as_a_face_down_card(matcher):
    image = lay(ensure_generic().face("back"), CARD, table())
    reading = matcher.read(image, [CARD])[0]
    assert reading.back and reading.card is None


@pytest.mark.parametrize("seed", range(5))
def test_the_bare_table_and_a_foreign_picture_are_unknown(matcher, seed):
    rng = np.random.default_rng(seed)
    foreign = rng.integers(0, 256, (87, 56, 3), dtype=np.uint8)
    foreign = cv2.resize(cv2.resize(foreign, (7, 11)), (56, 87), interpolation=cv2.INTER_CUBIC)
    for image in (table(seed), lay(foreign, CARD, table(seed))):
        reading = matcher.read(image, [CARD])[0]
        assert reading.card is None and not reading.back


def test_a_sliver_is_not_read(matcher):
    image = lay(ensure_generic().face(Card.DISTANCE_100), CARD, table())
    sliver = np.array([CARD[0], CARD[1], CARD[1] + (CARD[2] - CARD[1]) * 0.1, CARD[0] + (CARD[3] - CARD[0]) * 0.1])
    assert matcher.read(image, [sliver])[0].card is None


def test_the_shipped_generic_faces_are_the_generic_edition_s(tmp_path):
    # models/faces-generic is what the runtime reads (it may not draw them); it must not drift from datasets/art.py
    import json
    from pathlib import Path

    from datasets.edition import write_shipped_generic
    from vision.read.models import faces_folder

    shipped = faces_folder("generic")
    fresh = write_shipped_generic(tmp_path / "faces").folder
    assert json.loads((shipped / "edition.json").read_text())["faces"] == json.loads((fresh / "edition.json").read_text())["faces"]
    for name in json.loads((fresh / "edition.json").read_text())["faces"].values():
        a, b = cv2.imread(str(shipped / name)), cv2.imread(str(fresh / name))
        assert a is not None and a.shape == b.shape and np.abs(a.astype(int) - b.astype(int)).max() <= 2, Path(name)


def test_look_alikes_are_faces_told_apart_only_by_small_print(tmp_path):
    from datasets.art_test import held_out_edition
    from datasets.edition import write_edition

    assert FaceMatcher.from_folder(ensure_generic().folder).look_alikes() == []
    corner = write_edition(tmp_path / "corner", "corner", held_out_edition("corner"))
    groups = FaceMatcher.from_folder(corner.folder).look_alikes()
    assert (Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_75, Card.DISTANCE_100, Card.DISTANCE_200) in groups


@pytest.mark.parametrize("card", [Card.DISTANCE_50, Card.STOP, Card.DRIVING_ACE])
def test_a_loose_box_becomes_the_card_s_own_outline(matcher, card):
    image = lay(ensure_generic().face(card), CARD, table())
    loose = CARD + np.array([[-4.0, -3.0], [5.0, -2.0], [4.0, 5.0], [-3.0, 4.0]])  # 5 px off: a detector's box
    outline = matcher.outline(image, loose)
    assert outline is not None
    # any corner first: the face's own top left, whichever end the box started from
    error = min(np.abs(np.roll(outline, k, axis=0) - CARD).max() for k in range(4))
    assert error < 2.0
    reading = matcher.read(image, [loose])[0]
    assert reading.card is card and reading.outline is not None


def test_a_duel_counts_where_two_faces_differ_and_not_what_they_share():
    from vision.read.matcher import DUEL_SCALE, _duel_margin

    rng = np.random.default_rng(3)
    shared = rng.normal(0, 1, 600).astype(np.float32)  # the art both faces print
    first, second = shared.copy(), shared.copy()
    first[:30] += 2.0  # a numeral: 5 % of the region
    second[30:60] += 2.0
    seen = first + rng.normal(0, 0.3, 600).astype(np.float32)
    assert _duel_margin(seen, first, second) > 5 * DUEL_SCALE
    assert _duel_margin(seen, second, first) == pytest.approx(-_duel_margin(seen, first, second), rel=1e-4)
    blurred = shared + rng.normal(0, 1.0, 600).astype(np.float32)  # the numeral drowned: neither face
    assert abs(_duel_margin(blurred, first, second)) < 5 * DUEL_SCALE
