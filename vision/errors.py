"""Failures of the camera runtime, each a ``ValueError`` through :class:`scoring.errors.BorneError`."""

from __future__ import annotations

from scoring.errors import BorneError


class VisionError(BorneError):
    """Base class of the camera runtime's errors on bad input."""


class NotAnImageError(VisionError):
    """A file or buffer that is not a readable JPEG or PNG image (empty, truncated, another format)."""


class ImageTooLargeError(VisionError):
    """An image with more pixels than the runtime will decode."""


class LayoutError(VisionError):
    """A table layout (CONTRACT §4) that cannot be used; names the side and the field."""


class ModelError(VisionError):
    """A model file that is missing or does not have the expected inputs and outputs."""


class UnknownEditionError(VisionError):
    """An edition name that is neither built in nor enrolled."""
