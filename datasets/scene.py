"""Scene synthesis: a table state seen by a camera above it, with exact per-card visibility.

Everything is drawn straight into camera pixels: the table surface by one homography warp,
each card by a warp of a small region of interest, so a 1280×720 scene takes tens of
milliseconds. An id buffer records which card (or occluder) owns every pixel; visible
fractions and the boxes of the visible parts come from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.arrangement import Arrangement, PlacedCard, arrange, place_key
from datasets.camera import Camera, project, sample_camera
from datasets.edition import Edition, load_edition
from datasets.errors import SceneSpecError
from datasets.faces import Levels, edition_levels, pyramid, random_face
from datasets.occluders import paint_arm, paint_distractor
from datasets.table import TableState
from datasets.textures import KINDS, SURFACE_MM, SURFACE_PX, sample_surface
from scoring.cards import HAZARDS

EMPTY = -2
"""Id-buffer value of bare table."""


@dataclass(frozen=True)
class SceneSpec:
    """What to render. Probabilities are per scene."""

    width: int = 1280
    height: int = 720
    edition: str = "generic"
    random_faces: float = 0.0
    """Share of cards drawn with random card-like art instead of the edition's face."""
    surfaces: tuple[str, ...] = KINDS
    surface_folder: Path | None = None
    """A folder of photos used as table surfaces half of the time."""
    hands: float = 0.45
    """Chance of a hand and forearm reaching over the table."""
    distractors: float = 0.6
    """Chance of objects (cups, phones, coins, score pads) on the table."""
    effects: bool = True
    """Lighting, glare, blur, noise and JPEG artefacts."""

    def check(self) -> None:
        """:raises SceneSpecError: for sizes outside 64–4096 pixels or a bad share."""
        if not (64 <= self.width <= 4096 and 64 <= self.height <= 4096):
            raise SceneSpecError(f"image size {self.width}×{self.height} is outside 64–4096 pixels")
        if not 0 <= self.random_faces <= 1:
            raise SceneSpecError(f"random_faces is a share between 0 and 1, not {self.random_faces}")


@dataclass
class CardView:
    """One card as the camera sees it."""

    placed: PlacedCard
    corners: np.ndarray
    """Image pixels, face order: top-left, top-right, bottom-right, bottom-left."""
    visible: float
    """Share of the card's face that is visible in the image (0–1), from the id buffer."""
    visible_corners: np.ndarray | None
    """The card-aligned box around the visible part (face order), or ``None`` when hidden."""
    random_face: bool = False


@dataclass
class Scene:
    image: np.ndarray
    """RGB ``uint8``."""
    camera: Camera
    table: TableState
    arrangement: Arrangement
    views: list[CardView]
    homography: np.ndarray
    """Table millimetres → image pixels."""
    idbuf: np.ndarray = field(repr=False)
    """Per pixel: index into ``views``, :data:`OCCLUDER` or :data:`EMPTY` (before blur and noise)."""
    surface: str = ""


def choose_level(levels: Levels, width_px: float) -> int:
    """The smallest mip level still at least as wide as the card will appear."""
    k = 0
    while k + 1 < len(levels) and levels[k + 1].shape[1] >= width_px:
        k += 1
    return k


