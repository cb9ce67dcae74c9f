"""The sides `borne detect` finds without a layout, against the true zones, on photo-real stills.

    python bench/bench_sides.py --photos FOLDER [--photos FOLDER ...] [--scenes N] [--edition generic]

Each still is read once as `borne detect` reads a photo (the shipped models on six tiles); the sides are
then found from the table (`vision/table/found_sides.py`) and the census taken with them and, beside it,
with the true zones of the truth JSON. Found sides are paired with true sides by the cards they share.
Prints: the stills whose number of sides was found right (of the sides with a card at least a quarter
visible), the share of each side's cards (at least a quarter visible) inside its found zone, and the exact
census per side with the found zones and with the true ones (and the gap in points of a hundred), by number
of sides at the table.

The sets it is run on (docs/measured.md, "Finding the sides"): the reading benches' photo-real stills
(bench/render_reading_sets.sh: development `build/photos-dev-generic`, seed 9970, held-out split; test split
`build/photos-test3-generic`, seed 61000) and those of bench/render_sides_sets.sh: `build/photos-test3-sides`
(test split, seed 61200, only three- and four-side scenes: `borne data photos --test-split --seed 61200
--start I --count 1` for I in 8 9 13 20 24 29 31 36 38 53 54 64 2 6 7 10 16 17 19 34) and the 2-D
`build/scenes-sides-2d` (`borne data scenes --seed 62000 --count 120`). Every scene's camera is turned at
random (yaw 0–360°).
"""

from __future__ import annotations

import argparse
import collections
import sys
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import folder_stills  # noqa: E402

from vision.geometry import point_in_polygon  # noqa: E402
from vision.read.frame_reader import FrameReader  # noqa: E402
from vision.table.census import SideCensus, take_census  # noqa: E402
from vision.table.found_sides import find_sides  # noqa: E402
from vision.table.layout import TableLayout  # noqa: E402


def census_exact(census: SideCensus, truth: dict[str, Any]) -> bool:
    """Distance per value and safeties as the truth has them."""
    side = census.to_json(with_cards=False)
    return bool((side["distance"], side["safeties"]) == (truth["distance"], truth["safeties"]))


def played_nothing(truth: dict[str, Any]) -> bool:
    """Whether a side has no distance card and no safety on the table (its census, found or not, is empty)."""
    return not any(truth["distance"].values()) and not truth["safeties"]


def pairing(truth: dict[str, Any], found: TableLayout) -> dict[str, str | None]:
    """Each true side's found side: the one-to-one pairing that puts most of the true sides' cards in the
    found zones."""
    true_sides = [s["side"] for s in truth["sides"]]
    shared = np.zeros((len(true_sides), len(found.sides)))
    for i, side in enumerate(truth["sides"]):
        for c in side["cards"]:
            if c["visible"] >= 0.25:
                centre = np.asarray(c["corners"]).mean(axis=0)
                for j, zone in enumerate(found.sides):
                    shared[i, j] += zone.contains(centre)
    best: tuple[float, dict[str, str | None]] = (-1.0, {s: None for s in true_sides})
    found_names = [z.side for z in found.sides] + [None] * len(true_sides)
    for chosen in permutations(range(len(found_names)), len(true_sides)):
        total = sum(shared[i, j] for i, j in enumerate(chosen) if j < len(found.sides))
        if total > best[0]:
            best = (total, {s: found_names[j] for s, j in zip(true_sides, chosen, strict=True)})
    return best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", required=True)
    parser.add_argument("--scenes", type=int, default=None)
    parser.add_argument("--edition", default="generic", help="the edition every folder's stills are read with")
    args = parser.parse_args()
    reader = FrameReader.from_models(args.edition, still=True)
    by_count: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for folder in args.photos:
        for still in folder_stills(folder, args.scenes):
            truth = still.truth
            reading = reader.read(still.image)
            h, w = still.image.shape[:2]
            found = find_sides(list(reading.sightings), w, h)
            true_layout = TableLayout.from_json(truth["layout"])
            with_found = {s.side: s for s in take_census(list(reading.sightings), found).sides}
            with_true = {s.side: s for s in take_census(list(reading.sightings), true_layout).sides}
            pairs = pairing(truth, found)
            playing = [s for s in truth["sides"] if any(c["visible"] >= 0.25 for c in s["cards"])]
            n = len(truth["sides"])
            tally = by_count[n]
            tally["stills"] += 1
            tally["sides found right"] += len(found.sides) == len(playing)
            for side in truth["sides"]:
                paired = pairs[side["side"]]
                zone = found.zone_of(paired) if paired is not None else None
                for c in side["cards"]:
                    if c["visible"] >= 0.25:
                        tally["cards"] += 1
                        tally["cards in their zone"] += zone is not None and point_in_polygon(
                            np.asarray(c["corners"]).mean(axis=0), zone.zone)
                tally["sides"] += 1
                tally["exact, true zones"] += census_exact(with_true[side["side"]], side)
                # a side with nothing on the table is found by no one, and counted as nothing: its census is exact
                tally["exact, found zones"] += census_exact(with_found[paired], side) if paired is not None else played_nothing(side)
    print(f"sides found by `borne detect` without a layout, on {', '.join(str(f) for f in args.photos)}")
    for n in sorted(by_count):
        t = by_count[n]
        print(f"  {n} sides: {t['stills']} stills; number of sides right in {t['sides found right']}; "
              f"cards in their side's found zone {t['cards in their zone']} of {t['cards']} "
              f"({t['cards in their zone'] / max(t['cards'], 1):.3f}); exact census {t['exact, found zones']} of "
              f"{t['sides']} sides with found zones, {t['exact, true zones']} with the true zones "
              f"({100 * (t['exact, true zones'] - t['exact, found zones']) / max(t['sides'], 1):.1f} points apart)")


if __name__ == "__main__":
    main()
