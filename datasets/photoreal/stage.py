"""A table state as a Blender stage: every shape, material and light of a photo-real scene, decided here.

The stage is plain JSON (metres, linear colours) that :mod:`datasets.photoreal.in_blender` builds
without deciding anything, so a scene depends only on its seed and is checked without Blender. It
comes from the same things as a 2-D scene: the table state, the arrangement of its cards
(:func:`datasets.arrangement.arrange`), the camera (:func:`datasets.camera.sample_camera`) and the
edition's faces; then it adds what only a 3-D scene has — card stock with thickness, bends and
lifted corners, arms and hands as modelled bodies, objects standing on the table, and lights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.arrangement import CARD_H, CARD_W, Arrangement, PlacedCard, arrange
from datasets.camera import Camera, sample_camera
from datasets.edition import BACK, GENERIC
from datasets.errors import SceneSpecError
from datasets.occluders import SKIN
from datasets.photoreal.decks import deck_files
from datasets.photoreal.surfaces import HELD_OUT, MM_PER_PX, TEST, TRAINING, Pattern, pattern_path, read_pattern
from datasets.scene import arm_reach, free_spot
from datasets.table import TableState
from datasets.textures import HELD_OUT_KINDS, KINDS, SURFACE_MM, pooled

OCCLUDER_INDEX = 1000
"""Object index of arms and objects (cards are ``1 …``, the table ``0``); as in ``in_blender.py``."""
STOCK_MM = 0.3
"""Thickness of card stock."""
LAYER_MM = 0.36
"""Height between a card and one lying on it (a little more than the stock, so faces never cut each other)."""
GRID = (6, 9)
"""Vertices across and down a card's face: enough for a smooth bend."""
SENSOR_MM = 36.0
HDRIS_TRAINING = ("interior.exr", "studio.exr", "courtyard.exr", "sunset.exr", "forest.exr")
HDRIS_HELD_OUT = ("city.exr", "sunrise.exr", "night.exr")
"""Blender's own world lights (``datafiles/studiolights/world``): the held-out split's are its own."""
TEST_SKIES = ((0.62, 0.70, 0.85), (0.85, 0.78, 0.66), (0.55, 0.55, 0.58), (0.30, 0.32, 0.45))
"""The test split's world light: no environment image at all, a plain sky of one of these colours (overcast,
warm evening, grey, dusk) around lamps set as no other split sets them (:func:`test_lights_json`)."""
OBJECTS = ("glass", "mug", "phone", "pencil", "coin", "pad")


@dataclass(frozen=True)
class PhotoSpec:
    """What a photo-real scene is drawn from; the test split (``held_out``) uses its own surfaces and lights."""

    width: int = 1280
    height: int = 720
    edition: str = GENERIC
    samples: int = 8
    threads: int = 2
    hands: float = 0.5
    objects: float = 0.7
    held_out: bool = False
    test_split: bool = False
    """The test split: surfaces (:data:`~datasets.photoreal.surfaces.TEST`) and lights no other split uses.
    Development (``held_out``) stills have been looked at while tuning; these are measured on only."""
    phone: bool = False
    """One photo from a phone held over the table: half of them taken the other way up (``width`` and
    ``height`` swapped), 0.5–1.2 m above it, tilted up to 35° (:func:`datasets.camera.sample_camera`)."""

    @property
    def split(self) -> str:
        """``train``, ``held_out`` (development data now) or ``test``."""
        return "test" if self.test_split else "held_out" if self.held_out else "train"

    def check(self) -> None:
        """:raises SceneSpecError: sizes outside 64–4096 pixels, fewer than 1 sample, a bad chance."""
        if not (64 <= self.width <= 4096 and 64 <= self.height <= 4096):
            raise SceneSpecError(f"image size {self.width}×{self.height} is outside 64–4096 pixels")
        if self.samples < 1:
            raise SceneSpecError(f"samples must be at least 1, not {self.samples}")
        if not (0 <= self.hands <= 1 and 0 <= self.objects <= 1):
            raise SceneSpecError("hands and objects are chances between 0 and 1")