def _warp_card(
    img: np.ndarray, idbuf: np.ndarray, levels: Levels, h_face0: np.ndarray, index: int, tint: float, shadow: float
) -> tuple[int, bool, np.ndarray]:
    """Composite one card; returns (its mask pixel count, whether the ROI was clipped, its corners)."""
    H, W = img.shape[:2]
    fh0, fw0 = levels[0].shape[:2]
    corners = project(h_face0, np.array([[0, 0], [fw0, 0], [fw0, fh0], [0, fh0]], float))
    width_px = float(np.linalg.norm(corners[1] - corners[0]))
    k = choose_level(levels, width_px)
    lv = levels[k]
    scale = np.diag([fw0 / lv.shape[1], fh0 / lv.shape[0], 1.0])
    lo = np.floor(corners.min(axis=0)).astype(int) - 3
    hi = np.ceil(corners.max(axis=0)).astype(int) + 4
    clipped = bool(lo[0] < 0 or lo[1] < 0 or hi[0] > W or hi[1] > H)
    x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
    x1, y1 = min(int(hi[0]), W), min(int(hi[1]), H)
    if x1 <= x0 or y1 <= y0:
        return 0, True, corners
    t = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    m = t @ h_face0 @ scale
    warped = cv2.warpPerspective(lv, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = warped[..., 3].astype(np.float32) * (1 / 255.0)
    roi = img[y0:y1, x0:x1]
    if shadow > 0:
        soft = cv2.GaussianBlur(alpha, (0, 0), 1.2)
        soft = np.roll(soft, (1, 1), axis=(0, 1))
        roi[:] = (roi * (1 - shadow * soft)[..., None]).astype(np.uint8)
    a = alpha[..., None]
    # clip before the cast: a bright face times a tint above 1 would wrap round (white → cyan or blue)
    roi[:] = np.minimum(roi * (1 - a) + warped[..., :3] * (a * tint), 255).astype(np.uint8)
    inside = alpha > 0.5
    idbuf[y0:y1, x0:x1][inside] = index
    return int(inside.sum()), clipped, corners


def visible_box(idbuf: np.ndarray, index: int, corners: np.ndarray, h_face0: np.ndarray, face_wh: tuple[int, int]) -> np.ndarray | None:
    """The card-aligned box round the main visible part of a card (face order), ``None`` when hidden.

    Slivers (a lower card of a column peeking out by a pixel along the sides of the card above it)
    are left out: the box spans the rows, then the columns, of the face where at least
    :data:`MIN_BAND_COVERAGE` of the face shows, in their longest unbroken run. For the lower card
    of a column that is its top strip, which is what a detector should box and a recogniser read.
    """
    lo = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 3, 0)
    hi = np.ceil(corners.max(axis=0)).astype(int) + 4
    sub = idbuf[lo[1] : hi[1], lo[0] : hi[0]]
    ys, xs = np.nonzero(sub == index)
    if len(xs) == 0:
        return None
    pts = np.column_stack([xs + lo[0] + 0.5, ys + lo[1] + 0.5])
    uv = project(np.linalg.inv(h_face0), pts)
    fw, fh = face_wh
    card_px = max(float(cv2.contourArea(corners.astype(np.float32))), 1.0)
    v0, v1 = _main_run(uv[:, 1], fh, card_px, bins=32)
    band = (uv[:, 1] >= v0) & (uv[:, 1] <= v1)
    u0, u1 = _main_run(uv[band, 0], fw, card_px * (v1 - v0) / fh, bins=16)
    return project(h_face0, np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]]))


MIN_BAND_COVERAGE = 0.3
"""A row (or column) band of the face counts as visible when this share of it shows."""


def _main_run(values: np.ndarray, length: float, full_px: float, *, bins: int) -> tuple[float, float]:
    """Bounds along one face axis of the longest run of bands that are mostly visible."""
    if len(values) == 0:
        return 0.0, float(length)
    counts, _ = np.histogram(values, bins=bins, range=(0, length))
    shown = counts >= MIN_BAND_COVERAGE * full_px / bins
    if not shown.any():
        return float(np.clip(values.min(), 0, length)), float(np.clip(values.max(), 0, length))
    best, start = (0, 0), None
    for k, on in enumerate(np.append(shown, False)):
        if on and start is None:
            start = k
        elif not on and start is not None:
            if k - start > best[1] - best[0]:
                best = (start, k)
            start = None
    step = length / bins
    lo_edge, hi_edge = (best[0] - 1) * step, (best[1] + 1) * step
    inside = values[(values >= lo_edge) & (values <= hi_edge)]
    if len(inside) == 0:  # a pixel or two just outside the face (its anti-aliased rim) on a tiny card
        inside = values
    return float(np.clip(inside.min(), 0, length)), float(np.clip(inside.max(), 0, length))


