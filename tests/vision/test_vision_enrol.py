"""`borne enrol` as a user runs it: a folder of angled photos of a deck in, an edition with a recogniser out."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from datasets.art_retro import render_retro_face
from datasets.photos import write_photo_folder
from scoring.cards import Card


def enrolled_recogniser(env: dict[str, str], name: str):
    """The recogniser `borne enrol` made for edition ``name`` in the data folder of ``env``."""
    from datasets.edition import _LOADED
    from vision.read.models import load_recogniser

    os.environ["BORNE_DATA_DIR"] = env["BORNE_DATA_DIR"]
    try:
        _LOADED.pop(name, None)
        return load_recogniser(name)
    finally:
        del os.environ["BORNE_DATA_DIR"]


def test_enrol_makes_an_edition_that_recognises_its_own_cards(tmp_path):
    # The generic deck, printed and photographed at an angle (CONTRACT §8's export is what §7's enrol accepts).
    from datasets.edition import load_edition

    generic = load_edition("generic")
    faces = {c.value: generic.face(c) for c in Card}
    photos = write_photo_folder(faces, tmp_path / "photos", seed=3)
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run(
        [sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "mine", "--scenes", "12"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "enrolled edition 'mine'" in out.stdout and " s;" in out.stdout
    assert "finding cards" in out.stderr  # the progress bars
    folder = tmp_path / "data" / "editions" / "mine"
    assert (folder / "edition.json").is_file() and (folder / "recogniser.npz").is_file()
    from vision.read.recogniser import FaceRecogniser

    recogniser = enrolled_recogniser(env, "mine")
    assert isinstance(recogniser, FaceRecogniser)
    # Each original face, seen whole, is read as itself (12 scenes is a small fit: most cards, not all).
    right = 0
    for key, face in faces.items():
        image = np.ascontiguousarray(face[::8, ::8, ::-1])  # about the size a camera sees a card
        box = np.array([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]], float)
        (reading,) = recogniser.read(image, [box])
        right += reading.card is not None and reading.card.value == key
    assert right >= 15


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

    recogniser = enrolled_recogniser(env, "mine")
    assert isinstance(recogniser, EmbeddingRecogniser) and isinstance(recogniser.prototypes, EditionHead)
    right = 0
    for key, face in faces.items():
        image = np.ascontiguousarray(face[::10, ::10, ::-1])  # about the size a camera sees a card
        box = np.array([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]], float)
        (reading,) = recogniser.read(image, [box])
        right += reading.card is not None and reading.card.value == key
    assert right >= 15
