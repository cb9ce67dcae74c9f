"""Scenes per second at 1280×720 and the time of a 60-frame sequence, on this machine.

    python bench/bench_scenes.py [--count 40] [--width 1280 --height 720]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    from datasets.generate import generate_scenes
    from datasets.scene import SceneSpec
    from datasets.sequence import generate_sequence

    spec = SceneSpec(width=args.width, height=args.height)
    with tempfile.TemporaryDirectory() as tmp:
        generate_scenes(Path(tmp) / "warm", count=3, seed=999, spec=spec, progress=False)  # faces, textures
        t = time.perf_counter()
        generate_scenes(Path(tmp) / "scenes", count=args.count, seed=1, spec=spec, progress=False)
        dt = time.perf_counter() - t
        print(f"scenes: {args.count} at {args.width}x{args.height} in {dt:.2f} s = {args.count / dt:.1f} scenes/s (images + labels written)")
        t = time.perf_counter()
        generate_sequence(Path(tmp) / "seq", seed=1, spec=spec, max_frames=args.frames, progress=False)
        dt = time.perf_counter() - t
        print(f"sequence: {args.frames} frames at {args.width}x{args.height} in {dt:.2f} s (frames, truth and video written)")


if __name__ == "__main__":
    main()
