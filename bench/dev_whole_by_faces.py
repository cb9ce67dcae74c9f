"""Whole cards of a filmed hand read by the fitted recogniser and by their faces on their outlines (development only).

    python bench/dev_whole_by_faces.py --hand build/photo-hands-dev5/hand_000 [--every 3]

For every ``--every``-th frame of a hand (photo-real or 2-D, with its ``truth/``), the video's detector (two tiles)
boxes the cards; each face-up box over a true card (rotated IoU with the card's visible part at least 0.5 for a
whole card, 0.3 for a strip) is read by the generic's fitted recogniser on the box, and by the generic's faces
on the card's own outline (:meth:`~vision.read.matcher.FaceMatcher.outline`; on the box where none settles).
Tallies right, wrong and unknown for each, for whole cards (at least ``--whole`` of the card showing) and for
strips, and how sure the fitted recogniser was where it was wrong, which sets
:data:`vision.read.whole_by_faces.SURE_FITTED`. Run it on development hands only (seeds 52000–52019
``--held-out``, 2-D seeds below 70000).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from vision.geometry import iou
from vision.image import read_image
from vision.read.detector import OnnxCardDetector
from vision.read.frame_reader import FACE_UP_CLASS
from vision.read.matcher import FaceMatcher
from vision.read.models import detector_path, load_recogniser
from vision.read.recogniser import Reading
from vision.read.tiling import TiledDetector

SURE = (0.8, 0.9, 0.95, 0.98)


def true_cards(truth: dict) -> list[tuple[str, np.ndarray, float]]:
    """Every card of a frame's truth: its id, the corners of its visible part, the share of it that shows."""
    cards = truth["table_cards"] + [c for side in truth["sides"] for c in side["cards"]]
    return [(c["card"], np.array(c.get("visible_corners") or c["corners"], float), float(c.get("visible", 1.0))) for c in cards]


def said(reading: Reading) -> str | None:
    return reading.card.value if reading.card is not None else ("back" if reading.back else None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hand", required=True, help="a hand's folder (frames/, truth/)")
    ap.add_argument("--every", type=int, default=3, help="read every this many frames (default 3)")
    ap.add_argument("--whole", type=float, default=0.85, help="share of a card showing that makes it whole (default 0.85)")
    args = ap.parse_args()
    hand = Path(args.hand)
    detector = TiledDetector(OnnxCardDetector(detector_path()))
    face_up = detector.class_names.index(FACE_UP_CLASS)
    fitted = load_recogniser("generic")
    faces = load_recogniser("generic", faces=True)
    assert isinstance(faces, FaceMatcher)
    tally: dict[str, Counter[str]] = {"whole": Counter(), "strip": Counter()}
    sure: list[tuple[float, bool]] = []  # the fitted reading's confidence on whole cards it named, and whether right
    frames = sorted((hand / "frames").glob("*.jpg"))[:: args.every]
    for path in frames:
        truth = true_cards(json.loads((hand / "truth" / f"{path.stem}.json").read_text()))
        image = read_image(path)
        found = detector.detect(image)
        for box in found.corners[found.class_id == face_up]:
            card, corners, visible = max(truth, key=lambda t: iou(t[1], box)) if truth else ("", box, 0.0)
            kind = "whole" if visible >= args.whole else "strip"
            if iou(corners, box) < (0.5 if kind == "whole" else 0.3) or visible < 0.05:
                continue
            a = fitted.read(image, [box])[0]
            outline = faces.outline(image, box)
            b = faces.read_outlined(image, outline, box) if outline is not None else faces.read(image, [box])[0]
            t = tally[kind]
            t["boxes"] += 1
            for name, reading in (("fitted", a), ("faces", b)):
                t[f"{name} right" if said(reading) == card else (f"{name} unknown" if said(reading) is None else f"{name} wrong")] += 1
            if kind == "whole" and a.card is not None:
                sure.append((a.confidence, said(a) == card))
    print(f"{hand}: {len(frames)} frames (every {args.every}), boxes over a true card")
    for kind, t in tally.items():
        print(f"  {kind}: {t['boxes']} boxes; fitted right {t['fitted right']}, wrong {t['fitted wrong']}, unknown "
              f"{t['fitted unknown']}; faces on the outline right {t['faces right']}, wrong {t['faces wrong']}, unknown {t['faces unknown']}")
    for level in SURE:
        above = [right for c, right in sure if c >= level]
        print(f"  whole cards the fitted recogniser named at {level} or surer: {len(above)} of {len(sure)}, wrong {above.count(False)}")


if __name__ == "__main__":
    main()
