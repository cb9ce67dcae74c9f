"""Cut a rendered data set into the square tiles the detector sees at run time, labels clipped to each tile."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import intersection_area, polygon_area
from vision.read.tiling import tile_windows

MIN_KEPT_SHARE = 0.6
"""A box cut by the tile's edge keeps its label when this share of it is inside (else it is dropped)."""
MIN_SHORT_SIDE_PX = 5.0
"""Boxes thinner than this (the sliver of a card peeking out of a pile) are not labelled: nothing to find."""

PHOTO_VAL_EVERY = 20
"""Every this-many-th photo-real scene of a folder (in name order: scenes 19, 39, …) is never trained on, by the
detector nor the recogniser, so that those scenes can judge both."""


def is_photo_validation(index: int, every: int = PHOTO_VAL_EVERY) -> bool:
    """Whether the scene at ``index`` (0-based, name order) of a photo-real folder is kept for validation.

    >>> [k for k in range(60) if is_photo_validation(k)]
    [19, 39, 59]
    """
    return index % every == every - 1


def tile_labels(lines: list[str], width: int, height: int, x0: int, y0: int, size: int) -> list[str]:
    """OBB label lines of a whole image, clipped to one tile and normalised to it."""
    square = np.array([[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size]], dtype=np.float64)
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) != 9:
            continue
        cls = parts[0]
        quad = np.array([float(v) for v in parts[1:]]).reshape(4, 2) * [width, height]
        area = polygon_area(quad)
        if area <= 0 or min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])) < MIN_SHORT_SIDE_PX:
            continue
        inside = intersection_area(quad, square)
        if inside / area < MIN_KEPT_SHARE:
            continue
        if inside / area < 0.999:
            _, clipped = cv2.intersectConvexConvex(quad.astype(np.float32), square.astype(np.float32))
            quad = cv2.boxPoints(cv2.minAreaRect(clipped.reshape(-1, 2))).astype(np.float64)
        norm = np.clip((quad - [x0, y0]) / size, 0, 1)
        out.append(f"{cls} " + " ".join(f"{x:.6f} {y:.6f}" for x, y in norm))
    return out


def tile_split(
    src: Path, dst: Path, *, tile_share: float = 1.0, only: str | None = None,
    relabel: Callable[[str], str] | None = None, suffix: str = "",
) -> int:
    """Tile every image of ``src/images`` (labels in ``src/labels``) into ``dst``; returns the tiles written.

    ``only`` tiles one image (by stem); ``relabel`` maps each label's class; ``suffix`` tells apart the
    tiles of one image cut at several sizes.
    """
    (dst / "images").mkdir(parents=True, exist_ok=True)
    (dst / "labels").mkdir(parents=True, exist_ok=True)
    written = 0
    for image_path in sorted((src / "images").glob(f"{only or '*'}.jpg")):
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]  # type: ignore[union-attr]
        label_path = src / "labels" / f"{image_path.stem}.txt"
        lines = label_path.read_text().splitlines() if label_path.exists() else []
        for k, win in enumerate(tile_windows(w, h, tile_share=tile_share)):
            name = f"{image_path.stem}{suffix}_{k}"
            crop = image[win.y : win.y + win.size, win.x : win.x + win.size]  # type: ignore[index]
            cv2.imwrite(str(dst / "images" / f"{name}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
            labels = tile_labels(lines, w, h, win.x, win.y, win.size)
            if relabel is not None:
                labels = [" ".join([relabel(line.split(" ", 1)[0]), line.split(" ", 1)[1]]) for line in labels]
            (dst / "labels" / f"{name}.txt").write_text("".join(line + "\n" for line in labels))
            written += 1
    return written
