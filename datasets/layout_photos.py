"""Phone photos of a deck's 19 card types laid out on a table: what `borne enrol PHOTO` is given (issue "Teach
Borne a deck from one photo").

Composed in 2-D from the scene engine's parts, as a phone sees the table from a chair: 0.5–1.2 m above it (higher
where the layout would not fit the picture), tilted up to 35° from the vertical, at any turn; the table a plain or
patterned cloth, its edge and the floor below it in view in half of the photos; a cup, a phone or a notebook among
or beside the cards in some; the cards laid as the guide shows (rows: the distance cards, the hazards, the
remedies, the safeties) or in any order, each turned any way; soft shadows, a light falling off across the table,
the lens's softness, the sensor's grain; a 12-megapixel photo (4000 × 3000) or a 1920 × 1080 one, either way up.

Deterministic from a seed. The development and the test split differ in their tables and floors (the test split's
are never looked at while building: :data:`SURFACES`) and in their seeds (:data:`SPLIT_SEEDS`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.arrangement import CARD_H, CARD_W, PlacedCard
from datasets.camera import Camera
from datasets.faces import pyramid
from datasets.scene import _warp_card
from datasets.textures import _MAKERS
from scoring.cards import Card

SPLIT_SEEDS = {"dev": 71_000, "test": 72_000}
"""Each split's photos are seeds from here on."""
SURFACES = {
    "dev": {"plain": ("stone", "wood"), "patterned": ("stripes", "cloth")},
    "test": {"plain": ("felt", "laminate"), "patterned": ("gingham", "tiles")},
}
"""The tables of each split: a plain one (light or dark) or a patterned one (a check, tiles with their grout)."""
FLOORS = {"dev": ("wood", "stone"), "test": ("tiles", "wood")}
SIZES = ((4000, 3000), (1920, 1080))
"""A phone's 12-megapixel photo and a 1920 × 1080 one (each also taken upright)."""
HEIGHT_MM = (500.0, 1200.0)
TILT_DEG = 35.0
HFOV_DEG = {4 / 3: 66.0, 16 / 9: 70.0}
"""A phone's main camera across the longer side of its picture."""
FLOOR_BELOW_MM = 740.0
GUIDE_COLUMNS = 5
ANY_PITCH_MM = 118.0
"""Cards laid in any order and turned any way lie at least a card's diagonal (104 mm) apart, centre to centre."""


@dataclass(frozen=True)
class LayoutSpec:
    """What one layout photo shows."""

    seed: int
    split: str
    guide: bool
    """Laid as the guide shows (in rows by group, upright give or take); else in any order, any turn."""
    surface: str
    patterned: bool
    edge: bool
    """The table's edge and the floor below it are in the picture."""
    width: int
    height: int
    things: tuple[str, ...]
    """Other things on the table: ``cup``, ``phone``, ``notebook``."""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "things": list(self.things)}


