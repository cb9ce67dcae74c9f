"""Labels of a rendered scene: ultralytics OBB text lines and the JSON truth (CONTRACT §4, §5).

OBB boxes follow the visible part of each card (the top strip of a card in a column, the
uncovered part of a card under a hand), aligned with the card; truth JSON keeps the full corners.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from datasets.arrangement import Arrangement
from datasets.camera import project
from datasets.scene import Scene
from scoring.cards import Card

CLASS_SETS: dict[str, tuple[str, ...]] = {
    "ids": tuple(c.value for c in Card) + ("back",),
    "cards": ("card_face_up", "card_face_down"),
}
"""OBB class names: ``ids`` (the 19 card ids and the back) or ``cards`` (face up, face down)."""

MIN_VISIBLE = 0.04
"""Cards showing less than this share of their face get no OBB label."""
MIN_PIXELS = 40


def class_of(scene_card: Any, scheme: str) -> int:
    card = scene_card.placed.card
    if scheme == "cards":
        return 0 if card is not None else 1
    return CLASS_SETS["ids"].index(card.value if card is not None else "back")


def obb_lines(scene: Scene, scheme: str = "ids") -> list[str]:
    """One ``class x1 y1 … x4 y4`` line (normalised) per card with enough of it visible."""
    W, H = scene.camera.width, scene.camera.height
    lines = []
    for v in scene.views:
        if v.visible_corners is None or v.visible < MIN_VISIBLE:
            continue
        if scheme == "ids" and v.random_face:
            continue
        box = v.visible_corners
        e1, e2 = box[1] - box[0], box[3] - box[0]
        area = abs(float(e1[0] * e2[1] - e1[1] * e2[0]))
        if area < MIN_PIXELS:
            continue
        norm = np.clip(box / [W, H], 0, 1)
        lines.append(f"{class_of(v, scheme)} " + " ".join(f"{x:.6f} {y:.6f}" for x, y in norm))
    return lines


def _pts(a: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in a]


def layout_json(scene: Scene) -> dict[str, Any]:
    """The table layout of the scene in image pixels (CONTRACT §4)."""
    return layout_of(scene.arrangement, scene.homography)


def layout_of(arrangement: Arrangement, homography: np.ndarray) -> dict[str, Any]:
    """The table layout of an arrangement seen through ``homography`` (table mm → pixels), without a rendered scene."""
    sides = []
    for area in arrangement.areas:
        centre = area.corners.mean(axis=0)
        q = project(homography, np.array([centre, centre + np.array(area.up) * 50]))
        up = (q[1] - q[0]) / (np.linalg.norm(q[1] - q[0]) + 1e-9)
        sides.append({"side": area.side, "zone": _pts(project(homography, area.corners)),
                      "up": [round(float(up[0]), 4), round(float(up[1]), 4)]})
    return {"sides": sides}


def truth_json(scene: Scene, *, image: str = "") -> dict[str, Any]:
    """Everything true about the scene: per side what ``borne detect`` should print, plus visibility."""
    record = scene.table.record()
    per_side: dict[str, list[dict[str, Any]]] = {s.side: [] for s in record.sides}
    table_cards: list[dict[str, Any]] = []
    for v in scene.views:
        entry = {
            "card": v.placed.card.value if v.placed.card is not None else "back",
            "sideways": v.placed.sideways,
            "pile": v.placed.pile,
            "corners": _pts(v.corners),
            "visible": round(v.visible, 4),
            "visible_corners": _pts(v.visible_corners) if v.visible_corners is not None else None,
            "random_face": v.random_face,
        }
        (per_side[v.placed.side] if v.placed.side else table_cards).append(entry)
    sides = []
    for s in record.sides:
        side_json = s.to_json()
        side_json["cards"] = per_side[s.side]
        sides.append(side_json)
    return {
        "image": image,
        "width": scene.camera.width,
        "height": scene.camera.height,
        "camera": scene.camera.to_json(),
        "surface": scene.surface,
        "sides": sides,
        "draw_pile": scene.table.draw_pile > 0,
        "table_cards": table_cards,
        "hand": record.to_json(),
        "layout": layout_json(scene),
    }
