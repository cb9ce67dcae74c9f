"""A pinhole camera above the table plane: the homography from table millimetres to image pixels.

Table coordinates: millimetres on the table, x to South's right, y from South towards North.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

HEIGHT_MM = (600.0, 1400.0)
"""Camera heights above the table that Borne is designed for."""
MAX_TILT_DEG = 30.0
HFOV_DEG = (55.0, 82.0)
"""Horizontal fields of view of webcams and phone main cameras."""
HAND_HELD_HEIGHT_MM = (500.0, 1200.0)
HAND_HELD_MAX_TILT_DEG = 35.0
HAND_HELD_HFOV_DEG = (63.0, 75.0)
"""A phone's main camera held over the table for one photo (CONTRACT §9): lower, more tilted, a narrower view."""


@dataclass(frozen=True)
class Camera:
    """Where the camera is and how it looks at the table."""

    width: int
    height: int
    hfov_deg: float
    height_mm: float
    """Height of the camera above the table."""
    tilt_deg: float
    """Angle between the optical axis and the vertical."""
    tilt_dir_deg: float
    """Direction (in table coordinates) the camera leans towards."""
    yaw_deg: float
    """Rotation of the picture about the vertical: 0 puts South at the bottom of the image."""
    target: tuple[float, float]
    """The table point at the centre of the image, in millimetres."""

    @property
    def focal_px(self) -> float:
        return self.width / 2 / math.tan(math.radians(self.hfov_deg) / 2)

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """The camera's rotation (rows: image right, image down and the optical axis, in table
        coordinates with z up) and its centre in table millimetres."""
        psi = math.radians(self.yaw_deg)
        # looking straight down, image x along (cos, sin), image y along (sin, -cos)
        r = np.array([[math.cos(psi), math.sin(psi), 0], [math.sin(psi), -math.cos(psi), 0], [0, 0, -1.0]])
        # lean: rotate the optical axis by tilt towards tilt_dir, about a horizontal axis
        t, a = math.radians(self.tilt_deg), math.radians(self.tilt_dir_deg)
        axis = np.array([-math.sin(a), math.cos(a), 0.0])
        lean = _rotation(axis, -t)
        r = r @ lean.T
        view = r.T @ np.array([0, 0, 1.0])  # optical axis in table coordinates
        centre = np.array([self.target[0], self.target[1], 0.0]) - view * (self.height_mm / abs(view[2]))
        return r, centre

    def homography(self) -> np.ndarray:
        """3×3 matrix taking table millimetres ``(x, y, 1)`` to image pixels."""
        f = self.focal_px
        k = np.array([[f, 0, self.width / 2], [0, f, self.height / 2], [0, 0, 1]])
        r, centre = self.pose()
        h = k @ np.column_stack([r[:, 0], r[:, 1], -r @ centre])
        return h / h[2, 2]

    def to_json(self) -> dict[str, float | int]:
        return {"width": self.width, "height": self.height, "hfov_deg": round(self.hfov_deg, 2),
                "height_mm": round(self.height_mm, 1), "tilt_deg": round(self.tilt_deg, 2),
                "tilt_dir_deg": round(self.tilt_dir_deg, 1), "yaw_deg": round(self.yaw_deg, 1)}


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    x, y, z = axis / np.linalg.norm(axis)
    c, s = math.cos(angle), math.sin(angle)
    return np.array([
        [c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
        [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
        [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)],
    ])


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to an ``(N, 2)`` array of points."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def fits(cam: Camera, points: np.ndarray, margin: float = 0.03) -> bool:
    """All table points project inside the image, away from the border by ``margin`` of its size."""
    q = project(cam.homography(), points)
    mx, my = cam.width * margin, cam.height * margin
    return bool(np.all((q[:, 0] > mx) & (q[:, 0] < cam.width - mx) & (q[:, 1] > my) & (q[:, 1] < cam.height - my)))


def sample_camera(rng: np.random.Generator, width: int, height: int, area: np.ndarray, *, upright: bool = False,
                  hand_held: bool = False) -> Camera:
    """A random camera that keeps the whole play area (table points ``area``) in frame.

    The lowest height in 0.6–1.4 m that fits is found, then raised a little at random;
    when the area does not fit even at 1.4 m the field of view is widened. ``hand_held``: a phone held
    over the table for one photo (0.5–1.2 m, tilted up to 35°, a phone's field of view).
    """
    heights = HAND_HELD_HEIGHT_MM if hand_held else HEIGHT_MM
    hfov = float(rng.uniform(*(HAND_HELD_HFOV_DEG if hand_held else HFOV_DEG)))
    if hand_held:
        tilt = float(rng.uniform(0, HAND_HELD_MAX_TILT_DEG))
    else:
        tilt = float(rng.uniform(0, MAX_TILT_DEG) if rng.random() < 0.8 else rng.uniform(0, 6))
    tilt_dir = float(rng.uniform(0, 360))
    yaw = float(rng.normal(0, 8) if upright else rng.uniform(0, 360))
    lo, hi = area.min(axis=0), area.max(axis=0)
    target = (float((lo[0] + hi[0]) / 2 + rng.normal(0, 20)), float((lo[1] + hi[1]) / 2 + rng.normal(0, 20)))
    for _ in range(12):
        def cam_at(h_mm: float) -> Camera:
            return Camera(width, height, hfov, h_mm, tilt, tilt_dir, yaw, target)  # noqa: B023 - called within this iteration only

        if fits(cam_at(heights[1]), area):
            a, b = heights
            if fits(cam_at(a), area):
                b = a
            else:
                for _ in range(14):
                    m = (a + b) / 2
                    a, b = (a, m) if fits(cam_at(m), area) else (m, b)
            h_mm = b + float(rng.uniform(0, 0.35)) * (heights[1] - b)
            return cam_at(h_mm)
        hfov = min(hfov + 5, 100.0)
        tilt *= 0.8
    return Camera(width, height, hfov, heights[1], tilt, tilt_dir, yaw, target)
