"""Phone photos of single cards, made with the scene engine: the input `borne enrol` expects."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.arrangement import PlacedCard
from datasets.camera import Camera
from datasets.faces import pyramid
from datasets.scene import _warp_card
from datasets.textures import SURFACE_MM, SURFACE_PX, pooled
from scoring.cards import Card


def card_photo(face: np.ndarray, seed: int, surface: str = "wood") -> np.ndarray:
    """An RGB phone photo (900 × 1200) of one card face at 15–28° tilt on a textured table."""
    rng = np.random.default_rng(seed)
    cam = Camera(900, 1200, 60, 190, float(rng.uniform(15, 28)), float(rng.uniform(0, 360)),
                 float(rng.uniform(-25, 25)), (0, 0))
    hom = cam.homography()
    mm = SURFACE_MM / SURFACE_PX
    s = np.array([[mm, 0, -SURFACE_MM / 2], [0, -mm, SURFACE_MM / 2], [0, 0, 1.0]])
    img = cv2.warpPerspective(np.ascontiguousarray(pooled(surface, seed % 6)), hom @ s, (900, 1200),
                              borderMode=cv2.BORDER_REFLECT)
    placed = PlacedCard(Card.ROLL, (0.0, 0.0), float(rng.normal(0, 0.15)), None)
    idbuf = np.full(img.shape[:2], -2, np.int16)
    _warp_card(img, idbuf, pyramid(face), hom @ placed.face_to_table(face.shape[1], face.shape[0]), 0, 1.0, 0.3)
    return img


def write_photo_folder(faces: dict[str, np.ndarray], folder: Path, *, seed: int, surface: str = "wood") -> Path:
    """One JPEG photo per card id (CONTRACT §7 naming) of the given RGB faces."""
    folder.mkdir(parents=True, exist_ok=True)
    for k, (key, face) in enumerate(sorted(faces.items())):
        photo = card_photo(face, seed * 100 + k, surface)
        cv2.imwrite(str(folder / f"{key}.jpg"), photo[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder
