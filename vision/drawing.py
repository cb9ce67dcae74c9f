"""``borne detect --draw``: the picture with each card's box, id and side, and the zones."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.table.census import TableCensus
from vision.table.layout import TableLayout

ZONE_COLOURS = [(255, 170, 0), (0, 200, 255), (180, 0, 255), (0, 220, 120), (255, 80, 80), (120, 120, 255)]


def draw_census(image: NDArray[np.uint8], census: TableCensus, layout: TableLayout, path: str) -> None:
    """Write a copy of ``image`` with the zones, the boxes and the ids drawn on it."""
    out = annotate(image, census, layout)
    if not cv2.imwrite(path, out):
        from vision.errors import VisionError

        raise VisionError(f"{path}: cannot write the picture (use a .jpg or .png name in a folder that exists)")


def census_jpeg(image: NDArray[np.uint8], census: TableCensus, layout: TableLayout, *, quality: int = 80,
                max_width: int | None = 960) -> bytes:
    """The annotated picture as JPEG bytes (the display's camera panel), scaled down to ``max_width``."""
    out = annotate(image, census, layout)
    if max_width is not None and out.shape[1] > max_width:
        scale = max_width / out.shape[1]
        out = cv2.resize(out, (max_width, round(out.shape[0] * scale)), interpolation=cv2.INTER_AREA)  # type: ignore[assignment]
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        from vision.errors import VisionError

        raise VisionError("cannot encode the picture as JPEG")
    return bytes(data.tobytes())


def annotate(image: NDArray[np.uint8], census: TableCensus, layout: TableLayout) -> NDArray[np.uint8]:
    """A copy of ``image`` with the zones, the boxes and the ids drawn on it."""
    out = image.copy()
    for k, zone in enumerate(layout.sides):
        colour = ZONE_COLOURS[k % len(ZONE_COLOURS)]
        cv2.polylines(out, [np.round(zone.zone).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        x, y = np.round(zone.zone.min(axis=0)).astype(int)
        cv2.putText(out, zone.side, (x + 6, y + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2, cv2.LINE_AA)
    for k, side in enumerate(census.sides):
        colour = ZONE_COLOURS[k % len(ZONE_COLOURS)]
        for placed in side.cards:
            s = placed.sighting
            cv2.polylines(out, [np.round(s.corners).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
            label = (s.card.value if s.card else "?").replace("distance_", "") + (" ⟂" if placed.sideways else "")
            x, y = np.round(s.corners.min(axis=0)).astype(int)
            cv2.putText(out, label.replace(" ⟂", " X"), (x, max(y - 2, 10)), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                        colour, 1, cv2.LINE_AA)
    for s in census.unassigned:
        cv2.polylines(out, [np.round(s.corners).astype(np.int32)], True, (200, 200, 200), 1, cv2.LINE_AA)
    return out
