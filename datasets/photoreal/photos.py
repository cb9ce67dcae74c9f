"""Photo-real scenes in resumable batches: stages → Blender → finished photos with the same labels as 2-D scenes.

    out/images/000000.jpg  out/labels/000000.txt  out/truth/000000.json  out/dataset.yaml

The truth JSON is the 2-D scenes' with the deck the cards are printed from (``edition``).

Scene ``i`` of seed ``s`` is the same moment of the same simulated hand as 2-D scene ``i`` would be
(:func:`datasets.generate.scene_for` draws from the same generator), rendered by Blender. Labels come
from the render itself: card corners projected with the camera, visible fractions and visible boxes
from Blender's object-index pass. Scenes whose files exist are skipped, so an interrupted batch
resumes; Blender's passes live in ``out/.passes/`` until a scene is finished.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from datasets.camera import project
from datasets.errors import SceneSpecError
from datasets.generate import moment, write_scene
from datasets.labels import CLASS_SETS
from datasets.occluders import OCCLUDER
from datasets.photoreal.finish import photo_from_passes, read_pass
from datasets.photoreal.stage import OCCLUDER_INDEX, PhotoSpec, Stage, make_stage
from datasets.scene import EMPTY, CardView, Scene, visible_box
from datasets.table import TableState

BLENDER = "blender"
SCRIPT = Path(__file__).with_name("in_blender.py")
T = TypeVar("T")
BATCH = 4
"""Stages one Blender process renders (Blender takes a few seconds to start)."""


def blender_available(blender: str = BLENDER) -> bool:
    return shutil.which(blender) is not None


def id_buffer(index_pass: np.ndarray, cards: int) -> np.ndarray:
    """Blender's object indices as the 2-D renderer's id buffer: card ``k`` (0-based), :data:`OCCLUDER`, :data:`EMPTY`."""
    ids = np.rint(index_pass).astype(np.int32)
    out = np.full(ids.shape, EMPTY, np.int16)
    is_card = (ids >= 1) & (ids <= cards)
    out[is_card] = ids[is_card] - 1
    out[ids == OCCLUDER_INDEX] = OCCLUDER
    return out


def labelled_scene(stage: Stage, table: TableState, image: np.ndarray, idbuf: np.ndarray) -> Scene:
    """A :class:`~datasets.scene.Scene` of a rendered stage, its visibility measured on the id buffer."""
    hom = stage.camera.homography()
    counts = np.bincount((idbuf.ravel().astype(np.int32) - EMPTY), minlength=len(stage.arrangement.cards) + 2)[2:]
    views = []
    for i, placed in enumerate(stage.arrangement.cards):
        h_face = hom @ placed.face_to_table(1, 1)
        corners = project(h_face, np.array([[0, 0], [1, 0], [1, 1], [0, 1.0]]))
        area = max(abs(float(cv2.contourArea(corners.astype(np.float32)))), 1.0)
        view = CardView(placed, corners, float(min(1.0, counts[i] / area)), None)
        if counts[i]:
            view.visible_corners = visible_box(idbuf, i, corners, h_face, (1, 1))
        views.append(view)
    return Scene(image, stage.camera, table, stage.arrangement, views, hom, idbuf, stage.surface)


def render_stages(stages: list[Stage], jobs: Path, blender: str, log: Path) -> None:
    """One Blender process renders ``stages`` (those whose ``done`` file is missing), logging to ``log``.

    :raises SceneSpecError: Blender stopped with an error.
    """
    jobs.write_text(json.dumps({"stages": [s.json for s in stages]}))
    with log.open("a") as out:
        done = subprocess.run([blender, "-b", "--factory-startup", "--python", str(SCRIPT), "--", str(jobs)],
                              stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise SceneSpecError(f"Blender stopped with status {done.returncode}; see {log}")


def generate_photos(
    out: Path, *, count: int, seed: int, spec: PhotoSpec | None = None, start: int = 0, blender: str = BLENDER,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """Render scenes ``start … start + count - 1`` of a seed into ``out``; returns the image paths.

    :raises SceneSpecError: a count below 1, no Blender, or Blender failing on a scene.
    """
    if count < 1:
        raise SceneSpecError(f"count must be at least 1, not {count}")
    spec = spec if spec is not None else PhotoSpec()
    spec.check()
    if not blender_available(blender):
        raise SceneSpecError(f"{blender}: not found; photo-real scenes need Blender (apt-get install blender)")
    for sub in ("images", "labels", "truth", ".passes"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    names = CLASS_SETS["ids"]
    (out / "dataset.yaml").write_text("path: .\ntrain: images\nval: images\nnames:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(names)))
    todo = [i for i in range(start, start + count) if not (out / "truth" / f"{i:06d}.json").is_file()]
    if progress is not None:
        progress(count - len(todo))
    for batch in batches(todo, BATCH):
        work = []
        for i in batch:
            table, rng = moment(seed, i)
            stage = make_stage(table, rng, spec, out / ".passes" / f"{i:06d}", out / ".passes" / "textures")
            work.append((i, table, rng, stage))
        render_stages([w[3] for w in work], out / ".passes" / "jobs.json", blender, out / ".passes" / "blender.log")
        for i, table, rng, stage in work:
            folder = out / ".passes" / f"{i:06d}"
            idbuf = id_buffer(read_pass(folder, "index"), len(stage.arrangement.cards))
            scene = labelled_scene(stage, table, photo_from_passes(folder, rng), idbuf)
            write_scene(scene, out, f"{i:06d}", "ids", {"edition": stage.deck})
            shutil.rmtree(folder)
            if progress is not None:
                progress(1)
    return [out / "images" / f"{i:06d}.jpg" for i in range(start, start + count)]


def batches(items: list[T], size: int) -> Iterable[list[T]]:
    """``items`` in runs of ``size`` (the last one shorter): the work of one Blender start each."""
    for k in range(0, len(items), size):
        yield items[k : k + size]
