"""Distance values read from the printed numerals, with no enrolment, given each card's true outline.

    python bench/bench_numerals.py --photos FOLDER [--photos FOLDER ...] [--scenes N]

Every whole distance card (at least 0.9 of it visible) of each still is read by `vision/read/numerals.py`
(PP-OCRv4's text recogniser through ONNX Runtime) from its true outline. Prints per folder: right, wrong
(a value said that is not the card's) and nothing said, over all cards and over cards 50 px long or more,
and the time per card.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import card_length, folder_stills  # noqa: E402

from scoring.cards import Card  # noqa: E402
from vision.read.numerals import NumeralReader  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", required=True)
    parser.add_argument("--scenes", type=int, default=None)
    args = parser.parse_args()
    reader = NumeralReader.shipped()
    seconds: list[float] = []
    for folder in args.photos:
        rows = []
        for still in folder_stills(folder, args.scenes):
            for v in still.views():
                if v["card"] == "back" or v["random_face"] or v["visible"] < 0.9 or not Card(v["card"]).is_distance:
                    continue
                started = time.perf_counter()
                said = reader.value(still.image, np.asarray(v["visible_corners"], np.float64))
                seconds.append(time.perf_counter() - started)
                rows.append((card_length(v["corners"]), Card(v["card"]).km, said))
        for name, chosen in (("all", rows), ("50 px or more", [r for r in rows if r[0] >= 50])):
            right = sum(said == km for _, km, said in chosen)
            wrong = sum(said is not None and said != km for _, km, said in chosen)
            print(f"{folder}: {name:<14} n={len(chosen):4d}  right {right}  wrong {wrong}  nothing said {len(chosen) - right - wrong}")
    if seconds:
        print(f"time per card: median {1000 * np.median(seconds):.0f} ms")


if __name__ == "__main__":
    main()
