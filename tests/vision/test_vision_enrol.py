"""`borne enrol` as a user runs it: a folder of angled photos of a deck in, an edition read by its own faces out."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from datasets.art_retro import render_retro_face
from datasets.photos import write_photo_folder
from scoring.cards import Card


def enrolled_recogniser(env: dict[str, str], name: str, *, fitted: bool = False):
    """What reads edition ``name`` after `borne enrol` in the data folder of ``env`` (``fitted``: the recogniser
    `borne enrol --fitted` or ``--reader`` made)."""
    from datasets.edition import _LOADED
    from vision.read.models import load_fitted_recogniser, load_recogniser

    os.environ["BORNE_DATA_DIR"] = env["BORNE_DATA_DIR"]
    try:
        _LOADED.pop(name, None)
        return load_fitted_recogniser(name) if fitted else load_recogniser(name)
    finally:
        del os.environ["BORNE_DATA_DIR"]


def read_own_faces(recogniser, faces: dict[str, np.ndarray], step: int) -> int:
    """How many of the original faces, each seen whole at ``1/step`` of its size, read as themselves."""
    right = 0
    for key, face in faces.items():
        image = np.ascontiguousarray(face[::step, ::step, ::-1])  # about the size a camera sees a card
        box = np.array([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]], float)
        (reading,) = recogniser.read(image, [box])
        right += reading.card is not None and reading.card.value == key
    return right


def test_enrol_makes_an_edition_read_by_its_own_faces(tmp_path):
    # The generic deck, printed and photographed at an angle (CONTRACT §8's export is what §7's enrol accepts).
    from datasets.edition import load_edition
    from vision.read.matcher import FaceMatcher

    generic = load_edition("generic")
    faces = {c.value: generic.face(c) for c in Card}
    photos = write_photo_folder(faces, tmp_path / "photos", seed=3)
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "mine"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "enrolled edition 'mine'" in out.stdout and " s;" in out.stdout
    assert "finding cards" in out.stderr  # the progress bar
    folder = tmp_path / "data" / "editions" / "mine"
    assert (folder / "edition.json").is_file() and not (folder / "recogniser.npz").exists()  # nothing fitted
    matcher = enrolled_recogniser(env, "mine")
    assert isinstance(matcher, FaceMatcher)
    assert read_own_faces(matcher, faces, 8) == len(faces)


def test_enrol_names_faces_told_apart_only_by_small_print(tmp_path):
    from datasets.art_test import held_out_edition

    faces = held_out_edition("corner")  # distance cards alike but for a corner numeral
    photos = write_photo_folder({k: v for k, v in faces.items() if k != "back"}, tmp_path / "photos", seed=5)
    out = subprocess.run([sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "corner"],
                         capture_output=True, text=True, env={**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")},
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "distance_25, distance_50, distance_75, distance_100 and distance_200 differ only in small print" in out.stderr


def test_enrol_fitted_also_fits_the_recogniser_of_hand_made_features(tmp_path):
    from datasets.edition import load_edition
    from vision.read.recogniser import FaceRecogniser

    generic = load_edition("generic")
    faces = {c.value: generic.face(c) for c in Card}
    photos = write_photo_folder(faces, tmp_path / "photos", seed=3)
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run(
        [sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "mine", "--fitted", "--scenes", "12"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert (tmp_path / "data" / "editions" / "mine" / "recogniser.npz").is_file()
    recogniser = enrolled_recogniser(env, "mine", fitted=True)
    assert isinstance(recogniser, FaceRecogniser)
    assert read_own_faces(recogniser, faces, 8) >= 15  # 12 scenes is a small fit: most cards, not all


def test_enrol_refuses_a_folder_with_a_missing_card(tmp_path):
    faces = {c.value: np.asarray(render_retro_face(c)) for c in Card if c is not Card.STOP}
    photos = write_photo_folder(faces, tmp_path / "photos", seed=4)
    out = subprocess.run(
        [sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "x"],
        capture_output=True, text=True, env={**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")},
    )
    assert out.returncode == 2 and "stop" in out.stderr
    assert not (tmp_path / "data" / "editions" / "x").exists()


def test_enrol_with_the_face_reader_learns_the_edition_from_its_faces(tmp_path):
    from datasets.edition import load_edition

    generic = load_edition("generic")
    faces = {c.value: generic.face(c) for c in Card}
    photos = write_photo_folder(faces, tmp_path / "photos", seed=3)
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "mine", "--reader"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "learning faces" in out.stderr and "enrolled edition 'mine'" in out.stdout
    folder = tmp_path / "data" / "editions" / "mine"
    assert (folder / "reader-head.npz").is_file() and not (folder / "recogniser.npz").exists()
    from vision.read.reader import EditionHead, EmbeddingRecogniser

    recogniser = enrolled_recogniser(env, "mine", fitted=True)
    assert isinstance(recogniser, EmbeddingRecogniser) and isinstance(recogniser.prototypes, EditionHead)
    assert read_own_faces(recogniser, faces, 10) >= 15


def test_a_card_whose_dark_header_merges_with_a_dark_table_is_found_whole():
    """Seen enrolling the `midcard` test edition from angled photos: its 100 and 200 have a dark blue header band
    that a dark wooden table swallowed, and the card was found as its white body alone, stretched to a card."""
    from datasets.art_test import held_out_edition
    from datasets.enrol import find_card
    from datasets.photos import card_photo_and_corners

    faces = {k: v for k, v in held_out_edition("midcard").items() if k != "back"}
    for key in ("distance_100", "distance_200"):
        photo, corners = card_photo_and_corners(np.asarray(faces[key]), 5150 * 100 + sorted(faces).index(key))
        found = find_card(photo)
        length = float(np.linalg.norm(corners[3] - corners[0]))
        assert max(min(float(np.linalg.norm(f - c)) for c in corners) for f in found) < 0.03 * length
