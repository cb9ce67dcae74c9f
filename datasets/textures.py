"""Procedural table surfaces (wood, cloth, felt, stone; tiles and laminate held out) and folders of photos.

A surface is an RGB ``uint8`` square covering :data:`SURFACE_MM` of table; the scene
renderer warps it to the camera. Textures are pooled: texture ``k`` of a kind is always
drawn from the same seed, so a scene's look depends only on its own seed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

SURFACE_PX = 1024
SURFACE_MM = 1800.0
"""Side of the table square a surface image covers (it is mirrored beyond)."""
KINDS: tuple[str, ...] = ("wood", "cloth", "felt", "stone")
"""The surfaces of training data."""
HELD_OUT_KINDS: tuple[str, ...] = ("tiles", "laminate")
"""Surfaces no training run uses, for measuring on tables the models never saw."""
POOL = 6
"""Distinct textures per kind; scenes vary them further by colour and rotation."""


def smooth_noise(rng: np.random.Generator, size: int, cells: int, octaves: int = 3) -> np.ndarray:
    """Value noise in [0, 1]: random grids upsampled and summed over octaves."""
    out = np.zeros((size, size), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        n = cells * 2**o
        grid = rng.random((n + 1, n + 1), dtype=np.float32)
        out += amp * cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    out /= total
    return np.clip((out - out.min()) / max(float(np.ptp(out)), 1e-6), 0, 1)


def _colour(base: np.ndarray, shade: np.ndarray) -> np.ndarray:
    return np.clip(shade[..., None] * base[None, None, :], 0, 255).astype(np.uint8)


def wood(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    base = np.array(rng.choice([[150, 100, 60], [185, 140, 95], [110, 70, 40], [200, 165, 120], [90, 60, 45]]), np.float32)
    base *= rng.uniform(0.85, 1.15)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    warp = smooth_noise(rng, size, 3) * rng.uniform(20, 60)
    freq = rng.uniform(0.12, 0.3)
    grain = 0.5 + 0.5 * np.sin((x + warp) * freq + smooth_noise(rng, size, 12, 2) * 3)
    fine = smooth_noise(rng, size, 64, 1)
    shade = 0.78 + 0.16 * grain + 0.08 * fine
    plank = int(rng.uniform(90, 220))  # px per plank
    for _k, x0 in enumerate(range(0, size, plank)):
        shade[:, x0 : x0 + plank] *= rng.uniform(0.88, 1.1)
        shade[:, x0 : x0 + 2] *= 0.55
    return _colour(base, shade)


def cloth(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    base = np.array(rng.uniform(60, 230, 3), np.float32)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(2.5, 4.0)
    weave = 0.5 + 0.25 * (np.sin(x * 2 * np.pi / period) + np.sin(y * 2 * np.pi / period))
    shade = 0.85 + 0.08 * weave + 0.12 * smooth_noise(rng, size, 4)
    img = _colour(base, shade)
    if rng.random() < 0.4:  # gingham or stripes
        check = int(rng.uniform(20, 60))
        band_x = ((x // check) % 2).astype(np.float32)
        band_y = ((y // check) % 2).astype(np.float32) if rng.random() < 0.6 else 0
        other = np.array(rng.uniform(200, 255, 3), np.float32)
        mix = np.clip(0.5 * band_x + 0.5 * band_y, 0, 1)[..., None]
        img = (img * (1 - mix) + _colour(other, shade) * mix).astype(np.uint8)
    return img


def felt(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    base = np.array(rng.choice([[30, 110, 60], [20, 70, 120], [120, 30, 40], [50, 50, 55], [35, 90, 80]]), np.float32)
    base *= rng.uniform(0.8, 1.25)
    fuzz = rng.random((size, size), dtype=np.float32)
    fuzz = cv2.GaussianBlur(fuzz, (0, 0), 1.2)  # type: ignore[assignment]
    shade = 0.85 + 0.5 * (fuzz - 0.5) + 0.15 * smooth_noise(rng, size, 3)
    return _colour(base, shade)


def stone(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    base = np.array(rng.choice([[200, 200, 195], [120, 120, 125], [225, 215, 200], [60, 60, 65]]), np.float32)
    n = smooth_noise(rng, size, 6, 4)
    veins = np.abs(np.sin(n * rng.uniform(12, 25)))
    veins = np.clip(1 - veins * 14, 0, 1) * (smooth_noise(rng, size, 3) > 0.55)
    speck = (rng.random((size, size), dtype=np.float32) > 0.995).astype(np.float32)
    shade = 0.85 + 0.15 * smooth_noise(rng, size, 16, 3) - 0.12 * veins - 0.3 * speck
    return _colour(base, shade)


def tiles(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    """Ceramic tiles with grout lines (held out of training)."""
    base = np.array(rng.choice([[210, 200, 185], [150, 170, 180], [190, 120, 90], [235, 235, 230]]), np.float32)
    y, x = np.mgrid[0:size, 0:size]
    step = int(rng.uniform(60, 140))
    grout = ((x % step) < 4) | ((y % step) < 4)
    glaze = 0.9 + 0.1 * smooth_noise(rng, size, 8, 2)
    per_tile = rng.uniform(0.92, 1.06, (size // step + 1, size // step + 1)).astype(np.float32)
    shade = glaze * per_tile[y // step, x // step]
    shade[grout] = 0.55
    return _colour(base, shade)


def laminate(rng: np.random.Generator, size: int = SURFACE_PX) -> np.ndarray:
    """A plain plastic table top with a faint speckle (held out of training)."""
    base = np.array(rng.choice([[240, 240, 236], [200, 205, 210], [90, 95, 100], [230, 220, 190]]), np.float32)
    speck = cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), 0.8)
    shade = 0.93 + 0.06 * (speck - 0.5) + 0.05 * smooth_noise(rng, size, 2)
    return _colour(base, shade)


_MAKERS = {"wood": wood, "cloth": cloth, "felt": felt, "stone": stone, "tiles": tiles, "laminate": laminate}


@lru_cache(maxsize=4 * POOL)
def pooled(kind: str, k: int) -> np.ndarray:
    """Texture ``k`` of a kind, always the same for the same ``(kind, k)``."""
    seed = (KINDS + HELD_OUT_KINDS).index(kind) * 1000 + k
    img = _MAKERS[kind](np.random.default_rng(seed))
    img.setflags(write=False)
    return img


@lru_cache(maxsize=64)
def _folder_image(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"{path}: not a readable image")
    h, w = img.shape[:2]
    s = min(h, w)
    img = img[(h - s) // 2 : (h - s) // 2 + s, (w - s) // 2 : (w - s) // 2 + s]
    img = cv2.cvtColor(cv2.resize(img, (SURFACE_PX, SURFACE_PX), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
    img.setflags(write=False)
    return img


def folder_images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".bmp", ".webp"))


def sample_surface(rng: np.random.Generator, kinds: tuple[str, ...] = KINDS, folder: Path | None = None) -> tuple[str, np.ndarray]:
    """A table surface for one scene: a pooled texture (or a folder photo), re-tinted and turned."""
    if folder is not None and (photos := folder_images(folder)) and rng.random() < 0.5:
        kind, img = "photo", _folder_image(str(photos[int(rng.integers(len(photos)))]))
    else:
        kind = str(kinds[int(rng.integers(len(kinds)))])
        img = pooled(kind, int(rng.integers(POOL)))
    img = np.rot90(img, int(rng.integers(4)))
    gain = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gain[None, :], 0, 255).astype(np.uint8)
    out = np.empty_like(img)
    for c in range(3):
        out[..., c] = lut[img[..., c], c]
    return kind, out
