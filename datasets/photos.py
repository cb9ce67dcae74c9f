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
    return card_photo_and_corners(face, seed, surface)[0]


def card_photo_and_corners(face: np.ndarray, seed: int, surface: str = "wood") -> tuple[np.ndarray, np.ndarray]:
    """:func:`card_photo`, and the card's corners in it (the face's top left first, clockwise)."""
    rng = np.random.default_rng(seed)
    cam = Camera(900, 1200, 60, 190, float(rng.uniform(15, 28)), float(rng.uniform(0, 360)),
                 float(rng.uniform(-25, 25)), (0, 0))
    hom, img = _table(cam, surface, seed)
    placed = PlacedCard(Card.ROLL, (0.0, 0.0), float(rng.normal(0, 0.15)), None)
    idbuf = np.full(img.shape[:2], -2, np.int16)
    to_photo = hom @ placed.face_to_table(face.shape[1], face.shape[0])
    _warp_card(img, idbuf, pyramid(face), to_photo, 0, 1.0, 0.3)
    h, w = face.shape[:2]
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), to_photo)[0]
    return img, corners


def _table(cam: Camera, surface: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The camera's map from table millimetres to its picture, and its picture of the bare table."""
    hom = cam.homography()
    mm = SURFACE_MM / SURFACE_PX
    s = np.array([[mm, 0, -SURFACE_MM / 2], [0, -mm, SURFACE_MM / 2], [0, 0, 1.0]])
    img = cv2.warpPerspective(np.ascontiguousarray(pooled(surface, seed % 6)), hom @ s, (cam.width, cam.height),
                              borderMode=cv2.BORDER_REFLECT)
    return hom, img


def write_photo_folder(faces: dict[str, np.ndarray], folder: Path, *, seed: int, surface: str = "wood") -> Path:
    """One JPEG photo per card id (CONTRACT §7 naming) of the given RGB faces."""
    folder.mkdir(parents=True, exist_ok=True)
    for k, (key, face) in enumerate(sorted(faces.items())):
        photo = card_photo(face, seed * 100 + k, surface)
        cv2.imwrite(str(folder / f"{key}.jpg"), photo[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder


def layout_photo(faces: list[np.ndarray], seed: int, surface: str = "wood") -> tuple[np.ndarray, list[np.ndarray]]:
    """An RGB phone photo (1600 × 1200) of the given faces laid apart on a table in rows of five, each turned a
    little and maybe upside down, shot at 10–22° from the vertical; and each face's corners in the photo
    (face order: its top left first, clockwise)."""
    rng = np.random.default_rng(seed)
    rows = -(-len(faces) // 5)
    cam = Camera(1600, 1200, 62, 700, float(rng.uniform(10, 22)), float(rng.uniform(0, 360)),
                 float(rng.uniform(-8, 8)), (0, 0))
    hom, img = _table(cam, surface, seed)
    idbuf = np.full(img.shape[:2], -2, np.int16)
    corners = []
    for k, face in enumerate(faces):
        row, col = divmod(k, 5)
        centre = ((col - 2) * 85.0 + float(rng.normal(0, 3)), ((rows - 1) / 2 - row) * 122.0 + float(rng.normal(0, 3)))
        angle = float(rng.normal(0, 0.08)) + (np.pi if rng.random() < 0.3 else 0.0)
        placed = PlacedCard(Card.ROLL, centre, angle, None)
        to_image = hom @ placed.face_to_table(face.shape[1], face.shape[0])
        _warp_card(img, idbuf, pyramid(face), to_image, k, 1.0, 0.3)
        h, w = face.shape[:2]
        rect = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
        corners.append(np.asarray(cv2.perspectiveTransform(rect, to_image)[0], np.float64))
    return img, corners


def sheet_pages(faces: list[np.ndarray], *, dpi: int = 150) -> list[np.ndarray]:
    """RGB pages of a print-and-play sheet, as a scan of it would be: the faces nine to an A4 page at true size
    (56 × 87 mm, 4 mm apart), with cut marks at their corners, as `borne cards sheet` prints them."""
    mm = dpi / 25.4
    width, height = round(210 * mm), round(297 * mm)
    cw, ch, gap, mark = round(56 * mm), round(87 * mm), round(4 * mm), round(2.5 * mm)
    x0, y0 = (width - 3 * cw - 2 * gap) // 2, (height - 3 * ch - 2 * gap) // 2
    pages = []
    for start in range(0, len(faces), 9):
        page = np.full((height, width, 3), 255, np.uint8)
        for k, face in enumerate(faces[start : start + 9]):
            x, y = x0 + (k % 3) * (cw + gap), y0 + (k // 3) * (ch + gap)
            page[y : y + ch, x : x + cw] = cv2.resize(face, (cw, ch), interpolation=cv2.INTER_AREA)
            for px, py in ((x, y), (x + cw, y), (x, y + ch), (x + cw, y + ch)):
                for sx, sy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    cv2.line(page, (px + 2 * sx, py + 2 * sy), (px + mark * sx, py + mark * sy), (0, 0, 0), 1)
        pages.append(page)
    return pages
