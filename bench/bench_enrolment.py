"""Enrol a deck no model of ours ever saw, from angled photos, and measure how its cards are read.

    cd bench && ../.venv/bin/python bench_enrolment.py [--fitted [--scenes 400]] [--test-scenes 150] [--detect-scenes 50]

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
        photos = write_photo_folder(faces, root / "photos", seed=args.seed, surface=args.surface)
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "borne", "enrol", str(photos), "--edition", "retro",
             *(["--fitted", "--scenes", str(args.scenes)] if args.fitted else [])],
            env={**os.environ}, capture_output=True, text=True,
        )
        took = time.monotonic() - started
        if done.returncode != 0:
            sys.exit(f"borne enrol failed: {done.stderr.strip().splitlines()[-1]}")
        fitted = f", fitted on {args.scenes} scenes" if args.fitted else ""
        print(f"borne enrol: 19 angled photos on {args.surface}{fitted}: {took:.1f} s")
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


if __name__ == "__main__":
    main()
