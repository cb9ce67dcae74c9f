"""Where the runtime finds its models: the detector and the recogniser of each deck edition."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from vision.errors import ModelError
from vision.read.editions import GENERIC, enrolled_folder

if TYPE_CHECKING:
    from vision.read.recogniser import Recogniser

DETECTOR_FILE = "detector.onnx"
RECOGNISER_FILE = "recogniser.npz"
READER_FILE = "reader.onnx"
PROTOTYPES_FILE = "prototypes.npz"


def models_dir() -> Path:
    """The shipped models: ``$BORNE_MODELS_DIR``, else the repository's ``models/`` folder."""
    env = os.environ.get("BORNE_MODELS_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models"


def detector_path() -> Path:
    path = models_dir() / DETECTOR_FILE
    if not path.is_file():
        raise ModelError(f"{path}: the card detector is missing (train it with `borne train detector`)")
    return path


def recogniser_path(edition: str) -> Path:
    """The recogniser of an edition: shipped for ``generic``, next to the edition's faces for an enrolled one."""
    if edition == GENERIC:
        path = models_dir() / f"recogniser-{GENERIC}.npz"
    else:
        path = enrolled_folder(edition) / RECOGNISER_FILE
    if not path.is_file():
        raise ModelError(f"{path}: edition {edition!r} has no recogniser (run `borne enrol` or `borne train recogniser`)")
    return path


def edition_folder(edition: str) -> Path | None:
    """An enrolled edition's folder (``None`` for the generic edition).

    :raises UnknownEditionError: no edition is enrolled under that name.
    """
    if edition == GENERIC:
        return None
    return enrolled_folder(edition)


def reader_path() -> Path:
    return models_dir() / READER_FILE


def prototypes_path(edition: str) -> Path:
    """Where the face reader's prototypes of an edition are: shipped for ``generic``, else in the edition's folder."""
    folder = edition_folder(edition)
    return models_dir() / f"prototypes-{GENERIC}.npz" if folder is None else folder / PROTOTYPES_FILE


def load_recogniser(edition: str) -> Recogniser:
    """The recogniser of an edition: the face reader with the edition's head (or prototypes) when the edition was
    enrolled with it (``borne enrol --reader``), else the edition's fitted recogniser of hand-made features.

    :raises ModelError: the edition has neither.
    """
    from vision.read.reader import HEAD_FILE, EditionHead, EditionPrototypes, EmbeddingRecogniser, FaceReader
    from vision.read.recogniser import FaceRecogniser

    prototypes = prototypes_path(edition)
    head = prototypes.parent / (HEAD_FILE if edition != GENERIC else f"reader-head-{GENERIC}.npz")
    if reader_path().is_file() and head.is_file():
        return EmbeddingRecogniser(FaceReader(reader_path()), EditionHead.load(head))
    if reader_path().is_file() and prototypes.is_file():
        return EmbeddingRecogniser(FaceReader(reader_path()), EditionPrototypes.load(prototypes))
    return FaceRecogniser.load(recogniser_path(edition))
