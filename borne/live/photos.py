"""The display's photo counter: ``POST /api/photos`` counted by :class:`vision.photo.PhotoCounter`.

The web layer imports no vision code; ``borne serve`` and ``borne run`` give it this function, which turns
the runtime's refusals into the HTTP statuses of CONTRACT §9.
"""

from __future__ import annotations

from typing import Any

from scoring.web.photos import PhotoCounter, PhotoRefusedError


def display_photo_counter(edition: str = "generic") -> PhotoCounter:
    """A :class:`scoring.web.photos.PhotoCounter` reading ``edition`` (its models load at the first photo)."""
    from vision.errors import ImageTooLargeError, NotAnImageError
    from vision.image import decode_image
    from vision.photo import PhotoCounter as Counter

    counter = Counter(edition)

    def count(photo: bytes) -> dict[str, Any]:
        try:
            image = decode_image(photo, name="the photo")
        except ImageTooLargeError as e:
            raise PhotoRefusedError(413, str(e)) from None
        except NotAnImageError as e:
            raise PhotoRefusedError(415, f"{e}: send the photo as the camera took it, JPEG or PNG "
                                         "(a phone set to HEIF: choose 'Most compatible')") from None
        counted = counter.count(image)
        if counted.cards == 0:
            raise PhotoRefusedError(422, "no card found in the photo: take it from above the table, with every "
                                         "side's cards in the picture")
        return {**counted.to_json(), "width": counted.width, "height": counted.height}

    return count
