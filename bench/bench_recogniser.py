"""Face accuracy of an edition's recogniser on held-out scenes, given the true boxes.

    python bench/bench_recogniser.py [--edition generic] [--scenes 200] [--seed 9001]

Scenes use another seed and table surfaces no training run used. Boxes are the true boxes of each card's visible part with their corners jittered by 1.5 px and in a
random order (as a detector gives them). Prints accuracy, the share answered (not "unknown") and
precision, for cards with at least a quarter of the face visible and for the rest, and by how long
the card is in the frame (a deck told apart only by its numerals needs more pixels per card).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from numpy.typing import NDArray

from datasets.generate import scene_for
from datasets.scene import SceneRenderer, SceneSpec
from datasets.textures import HELD_OUT_KINDS
from vision.read.models import recogniser_path
from vision.read.recogniser import FaceRecogniser, Recogniser
from vision.training.face_fitting import readable_faces

LENGTH_BANDS = ((0, 60), (60, 75), (75, 90), (90, 1_000_000))
"""Bands of a card's length in the frame (px), whole card, visible or not."""


def card_length_px(corners: np.ndarray) -> float:
    q = np.asarray(corners, dtype=np.float64)
    return float(max(np.linalg.norm(q[3] - q[0]), np.linalg.norm(q[1] - q[0])))


def measure(
    recogniser: Recogniser, *, scene_edition: str, scenes: int, seed: int, surfaces: tuple[str, ...] = HELD_OUT_KINDS
) -> None:
    """Render held-out scenes with ``scene_edition``'s faces and print how well ``recogniser`` reads them."""
    renderer = SceneRenderer(SceneSpec(edition=scene_edition, surfaces=surfaces))
    rng = np.random.default_rng(seed)
    rows = []
    seconds = 0.0
    for i in range(scenes):
        scene = scene_for(seed, i, renderer)
        image = np.ascontiguousarray(scene.image[..., ::-1])
        views = readable_faces(scene.views)
        boxes: list[NDArray[np.floating]] = [np.roll(v.visible_corners, int(rng.integers(4)), axis=0) + rng.normal(0, 1.5, (4, 2)) for v in views]
        t0 = time.perf_counter()
        readings = recogniser.read(image, boxes)
        seconds += time.perf_counter() - t0
        rows += [(v.card, r.card, v.visible, card_length_px(v.corners)) for v, r in zip(views, readings, strict=True)]
    truth = np.array([t.value for t, _, _, _ in rows])
    said = np.array([p.value if p else "unknown" for _, p, _, _ in rows])
    visible = np.array([v for _, _, v, _ in rows])
    length = np.array([n for _, _, _, n in rows])
    right = truth == said
    answered = said != "unknown"
    print(f"recogniser {recogniser.edition!r} on {scenes} held-out scenes of {scene_edition!r} faces (seed {seed}, "
          f"surfaces {', '.join(surfaces)}), "
          f"{len(rows)} readable cards")
    for name, mask in (("at least 1/4 visible", visible >= 0.25), ("less than 1/4 visible", visible < 0.25)):
        n = int(mask.sum())
        if n == 0:
            continue
        print(f"  {name:<22} n={n:>5}  accuracy {right[mask].mean():.4f}  answered {answered[mask].mean():.4f}  "
              f"precision {right[mask & answered].mean():.4f}")
    quarter = visible >= 0.25
    for low, high in LENGTH_BANDS:
        mask = quarter & (length >= low) & (length < high)
        n = int(mask.sum())
        if n:
            print(f"    card {low:>3}–{high if high < 1e6 else '':<3} px long  n={n:>5}  accuracy {right[mask].mean():.4f}  "
                  f"answered {answered[mask].mean():.4f}  precision {right[mask & answered].mean():.4f}")
    print(f"  reading time: {1000 * seconds / max(len(rows), 1):.2f} ms per card (four turns each)")
    wrong = collections.Counter(zip(truth[~right & answered], said[~right & answered], strict=True)).most_common(5)
    if wrong:
        print("  most frequent mistakes:", ", ".join(f"{a}→{b} ×{n}" for (a, b), n in wrong))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", default="generic")
    parser.add_argument("--surfaces", default=",".join(HELD_OUT_KINDS),
                        help="table surfaces (default: the ones no training run used)")
    parser.add_argument("--scene-edition", default=None, help="render the scenes with another edition's faces")
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9001, help="scene seed (training used 21)")
    args = parser.parse_args()
    recogniser = FaceRecogniser.load(recogniser_path(args.edition))
    measure(recogniser, scene_edition=args.scene_edition or args.edition, scenes=args.scenes, seed=args.seed,
            surfaces=tuple(args.surfaces.split(",")))


if __name__ == "__main__":
    main()