@dataclass
class Stage:
    """A stage and what its labels are read with."""

    json: dict[str, Any]
    camera: Camera
    arrangement: Arrangement
    surface: str
    cards_covered: list[bool] = field(default_factory=list)
    deck: str = GENERIC
    """The edition the cards are printed from (one drawn per scene with :data:`~datasets.photoreal.decks.MIXED`)."""


def srgb_to_linear(rgb: np.ndarray | list[float]) -> list[float]:
    c = np.asarray(rgb, float) / 255.0
    return [round(float(v), 4) for v in np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)]


def camera_json(camera: Camera) -> dict[str, Any]:
    """Blender's camera for :class:`~datasets.camera.Camera`: the same pose, the same focal length in pixels."""
    r, centre = camera.pose()
    x, y, z = r[0], -r[1], -r[2]  # Blender's camera looks down its own -z, with +y up the picture
    t = centre / 1000.0
    matrix = [[x[0], y[0], z[0], t[0]], [x[1], y[1], z[1], t[1]], [x[2], y[2], z[2], t[2]], [0, 0, 0, 1]]
    return {"matrix": [[round(float(v), 7) for v in row] for row in matrix],
            "lens_mm": camera.focal_px * SENSOR_MM / camera.width, "sensor_mm": SENSOR_MM}


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 1.0


def stack(cards: list[PlacedCard]) -> tuple[list[int], list[bool]]:
    """Each card's layer (0 on the table, one more than the highest card it lies on) and whether a later card covers it."""
    corners = [c.corners() for c in cards]
    layers: list[int] = []
    covered = [False] * len(cards)
    for i, ci in enumerate(corners):
        below = [layers[j] for j in range(i) if _overlaps(ci, corners[j])]
        for j in range(i):
            if _overlaps(ci, corners[j]):
                covered[j] = True
        layers.append(1 + max(below) if below else 0)
    return layers, covered


def card_vertices(card: PlacedCard, layer: int, rng: np.random.Generator | None) -> list[list[float]]:
    """The top surface of a card as a :data:`GRID` of points (metres), row by row from the face's top-left.

    A card nothing lies on (``rng`` given) may curl a little along one axis or have one corner lifted.
    """
    nu, nv = GRID
    u, v = np.meshgrid(np.linspace(0, 1, nu), np.linspace(0, 1, nv))
    to_table = card.face_to_table(1, 1)
    xy = np.column_stack([u.ravel(), v.ravel(), np.ones(u.size)]) @ to_table.T
    z = np.full(u.size, (layer * LAYER_MM + STOCK_MM + 0.05))
    if rng is not None:
        amount = float(rng.uniform(0, 1.2))
        t = (u if rng.random() < 0.5 else v).ravel()
        z += amount * ((2 * t - 1) ** 2 if rng.random() < 0.6 else 1 - (2 * t - 1) ** 2)
        if rng.random() < 0.25:
            cu, cv = float(rng.integers(2)), float(rng.integers(2))
            d = np.hypot((u.ravel() - cu) * CARD_W, (v.ravel() - cv) * CARD_H) / float(rng.uniform(18, 30))
            z += float(rng.uniform(1, 5)) * np.clip(1 - d, 0, 1) ** 2
    pts = np.column_stack([xy[:, 0], xy[:, 1], z]) / 1000.0
    return [[round(float(a), 6) for a in p] for p in pts]


def _bone(a: np.ndarray, za: float, b: np.ndarray, zb: float, radius: float) -> list[float]:
    return [round(float(v), 5) for v in (*a, za, *b, zb, radius)]


