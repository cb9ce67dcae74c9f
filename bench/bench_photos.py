"""How long a photo-real scene takes on this machine, and a look at a few of them.

    python bench/bench_photos.py [--count 4] [--seed 8100] [--samples 8] [--width 1280 --height 720]
                                 [--held-out] [--keep FOLDER] [--gallery DIR]
    python bench/bench_photos.py --sequence 12 [--seed 31337] [--samples 4] [--width 640 --height 360] [--held-out]

Renders ``count`` scenes with `borne data photos`' code (Blender Cycles on the CPU, Open Image Denoise,
the phone finish) and prints the seconds per image (wall clock, Blender's start included) and the
share of cards whose visible part was boxed. ``--gallery`` writes the first three with their
labels drawn on (green: the visible parts the detector learns; magenta: whole cards), as in
``docs/gallery/``. ``--sequence F`` instead renders the first ``F`` frames of the hand of ``seed`` (`borne data
photo-sequences`: Blender started once per six frames) and prints the seconds per frame.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.photoreal.photos import generate_photos
from datasets.photoreal.sequences import generate_photo_sequence
from datasets.photoreal.stage import PhotoSpec
from vision.image import read_image


def draw_labels(folder: Path, name: str) -> np.ndarray:
    """A scene of ``folder`` with its truth drawn on (BGR)."""
    truth = json.loads((folder / "truth" / f"{name}.json").read_text())
    image = read_image(folder / truth["image"])
    cards = [c for side in truth["sides"] for c in side["cards"]] + truth["table_cards"]
    for c in cards:
        cv2.polylines(image, [np.round(np.array(c["corners"]) * 4).astype(np.int32)], True, (255, 0, 255), 1,
                      cv2.LINE_AA, 2)
        if c["visible_corners"] is not None and c["visible"] >= 0.04:
            cv2.polylines(image, [np.round(np.array(c["visible_corners"]) * 4).astype(np.int32)], True, (0, 220, 0), 1,
                          cv2.LINE_AA, 2)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=4)
    parser.add_argument("--seed", type=int, default=8100)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--held-out", action="store_true", help="the test split's surfaces and lights")
    parser.add_argument("--keep", default=None, metavar="FOLDER", help="write the scenes here instead of a temporary folder")
    parser.add_argument("--gallery", default=None, metavar="DIR", help="write the first three with their labels drawn on")
    parser.add_argument("--sequence", type=int, default=0, metavar="FRAMES",
                        help="time this many frames of a photo-real hand instead of scenes")
    args = parser.parse_args()
    spec = PhotoSpec(width=args.width, height=args.height, samples=args.samples, held_out=args.held_out)
    if args.sequence:
        time_sequence(spec, seed=args.seed, frames=args.sequence, keep=Path(args.keep) if args.keep else None)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep) if args.keep else Path(tmp) / "photos"
        seconds = []
        for i in range(args.count):
            t0 = time.perf_counter()
            generate_photos(out, count=1, seed=args.seed, start=i, spec=spec)
            seconds.append(time.perf_counter() - t0)
        boxed = total = 0
        for path in sorted((out / "truth").glob("*.json"))[: args.count]:
            truth = json.loads(path.read_text())
            cards = [c for side in truth["sides"] for c in side["cards"]] + truth["table_cards"]
            total += len(cards)
            boxed += sum(c["visible_corners"] is not None for c in cards)
        print(f"{args.count} photo-real scenes at {args.width}×{args.height}, {args.samples} samples, seed {args.seed}"
              f"{' (held-out split)' if args.held_out else ''}, one Blender start per scene")
        print(f"  seconds per image  median {statistics.median(seconds):.1f}, worst {max(seconds):.1f}")
        print(f"  cards {total}, of which {boxed} show and were boxed")
        if args.gallery:
            gallery = Path(args.gallery)
            gallery.mkdir(parents=True, exist_ok=True)
            for k in range(min(3, args.count)):
                name = f"{k:06d}"
                cv2.imwrite(str(gallery / f"photo_{k:02d}.jpg"), read_image(out / "images" / f"{name}.jpg"),
                            [cv2.IMWRITE_JPEG_QUALITY, 88])
                cv2.imwrite(str(gallery / f"photo_{k:02d}_labels.jpg"), draw_labels(out, name), [cv2.IMWRITE_JPEG_QUALITY, 85])
            print(f"  gallery written to {gallery}")


def time_sequence(spec: PhotoSpec, *, seed: int, frames: int, keep: Path | None) -> None:
    """Render the first ``frames`` frames of the hand of ``seed`` and print the seconds per frame (wall clock)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = keep or Path(tmp) / "hand"
        t0 = time.perf_counter()
        summary = generate_photo_sequence(out, seed=seed, spec=spec, max_frames=frames, video=False)
        seconds = time.perf_counter() - t0
    rendered, reused = int(summary["rendered"]), int(summary["reused"])  # type: ignore[call-overload]
    print(f"{rendered} frames of the photo-real hand of seed {seed} at {spec.width}×{spec.height}, {spec.samples} samples"
          f"{' (held-out split)' if spec.held_out else ''}, Blender started once per six frames drawn; "
          f"{reused} frames of a still table finished from the frame before's render")
    if rendered:
        print(f"  seconds per frame  {seconds / rendered:.1f} (textures and deck drawn once per hand, included)")


if __name__ == "__main__":
    main()
