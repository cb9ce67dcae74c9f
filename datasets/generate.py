"""Write a folder of synthetic scenes: images, OBB labels, JSON truth and a dataset YAML.

    out/images/000000.jpg  out/labels/000000.txt  out/truth/000000.json  out/dataset.yaml

Scene ``i`` of seed ``s`` depends only on ``(s, i)``: the same command writes the same files.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from datasets.errors import SceneSpecError
from datasets.labels import CLASS_SETS, obb_lines, truth_json
from datasets.scene import Scene, SceneRenderer, SceneSpec
from datasets.simulator import simulate_hand
from datasets.table import TableState

SIDE_WEIGHTS = {2: 0.6, 3: 0.2, 4: 0.2}
"""How often a scene has 2, 3 or 4 sides (two sides is the common 4-player team game)."""
JPEG_QUALITY = 92


def moment(seed: int, index: int) -> tuple[TableState, np.random.Generator]:
    """Scene ``index`` of a seed: a random moment of a simulated hand, and the generator that goes on to draw its looks."""
    rng = np.random.default_rng([seed, index])
    sides = int(rng.choice(list(SIDE_WEIGHTS), p=list(SIDE_WEIGHTS.values())))
    hand = simulate_hand(int(rng.integers(2**31)), sides)
    step = int(len(hand.tables) * rng.uniform(0.15, 1.0)) if hand.tables else 0
    return (hand.tables[min(step, len(hand.tables) - 1)] if hand.tables else hand.initial), rng


def scene_for(seed: int, index: int, renderer: SceneRenderer) -> Scene:
    """Scene ``index`` of a seed: a random moment of a simulated hand, rendered."""
    table, rng = moment(seed, index)
    return renderer.render(table, rng)


def write_scene(scene: Scene, out: Path, name: str, scheme: str, extra: dict[str, object] | None = None) -> None:
    """The image, its OBB labels and its truth JSON (with ``extra`` fields, such as a photo's deck); the truth
    is written last, so a scene whose truth exists is complete."""
    cv2.imwrite(str(out / "images" / f"{name}.jpg"), scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    (out / "labels" / f"{name}.txt").write_text("".join(line + "\n" for line in obb_lines(scene, scheme)))
    truth = truth_json(scene, image=f"images/{name}.jpg") | (extra or {})
    (out / "truth" / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))


def generate_scenes(
    out: Path, *, count: int, seed: int, spec: SceneSpec = SceneSpec(), scheme: str | None = None, progress: bool = True, start: int = 0
) -> list[Path]:
    """Render ``count`` scenes into ``out``; returns the image paths.

    :raises SceneSpecError: a count below 1 or an unknown class scheme.
    """
    if count < 1:
        raise SceneSpecError(f"count must be at least 1, not {count}")
    scheme = scheme or ("cards" if spec.random_faces > 0 else "ids")
    if scheme not in CLASS_SETS:
        raise SceneSpecError(f"class scheme is one of {', '.join(CLASS_SETS)}, not {scheme!r}")
    renderer = SceneRenderer(spec)
    for sub in ("images", "labels", "truth"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    names = CLASS_SETS[scheme]
    yaml = "path: .\ntrain: images\nval: images\nnames:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(names))
    (out / "dataset.yaml").write_text(yaml)
    paths = []
    indices = range(start, start + count)
    if progress:
        from tqdm import tqdm

        indices = tqdm(indices, desc="scenes", unit="scene")
    for i in indices:
        name = f"{i:06d}"
        write_scene(scene_for(seed, i, renderer), out, name, scheme)
        paths.append(out / "images" / f"{name}.jpg")
    return paths
