"""One-photo enrolment measured: every card found, each name proposed right, the time a photo takes.

    .venv/bin/python bench/enrol_layout.py build/layout-photos/test/photo_*.jpg

The photos come from ``bench/render_layout_photos.py`` (their ``.json`` says where each card lies and which it
is). Each photo goes through what `borne enrol PHOTO` does before it asks for the names' confirmation
(:func:`datasets.enrol_layout.lay_out`), in this process (the time is the photo's, not Python's start). Per photo:

- **found**: every card laid is found (a found outline's corners within 12 % of the card's length of the true
  ones), and nothing else;
- **named**: the cards whose proposed name is right; for a photo laid as the guide shows, whether all 19 are.

Prints a line a photo, then the totals by edition and by kind of photo (the guide's order or any order; the
table's edge in view or not; plain or patterned table; the picture's size).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets.errors import EnrolmentError  # noqa: E402

CORNER_TOLERANCE = 0.12
"""A found outline is a laid card's when each corner lies within this share of the card's length of the card's
(either way round: a card's two ends are told apart by its reading)."""


def matches(found: np.ndarray, true: np.ndarray) -> bool:
    length = float(np.linalg.norm(true[3] - true[0]))
    return any(float(np.linalg.norm(np.roll(found, k, axis=0) - true, axis=1).max()) < CORNER_TOLERANCE * length
               for k in range(4)) or any(
        float(np.linalg.norm(np.roll(found[::-1], k, axis=0) - true, axis=1).max()) < CORNER_TOLERANCE * length
        for k in range(4))


def measure(photo: Path) -> dict:
    from datasets.enrol_layout import find_laid_cards, lay_out

    truth = json.loads(photo.with_suffix(".json").read_text())
    laid = [(c["card"], np.asarray(c["corners"], np.float64)) for c in truth["cards"]]
    started = time.monotonic()
    error = None
    outlines: list[tuple[np.ndarray, str | None]]
    try:
        cards = lay_out(photo)
        outlines = [(c.corners, c.proposed.value) for c in cards]
    except EnrolmentError as e:
        error = str(e)
        from datasets.enrol_layout import _picture

        try:
            outlines = [(q, None) for q in find_laid_cards(_picture(photo))]
        except EnrolmentError:
            outlines = []
    seconds = time.monotonic() - started
    hit = [next((name for q, name in outlines if matches(np.asarray(q, np.float64), corners)), False)
           for _, corners in laid]
    extra = sum(1 for q, _ in outlines if not any(matches(np.asarray(q, np.float64), c) for _, c in laid))
    named = sum(1 for (card, _), name in zip(laid, hit, strict=True) if name == card)
    spec = truth["spec"]
    return {"photo": photo.name, "edition": truth["edition"], "found": sum(h is not False for h in hit),
            "extra": extra, "all_found": all(h is not False for h in hit) and extra == 0, "named": named,
            "cards": len(laid), "seconds": seconds, "error": error, "guide": spec["guide"], "edge": spec["edge"],
            "patterned": spec["patterned"], "size": f"{max(spec['width'], spec['height'])}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos", nargs="+", type=Path)
    args = parser.parse_args()
    rows = []
    for photo in args.photos:
        r = measure(photo)
        rows.append(r)
        print(f"{r['photo']} {r['edition']:>12} {'guide' if r['guide'] else 'any  '} {'edge' if r['edge'] else '    '} "
              f"{'patterned' if r['patterned'] else 'plain    '} {r['size']:>4}: found {r['found']:2d}/{r['cards']} "
              f"(+{r['extra']}), named {r['named']:2d}/{r['cards']}, {r['seconds']:.1f} s"
              + (f"  [{r['error'][:90]}]" if r["error"] else ""), flush=True)
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        for key in (f"edition {r['edition']}", "guide" if r["guide"] else "any order", "edge" if r["edge"] else "no edge",
                    "patterned" if r["patterned"] else "plain", f"{r['size']} px", "all"):
            groups[key].append(r)
    for key, rs in groups.items():
        any_order = [r for r in rs if not r["guide"]]
        guide = [r for r in rs if r["guide"]]
        seconds = sorted(r["seconds"] for r in rs)
        print(f"{key:>18}: every card found on {sum(r['all_found'] for r in rs)} of {len(rs)} photos; "
              f"named right {sum(r['named'] for r in any_order)} of {sum(r['cards'] for r in any_order)} cards in any order, "
              f"{sum(r['named'] == r['cards'] for r in guide)} of {len(guide)} guide photos all right; "
              f"{np.median(seconds):.1f} s a photo (median), {seconds[-1]:.1f} s at most")


if __name__ == "__main__":
    main()
