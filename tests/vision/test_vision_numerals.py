"""Distance values read from the printed numeral (PP-OCR's recogniser through ONNX Runtime), for any deck."""

from __future__ import annotations

import sys

import cv2
import numpy as np
import pytest

from datasets.art_test import held_out_edition
from datasets.edition import ensure_generic
from scoring.cards import DISTANCE_CARDS
from vision.read.numerals import NumeralReader


@pytest.fixture(scope="module")
def reader() -> NumeralReader:
    return NumeralReader.shipped()


def on_table(face_rgb: np.ndarray, length: int, *, turn: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The face ``length`` px long on a grey table, turned by quarter turns; the picture and the card's corners."""
    h, w = length, round(length * 56 / 87)
    card = cv2.resize(face_rgb[..., ::-1], (w, h), interpolation=cv2.INTER_AREA)
    card = np.ascontiguousarray(np.rot90(card, turn))
    image = np.full((card.shape[0] + 40, card.shape[1] + 40, 3), 90, np.uint8)
    image[20 : 20 + card.shape[0], 20 : 20 + card.shape[1]] = card
    y1, x1 = 20 + card.shape[0], 20 + card.shape[1]
    return image, np.array([[20, 20], [x1, 20], [x1, y1], [20, y1]], float)


@pytest.mark.parametrize("card", DISTANCE_CARDS)
@pytest.mark.parametrize("turn", [0, 1, 2])
def test_each_distance_card_of_the_generic_edition_names_its_value(reader, card, turn):
    image, corners = on_table(ensure_generic().face(card), 90, turn=turn)
    assert reader.value(image, corners) == card.km


@pytest.mark.parametrize("card", DISTANCE_CARDS)
def test_a_deck_printing_its_value_mid_card_is_read_without_enrolment(reader, card):
    image, corners = on_table(held_out_edition("midcard")[card.value], 120)
    assert reader.value(image, corners) == card.km


def test_a_card_with_no_value_and_a_foreign_number_say_nothing(reader):
    blank, corners = on_table(np.full((87, 56, 3), 240, np.uint8), 90)
    assert reader.value(blank, corners) is None
    foreign = np.full((174, 112, 3), 240, np.uint8)
    cv2.putText(foreign, "123", (8, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 3, cv2.LINE_AA)
    image, corners = on_table(foreign, 120)
    assert reader.value(image, corners) is None


def test_the_text_recogniser_runs_without_the_ocr_package_s_code(reader):
    assert reader.read_lines([]) == []
    assert "rapidocr_onnxruntime" not in sys.modules  # its model file only: none of its dependencies


def test_an_unknown_deck_counts_its_distance_cards_and_names_no_other(reader):
    from scoring.cards import Card
    from vision.read.models import load_recogniser
    from vision.read.numerals import NumeralRecogniser

    unknown = load_recogniser("unknown")
    assert isinstance(unknown, NumeralRecogniser)
    faces = held_out_edition("midcard")
    for card in (Card.DISTANCE_75, Card.DISTANCE_200, Card.STOP, Card.DRIVING_ACE):
        image, corners = on_table(faces[card.value], 120, turn=1)
        (reading,) = unknown.read(image, [corners])
        assert reading.card is (card if card.is_distance else None)


def test_unknown_is_no_name_to_enrol_under(tmp_path):
    from datasets.enrol import enrol_folder
    from datasets.errors import EnrolmentError

    with pytest.raises(EnrolmentError, match="a deck nobody enrolled"):
        enrol_folder(tmp_path, "unknown")
