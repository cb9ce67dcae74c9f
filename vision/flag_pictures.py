"""A small picture of the moment each flag names — the frame it was raised in, cropped around the card, the card
outlined — so that the table sees what the camera doubts and confirms or corrects in one tap.

Memory stays bounded: a picture is a few kilobytes (:data:`PICTURE_WIDTH` pixels wide), a hand keeps at most
:data:`PICTURES_PER_HAND`, and only the latest :data:`HANDS_KEPT` hands keep theirs.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.table.census import TableCensus
from vision.table.layout import TableLayout
from vision.track.state import Flag

PICTURE_WIDTH = 240
"""A picture's width in pixels: a thumbnail beside the flag's sentence (a phone's column is about 360)."""
PICTURES_PER_HAND = 6
"""Flags of one hand past this many have no picture (a hand with that many doubts is corrected, not looked at)."""
HANDS_KEPT = 3
"""Pictures are kept for this many hands, the latest: the pending one, a held one, the one in play."""
AROUND_CARD = 3.0
"""The picture shows this many card lengths around the card: its column and its neighbours, not the whole table."""
JPEG_QUALITY = 75
OUTLINE = (0, 215, 255)
"""The outline's colour (BGR): amber, seen on green felt, wood and white cards alike."""
CARD_LENGTH_UNKNOWN_PX = 80.0


def flag_key(hand: int, flag: Flag, index: int) -> str:
    """The picture's name: the hand's number, the flag's frame and its place among the hand's flags."""
    return f"{hand}-{flag.frame}-{index}"


def flag_picture(image: NDArray[np.uint8], census: TableCensus, layout: TableLayout, flag: Flag) -> bytes:
    """The JPEG of ``image`` (the frame the flag names) around the flagged card, outlined; around the side's
    zone for a flag of a side without a card; the whole frame for a flag of the whole hand."""
    out = image.copy()
    h, w = out.shape[:2]
    outline = _card_outline(census, flag)
    if outline is None and flag.where is not None:
        x, y = flag.where
        half = CARD_LENGTH_UNKNOWN_PX / 2
        outline = np.array([[x - half * 0.64, y], [x + half * 0.64, y], [x + half * 0.64, y + 2 * half],
                            [x - half * 0.64, y + 2 * half]])
    if outline is not None:
        length = float(max(np.ptp(outline[:, 0]), np.ptp(outline[:, 1]), 1.0))
        cv2.polylines(out, [np.round(outline).astype(np.int32)], True, OUTLINE, max(2, round(length / 30)), cv2.LINE_AA)
        cx, cy = outline.mean(axis=0)
        half = AROUND_CARD * length / 2
        box = (cx - half, cy - half, cx + half, cy + half)
    elif flag.side is not None and flag.side in {s.side for s in layout.sides}:
        zone = layout.zone_of(flag.side).zone
        cv2.polylines(out, [np.round(zone).astype(np.int32)], True, OUTLINE, 3, cv2.LINE_AA)
        (x0, y0), (x1, y1) = zone.min(axis=0), zone.max(axis=0)
        box = (x0 - 10, y0 - 10, x1 + 10, y1 + 10)
    else:
        box = (0, 0, w, h)
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    crop = out[y0:y1, x0:x1] if x1 > x0 and y1 > y0 else out
    scale = PICTURE_WIDTH / crop.shape[1]
    small = cv2.resize(crop, (PICTURE_WIDTH, max(1, round(crop.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        from vision.errors import VisionError

        raise VisionError("cannot encode a flag's picture as JPEG")
    return bytes(data.tobytes())


def _card_outline(census: TableCensus, flag: Flag) -> NDArray[np.float64] | None:
    """The corners of the sighting of the flagged card nearest to where the flag says it lies."""
    if flag.side is None or flag.card is None:
        return None
    side = next((s for s in census.sides if s.side == flag.side), None)
    corners = [np.asarray(p.sighting.corners, dtype=np.float64) for p in (side.cards if side is not None else ())
               if p.sighting.card is flag.card]
    if not corners:
        return None
    if flag.where is None:
        return corners[0]
    where = np.asarray(flag.where, dtype=np.float64)
    return min(corners, key=lambda c: float(np.min(np.linalg.norm(c - where, axis=1))))


class FlagPictures:
    """The pictures of the latest hands' flags, by :func:`flag_key`; written by the pipeline's thread, read by
    the display's requests."""

    def __init__(self) -> None:
        self._pictures: OrderedDict[str, bytes] = OrderedDict()
        self._hands: dict[str, int] = {}
        self._lock = threading.Lock()

    def keep(self, hand: int, key: str, jpeg: bytes) -> bool:
        """Keep ``jpeg`` as ``key`` of ``hand``; ``False`` when that hand has its :data:`PICTURES_PER_HAND`."""
        with self._lock:
            if sum(1 for n in self._hands.values() if n == hand) >= PICTURES_PER_HAND:
                return False
            self._pictures[key], self._hands[key] = jpeg, hand
            hands = sorted(set(self._hands.values()))
            for old in hands[:-HANDS_KEPT]:
                for k in [k for k, n in self._hands.items() if n == old]:
                    del self._pictures[k], self._hands[k]
            return True

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._pictures.get(key)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._pictures

    def __len__(self) -> int:
        with self._lock:
            return len(self._pictures)
