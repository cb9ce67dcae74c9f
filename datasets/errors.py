"""Failures of the data engine, one class per kind, all ``ValueError`` through ``BorneError``."""

from __future__ import annotations

from scoring.errors import BorneError
from vision import errors as vision_errors


class DatasetError(BorneError):
    """Base class of every error raised by ``datasets`` (the ``borne`` command prints it as one line)."""


class UnknownEditionError(DatasetError, vision_errors.UnknownEditionError):
    """An edition name that is neither built in nor enrolled (the runtime's own error, as the data engine raises it)."""


class EditionFormatError(DatasetError):
    """An edition folder whose ``edition.json`` or face images cannot be used."""


class EnrolmentError(DatasetError):
    """An enrolment folder that cannot be turned into an edition (missing cards, no card found)."""


class CardNotFoundError(EnrolmentError):
    """No card-shaped quadrilateral was found in a photo."""


class DuplicateFaceError(EnrolmentError):
    """Two card ids were given the same face (the same picture twice, or two photos of one card)."""


class SceneSpecError(DatasetError):
    """Scene or sequence settings that cannot be rendered (bad size, count, side number)."""