class SceneRenderer:
    """Renders table states for one :class:`SceneSpec`; faces are cached across scenes."""

    def __init__(self, spec: SceneSpec = SceneSpec()) -> None:
        spec.check()
        self.spec = spec
        self.edition: Edition = load_edition(spec.edition)
        self._generic: Edition | None = None

    def levels(self, card: PlacedCard) -> Levels:
        return edition_levels(self.edition, card.card)

    def render(
        self,
        table: TableState,
        rng: np.random.Generator,
        *,
        camera: Camera | None = None,
        arrangement: Arrangement | None = None,
        surface: tuple[str, np.ndarray] | None = None,
        arms: list[tuple[np.ndarray, np.ndarray]] | list[tuple[np.ndarray, np.ndarray, int]] | None = None,
        distractors: list[np.ndarray] | None = None,
        light: dict[str, float] | None = None,
        objects_seed: int | None = None,
    ) -> Scene:
        """One image of a table state. Fixed parts (camera, arrangement, surface, arms as
        (fingertip px, reach direction px), distractor positions in mm, light) can be given, as
        a sequence does, optionally with a seed for the arm's looks, and ``objects_seed`` for the looks of what
        lies on the table, the same every frame of a filmed hand (a glass stays a glass, a card keeps its paper's
        shade); what is not given is drawn from ``rng``."""
        spec = self.spec
        W, H = spec.width, spec.height
        arr = arrangement if arrangement is not None else arrange(table, rng)
        cam = camera if camera is not None else sample_camera(rng, W, H, arr.extent())
        hom = cam.homography()
        kind, tex = surface if surface is not None else sample_surface(rng, spec.surfaces, spec.surface_folder)
        mm_per_px = SURFACE_MM / SURFACE_PX
        s = np.array([[mm_per_px, 0, -SURFACE_MM / 2], [0, -mm_per_px, SURFACE_MM / 2], [0, 0, 1.0]])
        img = cv2.warpPerspective(tex, hom @ s, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        idbuf = np.full((H, W), EMPTY, np.int16)
        views: list[CardView] = []
        areas: list[int] = []
        homs: list[np.ndarray] = []
        sizes: list[tuple[int, int]] = []
        for i, placed in enumerate(arr.cards):
            use_random = spec.random_faces > 0 and rng.random() < spec.random_faces
            levels = pyramid(random_face(rng)) if use_random else self.levels(placed)
            fh0, fw0 = levels[0].shape[:2]
            h_face0 = hom @ placed.face_to_table(fw0, fh0)
            tint = float(rng.uniform(0.88, 1.04))
            if objects_seed is not None:  # a filmed hand: each card keeps its paper's shade from frame to frame
                tint = float(np.random.default_rng([objects_seed, place_key(placed)]).uniform(0.88, 1.04))
            shadow = 0.35 if placed.pile in ("distance", "battle", "speed", "discard", "draw") else 0.25
            n, clipped, corners = _warp_card(img, idbuf, levels, h_face0, i, tint, shadow)
            if clipped:
                n = int(abs(cv2.contourArea(corners.astype(np.float32))) * 0.99)
            areas.append(max(n, 1))
            views.append(CardView(placed, corners, 0.0, None, use_random))
            homs.append(h_face0)
            sizes.append((fw0, fh0))
        px_per_mm = _px_per_mm(hom, arr)
        if distractors is None:
            distractors = []
            if rng.random() < spec.distractors:
                inv = np.linalg.inv(hom)
                centres = np.array([c.centre for c in arr.cards]) if arr.cards else np.zeros((0, 2))
                for _ in range(int(rng.integers(1, 4))):
                    distractors.append(free_spot(rng, inv, centres, (W, H), tries=6, clearance_mm=90))
        drawn = int(rng.integers(2**31))  # drawn either way: the frame's later looks stay as they were
        drng = np.random.default_rng(drawn if objects_seed is None else objects_seed)
        for at in distractors:
            paint_distractor(img, idbuf, drng, hom, np.asarray(at, float))
        if arms is None:
            arms = []
            if rng.random() < spec.hands and arr.cards:
                arms.append(random_arm(rng, arr, hom))  # type: ignore[arg-type]
        for arm in arms:
            # an optional third item seeds the arm's looks (skin, sleeve), so one player's arm
            # looks the same from frame to frame of a sequence
            look = np.random.default_rng(int(arm[2])) if len(arm) > 2 else rng
            paint_arm(img, idbuf, look, np.asarray(arm[0], float), np.asarray(arm[1], float), px_per_mm)
        counts = np.bincount((idbuf.ravel().astype(np.int32) - EMPTY), minlength=len(views) + 2)[2:]
        for i, v in enumerate(views):
            v.visible = float(min(1.0, counts[i] / areas[i]))
            v.visible_corners = visible_box(idbuf, i, v.corners, homs[i], sizes[i]) if counts[i] else None
        if spec.effects:
            img = apply_effects(img, rng, light)
        return Scene(img, cam, table, arr, views, hom, idbuf, kind)


def free_spot(rng: np.random.Generator, image_to_table: np.ndarray, centres: np.ndarray, size: tuple[int, int], *,
              tries: int, clearance_mm: float) -> np.ndarray:
    """A table point (mm) in view, ``clearance_mm`` from every card centre if ``tries`` draws find one (else the last).

    People put cups and phones beside the cards, seldom on them.
    """
    w, h = size
    at = np.zeros(2)
    for _ in range(tries):
        at = project(image_to_table, np.array([[rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h]]))[0]
        if not len(centres) or np.linalg.norm(centres - at, axis=1).min() > clearance_mm:
            break
    return at


def _px_per_mm(hom: np.ndarray, arr: Arrangement) -> float:
    c = arr.extent().mean(axis=0)
    q = project(hom, np.array([c, c + [100.0, 0.0]]))
    return float(np.linalg.norm(q[1] - q[0]) / 100.0)


def random_arm(
    rng: np.random.Generator, arr: Arrangement, hom: np.ndarray, target: PlacedCard | None = None, player: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A hand reaching for a card, in image pixels: (fingertips, reach direction); see :func:`arm_reach`."""
    tip_mm, seat = arm_reach(rng, arr, target, player)
    q = project(hom, np.array([seat, tip_mm]))
    return q[1], q[1] - q[0]


def arm_reach(
    rng: np.random.Generator, arr: Arrangement, target: PlacedCard | None = None, player: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A hand reaching for a card (a random one unless given) from a player's seat: (fingertips, shoulder) in mm.

    The player is ``player`` when given (the side that laid the card: a hazard on an opponent
    comes from the attacker's seat); otherwise the card's own side, an opponent for a hazard
    on a side's piles, and anyone for the centre piles.
    """
    card = target if target is not None else arr.cards[int(rng.integers(len(arr.cards)))]
    if player is None:
        sides = [a.side for a in arr.areas]
        if card.side is None or not sides:
            player = sides[int(rng.integers(len(sides)))] if sides else None
        elif card.card is not None and card.card in HAZARDS and card.pile in ("battle", "speed") and len(sides) > 1:
            others = [s for s in sides if s != card.side]
            player = others[int(rng.integers(len(others)))]
        else:
            player = card.side
    area = arr.area(player)
    tip_mm = np.asarray(card.centre) + rng.normal(0, 15, 2)
    if area is not None:
        seat = area.seat(float(rng.uniform(300, 450))) + rng.normal(0, 60, 2)
    else:
        a = rng.uniform(0, 2 * math.pi)
        seat = tip_mm - 400 * np.array([math.cos(a), math.sin(a)])
    return tip_mm, seat


def sample_light(rng: np.random.Generator) -> dict[str, float]:
    """Random lighting parameters (see :func:`apply_effects`)."""
    return {
        "seed": float(rng.integers(2**31)),
        "gain": float(rng.uniform(0.75, 1.15)),
        "spread": float(rng.uniform(0.05, 0.35)),
        "warm": float(rng.uniform(-0.12, 0.12)),
        "glare": float(rng.uniform(0, 1) if rng.random() < 0.35 else 0.0),
    }


def apply_effects(img: np.ndarray, rng: np.random.Generator, light: dict[str, float] | None = None) -> np.ndarray:
    """Lighting gradient and colour cast, glare, defocus or motion blur, sensor noise, JPEG artefacts."""
    H, W = img.shape[:2]
    light = light if light is not None else sample_light(rng)
    lrng = np.random.default_rng(int(light["seed"]))
    field = lrng.uniform(1 - light["spread"], 1 + light["spread"], (3, 3)).astype(np.float32) * light["gain"]
    gain = cv2.resize(field, (W, H), interpolation=cv2.INTER_CUBIC)
    cast = np.array([1 + light["warm"], 1.0, 1 - light["warm"]], np.float32)
    out = img.astype(np.float32)
    out *= gain[..., None]
    out *= cast
    if light["glare"] > 0:
        gx, gy = lrng.uniform(0.1, 0.9) * W, lrng.uniform(0.1, 0.9) * H
        sx, sy = lrng.uniform(0.04, 0.15) * W, lrng.uniform(0.04, 0.12) * H
        small = 64
        yy, xx = np.mgrid[0:small, 0:small].astype(np.float32)
        blob = np.exp(-(((xx * W / small - gx) / sx) ** 2 + ((yy * H / small - gy) / sy) ** 2) / 2)
        out += (cv2.resize(blob, (W, H), interpolation=cv2.INTER_LINEAR) * (170 * light["glare"]))[..., None]
    r = rng.random()
    if r < 0.35:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.4)))  # type: ignore[assignment]
    elif r < 0.5:
        n = int(rng.integers(3, 9))
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        cv2.line(k, (int(c - c * math.cos(a)), int(c - c * math.sin(a))), (int(c + c * math.cos(a)), int(c + c * math.sin(a))), 1.0, 1)
        out = cv2.filter2D(out, -1, k / max(k.sum(), 1))  # type: ignore[assignment]
    sigma = float(rng.uniform(1, 6))
    noise = rng.integers(-128, 128, (H // 2, W // 2, 3), dtype=np.int16).astype(np.float32) * (sigma / 74.0)
    out += cv2.resize(noise, (W, H), interpolation=cv2.INTER_NEAREST)
    img = np.clip(out, 0, 255).astype(np.uint8)
    q = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()  # type: ignore[index]
