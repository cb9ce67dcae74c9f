"""Enrolment import: one photo or scan per card id (CONTRACT §7 names) → a straightened edition.

The card is found as the largest card-shaped quadrilateral in the photo (edges, then
contours), then warped to the canonical face size, its long side upright.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.art import FACE_SIZE
from datasets.edition import BACK, FACE_KEYS, Edition, check_name, data_dir, read_rgb, write_edition
from datasets.errors import CardNotFoundError, DuplicateFaceError, EnrolmentError
from vision.geometry import lines_met
from vision.read.editions import GENERIC, RESERVED

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
CARD_ASPECT = 87.0 / 56.0


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left with the long side vertical."""
    q = quad.reshape(4, 2).astype(np.float64)
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise in image coordinates, starting anywhere
    start = int(np.argmin(q.sum(axis=1)))
    q = np.roll(q, -start, axis=0)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[3] - q[0]):  # long side horizontal: turn a quarter
        q = np.roll(q, -1, axis=0)
    return q


def find_card(image: np.ndarray) -> np.ndarray:
    """The four corners (image pixels, face order) of the card in an RGB photo.

    :raises CardNotFoundError: nothing card-shaped covering at least 1 % of the picture.
    """
    cards, scale = card_candidates(image, min_share=0.01, work_px=800)
    if not cards:
        raise CardNotFoundError("no card found in the picture (photograph it whole, on a contrasting background)")
    return _outer_frame(cards) / scale


def card_candidates(image: np.ndarray, *, min_share: float, work_px: int) -> tuple[list[tuple[float, float, np.ndarray]], float]:
    """Every card-shaped quadrilateral of an RGB photo covering at least ``min_share`` of it, found on a copy
    at most ``work_px`` pixels across: ``(score, edge contrast, corners)`` in that copy's pixels, and its scale."""
    h, w = image.shape[:2]
    scale = work_px / max(h, w) if max(h, w) > work_px else 1.0
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    cards: list[tuple[float, float, np.ndarray]] = []
    min_area = min_share * small.shape[0] * small.shape[1]
    candidates = []  # type: ignore[var-annotated]
    for lo, hi in ((30, 90), (50, 150), (80, 200)):
        edges = cv2.dilate(cv2.Canny(gray, lo, hi), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        candidates += contours
    _, otsu = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # pixels unlike the picture's border (the table), cleaned of thin seams and grain
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]]).astype(np.float32)
    dist = np.linalg.norm(small.astype(np.float32) - np.median(border, axis=0), axis=2)
    unlike = (dist > max(40.0, float(np.percentile(np.linalg.norm(border - np.median(border, axis=0), axis=1), 95)))).astype(np.uint8) * 255
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    masks = [otsu, 255 - otsu]
    # several openings: a small one keeps a small card whole, a large one cuts a card loose
    # from a dark seam or shadow that touches it (the seam is thinner than the card is wide)
    for k in (7, 15, 27):
        masks.append(cv2.morphologyEx(unlike, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))))
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        candidates += contours
    for cnt in candidates:
        area = cv2.contourArea(cnt)
        if area < min_area or area > 0.97 * small.shape[0] * small.shape[1]:
            continue
        hull = cv2.convexHull(cnt)
        if area < 0.9 * cv2.contourArea(hull):  # a card is convex; a card joined to a seam or shadow is not
            continue
        quad = _quad_of(hull)
        if quad is None:
            rect = cv2.minAreaRect(hull)
            quad = cv2.boxPoints(rect)
            fill = area / max(rect[1][0] * rect[1][1], 1)
            if fill < 0.9:
                continue
        else:
            quad = _fit_sides(cnt.reshape(-1, 2).astype(np.float64), quad)
            if quad is None:
                continue
        q = order_corners(np.asarray(quad, np.float64))
        side_w = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
        side_h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        aspect = side_h / max(side_w, 1)  # type: ignore[operator]
        if not 1.2 < aspect < 2.0:
            continue
        contrast = _edge_contrast(small, q)
        score = np.sqrt(cv2.contourArea(q.astype(np.float32))) * contrast * (1 - min(abs(aspect - CARD_ASPECT), 0.5))
        if score > 0:
            cards.append((float(score), contrast, q))
    return cards, scale


SCAN_ASPECT = (1.25, 1.85)
"""Pictures with sides in this ratio may be scans of a card filling them: a card is 87:56 (1.55), and
publishers' picture files are often cut a little wider (208 × 288, 300 × 410: 1.37–1.39)."""
SCAN_FILL = 0.8
"""In such a picture, a card found covering at least this share of it is a frame printed on the card."""
SCAN_MAX_SIDE = 720
SCAN_PART = 0.25
"""A card-shaped picture no longer than :data:`SCAN_MAX_SIDE` in which the card found covers less than
this share is a scan whose numeral or picture box was taken for a card: a phone photo is larger, and a
card in it at the distance a photo is taken covers 5–60 % of it."""