def layout_spec(split: str, index: int) -> LayoutSpec:
    """The ``index``-th photo of a split: the guide's order in every other photo, a patterned table in every
    other pair, the table's edge in view in half, both sizes, both ways up."""
    if split not in SPLIT_SEEDS:
        raise ValueError(f"no split {split!r}: {', '.join(SPLIT_SEEDS)}")
    seed = SPLIT_SEEDS[split] + index
    rng = np.random.default_rng([seed, 51])
    patterned = bool(index // 2 % 2)
    surface = str(rng.choice(SURFACES[split]["patterned" if patterned else "plain"]))
    width, height = SIZES[index // 4 % 2]
    if rng.random() < 0.5:
        width, height = height, width
    things = tuple(str(t) for t in rng.choice(["cup", "phone", "notebook"], size=int(rng.integers(0, 3)), replace=False))
    edge = (index // 8 + index) % 2 == 1  # over 16 photos, each order, table and size with and without the edge
    return LayoutSpec(seed, split, index % 2 == 0, surface, patterned, edge, width, height, things)


@dataclass(frozen=True)
class LaidOut:
    """A layout photo and where each card lies in it."""

    image: NDArray[np.uint8]
    """RGB."""
    cards: tuple[tuple[Card, NDArray[np.float64]], ...]
    """Each card and its corners in the photo (the printed face's top left first, clockwise)."""
    camera: Camera
    spec: LayoutSpec

    def truth_json(self) -> dict[str, Any]:
        return {"spec": self.spec.to_json(), "camera": self.camera.to_json(),
                "cards": [{"card": c.value, "corners": np.round(q, 1).tolist()} for c, q in self.cards]}


def render_layout(faces: dict[str, NDArray[np.uint8]], spec: LayoutSpec) -> LaidOut:
    """The photo of ``faces`` (RGB, by card id) laid out as ``spec`` says."""
    rng = np.random.default_rng([spec.seed, 52])
    placed = _guide_places(rng) if spec.guide else _any_places(rng)
    things = _things_places(spec.things, placed, rng)
    cam = _camera(spec, placed, things, rng)
    hom = cam.homography()
    image = _table(spec, cam, placed, rng)
    image = _shadows(image, hom, placed, things, rng)
    idbuf = np.full(image.shape[:2], -2, np.int16)
    cards: list[tuple[Card, NDArray[np.float64]]] = []
    for k, p in enumerate(placed):
        assert p.card is not None
        face = faces[p.card.value]
        to_image = hom @ p.face_to_table(face.shape[1], face.shape[0])
        _warp_card(image, idbuf, pyramid(face), to_image, k, float(rng.uniform(0.92, 1.05)), 0.3)
        h, w = face.shape[:2]
        rect = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
        cards.append((p.card, np.asarray(cv2.perspectiveTransform(rect, to_image)[0], np.float64)))
    for name, centre, angle in things:
        _draw_thing(image, cam, name, centre, angle, rng)
    image = _photographed(image, rng)
    return LaidOut(image, tuple(cards), cam, spec)


def _guide_places(rng: np.random.Generator) -> list[PlacedCard]:
    """The guide's rows (the five distance cards, the hazards, the remedies, the safeties), upright give or take,
    a few upside down; the last row from the left or centred."""
    gap_x, gap_y = rng.uniform(8, 28), rng.uniform(10, 35)
    turn = rng.normal(0, 0.06)
    centred = rng.random() < 0.5
    cards = list(Card)
    rows = [cards[i : i + GUIDE_COLUMNS] for i in range(0, len(cards), GUIDE_COLUMNS)]
    out = []
    for r, row in enumerate(rows):
        start = (GUIDE_COLUMNS - len(row)) / 2 if centred else 0.0
        for c, card in enumerate(row):
            x = (start + c - (GUIDE_COLUMNS - 1) / 2) * (CARD_W + gap_x) + rng.normal(0, 3)
            y = ((len(rows) - 1) / 2 - r) * (CARD_H + gap_y) + rng.normal(0, 3)
            angle = turn + rng.normal(0, 0.05) + (math.pi if rng.random() < 0.1 else 0.0)
            out.append(PlacedCard(card, _turned((x, y), turn), angle, None))
    return out


def _any_places(rng: np.random.Generator) -> list[PlacedCard]:
    """The cards shuffled, on a loose grid of four to six columns, each turned any way."""
    cards = list(Card)
    rng.shuffle(cards)
    columns = int(rng.integers(4, 7))
    rows = -(-len(cards) // columns)
    out = []
    for k, card in enumerate(cards):
        r, c = divmod(k, columns)
        x = (c - (columns - 1) / 2) * ANY_PITCH_MM + rng.uniform(-7, 7)
        y = ((rows - 1) / 2 - r) * ANY_PITCH_MM + rng.uniform(-7, 7)
        out.append(PlacedCard(card, (x, y), float(rng.uniform(0, 2 * math.pi)), None))
    return out


def _turned(point: tuple[float, float], angle: float) -> tuple[float, float]:
    c, s = math.cos(angle), math.sin(angle)
    return point[0] * c - point[1] * s, point[0] * s + point[1] * c


THING_SIZE_MM = {"cup": (85.0, 85.0), "phone": (72.0, 150.0), "notebook": (148.0, 210.0)}


def _things_places(names: tuple[str, ...], placed: list[PlacedCard], rng: np.random.Generator
                   ) -> list[tuple[str, tuple[float, float], float]]:
    """Where each thing lies: beside the cards, or (a cup) in a gap among them, never on a card."""
    corners = np.concatenate([p.corners() for p in placed])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    out: list[tuple[str, tuple[float, float], float]] = []
    for name in names:
        w, h = THING_SIZE_MM[name]
        reach = math.hypot(w, h) / 2 + 12
        for _ in range(200):
            side = int(rng.integers(0, 4))
            along = rng.uniform(0, 1)
            x = lo[0] + along * (hi[0] - lo[0]) if side < 2 else (lo[0] - reach if side == 2 else hi[0] + reach)
            y = lo[1] + along * (hi[1] - lo[1]) if side >= 2 else (lo[1] - reach if side == 0 else hi[1] + reach)
            if name == "cup" and rng.random() < 0.4:  # among the cards
                x, y = rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1])
            centre = np.array([x, y])
            clear = all(np.linalg.norm(p.corners() - centre, axis=1).min() > reach - 5
                        and np.linalg.norm(np.asarray(p.centre) - centre) > reach + 35 for p in placed)
            clear = clear and all(np.linalg.norm(np.asarray(c) - centre) > reach + 80 for _, c, _ in out)
            if clear:
                out.append((name, (float(x), float(y)), float(rng.uniform(0, math.pi))))
                break
    return out


def _camera(spec: LayoutSpec, placed: list[PlacedCard], things: list[tuple[str, tuple[float, float], float]],
            rng: np.random.Generator) -> Camera:
    """A phone over the layout, raised until every card (and thing) is in the picture with a margin."""
    points = np.concatenate([p.corners() for p in placed])
    for _, centre, _ in things:
        points = np.vstack([points, np.asarray(centre)])
    middle = (points.min(axis=0) + points.max(axis=0)) / 2
    aspect = max(spec.width, spec.height) / min(spec.width, spec.height)
    hfov = HFOV_DEG[min(HFOV_DEG, key=lambda a: abs(a - aspect))]
    if spec.height > spec.width:  # upright: the field of view across the shorter side
        hfov = math.degrees(2 * math.atan(math.tan(math.radians(hfov) / 2) / aspect))
    height = float(rng.uniform(*HEIGHT_MM))
    tilt, tilt_dir, yaw = float(rng.uniform(0, TILT_DEG)), float(rng.uniform(0, 360)), float(rng.uniform(0, 360))
    target = (float(middle[0] + rng.normal(0, 15)), float(middle[1] + rng.normal(0, 15)))
    margin = 0.03 * min(spec.width, spec.height)
    while True:
        cam = Camera(spec.width, spec.height, hfov, height, tilt, tilt_dir, yaw, target)
        seen = cv2.perspectiveTransform(points.reshape(1, -1, 2).astype(np.float64), cam.homography())[0]
        if (seen.min(axis=0) >= margin).all() and (seen <= np.array([spec.width, spec.height]) - margin).all():
            return cam
        height *= 1.05


GRID_MM = 2.0
"""The table's top and the floor are drawn on a grid of this many millimetres a pixel, then seen by the camera."""


def _plane(cam: Camera, z: float) -> NDArray[np.float64]:
    """The camera's map from the plane at height ``z`` (mm; the table's top is 0) to its picture."""
    f = cam.focal_px
    k = np.array([[f, 0, cam.width / 2], [0, f, cam.height / 2], [0, 0, 1]])
    r, centre = cam.pose()
    h = k @ np.column_stack([r[:, 0], r[:, 1], r @ (np.array([0.0, 0.0, z]) - centre)])
    return h / h[2, 2]


def _surface(kind: str, rng: np.random.Generator, size: int) -> NDArray[np.uint8]:
    """A table's or floor's texture, ``size`` pixels square (:data:`GRID_MM` each)."""
    if kind in ("gingham", "stripes"):
        return _check(kind, rng, size)
    texture = _MAKERS[kind](np.random.default_rng(int(rng.integers(1 << 30))), 1024)
    return np.asarray(cv2.resize(texture, (size, size), interpolation=cv2.INTER_LINEAR), np.uint8)


def _check(kind: str, rng: np.random.Generator, size: int) -> NDArray[np.uint8]:
    """A woven check (gingham: two colours crossing in squares) or stripes crossing thin lines, with a weave."""
    if kind == "gingham":
        period = rng.uniform(12, 30) / GRID_MM
        colour = np.array(rng.choice([(190, 40, 40), (40, 70, 160), (40, 120, 60), (30, 30, 30)]), np.float32)
        x = (np.arange(size) / period % 1.0 < 0.5).astype(np.float32)
        a, b = x[None, :], x[:, None]
        share = (a + b) / 2  # 0 white, 0.5 the mix, 1 the colour
    else:
        period = rng.uniform(40, 80) / GRID_MM
        colour = np.array(rng.choice([(50, 60, 140), (140, 90, 40)]), np.float32)
        x = (np.arange(size) / period % 1.0 < 0.12).astype(np.float32)
        share = np.maximum(x[None, :], x[:, None]) * 0.8
    white = np.array([236, 232, 222], np.float32)
    image = white * (1 - share[..., None]) + colour * share[..., None]
    weave = rng.normal(0, 6, (size, size, 1)).astype(np.float32)
    return np.clip(cv2.GaussianBlur(image + weave, (0, 0), 0.8), 0, 255).astype(np.uint8)


def _table(spec: LayoutSpec, cam: Camera, placed: list[PlacedCard], rng: np.random.Generator) -> NDArray[np.uint8]:
    """The bare table seen by the camera: its top, and where ``spec.edge``, one or two of its edges (a trim) with
    the floor below beyond them, the cards' layout inside it."""
    size = 3000  # 6 m of table at GRID_MM: wider than any picture's footprint
    half = size * GRID_MM / 2
    grid = np.array([[1 / GRID_MM, 0, size / 2], [0, -1 / GRID_MM, size / 2], [0, 0, 1.0]])  # mm → grid px
    top = _surface(spec.surface, rng, size)
    top = _tinted(top, rng)
    image = np.asarray(cv2.warpPerspective(top, cam.homography() @ np.linalg.inv(grid), (cam.width, cam.height),
                                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP), np.uint8)
    if not spec.edge:
        return image
    # the table's rectangle: past the layout by a little on one or two sides (in view), far on the others
    corners = np.concatenate([p.corners() for p in placed])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    footprint = _footprint(cam)
    sides = [int(s) for s in rng.choice(4, size=int(rng.integers(1, 3)), replace=False)]
    bounds = [lo[0] - half, lo[1] - half, hi[0] + half, hi[1] + half]  # left, bottom, right, top
    for s in sides:
        near = (lo[0], lo[1], hi[0], hi[1])[s]
        far = (footprint[:, 0].min(), footprint[:, 1].min(), footprint[:, 0].max(), footprint[:, 1].max())[s]
        room = abs(far - near)
        gap = 25 + rng.uniform(0.1, 0.7) * max(room - 60, 0)
        bounds[s] = near - gap if s < 2 else near + gap
    mask = np.zeros((size, size), np.uint8)
    x0, y0 = grid @ np.array([bounds[0], bounds[3], 1.0]), grid @ np.array([bounds[2], bounds[1], 1.0])
    trim = rng.uniform(4, 12) / GRID_MM
    cv2.rectangle(mask, (int(max(x0[0], 0)), int(max(x0[1], 0))), (int(min(y0[0], size - 1)), int(min(y0[1], size - 1))), 255, -1)
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, round(trim)))
    to_image = cam.homography() @ np.linalg.inv(grid)
    on_table = cv2.warpPerspective(mask, to_image, (cam.width, cam.height), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    inside = cv2.warpPerspective(inner, to_image, (cam.width, cam.height), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    floor = _tinted(_surface(str(rng.choice(FLOORS[spec.split])), rng, size), rng) * rng.uniform(0.35, 0.7)
    floor_grid = np.array([[1 / GRID_MM, 0, size / 2], [0, -1 / GRID_MM, size / 2], [0, 0, 1.0]])
    below = cv2.warpPerspective(floor.astype(np.uint8), _plane(cam, -FLOOR_BELOW_MM) @ np.linalg.inv(floor_grid),
                                (cam.width, cam.height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    below = cv2.GaussianBlur(below, (0, 0), 0.002 * cam.width)  # far below the focus
    edge_tone = rng.uniform(0.45, 1.3)
    out = image.astype(np.float32) * inside[..., None] + image.astype(np.float32) * edge_tone * (on_table - inside)[..., None]
    out += below.astype(np.float32) * (1 - on_table)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _footprint(cam: Camera) -> NDArray[np.float64]:
    """The table millimetres the picture's corners show."""
    back = np.linalg.inv(cam.homography())
    corners = np.array([[[0, 0], [cam.width, 0], [cam.width, cam.height], [0, cam.height]]], np.float64)
    return np.asarray(cv2.perspectiveTransform(corners, back)[0], np.float64)


def _tinted(texture: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    gain = rng.uniform(0.8, 1.15) * (1 + rng.normal(0, 0.05, 3))
    return np.clip(texture.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _shadows(image: NDArray[np.uint8], hom: NDArray[np.float64], placed: list[PlacedCard],
             things: list[tuple[str, tuple[float, float], float]], rng: np.random.Generator) -> NDArray[np.uint8]:
    """Each card's soft shadow (the light above and to one side), and sometimes a large soft one across the table
    (the photographer, a lamp's arm)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    offset = np.array([math.cos(direction), math.sin(direction)]) * rng.uniform(1, 4)
    for p in placed:
        seen = cv2.perspectiveTransform((p.corners() + offset).reshape(1, -1, 2), hom)[0]
        cv2.fillConvexPoly(mask, np.round(seen).astype(np.int32), 1.0)
    card_px = float(np.linalg.norm(cv2.perspectiveTransform(np.array([[[0, 0], [0, CARD_H]]], np.float64), hom)[0, 1]
                                   - cv2.perspectiveTransform(np.array([[[0, 0], [0, CARD_H]]], np.float64), hom)[0, 0]))
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, card_px * 0.025)) * rng.uniform(0.15, 0.35)
    if rng.random() < 0.4:
        blob = np.zeros((h, w), np.float32)
        middle = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.ellipse(blob, middle, (int(rng.uniform(0.2, 0.5) * w), int(rng.uniform(0.1, 0.3) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        mask = np.maximum(mask, cv2.GaussianBlur(blob, (0, 0), 0.04 * w) * rng.uniform(0.15, 0.35))
    for name, centre, angle in things:  # a thing's shadow on the table
        wt, ht = THING_SIZE_MM[name]
        outline = (_circle(centre, wt / 2 + 4) if name == "cup" else _box(centre, wt + 8, ht + 8, angle)) + offset * 3
        seen = cv2.perspectiveTransform(outline.reshape(1, -1, 2), hom)[0]
        blob = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(blob, np.round(seen).astype(np.int32), 1.0)
        mask = np.maximum(mask, cv2.GaussianBlur(blob, (0, 0), max(2.0, card_px * 0.06)) * 0.4)
    return np.clip(image.astype(np.float32) * (1 - mask[..., None]), 0, 255).astype(np.uint8)


def _box(centre: tuple[float, float], w: float, h: float, angle: float) -> NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return corners @ np.array([[c, s], [-s, c]]) + np.asarray(centre)


def _circle(centre: tuple[float, float], radius: float) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)])


def _draw_thing(image: NDArray[np.uint8], cam: Camera, name: str, centre: tuple[float, float], angle: float,
                rng: np.random.Generator) -> None:
    """A cup (its wall between the foot and the rim, the coffee in it), a phone (a dark glass face in a rim) or a
    notebook (a cover with a band), drawn at their heights."""
    def seen(points: NDArray[np.float64], z: float) -> NDArray[np.int32]:
        return np.round(cv2.perspectiveTransform(points.reshape(1, -1, 2), _plane(cam, z))[0]).astype(np.int32)

    if name == "cup":
        colour = np.array(rng.choice([(235, 235, 230), (200, 60, 50), (40, 80, 150), (230, 200, 80)]), float)
        foot, rim = seen(_circle(centre, 32), 0.0), seen(_circle(centre, 42), 95.0)
        wall = cv2.convexHull(np.vstack([foot, rim]))
        cv2.fillConvexPoly(image, wall, tuple(float(v) for v in colour * 0.75))
        cv2.fillConvexPoly(image, rim, tuple(float(v) for v in colour))
        cv2.fillConvexPoly(image, seen(_circle(centre, 37), 80.0), (70, 40, 25))
    elif name == "phone":
        wt, ht = THING_SIZE_MM[name]
        cv2.fillConvexPoly(image, seen(_box(centre, wt, ht, angle), 8.0), (40, 40, 45))
        cv2.fillConvexPoly(image, seen(_box(centre, wt - 6, ht - 14, angle), 8.5), (12, 14, 20))
    else:
        wt, ht = THING_SIZE_MM[name]
        cover = tuple(float(v) for v in rng.choice([(60, 90, 140), (150, 50, 50), (220, 210, 190), (40, 40, 40)]))
        cv2.fillConvexPoly(image, seen(_box(centre, wt, ht, angle), 6.0), cover)
        band = _box(centre, wt, ht * 0.15, angle)
        cv2.fillConvexPoly(image, seen(band, 6.5), (230, 230, 225))


def _photographed(image: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """The light falling off across the picture and its colour, the lens's softness, the sensor's grain."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((x / w - 0.5) * math.cos(a) + (y / h - 0.5) * math.sin(a)) * rng.uniform(0.1, 0.35)
    vignette = ((x / w - 0.5) ** 2 + (y / h - 0.5) ** 2) * rng.uniform(0.1, 0.4)
    light = (rng.uniform(0.85, 1.1) + ramp - vignette)[..., None] * (1 + rng.normal(0, 0.03, 3)).astype(np.float32)
    out = image.astype(np.float32) * light
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.9) * max(w, h) / 2000)
    out += rng.normal(0, rng.uniform(1.5, 4.0), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)
