"""Why a side's census is wrong: each wrong side's cards sorted into what went wrong (development only).

    python bench/dev_census_causes.py --photos FOLDER [--scenes N]

For each side that `borne detect`'s census gets wrong, every distance card and safety of the truth with
at least a quarter of the face showing is sorted: found and counted right, found but counted as another
card, or not found, and a card not found by where it lies in its column (the first card laid, the last,
or between two others of the value: a gap a column's step would show); a box counted on the side that
lies on no card of it is a phantom. Prints the tally over the wrong sides. Run it on development seeds
only (9700 for the photo-real stills): it is for choosing what to build, not a measure.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from bench_detect import best_match, dev_parser, folder_stills, on_a_card

from scoring.cards import Card
from vision.read.frame_reader import FrameReader
from vision.table.census import take_census
from vision.table.layout import TableLayout


def counted(card: dict[str, Any]) -> bool:
    if card["card"] == "back" or card["random_face"] or card["visible_corners"] is None:
        return False
    c = Card(card["card"])
    return c.is_distance or c.is_safety


def where_in_column(side: dict[str, Any], card: dict[str, Any]) -> str:
    """The card's place among its side's distance cards of its value, in the order they were laid."""
    column = [c for c in side["cards"] if c["card"] == card["card"] and c["pile"] == card["pile"]]
    k = next(i for i, c in enumerate(column) if c is card)
    if len(column) == 1:
        return "alone"
    if k == len(column) - 1:
        return "last laid"
    shown_before = any(c["visible"] >= 0.25 for c in column[:k])
    return "between" if shown_before else "first laid"


def main() -> None:
    args = dev_parser(__doc__).parse_args()
    reader = FrameReader.from_models("generic", still=True)
    causes: Counter[str] = Counter()
    wrong = total = 0
    for index, still in enumerate(folder_stills(Path(args.photos), args.scenes)):
        layout = TableLayout.from_json(still.truth["layout"])
        census = take_census(list(reader.read(still.image).sightings), layout)
        for got in census.sides:
            truth = next(t for t in still.truth["sides"] if t["side"] == got.side)
            total += 1
            summary = got.to_json(with_cards=False)
            if (summary["distance"], summary["safeties"]) == (truth["distance"], truth["safeties"]):
                continue
            wrong += 1
            placed = [p.sighting for p in got.cards if p.sighting.face_up]
            used: set[int] = set()
            lines = []
            for card in truth["cards"]:
                if not counted(card) or card["visible"] < 0.25:
                    continue
                box = np.asarray(card["visible_corners"], dtype=np.float64)
                best = best_match(box, placed, used)
                is_distance = Card(card["card"]).is_distance
                if best is None:
                    cause = f"missed {'strip' if card['visible'] < 0.5 else 'card'}" + (
                        f", {where_in_column(truth, card)}" if is_distance else ", safety")
                else:
                    used.add(best)
                    read = placed[best].card
                    if read == Card(card["card"]):
                        continue
                    cause = f"counted as {'nothing' if read is None else ('other distance' if read.is_distance else read.value)}" + (
                        "" if is_distance else " (a safety)")
                causes[cause] += 1
                lines.append(f"{card['card']} {card['visible']:.2f}: {cause}")
            boxes = [np.asarray(c["visible_corners"]) for c in truth["cards"] if c["visible_corners"] is not None]
            for k, s in enumerate(placed):
                if k not in used and s.card is not None and (s.card.is_distance or s.card.is_safety):
                    if not on_a_card(s, boxes):
                        causes["phantom"] += 1
                        lines.append(f"phantom {s.card.value}")
                    elif s.card.is_distance:
                        causes["counted twice or a strip's box off"] += 1
                        lines.append(f"extra box {s.card.value}")
            print(f"{index:04d} {got.side}: " + "; ".join(lines))
    print(f"\n{wrong} of {total} sides wrong; causes over them:")
    for cause, n in causes.most_common():
        print(f"  {n:4d}  {cause}")


if __name__ == "__main__":
    main()
