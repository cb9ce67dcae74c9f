"""Where the runtime finds its models: the detector and the recogniser of each deck edition."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from vision.errors import ModelError
from vision.read.editions import GENERIC, enrolled_folder

if TYPE_CHECKING:
    from vision.read.numerals import NumeralReader
    from vision.read.recogniser import Recogniser

DETECTOR_FILE = "detector.onnx"
RECOGNISER_FILE = "recogniser.npz"
READER_FILE = "reader.onnx"
PROTOTYPES_FILE = "prototypes.npz"
FACES_PREFIX = "faces-"


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


def faces_folder(edition: str) -> Path:
    """The folder of an edition's faces: shipped in ``models/faces-generic`` for the generic edition, the
    enrolled folder for any other.

    :raises UnknownEditionError: no edition is enrolled under that name.
    """
    return models_dir() / f"{FACES_PREFIX}{GENERIC}" if edition == GENERIC else enrolled_folder(edition)


def load_recogniser(edition: str, *, outline_first: bool = False, faces: bool = False) -> Recogniser:
    """What reads an edition's cards: the recogniser fitted on it where it has one (the generic ships one;
    ``borne enrol --fitted`` fits one), else — or with ``faces`` — its own faces, matched
    (:class:`vision.read.matcher.FaceMatcher`; ``outline_first``: on each card's own outline, found first, a
    still photo's reading at a dozen milliseconds a card; else on the detector's box). The fitted recogniser
    stays first while it counts more sides exactly (the generic's photo-real test split: 72 of 101 against 65)
    and reads decks told apart only by small print far better (the retro deck enrolled from photos: 0.83
    against 0.10 of its cards). ``unknown`` is a deck nobody enrolled: its distance cards are read by their
    printed numerals (:class:`vision.read.numerals.NumeralRecogniser`), every other card is unknown.

    :raises ModelError: the edition's faces are missing or unreadable.
    :raises UnknownEditionError: no edition is enrolled under that name.
    """
    from vision.read.matcher import FaceMatcher
    from vision.read.numerals import UNKNOWN_DECK, NumeralRecogniser

    if edition == UNKNOWN_DECK:
        numerals = numeral_reader()
        if numerals is None:
            raise ModelError("an unknown deck is read by its numerals, and the text recogniser is not installed "
                             "(`pip install --no-deps rapidocr-onnxruntime==1.4.4`, which `make install` does)")
        return NumeralRecogniser(numerals)
    if not faces:
        try:
            return load_fitted_recogniser(edition)
        except ModelError:
            pass  # enrolled by its faces alone
    matcher = FaceMatcher.from_folder(faces_folder(edition), edition)
    matcher.outline_first = outline_first
    if outline_first:  # a still photo: an unsure distance card gets its numeral read too
        matcher.numerals = numeral_reader()
    return matcher


def load_video_recogniser(edition: str) -> Recogniser:
    """What reads a video's cards: an edition with a fitted recogniser and its faces has its whole cards read by
    the faces, on their own outlines (:class:`vision.read.whole_by_faces.WholeCardsByFaces`); any other is read as
    :func:`load_recogniser` reads it.

    :raises ModelError: the edition's faces are unreadable.
    :raises UnknownEditionError: no edition is enrolled under that name.
    """
    from vision.read.matcher import FaceMatcher
    from vision.read.numerals import NumeralRecogniser
    from vision.read.whole_by_faces import WholeCardsByFaces

    recogniser = load_recogniser(edition)
    if isinstance(recogniser, FaceMatcher | NumeralRecogniser) or not (faces_folder(edition) / "edition.json").is_file():
        return recogniser  # read by its faces already, or by its numerals, or fitted without faces kept
    faces = load_recogniser(edition, faces=True)
    return WholeCardsByFaces(recogniser, faces) if isinstance(faces, FaceMatcher) else recogniser


def numeral_reader() -> NumeralReader | None:
    """PP-OCR's text recogniser for the distance numerals, or ``None`` where its wheel is not installed (then a
    distance card whose face is unsure stays unknown)."""
    from vision.read.numerals import NumeralReader

    try:
        return NumeralReader.shipped()
    except ModelError:
        return None


def load_fitted_recogniser(edition: str) -> Recogniser:
    """The recogniser fitted on an edition (hand-made features: shipped for the generic, ``borne enrol --fitted``
    for another; or the learned face reader's head or prototypes when enrolled with ``--reader``).

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