def looks_like_scan(image: np.ndarray) -> bool:
    """Whether a picture is a scan or picture file of a card filling it, rather than a photo holding one."""
    h, w = image.shape[:2]
    if not SCAN_ASPECT[0] <= max(h, w) / max(min(h, w), 1) <= SCAN_ASPECT[1]:
        return False
    try:
        found = find_card(image)
    except CardNotFoundError:
        return True
    share = cv2.contourArea(found.astype(np.float32)) / (h * w)
    return bool(share >= SCAN_FILL or (max(h, w) <= SCAN_MAX_SIDE and share < SCAN_PART))


def locate_card(image: np.ndarray, *, scan: bool | None = None) -> np.ndarray:
    """The card's corners in an RGB photo or scan (face order, long side upright).

    A plain scan or picture file of a card fills the image, white or rounded corners and all: its card is
    the whole picture. ``scan`` says which the picture is; ``None``: :func:`looks_like_scan` decides.

    :raises CardNotFoundError: no card in a photo.
    """
    h, w = image.shape[:2]
    if scan if scan is not None else looks_like_scan(image):
        return order_corners(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    return find_card(image)


NESTED_AREA = 2.0
"""A frame printed inside a card, or a part of its face (the body under a header band), is less than this much
smaller than the card's edge (`midcard`'s 200 photographed on a dark table: its body's frame 1.8 times)."""
SHARED_EDGE = 0.02
"""A quadrilateral lies inside another when none of its corners lies further outside it than this share of its
own size (a part of the card, its body under a header band, shares the card's edges)."""


def _outer_frame(cards: list[tuple[float, float, np.ndarray]]) -> np.ndarray:
    """The best-scoring quadrilateral, or the card's edge round it when the best one is a frame printed
    inside the card (a border line can stand out more against the face than the card against the table),
    or a part of the card that shares its edges (the white body of a card whose dark header band merges
    with a dark table)."""
    score, contrast, best = max(cards, key=lambda c: c[0])
    area = cv2.contourArea(best.astype(np.float32))
    outer, outer_area = best, area
    slack = SHARED_EDGE * float(np.sqrt(area))
    for _, other_contrast, q in cards:
        polygon = q.astype(np.float32).reshape(-1, 1, 2)
        q_area = cv2.contourArea(polygon)
        if not outer_area < q_area <= NESTED_AREA * area or other_contrast < 0.4 * contrast:
            continue
        if all(cv2.pointPolygonTest(polygon, (float(x), float(y)), True) > -slack for x, y in best):
            outer, outer_area = q, q_area
    return outer


def _quad_of(hull: np.ndarray) -> np.ndarray | None:
    """Four corners approximating a convex hull (rounded corners cut), or ``None``."""
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.015, 0.025, 0.04, 0.06):
        quad = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(quad) == 4:
            return quad.reshape(4, 2).astype(np.float64)
        if len(quad) < 4:
            return None
    return None