def arm_json(rng: np.random.Generator, tip_mm: np.ndarray, seat_mm: np.ndarray) -> dict[str, Any]:
    """A forearm and hand reaching from a seat to fingertips over a card, as metaball bones.

    Each bone is ``x0, y0, z0, x1, y1, z1, radius`` (a capsule) or ``x, y, z, radius, flatness, heading``
    (a flattened ball turned to the reach: the palm), in metres and radians. A sleeve covers part of the forearm two times in three.
    """
    tip = np.asarray(tip_mm, float) / 1000.0
    d = tip - np.asarray(seat_mm, float) / 1000.0
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    k = float(rng.uniform(0.9, 1.1))
    z_tip, z_wrist, z_elbow = float(rng.uniform(0.008, 0.03)), float(rng.uniform(0.035, 0.065)), float(rng.uniform(0.06, 0.14))
    wrist = tip - d * 0.17 * k
    elbow = wrist - d * 0.27 * k
    shoulder = elbow - d * 0.3
    skin = [_bone(shoulder, z_elbow + 0.08, elbow, z_elbow, 0.048 * k), _bone(elbow, z_elbow, wrist, z_wrist, 0.04 * k)]
    heading = math.atan2(d[1], d[0])
    for along in (0.03, 0.065):
        palm = wrist + d * along * k
        skin.append([round(float(v), 5) for v in (*palm, z_wrist - 0.01 - 0.1 * along, 0.045 * k, 0.38, heading)])
    spread = float(rng.uniform(0.02, 0.2))
    curl = rng.uniform(0, 1, 4)
    for f, length in enumerate((0.07, 0.08, 0.077, 0.06)):
        base = wrist + d * 0.075 * k + n * (f - 1.5) * 0.019 * k
        fd = d * math.cos(spread * (f - 1.5)) + n * math.sin(spread * (f - 1.5))
        knuckle = base + fd * length * k * 0.5
        end = base + fd * length * k * (1 - 0.25 * curl[f])
        z0, z1 = z_wrist - 0.015, max(z_tip - 0.008 * curl[f], 0.007)
        skin.append(_bone(base, z0, knuckle, (z0 + z1) / 2 + 0.004 * curl[f], 0.0115 * k))
        skin.append(_bone(knuckle, (z0 + z1) / 2 + 0.004 * curl[f], end, z1, 0.0105 * k))
    side = 1 if rng.random() < 0.5 else -1
    thumb0 = wrist + d * 0.03 * k + n * side * 0.03 * k
    thumb1 = thumb0 + (d * 0.65 + n * side * 0.6) * 0.06 * k
    skin.append(_bone(thumb0, z_wrist - 0.012, thumb1, z_wrist - 0.025, 0.0115 * k))
    sleeve = []
    if rng.random() < 0.67:
        cuff = elbow + (wrist - elbow) * float(rng.uniform(0.1, 0.85))
        z_cuff = z_elbow + (z_wrist - z_elbow) * float(np.linalg.norm(cuff - elbow) / (np.linalg.norm(wrist - elbow) + 1e-9))
        sleeve = [_bone(shoulder, z_elbow + 0.08, elbow, z_elbow, 0.06 * k), _bone(elbow, z_elbow, cuff, z_cuff, 0.055 * k)]
    tone = SKIN[int(rng.integers(len(SKIN)))] * float(rng.uniform(0.85, 1.05))
    cloth = np.clip(float(rng.uniform(25, 210)) + rng.uniform(-45, 45, 3), 0, 255)
    return {"skin": srgb_to_linear(np.clip(tone, 0, 255)), "sleeve": srgb_to_linear(cloth),
            "skin_bones": skin, "sleeve_bones": sleeve}


