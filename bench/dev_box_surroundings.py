"""Does a box on no card look like the table around it, or like no face of the deck? Cues against phantoms,
checked (development only).

    python bench/dev_box_surroundings.py --photos FOLDER [--scenes N] [--cue surroundings|likeness]

Each face-up box `borne detect` lists is warped upright to 24 × 36 px, and its colours (a 6 × 6 × 6 BGR
histogram) are compared with those of a frame around it (the box grown to 1.6 times, its outer fifth) by
the Bhattacharyya distance: a box cut out of a parquet or a cup should look like its surroundings, a card
not. ``--cue likeness``: instead, the best correlation of the box with any face of the edition or its back
(:meth:`vision.read.matcher.FaceMatcher.scores`, every way the box can show a card): a box on a carpet should
look like no card. Prints the cue of the boxes on no card (as `bench_detect.py` counts them) and, per
threshold, how many of them and of the true boxes a cut there would drop. Run it on development seeds only.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from bench_detect import MATCH_IOU, best_match, dev_parser, folder_stills, on_a_card

from vision.read.frame_reader import FrameReader
from vision.read.matcher import FaceMatcher
from vision.read.models import load_recogniser
from vision.table.census import take_census
from vision.table.layout import TableLayout

UPRIGHT = (24, 36)
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4)
LIKENESS_THRESHOLDS = (0.2, 0.3, 0.4, 0.5)


def upright(image: np.ndarray, corners: np.ndarray, grow: float = 1.0) -> np.ndarray:
    """The box warped to :data:`UPRIGHT`, its long side vertical; ``grow`` scales it about its centre."""
    q = np.asarray(corners, dtype=np.float32)
    q = q.mean(axis=0) + (q - q.mean(axis=0)) * grow
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, 1, axis=0)
    w, h = UPRIGHT
    to = cv2.getPerspectiveTransform(q, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    return cv2.warpPerspective(image, to, (w, h), flags=cv2.INTER_AREA)


def histogram(pixels: np.ndarray) -> np.ndarray:
    hist = cv2.calcHist([pixels.reshape(-1, 1, 3)], [0, 1, 2], None, [6, 6, 6], [0, 256] * 3)
    return cv2.normalize(hist, None).flatten()


def distance_to_surroundings(image: np.ndarray, corners: np.ndarray) -> float:
    w, h = UPRIGHT
    frame = np.zeros((h, w), dtype=bool)
    frame[: h // 5], frame[-(h // 5) :], frame[:, : w // 5], frame[:, -(w // 5) :] = True, True, True, True
    around = upright(image, corners, 1.6)[frame]
    return float(cv2.compareHist(histogram(upright(image, corners)), histogram(around), cv2.HISTCMP_BHATTACHARYYA))


def main() -> None:
    parser = dev_parser(__doc__)
    parser.add_argument("--cue", choices=("surroundings", "likeness"), default="surroundings")
    args = parser.parse_args()
    reader = FrameReader.from_models("generic", still=True)
    if args.cue == "likeness":
        faces = load_recogniser("generic", faces=True)
        if not isinstance(faces, FaceMatcher):
            raise SystemExit("the generic edition's faces are not installed")

        def cue(image: np.ndarray, corners: np.ndarray) -> float:
            scores, _ = faces.scores(image, corners)
            return float(scores.max()) if scores.size else -1.0
    else:
        cue = distance_to_surroundings
    true: list[float] = []
    phantom: list[float] = []
    for still in folder_stills(Path(args.photos), args.scenes):
        census = take_census(list(reader.read(still.image).sightings), TableLayout.from_json(still.truth["layout"]))
        face_up = [s for s in [p.sighting for side in census.sides for p in side.cards] + list(census.unassigned) if s.face_up]
        views = still.views()
        used: set[int] = set()
        for v in views:
            scoring = v["card"] != "back" and not v["random_face"] and v["visible"] >= 0.25
            if scoring and (best := best_match(np.asarray(v["visible_corners"], dtype=np.float64), face_up, used)) is not None:
                used.add(best)
        boxes = [np.asarray(v["visible_corners"], dtype=np.float64) for v in views]
        for k, s in enumerate(face_up):
            on_card = k in used or on_a_card(s, boxes)
            (true if on_card else phantom).append(cue(still.image, s.corners))
    print(f"{len(true)} boxes on a card (matched at IoU ≥ {MATCH_IOU} or overlapping one at ≥ 0.3), {len(phantom)} on no card")
    print(f"  {args.cue} of the boxes on no card: " + " ".join(f"{d:.2f}" for d in sorted(phantom)))
    t, p = np.asarray(true), np.asarray(phantom)
    for cut in THRESHOLDS if args.cue == "surroundings" else LIKENESS_THRESHOLDS:
        print(f"  dropping boxes under {cut:.2f}: {int((p < cut).sum())} of {len(p)} on no card, {int((t < cut).sum())} of {len(t)} on a card")


if __name__ == "__main__":
    main()
