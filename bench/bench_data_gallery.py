"""Render the gallery: 12 scenes with their labels drawn on, and a montage of the generic faces.

    python bench/bench_data_gallery.py OUT_DIR [--seed 2024]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    from datasets.edition import FACE_KEYS, load_edition
    from datasets.generate import scene_for
    from datasets.scene import SceneRenderer, SceneSpec

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    renderer = SceneRenderer(SceneSpec())
    for i in range(12):
        scene = scene_for(args.seed, i, renderer)
        img = np.ascontiguousarray(scene.image[..., ::-1])
        for v in scene.views:
            if v.visible_corners is not None and v.visible > 0.04:
                colour = (0, 220, 0) if not v.placed.sideways else (0, 200, 255)
                cv2.polylines(img, [np.round(v.visible_corners).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        for side in __import__("datasets.labels", fromlist=["layout_json"]).layout_json(scene)["sides"]:
            cv2.polylines(img, [np.round(np.array(side["zone"])).astype(np.int32)], True, (255, 120, 0), 1, cv2.LINE_AA)
        cv2.imwrite(str(out / f"scene_{i:02d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 80])
    ed = load_edition("generic")
    tiles = [cv2.resize(ed.face(k), (150, 233), interpolation=cv2.INTER_AREA) for k in FACE_KEYS]
    rows = [np.hstack(tiles[r * 10 : r * 10 + 10]) for r in range(2)]
    cv2.imwrite(str(out / "generic_deck.jpg"), np.vstack(rows)[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    main()
