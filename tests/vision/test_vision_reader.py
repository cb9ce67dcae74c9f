"""The learned face reader: enrolment from scans and photos, duplicates and look-alikes, "unknown", and
the ONNX model against the torch one it was exported from."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.art_test import held_out_edition
from datasets.edition import load_edition
from datasets.enrol import enrol_folder, locate_card
from datasets.errors import DuplicateFaceError
from datasets.faces import rounded_alpha
from datasets.photos import card_photo
from datasets.prototypes import look_alikes, make_prototypes
from scoring.cards import Card
from vision.read.models import reader_path
from vision.read.reader import CARDS, EditionPrototypes, EmbeddingRecogniser, FaceReader


def plain_scan(face: np.ndarray, width: int = 150) -> np.ndarray:
    """A publisher's picture file of a card: the card filling the image, its rounded corners white."""
    h, w = face.shape[:2]
    small = cv2.resize(face, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
    alpha = rounded_alpha(small.shape[1], small.shape[0])[..., None] / 255.0
    return (small * alpha + 255 * (1 - alpha)).astype(np.uint8)


@pytest.fixture(scope="module")
def reader() -> FaceReader:
    return FaceReader(reader_path())


def test_a_plain_scan_is_the_card_itself_and_a_photo_is_found_in_it():
    face = held_out_edition("lineart")["distance_75"]  # a white card: nothing stands out from a white scan
    scan = plain_scan(face)
    corners = locate_card(scan)
    h, w = scan.shape[:2]
    assert np.allclose(sorted(map(tuple, corners)), sorted([(0, 0), (w, 0), (w, h), (0, h)]))
    photo = card_photo(held_out_edition("corner")["stop"], seed=5)
    corners = locate_card(photo)
    area = cv2.contourArea(corners.astype(np.float32))
    assert 0.03 * photo.shape[0] * photo.shape[1] < area < 0.6 * photo.shape[0] * photo.shape[1]


def test_enrolling_plain_scans_150_px_wide(tmp_path):
    faces = held_out_edition("midcard")
    folder = tmp_path / "scans"
    folder.mkdir()
    for key, face in faces.items():
        cv2.imwrite(str(folder / f"{key}.jpg"), plain_scan(face)[..., ::-1])
    edition = enrol_folder(folder, "scanned", out_root=tmp_path / "editions")
    straightened = edition.face(Card.DISTANCE_200)
    original = cv2.resize(faces["distance_200"], straightened.shape[1::-1])
    assert np.abs(straightened.astype(float) - original).mean() < 25


def test_the_same_picture_given_twice_is_refused_naming_both_files(tmp_path):
    faces = held_out_edition("photo")
    folder = tmp_path / "scans"
    folder.mkdir()
    for key, face in faces.items():
        cv2.imwrite(str(folder / f"{key}.png"), face[..., ::-1])
    cv2.imwrite(str(folder / "repairs.png"), faces["gasoline"][..., ::-1])
    with pytest.raises(DuplicateFaceError, match=r"gasoline\.png and repairs\.png"):
        enrol_folder(folder, "twice", out_root=tmp_path / "editions")
    assert not (tmp_path / "editions").exists()  # refused before anything was stored


def test_cards_differing_by_one_corner_digit_are_not_duplicates(tmp_path):
    faces = held_out_edition("corner")  # 100 and 200 differ only by a small corner digit
    folder = tmp_path / "scans"
    folder.mkdir()
    for key, face in faces.items():
        cv2.imwrite(str(folder / f"{key}.png"), face[..., ::-1])
    enrol_folder(folder, "corner", out_root=tmp_path / "editions")


def test_cards_told_apart_by_a_small_coloured_mark_are_look_alikes_not_duplicates(tmp_path):
    # a pixel-art deck's 100 and 200 differ only in a milestone mark in one corner: warned of, never refused
    faces = {c.value: np.asarray(load_edition("generic").face(c)) for c in Card}
    marked = faces["distance_100"].copy()
    h, w = marked.shape[:2]
    cv2.circle(marked, (int(w * 0.88), int(h * 0.93)), int(w * 0.025), (200, 30, 30), -1)
    faces["distance_200"] = marked
    folder = tmp_path / "scans"
    folder.mkdir()
    for key, face in faces.items():
        cv2.imwrite(str(folder / f"{key}.png"), face[..., ::-1])
    edition = enrol_folder(folder, "marked", out_root=tmp_path / "editions")
    assert (edition.folder / "distance_200.png").is_file() or any(edition.folder.glob("distance_200.*"))
    resaved = tmp_path / "resaved"
    resaved.mkdir()
    for key, face in faces.items():
        cv2.imwrite(str(resaved / f"{key}.png"), face[..., ::-1])
    ok, jpeg = cv2.imencode(".jpg", faces["distance_100"][..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 50])
    (resaved / "distance_200.png").unlink()
    (resaved / "distance_200.jpg").write_bytes(jpeg.tobytes())  # the 100 saved again: one picture twice
    with pytest.raises(DuplicateFaceError, match=r"distance_100\.png and distance_200\.jpg"):
        enrol_folder(resaved, "twice", out_root=tmp_path / "editions")


def test_look_alike_faces_are_named(reader):
    faces = [np.asarray(f) for f in (load_edition("generic").face(c) for c in CARDS)]
    twin = faces[CARDS.index(Card.DISTANCE_50)].copy()
    twin[-40:, -40:] = 255  # the 50 again, but for a corner: a photo of the wrong card
    faces[CARDS.index(Card.DISTANCE_75)] = twin
    prototypes = make_prototypes(reader, faces, "twins", views=6)
    pairs = {(a, b) for a, b, _ in look_alikes(prototypes)}
    assert (Card.DISTANCE_50, Card.DISTANCE_75) in pairs


@pytest.fixture(scope="module")
def generic(reader) -> EmbeddingRecogniser:
    faces = load_edition("generic")
    return EmbeddingRecogniser(reader, make_prototypes(reader, [faces.face(c) for c in CARDS], "generic", views=8))


def test_the_generic_edition_is_read_and_a_bare_table_is_unknown(generic):
    recogniser = generic
    generic = load_edition("generic")
    for card in (Card.DISTANCE_25, Card.DISTANCE_200, Card.STOP, Card.DRIVING_ACE):
        face = cv2.resize(generic.face(card), (45, 70), interpolation=cv2.INTER_AREA)[..., ::-1]
        table = np.full((120, 120, 3), (60, 90, 130), np.uint8)
        table[25:95, 40:85] = face
        box = np.array([[40, 25], [85, 25], [85, 95], [40, 95]], float)
        (reading,) = recogniser.read(table, [np.roll(box, 1, axis=0)])
        assert reading.card is card
        assert reading.turn == 1  # the box starts at the bottom-left corner: upright one corner on
    rng = np.random.default_rng(3)
    bare = np.clip(rng.normal(120, 25, (120, 120, 3)), 0, 255).astype(np.uint8)
    (reading,) = recogniser.read(bare, [np.array([[30, 20], [75, 20], [75, 90], [30, 90]], float)])
    assert reading.card is None


def test_prototypes_round_trip(tmp_path, generic):
    prototypes = generic.prototypes
    prototypes.save(tmp_path / "p.npz")
    again = EditionPrototypes.load(tmp_path / "p.npz")
    assert again.edition == "generic" and again.vectors.shape == prototypes.vectors.shape
    assert np.array_equal(again.cards, prototypes.cards) and np.array_equal(again.turns, prototypes.turns)