def objects_json(rng: np.random.Generator, arr: Arrangement, camera: Camera) -> list[dict[str, Any]]:
    inv = np.linalg.inv(camera.homography())
    centres = np.array([c.centre for c in arr.cards]) if arr.cards else np.zeros((0, 2))
    spots = [free_spot(rng, inv, centres, (camera.width, camera.height), tries=8, clearance_mm=110)
             for _ in range(int(rng.integers(1, 4)))]
    out = []
    for at in spots:
        kind = str(rng.choice(OBJECTS))
        colour = {
            "mug": rng.uniform(40, 250, 3), "phone": rng.choice([[20, 20, 24], [200, 200, 205], [40, 60, 90]]),
            "pencil": rng.choice([[230, 180, 20], [40, 90, 160], [200, 40, 40]]),
            "coin": rng.choice([[220, 180, 90], [200, 200, 205], [190, 120, 80]]), "pad": [245, 242, 225],
        }.get(kind, [255, 255, 255])
        out.append({"kind": kind, "location": [round(float(at[0]) / 1000, 5), round(float(at[1]) / 1000, 5), 0.0],
                    "angle": round(float(rng.uniform(0, 2 * math.pi)), 4), "colour": srgb_to_linear(colour)})
    return out


def lights_json(rng: np.random.Generator, centre_m: np.ndarray, split: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The world's light (one of Blender's own environment images) and one or two lamps, maybe the sun."""
    if split == "test":
        return test_lights_json(rng, centre_m)
    hdris = HDRIS_HELD_OUT if split == "held_out" else HDRIS_TRAINING
    world = {"hdri": str(rng.choice(hdris)), "strength": round(float(rng.uniform(0.15, 0.7)), 3),
             "rotation": round(float(rng.uniform(0, 2 * math.pi)), 3)}
    lamps = []
    for _ in range(int(rng.integers(1, 3))):
        height = float(rng.uniform(1.3, 2.4))
        at = centre_m + rng.uniform(-0.9, 0.9, 2)
        tilt = rng.normal(0, 0.15, 2)
        lamps.append({"kind": "area", "location": [round(float(at[0]), 3), round(float(at[1]), 3), round(height, 3)],
                      "rotation": [round(float(tilt[0]), 3), round(float(tilt[1]), 3), 0.0],
                      "size": round(float(rng.uniform(0.1, 1.0)), 3),
                      "power": round(float(rng.uniform(40, 160)) * height**2, 1),
                      "kelvin": round(float(rng.uniform(2700, 6500)))})
    if rng.random() < 0.3:
        elevation, azimuth = float(rng.uniform(0.45, 1.1)), float(rng.uniform(0, 2 * math.pi))
        lamps.append({"kind": "sun", "location": [0.0, 0.0, 3.0],
                      "rotation": [round(math.pi / 2 - elevation, 3), 0.0, round(azimuth, 3)],
                      "size": round(float(rng.uniform(0.01, 0.08)), 3), "power": round(float(rng.uniform(1.5, 4.0)), 2),
                      "kelvin": round(float(rng.uniform(4800, 6300)))})
    return world, lamps


def test_lights_json(rng: np.random.Generator, centre_m: np.ndarray) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The test split's light: a plain sky, and a pendant lamp low over the table (a small point light, hard
    shadows, a hot spot) or a window's light raking in from one side (a large lamp far off and low), or both."""
    sky = TEST_SKIES[int(rng.integers(len(TEST_SKIES)))]
    world = {"sky": [round(c, 3) for c in sky], "strength": round(float(rng.uniform(0.1, 0.5)), 3)}
    lamps: list[dict[str, Any]] = []
    kinds = [("pendant",), ("window",), ("pendant", "window")][int(rng.integers(3))]
    for kind in kinds:
        if kind == "pendant":
            height = float(rng.uniform(0.7, 1.3))
            at = centre_m + rng.uniform(-0.4, 0.4, 2)
            lamps.append({"kind": "point", "location": [round(float(at[0]), 3), round(float(at[1]), 3), round(height, 3)],
                          "rotation": [0.0, 0.0, 0.0], "size": round(float(rng.uniform(0.02, 0.12)), 3),
                          "power": round(float(rng.uniform(25, 70)) * height**2, 1),
                          "kelvin": round(float(rng.uniform(2400, 3600)))})
        else:
            azimuth, distance = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(1.6, 2.6))
            at = centre_m + distance * np.array([math.cos(azimuth), math.sin(azimuth)])
            height = float(rng.uniform(0.6, 1.2))
            # facing the table: tilted down from the vertical by the angle to the table's middle
            tilt = math.pi / 2 - math.atan2(height, distance)
            lamps.append({"kind": "area", "location": [round(float(at[0]), 3), round(float(at[1]), 3), round(height, 3)],
                          "rotation": [round(tilt, 3), 0.0, round(azimuth + math.pi / 2, 3)],
                          "size": round(float(rng.uniform(1.0, 2.0)), 3),
                          "power": round(float(rng.uniform(300, 900)) * distance**2 / 4, 1),
                          "kelvin": round(float(rng.uniform(5200, 7500)))})
    return world, lamps