def _fit_sides(points: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Refine a rough quadrilateral: a line fitted to the contour points along each side (away
    from the rounded corners), corners where neighbouring lines meet. Keeps perspective."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4:
            return None
        d /= length
        rel = points - a
        t = rel @ d
        off = np.abs(rel @ np.array([-d[1], d[0]]))
        near = points[(t > 0.15 * length) & (t < 0.85 * length) & (off < max(2.0, 0.04 * length))]
        if len(near) < 5:
            lines.append((a, d))
            continue
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    res = lines_met(lines)
    if res is None:
        return None
    if np.linalg.norm(res - quad, axis=1).max() > 0.25 * cv2.arcLength(quad.astype(np.float32).reshape(-1, 1, 2), True) / 4:
        return None  # the lines went astray
    return res


def _edge_contrast(image: np.ndarray, quad: np.ndarray) -> float:
    """Colour difference just inside versus just outside the quadrilateral's edges.

    A card differs from the table around it; a patch of table bounded by seams does not.
    """
    c = quad.mean(axis=0)
    h, w = image.shape[:2]

    def ring(f: float) -> np.ndarray:
        pts = c + (quad - c) * f
        t = np.linspace(0, 1, 24, endpoint=False)[:, None]
        samples = np.concatenate([pts[i] + (pts[(i + 1) % 4] - pts[i]) * t for i in range(4)])
        xy = np.clip(np.round(samples).astype(int), 0, [w - 1, h - 1])
        return image[xy[:, 1], xy[:, 0]].astype(np.float32)

    inner, outer = ring(0.95), ring(1.05)
    return float(np.linalg.norm(inner - outer, axis=1).mean())


def straighten(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """Warp the card inside ``corners`` to an upright face of ``size`` (width, height)."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA if image.shape[0] > 2 * h else cv2.INTER_LINEAR)


PAPER_PERCENTILE = 90


def even_out(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The straightened faces of one deck brought to one paper colour.

    Each photo has its own light, so the same card stock comes out a little brighter or yellower in
    one than in another; left so, those differences name the cards better than their prints do. The faces
    keep their whole card, edge to edge: a card on the table is matched against them cut along its own edge,
    and a face cut 2 % inside its edge (as it was for the recogniser fitted at enrolment until 2026-12-06) is
    zoomed 4 %, which moves small print by several pixels at the closer look's size (the retro deck enrolled
    from photos: its remedies, told apart by their names, read 2 of 19 so, 19 of 19 edge to edge).
    """
    paper = {key: np.percentile(face.reshape(-1, 3), PAPER_PERCENTILE, axis=0) for key, face in faces.items()}
    common = np.median(np.array(list(paper.values())), axis=0)
    return {
        key: np.clip(face.astype(np.float32) * (common / np.maximum(paper[key], 1.0)), 0, 255).astype(np.uint8)
        for key, face in faces.items()
    }


def enrolment_name(name: str) -> str:
    """A name an edition may be enrolled under.

    :raises EnrolmentError: Borne's own names (``generic``, ``unknown``) or one that could not be a folder's.
    """
    name = check_name(name)
    if name in (GENERIC, *RESERVED):
        what = "its built-in edition" if name == GENERIC else "a deck nobody enrolled"
        raise EnrolmentError(f"{name!r} is Borne's own name for {what}: give the edition another name")
    return name


def enrol_folder(
    folder: Path, name: str, *, out_root: Path | None = None, progress: Callable[[str], None] | None = None
) -> Edition:
    """Read ``<card id>.<ext>`` photos from a folder, straighten each card, save edition ``name``.

    :raises EnrolmentError: the folder is missing, a card id has no photo, or a photo holds no card.
    """
    name = enrolment_name(name)
    if not folder.is_dir():
        raise EnrolmentError(f"{folder}: not a folder")
    photos = {p.stem: p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
    missing = [k for k in FACE_KEYS if k != BACK and k not in photos]
    if missing:
        raise EnrolmentError(f"{folder}: no photo for {', '.join(missing)} (files are named by card id, e.g. distance_25.jpg)")
    pictures = {key: read_rgb(photos[key]) for key in FACE_KEYS if key in photos}
    # One folder holds one kind of picture: scans, or photos. Most of them say which.
    scans = sum(looks_like_scan(image) for image in pictures.values()) * 2 >= len(pictures)
    faces: dict[str, np.ndarray] = {}
    for key, image in pictures.items():
        try:
            faces[key] = straighten(image, locate_card(image, scan=scans))
        except CardNotFoundError as e:
            raise CardNotFoundError(f"{photos[key].name}: {e}") from None
        if progress:
            progress(key)
    faces = even_out(faces)
    for a, b in same_faces(faces):
        raise DuplicateFaceError(f"{photos[a].name} and {photos[b].name} show the same face: each card id needs "
                                 "a picture of its own card")
    root = out_root if out_root is not None else data_dir() / "editions"
    return write_edition(root / name, name, faces, source=f"enrolled from {folder.name}")


SAME_FACE_DIFFERENCE = 20.0
"""Two straightened faces whose softened Lab colours (200 px wide) differ by less than this (Lab distance)
everywhere are one picture given twice (copied, or saved again as JPEG, even at quality 50: 5.4). Cards told apart
by small print are look-alikes, not duplicates: a milestone mark 5 % of the card's width in one corner differs by
44, `corner`'s corner digit by 64 (the grey levels this compared until 2026-12-07 saw the mark as 5: a deck whose
100 and 200 differ by a coloured corner mark was refused). Two photos of one card differ more than that; those are
left to the reader's look-alike warning."""


def _softened_lab(face: np.ndarray) -> np.ndarray:
    small = cv2.resize(face, (200, 311), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32), (0, 0), 1.5))


def same_faces(faces: dict[str, np.ndarray]) -> list[tuple[str, str]]:
    """Pairs of card ids (not the back) given the same picture."""
    keys = [k for k in faces if k != BACK]
    lab = {k: _softened_lab(faces[k]) for k in keys}
    pairs = []
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if float(np.linalg.norm(lab[a] - lab[b], axis=2).max()) < SAME_FACE_DIFFERENCE:
                pairs.append((a, b))
    return pairs
