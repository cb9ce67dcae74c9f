"""How close the cards' outlines come to their true corners: the detector's boxes, then refined.

    python bench/bench_outline.py --photos FOLDER [--photos FOLDER ...] [--scenes N] [--tiles still|video]
                                  [--detector FILE] [--worst DIR]

For every card of the truth at least 0.9 visible that a box of the shipped detector matches (rotated
IoU ≥ 0.5 with its visible part, as bench_detect counts a card found), the corner error is the mean
distance of the four corners from the true ones (in the corner order that fits best: the detector does
not know a card's top), as a share of the card's length in the picture. Printed for the detector's box
and for the outline `vision/read/outline.py` makes of it: median, 90th percentile, share over 5 % and
the time per box. With ``--worst DIR`` the 20 worst refined outlines are drawn (true corners green, the
box red, the outline yellow) to look at.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import card_length, folder_stills  # noqa: E402

from vision.geometry import iou  # noqa: E402
from vision.read.outline import refine_outline  # noqa: E402

WHOLE = 0.9


def corner_error(found: NDArray[np.floating], true: NDArray[np.floating]) -> float:
    """Mean corner distance of two quadrilaterals in their best-fitting corner order, in pixels.

    >>> corner_error(np.array([[1., 0], [1, 1], [0, 1], [0, 0]]), np.array([[0., 0], [1, 0], [1, 1], [0, 1]]))
    0.0
    """
    f = np.asarray(found, dtype=np.float64).reshape(4, 2)
    t = np.asarray(true, dtype=np.float64).reshape(4, 2)
    orders = [np.roll(f, k, axis=0) for k in range(4)] + [np.roll(f[::-1], k, axis=0) for k in range(4)]
    return float(min(np.linalg.norm(o - t, axis=1).mean() for o in orders))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", required=True, help="a folder of `borne data photos`")
    parser.add_argument("--scenes", type=int, default=None, help="at most this many scenes per folder")
    parser.add_argument("--tiles", choices=("still", "video"), default="still",
                        help="the detector's tiles: a still photo's six (`detect`) or the video's two")
    parser.add_argument("--detector", type=Path, default=None, help="another ONNX detector than the shipped one")
    parser.add_argument("--worst", type=Path, default=None, help="draw the 20 worst outlines into this folder")
    parser.add_argument("--align", action="store_true",
                        help="also outline each box as `borne detect` does (its matched face aligned with the frame; the scene's deck, as bench_match enrols it)")
    args = parser.parse_args()

    from vision.read.detector import OnnxCardDetector
    from vision.read.models import detector_path
    from vision.read.tiling import LIVE_TILE_SHARE, STILL_TILE_SHARE, TiledDetector

    share = STILL_TILE_SHARE if args.tiles == "still" else LIVE_TILE_SHARE
    detector = TiledDetector(OnnxCardDetector(args.detector or detector_path()), tile_share=share)
    aligned_errors: list[float] = []
    matchers: dict[str, Any] = {}
    box_errors: list[float] = []
    outline_errors: list[float] = []
    seconds: list[float] = []
    cases: list[tuple[float, NDArray[np.uint8], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]] = []
    scenes = aligned_count = 0
    align_seconds: list[float] = []
    for folder in args.photos:
        for still in folder_stills(folder, args.scenes):
            scenes += 1
            found = detector.detect(still.image)
            boxes = [found.corners[i] for i in range(len(found))]
            used: set[int] = set()
            for v in still.views():
                if v["card"] == "back" or v["visible"] < WHOLE:
                    continue
                true = np.asarray(v["corners"], dtype=np.float64)
                visible = np.asarray(v["visible_corners"], dtype=np.float64)
                overlaps = [(iou(visible, b), k) for k, b in enumerate(boxes) if k not in used]
                best = max(overlaps, default=(0.0, -1))
                if best[0] < 0.5:
                    continue
                used.add(best[1])
                box = boxes[best[1]]
                started = time.perf_counter()
                outline = refine_outline(still.image, box)
                seconds.append(time.perf_counter() - started)
                length = card_length(v["corners"])
                box_errors.append(corner_error(box, true) / length)
                outline_errors.append(corner_error(outline.corners, true) / length)
                cases.append((outline_errors[-1], still.image, true, box, outline.corners))
                if args.align:
                    from bench_match import matcher_for

                    matcher = matcher_for(str(still.truth.get("edition", "generic")), folder, matchers)
                    started = time.perf_counter()
                    aligned = matcher.outline(still.image, box)  # as `borne detect` outlines a box
                    align_seconds.append(time.perf_counter() - started)
                    # where the face does not align, the box stands
                    aligned_errors.append(corner_error(aligned if aligned is not None else box, true) / length)
                    aligned_count += aligned is not None
    print(f"{len(box_errors)} cards at least {WHOLE:.0%} visible, boxed by the detector ({args.tiles} tiles), "
          f"in {scenes} photo-real scenes of {', '.join(str(f) for f in args.photos)}")
    rows = [("detector's box", box_errors), ("refined outline", outline_errors)]
    if args.align:
        rows.append((f"aligned face ({aligned_count} aligned, the box elsewhere)", aligned_errors))
    for name, errors in rows:
        e = np.asarray(errors)
        print(f"  {name:<16} corner error: median {100 * np.median(e):.1f} %, 90th percentile "
              f"{100 * np.percentile(e, 90):.1f} % of the card's length; over 5 %: {100 * (e > 0.05).mean():.1f} %")
    print(f"  refinement: median {1000 * np.median(seconds):.2f} ms a box, worst {1000 * max(seconds):.2f} ms")
    if align_seconds:
        print(f"  alignment (reading included): median {1000 * np.median(align_seconds):.2f} ms a box, "
              f"worst {1000 * max(align_seconds):.2f} ms")
    if args.worst is not None:
        args.worst.mkdir(parents=True, exist_ok=True)
        for n, (error, image, true, box, corners) in enumerate(sorted(cases, key=lambda c: -c[0])[:20]):
            cv2.imwrite(str(args.worst / f"{n:02d}_{round(1000 * error):04d}.png"), draw_case(image, true, box, corners))


def draw_case(image: NDArray[np.uint8], true: NDArray[np.float64], box: NDArray[np.float64],
              corners: NDArray[np.float64]) -> NDArray[np.uint8]:
    """The card's neighbourhood enlarged 4×, with its true corners, the box and the outline."""
    length = max(card_length(true.tolist()), 20.0)
    cx, cy = true.mean(axis=0)
    x0, y0 = max(int(cx - length), 0), max(int(cy - length), 0)
    x1, y1 = min(int(cx + length), image.shape[1]), min(int(cy + length), image.shape[0])
    out: NDArray[np.uint8] = cv2.resize(image[y0:y1, x0:x1], None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)  # type: ignore[assignment]
    for quad, colour in ((true, (0, 200, 0)), (box, (0, 0, 255)), (corners, (0, 230, 255))):
        pts = np.round((quad - [x0, y0]) * 4 * 16).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, 1, cv2.LINE_AA, 4)
    return out


if __name__ == "__main__":
    main()