def mirrored(texture: np.ndarray) -> np.ndarray:
    """A texture and its mirror images, 2 × 2: it tiles without a seam (Blender 3.4 only repeats)."""
    top = np.hstack([texture, texture[:, ::-1]])
    return np.ascontiguousarray(np.vstack([top, top[::-1]]))


def surface_json(rng: np.random.Generator, split: str, cache: Path) -> tuple[str, dict[str, Any]]:
    """A table top: a photographed GIMP pattern two times in three, else one of our procedural surfaces (the
    test split: always a pattern of its own)."""
    cache.mkdir(parents=True, exist_ok=True)
    held_out = split == "held_out"
    if rng.random() < 0.67 or split == "test":
        patterns = {"train": TRAINING, "held_out": HELD_OUT, "test": TEST}[split]
        pattern: Pattern = patterns[int(rng.integers(len(patterns)))]
        path = cache / f"pattern-{pattern.name}.png"
        rgb = read_pattern(pattern_path(pattern))
        if not path.is_file():
            cv2.imwrite(str(path), rgb[..., ::-1])
        tile = rgb.shape[1] * float(rng.uniform(*MM_PER_PX)) / 1000.0
        name, roughness = pattern.name, pattern.roughness
    else:
        kinds = HELD_OUT_KINDS if held_out else KINDS
        kind, k = str(rng.choice(kinds)), int(rng.integers(4))
        path = cache / f"surface-{kind}-{k}.png"
        if not path.is_file():
            cv2.imwrite(str(path), mirrored(pooled(kind, k))[..., ::-1])
        tile, name = 2 * SURFACE_MM / 1000.0, kind
        roughness = {"wood": 0.4, "laminate": 0.3, "tiles": 0.25, "stone": 0.45}.get(kind, 0.85)
    return name, {"image": str(path.resolve()), "tile_m": round(tile, 4), "roughness": roughness,
                  "variation": round(float(rng.uniform(0.05, 0.2)), 3), "rotation": round(float(rng.uniform(0, 2 * math.pi)), 3),
                  "bump": round(float(rng.uniform(0.05, 0.3)), 3)}


@dataclass(frozen=True)
class PhotoSet:
    """What a scene is shot on besides its cards and arms: camera, deck, table top, objects, lights.

    A still draws its own; a filmed hand (:mod:`datasets.photoreal.sequences`) draws one for all its
    frames, so they show one table under one light, not a new table every frame.
    """

    camera: Camera
    deck: str
    """The edition the cards are printed from."""
    faces: dict[str, Path]
    """Face image by card id and ``back``."""
    surface: str
    """The table top's name (a GIMP pattern or a procedural kind)."""
    table: dict[str, Any]
    objects: list[dict[str, Any]]
    world: dict[str, Any]
    lights: list[dict[str, Any]]
    seed: int
    """Cycles' sampling seed: one per set, so a table that does not change renders the same grain."""


