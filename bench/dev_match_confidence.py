"""The matcher's confidence, fitted: how often a reading is right, from its correlation, its margin and
whether the card was compared whole (development only).

    python bench/dev_match_confidence.py --photos FOLDER [--photos FOLDER ...] [--scenes N]

Each still is read as `borne detect` reads it (the shipped detector on the still's six tiles, each face-up
box's outline, then the face matched on it); a reading is right when the box lies on a card of the truth
(rotated IoU ≥ 0.5 with its visible part) and names it, the back included; a box on no card is never right.
Fits a logistic model of right ~ correlation + margin + whole by Newton's method and prints the weights
to put in `vision/read/matcher.py` (``CONFIDENCE_WEIGHTS``), with the calibration by tenths. Run it on
development folders only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import folder_stills  # noqa: E402
from bench_match import matcher_for  # noqa: E402

from vision.geometry import iou  # noqa: E402
from vision.read.detector import OnnxCardDetector  # noqa: E402
from vision.read.matcher import FaceMatcher  # noqa: E402
from vision.read.models import detector_path  # noqa: E402
from vision.read.tiling import STILL_TILE_SHARE, TiledDetector  # noqa: E402


def evidence(folders: list[Path], scenes: int | None) -> tuple[np.ndarray, np.ndarray]:
    detector = TiledDetector(OnnxCardDetector(detector_path()), tile_share=STILL_TILE_SHARE)
    cache: dict[str, FaceMatcher] = {}
    rows, right = [], []
    for folder in folders:
        for still in folder_stills(folder, scenes):
            matcher = matcher_for(str(still.truth.get("edition", "generic")), folder, cache)
            truth = [(np.asarray(v["visible_corners"], np.float64), v["card"]) for v in still.views()]
            found = detector.detect(still.image)
            for box in found.corners:
                outline = matcher.outline(still.image, box)
                match = matcher.match(still.image, box if outline is None else outline)
                if match is None:
                    continue
                overlaps = [iou(t, box) for t, _ in truth]
                k = int(np.argmax(overlaps)) if overlaps else -1
                said = "back" if match.face == len(matcher.cards) else matcher.cards[match.face].value
                rows.append((match.correlation, match.margin, float(match.whole)))
                right.append(k >= 0 and overlaps[k] >= 0.5 and truth[k][1] == said)
    return np.asarray(rows), np.asarray(right, dtype=np.float64)


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Weights (intercept first) of a logistic regression, by Newton's method with a little ridge."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        gradient = a.T @ (p - y) + ridge * w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", required=True)
    parser.add_argument("--scenes", type=int, default=None)
    args = parser.parse_args()
    x, y = evidence(args.photos, args.scenes)
    w = fit_logistic(x, y)
    print(f"{len(y)} readings, {int(y.sum())} right")
    print("CONFIDENCE_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    p = 1 / (1 + np.exp(-(w[0] + x @ w[1:])))
    for low in np.arange(0, 1, 0.1):
        inside = (p >= low) & (p < low + 0.1)
        if inside.any():
            print(f"  confidence {low:.1f}–{low + 0.1:.1f}: {inside.sum():5d} readings, right {y[inside].mean():.3f}")


if __name__ == "__main__":
    main()
