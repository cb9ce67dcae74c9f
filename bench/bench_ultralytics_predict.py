"""Ultralytics' own `predict` on the same detector weights and the same tiles, for comparison with `borne detect`.

    .venv-train/bin/python bench/bench_ultralytics_predict.py [--weights build/runs/detector/weights/best.pt] [--scenes 30]

Needs the train extra (torch, ultralytics). Runs on the CPU with the tiles `borne detect` uses (six
480-px tiles of a 1280 × 720 frame, each at imgsz 640) and prints the median and worst time per frame
(all tiles, ultralytics' pre- and post-processing included) and torch's thread count.
Compare with `bench/bench_detect.py`, which runs the exported ONNX model.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from datasets.generate import scene_for
from datasets.scene import SceneRenderer, SceneSpec
from vision.read.tiling import STILL_TILE_SHARE, tile_windows
from vision.training.offline import prepare_offline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", default="build/runs/detector/weights/best.pt")
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--tile-share", type=float, default=STILL_TILE_SHARE,
                        help="tile side as a share of the frame's shorter side (default: `borne detect`'s)")
    args = parser.parse_args()
    prepare_offline(Path("build"))
    import torch
    from ultralytics import YOLO

    model = YOLO(args.weights, task="obb")
    renderer = SceneRenderer(SceneSpec(width=1280, height=720))
    frames = [np.ascontiguousarray(scene_for(args.seed, i, renderer).image[..., ::-1]) for i in range(args.scenes)]
    wins = tile_windows(1280, 720, tile_share=args.tile_share)
    model.predict(frames[0][: wins[0].size, : wins[0].size], imgsz=args.imgsz, device="cpu", verbose=False)  # warm up
    times = []
    for frame in frames:
        t0 = time.perf_counter()
        for w in wins:
            model.predict(frame[w.y : w.y + w.size, w.x : w.x + w.size], imgsz=args.imgsz, device="cpu",
                          verbose=False, conf=0.25, iou=0.7)
        times.append(time.perf_counter() - t0)
    print(f"ultralytics predict ({args.weights}, torch {torch.__version__}, {torch.get_num_threads()} threads): "
          f"median {1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms per 1280×720 frame "
          f"({len(wins)} tiles at imgsz {args.imgsz}, {args.scenes} frames)")


if __name__ == "__main__":
    main()
