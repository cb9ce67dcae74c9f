"""Table tops for photo-real scenes: photographed textures from GIMP's pattern set, and our procedural ones.

GIMP's patterns (Debian's ``gimp-data``) are small photographs of wood, parquet, stone, marble,
leather, cloth and paper, 50–160 px across; Blender tiles them over the table at about
:data:`MM_PER_PX` millimetres per pixel, varies their colour over large patches so that the repeat
does not show, and adds a fine grain of its own. Some are held out (:data:`HELD_OUT`): no training scene uses them, the test split does.
Read straight from the ``.pat`` files (a short header, then raw pixels), so nothing but the
package is needed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from datasets.errors import SceneSpecError

PATTERNS = Path("/usr/share/gimp/2.0/patterns")
"""Where Debian's ``gimp-data`` puts GIMP's patterns."""
MM_PER_PX = (1.6, 2.6)
"""Range of table millimetres one pattern pixel covers."""


@dataclass(frozen=True)
class Pattern:
    """One photographed texture and how its surface reflects."""

    name: str
    file: str
    roughness: float
    """How matte the surface is (0 mirror, 1 chalk): varnished wood is glossier than cloth."""


TRAINING: tuple[Pattern, ...] = (
    Pattern("wood1", "Wood/wood1.pat", 0.35), Pattern("wood2", "Wood/wood2.pat", 0.4),
    Pattern("wood4", "Wood/wood4.pat", 0.35), Pattern("wood5", "Wood/wood5.pat", 0.45),
    Pattern("pine", "Wood/pine.pat", 0.5), Pattern("burlwood", "Wood/burlwood.pat", 0.3),
    Pattern("parque1", "Wood/parque1.pat", 0.4), Pattern("parque2", "Wood/parque2.pat", 0.4),
    Pattern("corkboard", "Wood/corkboard.pat", 0.8), Pattern("granite", "Stone/granite1.pat", 0.3),
    Pattern("marble1", "Stone/marble1.pat", 0.2), Pattern("marble2", "Stone/marble2.pat", 0.25),
    Pattern("stone33", "Stone/stone33.pat", 0.6), Pattern("burlap", "Fabric/burlap.pat", 0.9),
    Pattern("paper", "Paper/paper.pat", 0.85),
)
HELD_OUT: tuple[Pattern, ...] = (
    Pattern("wood3", "Wood/wood3.pat", 0.4), Pattern("walnut", "Wood/walnut.pat", 0.35),
    Pattern("parque3", "Wood/parque3.pat", 0.4), Pattern("slate", "Stone/slate.pat", 0.55),
    Pattern("marble3", "Stone/marble3.pat", 0.2), Pattern("leather", "Animal/leather.pat", 0.6),
)
"""Surfaces only the photo-real held-out split lies on (development data since 2026-12-06)."""
TEST: tuple[Pattern, ...] = (
    Pattern("pink_marble", "Stone/pink_marble.pat", 0.2), Pattern("terra", "Stone/terra.pat", 0.5),
    Pattern("crinklepaper", "Paper/crinklepaper.pat", 0.85), Pattern("fibers", "Legacy/fibers.pat", 0.9),
    Pattern("leopard", "Animal/leopard.pat", 0.85), Pattern("ground", "Stone/ground1.pat", 0.6),
)
"""Surfaces only the photo-real test split lies on (``--test-split``): measured on, never looked at while tuning."""


def read_pattern(path: Path) -> NDArray[np.uint8]:
    """A GIMP ``.pat`` file as an RGB ``uint8`` array.

    :raises SceneSpecError: a missing file or one that is not a GIMP pattern.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SceneSpecError(f"{path}: cannot read the pattern ({e}); photo-real tables need Debian's gimp-data") from None
    if len(data) < 24 or data[20:24] != b"GPAT":
        raise SceneSpecError(f"{path}: not a GIMP pattern")
    header, _version, width, height, depth = struct.unpack(">5I", data[:20])
    pixels = np.frombuffer(data, np.uint8, width * height * depth, header).reshape(height, width, depth)
    if depth in (1, 2):
        return np.repeat(pixels[..., :1], 3, axis=2)
    return np.ascontiguousarray(pixels[..., :3])


def pattern_path(pattern: Pattern, root: Path = PATTERNS) -> Path:
    return root / pattern.file
