"""Peak memory with ONNX Runtime's memory pattern on and off (development only).

    python bench/dev_onnx_memory.py [--hand FOLDER] [--runs 12]

Each setting runs in a process of its own (a process's peak never comes down): the shipped detector alone, ``--runs``
times on a 640 × 640 input (peak RSS, median ms a run), and, with ``--hand`` (a 2-D or photo-real hand's folder:
frames/, layout.json), the live pipeline replaying that hand as ``borne replay`` does (peak RSS, frames/s). The
setting is :data:`vision.read.onnx_runtime.memory_pattern`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM), in MB."""
    line = next(li for li in Path("/proc/self/status").read_text().splitlines() if li.startswith("VmHWM"))
    return int(line.split()[1]) / 1024


def measure(pattern: bool, hand: str | None, runs: int) -> dict[str, float]:
    """The figures of one setting, in this process."""
    from vision.read import onnx_runtime

    onnx_runtime.memory_pattern = pattern
    if hand is None:
        from vision.read.detector import OnnxCardDetector
        from vision.read.models import detector_path

        detector = OnnxCardDetector(detector_path())
        tile = np.random.default_rng(0).integers(0, 256, (640, 640, 3), dtype=np.uint8)
        seconds = []
        for _ in range(runs):
            t = time.perf_counter()
            detector.detect(tile)
            seconds.append(time.perf_counter() - t)
        return {"peak_mb": peak_mb(), "ms": 1000 * float(np.median(seconds[2:]))}
    from vision.feeding import run_source
    from vision.pipeline import Pipeline
    from vision.read.frame_reader import FrameReader
    from vision.sources.files import FolderSource
    from vision.table.layout import TableLayout

    folder = Path(hand)
    settings = json.loads((folder / "sequence.json").read_text()) if (folder / "sequence.json").is_file() else {}
    fps = int(settings.get("fps", 10))
    pipeline = Pipeline(FrameReader.from_models(str(settings.get("edition") or "generic")),
                        TableLayout.from_file(folder / "layout.json"), fps=fps)
    t = time.perf_counter()
    run_source(FolderSource(folder / "frames", fps=fps), pipeline)
    return {"peak_mb": peak_mb(), "frames_per_s": pipeline.frames / (time.perf_counter() - t)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hand", help="also replay this hand's frames (a folder with frames/ and layout.json)")
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    ap.add_argument("--what", choices=("detector", "hand"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.child == "on", args.hand if args.what == "hand" else None, args.runs)))
        return
    whats = ["detector"] + (["hand"] if args.hand else [])
    for what in whats:
        for setting in ("on", "off"):
            command = [sys.executable, __file__, "--child", setting, "--what", what, "--runs", str(args.runs)]
            command += ["--hand", args.hand] if args.hand else []
            figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
            print(f"{what}, memory pattern {setting}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
