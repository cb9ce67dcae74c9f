"""The layout photos `borne enrol PHOTO` is measured on (issue "Teach Borne a deck from one photo"), written once.

    .venv/bin/python bench/render_layout_photos.py --split test --count 50 --out build/layout-photos/test
    .venv/bin/python bench/render_layout_photos.py --split dev --count 16 --out build/layout-photos/dev

Each photo (``photo_NNN.jpg``, JPEG quality 92 as a phone saves it) is composed by
:func:`datasets.layout_photos.render_layout` from :func:`~datasets.layout_photos.layout_spec` (the split's seeds,
tables and floors); ``photo_NNN.json`` beside it says the edition, the spec, the camera and each card's corners.
The photos take the split's editions in turn: the **test** split Borne's generic edition and the four test
editions of ``datasets/art_test.py`` (never tuned on); the **dev** split the retro design, two procedural editions
(one full-bleed) and the generic. Resumable: photos already written are kept.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets.layout_photos import layout_spec, render_layout  # noqa: E402
from scoring.cards import Card  # noqa: E402

EDITIONS = {"test": ("generic", "corner", "midcard", "photo", "lineart"),
            "dev": ("retro", "random-5", "generic", "full-bleed-7")}


def edition_faces(name: str) -> dict[str, np.ndarray]:
    """The RGB faces of an edition of :data:`EDITIONS` by card id."""
    if name == "generic":
        from datasets.edition import load_edition

        generic = load_edition("generic")
        return {c.value: np.asarray(generic.face(c)) for c in Card}
    if name == "retro":
        from datasets.art_retro import render_retro_face

        return {c.value: np.asarray(render_retro_face(c)) for c in Card}
    if name.startswith("random-"):
        from datasets.art_random import random_edition

        return random_edition(int(name.split("-")[1]))
    if name.startswith("full-bleed-"):
        from datasets.art_random import full_bleed_edition

        return full_bleed_edition(int(name.split("-")[2]))
    from datasets.art_test import held_out_edition

    return held_out_edition(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=sorted(EDITIONS), required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    faces: dict[str, dict[str, np.ndarray]] = {}
    for index in range(args.count):
        photo = args.out / f"photo_{index:03d}.jpg"
        if photo.is_file() and photo.with_suffix(".json").is_file():
            continue
        edition = EDITIONS[args.split][index % len(EDITIONS[args.split])]
        if edition not in faces:
            faces[edition] = edition_faces(edition)
        started = time.monotonic()
        laid = render_layout(faces[edition], layout_spec(args.split, index))
        cv2.imwrite(str(photo), laid.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
        photo.with_suffix(".json").write_text(json.dumps({"edition": edition, **laid.truth_json()}))
        spec = laid.spec
        print(f"{photo.name}: {edition}, {spec.width} x {spec.height}, {'guide' if spec.guide else 'any order'}, "
              f"{spec.surface}{', edge' if spec.edge else ''}{', ' + ' '.join(spec.things) if spec.things else ''}; "
              f"{time.monotonic() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