def draw_set(rng: np.random.Generator, spec: PhotoSpec, cache: Path, arrangement: Arrangement, camera: Camera) -> PhotoSet:
    """A set for a whole filmed hand; objects stay clear of every card of ``arrangement`` (the finished hand's)."""
    deck, faces = deck_files(spec.edition, rng, cache)
    surface, table_json = surface_json(rng, spec.split, cache)
    objects = objects_json(rng, arrangement, camera) if rng.random() < spec.objects else []
    world, lamps = lights_json(rng, arrangement.extent().mean(axis=0) / 1000.0, spec.split)
    return PhotoSet(camera, deck, faces, surface, table_json, objects, world, lamps, int(rng.integers(2**31)))


def card_json(index: int, card: PlacedCard, layer: int, faces: dict[str, Path],
              bend: np.random.Generator | None, material: np.random.Generator) -> dict[str, Any]:
    """Card ``index`` (0-based) lying on ``layer``: bent by ``bend`` (``None``: flat, a card lies on it), its gloss from ``material``."""
    return {"pass_index": index + 1, "image": str(faces[card.card.value if card.card is not None else BACK]), "grid": list(GRID),
            "vertices": card_vertices(card, layer, bend), "thickness": STOCK_MM / 1000,
            "roughness": round(float(material.uniform(0.22, 0.45)), 3),
            "clearcoat": round(float(material.uniform(0.0, 0.4)), 3)}


def stage_json(shot_on: PhotoSet, spec: PhotoSpec, folder: Path, cards: list[dict[str, Any]],
               arms: list[dict[str, Any]]) -> dict[str, Any]:
    """The stage ``in_blender.py`` builds: a set, the cards on it and the arms over it; passes go to ``folder``."""
    return {"width": shot_on.camera.width, "height": shot_on.camera.height, "samples": spec.samples, "threads": spec.threads,
            "seed": shot_on.seed, "folder": str(folder.resolve()), "camera": camera_json(shot_on.camera),
            "table": shot_on.table, "cards": cards, "arms": arms, "objects": shot_on.objects, "world": shot_on.world,
            "lights": shot_on.lights}


def make_stage(
    table: TableState, rng: np.random.Generator, spec: PhotoSpec, folder: Path, cache: Path, *,
    camera: Camera | None = None, arrangement: Arrangement | None = None,
) -> Stage:
    """The stage of one still; ``folder`` is where Blender writes its passes, ``cache`` holds shared textures.

    Everything comes from ``rng`` in one fixed order (the set's parts among the cards' and arms'), so a
    still of a seed stays the same still.
    """
    spec.check()
    deck, faces = deck_files(spec.edition, rng, cache)
    arr = arrangement if arrangement is not None else arrange(table, rng)
    if camera is not None:
        cam = camera
    elif spec.phone:
        size = (spec.height, spec.width) if rng.random() < 0.5 else (spec.width, spec.height)
        cam = sample_camera(rng, *size, arr.extent(), hand_held=True)
    else:
        cam = sample_camera(rng, spec.width, spec.height, arr.extent())
    layers, covered = stack(arr.cards)
    cards = [card_json(i, card, layers[i], faces, None if covered[i] else rng, rng) for i, card in enumerate(arr.cards)]
    surface, table_json = surface_json(rng, spec.split, cache)
    arms = []
    if arr.cards and rng.random() < spec.hands:
        for _ in range(1 if rng.random() < 0.8 else 2):
            arms.append(arm_json(rng, *arm_reach(rng, arr)))
    objects = objects_json(rng, arr, cam) if rng.random() < spec.objects else []
    centre = arr.extent().mean(axis=0) / 1000.0
    world, lamps = lights_json(rng, centre, spec.split)
    shot_on = PhotoSet(cam, deck, faces, surface, table_json, objects, world, lamps, int(rng.integers(2**31)))
    return Stage(stage_json(shot_on, spec, folder, cards, arms), cam, arr, surface, covered, deck)
