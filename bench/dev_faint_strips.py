"""A second look at faint boxes along a column, tried and not built (development only).

    python bench/dev_faint_strips.py --photos FOLDER [--scenes N] [--faint 0.15] [--read 0.95] [--covered 0.25]

Decodes the detector down to ``--faint``; each face-up box fainter than the runtime's threshold that the
recogniser reads as a distance card at ``--read`` or surer, lies in a side's zone, has less than
``--covered`` of its area under a box `detect` counts, and sits one column step (0.1–0.9 of a card's
length along the side's up, within 0.45 of a card's width across) from a counted card of its value
would be admitted. Prints each such box, true (a strip the census missed) or not, and the tally. Run it
on development seeds only (9700 for the photo-real stills).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bench_detect import MATCH_IOU, dev_parser, folder_stills

from vision.geometry import intersection_area, iou, polygon_area
from vision.read.detector import DecodeSettings
from vision.read.frame_reader import FACE_UP_CLASS, FrameReader
from vision.table.census import take_census
from vision.table.layout import TableLayout
from vision.table.observations import top_edge_anchor
from vision.table.own_cards import card_length


def main() -> None:
    parser = dev_parser(__doc__)
    parser.add_argument("--faint", type=float, default=0.15)
    parser.add_argument("--read", type=float, default=0.95)
    parser.add_argument("--covered", type=float, default=0.25)
    args = parser.parse_args()
    reader = FrameReader.from_models("generic", still=True)
    base = reader.detector.base  # type: ignore[attr-defined]
    runtime = base.settings
    face_up = reader.detector.class_names.index(FACE_UP_CLASS)
    true = phantom = 0
    for index, still in enumerate(folder_stills(Path(args.photos), args.scenes)):
        base.settings = DecodeSettings(conf_threshold=args.faint)
        found = reader.detector.detect(still.image)
        base.settings = runtime
        faint = [k for k in range(len(found))
                 if found.class_id[k] == face_up and found.confidence[k] < runtime.conf_threshold]
        layout = TableLayout.from_json(still.truth["layout"])
        census = take_census(list(reader.read(still.image).sightings), layout)
        counted = [p.sighting for side in census.sides for p in side.cards]
        length = card_length(counted) or 1.0
        views = still.views()
        for k, reading in zip(faint, reader.recogniser.read(still.image, [found.corners[k] for k in faint]), strict=True):
            box = found.corners[k]
            side = layout.side_at(box.mean(axis=0))
            if reading.card is None or not reading.card.is_distance or reading.confidence < args.read or side is None:
                continue
            if any(intersection_area(box, np.asarray(s.corners)) >= args.covered * polygon_area(box) for s in counted):
                continue
            up_vec = layout.zone_of(side).up
            if up_vec is None:
                continue
            up = np.asarray(up_vec, dtype=np.float64) / np.linalg.norm(up_vec)
            across = np.array([-up[1], up[0]])
            anchor = np.asarray(top_edge_anchor(box, tuple(up)))
            in_column = any(
                abs(d @ across) <= 0.45 * length * 56 / 87 and 0.1 * length <= abs(d @ up) <= 0.9 * length
                for p in next(s for s in census.sides if s.side == side).cards if p.sighting.card is reading.card
                for d in [anchor - np.asarray(top_edge_anchor(np.asarray(p.sighting.corners), tuple(up)))])
            if not in_column:
                continue
            right = any(v["card"] == reading.card.value and iou(np.asarray(v["visible_corners"]), box) >= MATCH_IOU
                        for v in views)
            true += right
            phantom += not right
            print(f"{index:04d} {side}: {reading.card.value} (detector {found.confidence[k]:.2f}, face "
                  f"{reading.confidence:.2f}) {'a strip the census missed' if right else 'on no card of its value'}")
    print(f"admitted: {true} true strips, {phantom} on no card of their value")


if __name__ == "__main__":
    main()
