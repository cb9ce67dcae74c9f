"""Enrol a deck no model of ours ever saw, from angled photos, and measure how its cards are read.

    cd bench && ../.venv/bin/python bench_enrolment.py [--layout | --sheet] [--fitted [--scenes 400]] [--test-scenes 150] [--detect-scenes 50]

The deck is the "retro" design (datasets/art_retro.py), drawn in another style than the generic
edition. Its faces are photographed at 15–28° on a textured table with the scene engine; those
photos go through `borne enrol` exactly as a user's would (the time is what the user waits). The
edition's straightened faces, matched (or, with ``--fitted``, the recogniser fitted on scenes rendered with
them, as `borne enrol` did until 2026-12-06), are then measured on held-out scenes rendered
with the *original* retro faces, as a real deck differs from its enrolment photos: given the true
boxes, then as `borne detect --edition retro` reads a photo (the shipped detector, six tiles).

The face reader (models/reader.onnx) was trained with the retro design among its editions, so with it
this bench measures enrolment from photos of a known design; `bench/bench_reader.py` measures editions
no training saw.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_detect import measure as measure_detect
from bench_recogniser import measure

from datasets.art_retro import render_retro_face
from scoring.cards import Card


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fitted", action="store_true", help="`borne enrol --fitted`: also fit the old recogniser")
    parser.add_argument("--layout", action="store_true",
                        help="enrol from one photo of the 19 cards laid out (names taken as proposed, then corrected "
                             "by number from the truth, as a person would at the prompt)")
    parser.add_argument("--sheet", action="store_true",
                        help="enrol from the pages of the deck's print-and-play sheet (the whole deck, nine cards a "
                             "page, as `borne cards sheet` lays them out), names corrected as for --layout")
    parser.add_argument("--scenes", type=int, default=400, help="with --fitted: scenes `borne enrol` renders")
    parser.add_argument("--test-scenes", type=int, default=150)
    parser.add_argument("--surface", default="wood")
    parser.add_argument("--seed", type=int, default=5150)
    parser.add_argument("--detect-scenes", type=int, default=50,
                        help="then read this many held-out scenes as `borne detect --edition retro` does (0: skip)")
    args = parser.parse_args()
    faces = {c.value: np.asarray(render_retro_face(c)) for c in Card}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["BORNE_DATA_DIR"] = str(root / "data")
        from datasets.edition import write_edition
        from datasets.photos import write_photo_folder

        write_edition(root / "data" / "editions" / "retro-original", "retro-original", faces, source="art_retro")
        photos: Path | list[Path]
        if args.sheet:
            photos, extra = _sheet(faces, root)
        elif args.layout:
            photos, extra = _layout(faces, root, args.seed, args.surface)
        else:
            photos, extra = write_photo_folder(faces, root / "photos", seed=args.seed, surface=args.surface), []
        started = time.monotonic()
        pictures = [str(p) for p in photos] if isinstance(photos, list) else [str(photos)]
        done = subprocess.run(
            [sys.executable, "-m", "borne", "enrol", *pictures, "--edition", "retro", *extra,
             *(["--fitted", "--scenes", str(args.scenes)] if args.fitted else [])],
            env={**os.environ}, capture_output=True, text=True,
        )
        took = time.monotonic() - started
        if done.returncode != 0:
            sys.exit(f"borne enrol failed: {done.stderr.strip().splitlines()[-1]}")
        fitted = f", fitted on {args.scenes} scenes" if args.fitted else ""
        what = (f"the {len(pictures)} pages of its print-and-play sheet" if args.sheet else
                "one photo of the 19 cards laid out" if args.layout else "19 angled photos")
        print(f"borne enrol: {what} on {args.surface}{fitted}: {took:.1f} s (the names proposed and corrected: "
              f"{' '.join(extra[1:]) or 'none'})")
        print("  " + done.stdout.strip().splitlines()[-1])
        from vision.read.models import load_fitted_recogniser, load_recogniser

        recogniser = load_fitted_recogniser("retro") if args.fitted else load_recogniser("retro")
        measure(recogniser, scene_edition="retro-original", scenes=args.test_scenes, seed=args.seed + 1)
        if args.detect_scenes:
            from datasets.scene import SceneRenderer, SceneSpec
            from datasets.textures import HELD_OUT_KINDS
            from vision.read.frame_reader import FrameReader

            print("\nborne detect --edition retro on held-out photos of the real deck (the shipped detector):")
            renderer = SceneRenderer(SceneSpec(width=1280, height=720, edition="retro-original", surfaces=HELD_OUT_KINDS))
            reader = FrameReader.from_models("retro", still=True)
            if args.fitted:
                reader.recogniser = recogniser
            measure_detect(reader, renderer, scenes=args.detect_scenes, seed=args.seed + 2)


def _layout(faces: dict[str, np.ndarray], root: Path, seed: int, surface: str) -> tuple[Path, list[str]]:
    """A layout photo of the faces in a shuffled order, and the ``--names`` correcting what Borne proposes."""
    import cv2

    from datasets.enrol_layout import lay_out
    from datasets.photos import layout_photo

    order = list(Card)
    np.random.default_rng(seed).shuffle(order)
    image, corners = layout_photo([faces[c.value] for c in order], seed=seed, surface=surface)
    photo = root / "table.jpg"
    cv2.imwrite(str(photo), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    wrong = []
    for laid in lay_out(photo):  # what the person sees at the prompt, corrected from what they know
        truth = order[int(np.argmin([np.linalg.norm(laid.corners.mean(axis=0) - q.mean(axis=0)) for q in corners]))]
        if laid.proposed is not truth:
            wrong.append(f"{laid.number}={truth.value}")
    return photo, ["--names", " ".join(wrong)] if wrong else ["--yes"]


def _sheet(faces: dict[str, np.ndarray], root: Path) -> tuple[list[Path], list[str]]:
    """The pages of the whole deck's print-and-play sheet, and the ``--names`` correcting what Borne proposes
    (each card's truth: the original face it correlates with best)."""
    import cv2

    from datasets.deck_sheet import deck_cards
    from datasets.enrol_layout import lay_out
    from datasets.photos import sheet_pages

    def small(face: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(cv2.resize(face, (60, 93), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY).astype(np.float32)
        return (grey - grey.mean()) / (np.linalg.norm(grey - grey.mean()) + 1e-6)

    pages = []
    for k, page in enumerate(sheet_pages([faces[c.value] for c in deck_cards()])):
        pages.append(root / f"page-{k + 1:02d}.png")
        cv2.imwrite(str(pages[-1]), page[..., ::-1])
    prints = {c: small(faces[c.value]) for c in Card}
    wrong = []
    for laid in lay_out(pages):
        seen = small(laid.face)
        truth = max(Card, key=lambda c: max(float((prints[c] * seen).sum()), float((prints[c][::-1, ::-1] * seen).sum())))
        if laid.proposed is not truth:
            wrong.append(f"{laid.number}={truth.value}")
    return pages, ["--names", " ".join(wrong)] if wrong else ["--yes"]


if __name__ == "__main__":
    main()
