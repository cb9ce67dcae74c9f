"""``borne cards export|sheet`` and ``borne data scenes|sequences|photos|photo-sequences``: the card art and synthetic table data."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datasets.photoreal.stage import PhotoSpec


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn the data engine's errors into one-line command errors (exit status 2)."""

    def wrapper(args: argparse.Namespace) -> int:
        from borne.commands import CommandError
        from datasets.errors import DatasetError

        try:
            return run(args)
        except DatasetError as e:
            raise CommandError(str(e)) from None
        except OSError as e:
            raise CommandError(f"{getattr(e, 'filename', '') or ''}: {e.strerror or e}") from None

    return wrapper


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cards = sub.add_parser("cards", help="export a deck edition's faces or print a whole deck as a PDF")
    csub = cards.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    p = csub.add_parser("export", help="write every face as OUT_DIR/<card id>.png plus back.png (print resolution)")
    p.add_argument("out_dir", metavar="OUT_DIR")
    p.add_argument("--edition", default="generic", help="edition name (default: the built-in generic edition)")
    p.set_defaults(func=_guarded(run_export))
    p = csub.add_parser("sheet", help="write a printable PDF of the whole 106-card deck, 9 cards per A4 page with cut marks")
    p.add_argument("out_pdf", metavar="OUT.pdf")
    p.add_argument("--edition", default="generic", help="edition name (default: generic)")
    p.set_defaults(func=_guarded(run_sheet))

    data = sub.add_parser("data", help="generate synthetic table scenes and game sequences with exact labels")
    dsub = data.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    p = dsub.add_parser("scenes", help="render still scenes: images/, labels/ (ultralytics OBB), truth/ (JSON), dataset.yaml")
    _common(p)
    p.add_argument("--random-faces", type=float, default=0.0, metavar="SHARE",
                   help="share of cards drawn with random art (then labels use classes card_face_up/card_face_down)")
    p.add_argument("--classes", choices=("ids", "cards"), default=None,
                   help="OBB classes: the 19 card ids + back, or face up/face down (default: ids, cards with random faces)")
    p.set_defaults(func=_guarded(run_scenes))
    p = dsub.add_parser("sequences", help="render whole hands frame by frame: frames/, truth/, video, layout, events")
    _common(p)
    p.add_argument("--sides", type=int, default=2, choices=(2, 3, 4), help="sides at the table (default 2)")
    p.add_argument("--max-frames", type=int, default=None, help="stop each sequence after this many frames")
    _camera_rate(p)
    _drift(p)
    p.add_argument("--no-video", action="store_true", help="write frames only")
    p.set_defaults(func=_guarded(run_sequences))
    p = dsub.add_parser(
        "photos", help="render photo-real still scenes with Blender: images/, labels/, truth/, dataset.yaml",
        description="Photo-real scenes (Blender Cycles on the CPU, denoised, finished like a phone photo) of the "
        "same moments as `borne data scenes` with the same seed, with the same labels. Resumable: scenes already "
        "written are kept. `--edition mixed` draws each scene's deck from a training mix (the generic and retro decks "
        "and 300 procedural editions with their own backs). Needs Blender (apt-get install blender), Debian's gimp-data and the photo extra.",
    )
    _what_and_where(p)
    p.add_argument("--start", type=int, default=0, help="index of the first scene (default 0)")
    p.add_argument("--phone", action="store_true",
                   help="one photo from a phone held over the table: half of them the other way up, 0.5-1.2 m above "
                        "it, tilted up to 35 degrees, a phone's field of view (give the phone's size, e.g. 4000 x 3000)")
    _blender_options(p)
    p.set_defaults(func=_guarded(run_photos))
    p = dsub.add_parser(
        "photo-sequences", help="render whole hands photo-real with Blender: the files of `data sequences`, for `borne replay`",
        description="Whole hands filmed as 2-D sequences film them (for a hand's seed: the same table states, camera and "
        "reaches, so the same events and final record), rendered photo-real: one table, light and set of objects per hand, the cards "
        "keeping their bends, arms reaching in from the players' seats. Hand i is the hand of seed SEED + i, written to "
        "OUT/hand_XXX (the hands `bench/bench_replay.py --seed SEED` renders in 2-D at the same size). Resumable: frames "
        "already written are kept. Seconds per frame: use --max-frames and a small size to try it. Needs Blender.",
    )
    _what_and_where(p)
    _blender_options(p)
    p.add_argument("--sides", type=int, default=2, choices=(2, 3, 4), help="sides at the table (default 2)")
    p.add_argument("--max-frames", type=int, default=None, help="stop each hand after this many frames")
    p.add_argument("--start", type=int, default=0, help="index of the first hand (default 0): hands START … START + COUNT - 1")
    _camera_rate(p)
    _drift(p)
    p.add_argument("--no-video", action="store_true", help="write frames only")
    p.set_defaults(func=_guarded(run_photo_sequences))


CAMERA_RATES = (10, 5)
"""``datasets.frame_plan.CAMERA_RATES``, written out: building the parser imports no data engine (a test holds them equal)."""


def _camera_rate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fps", type=int, default=CAMERA_RATES[0], choices=CAMERA_RATES,
                   help=f"frames a second the camera films (default {CAMERA_RATES[0]}; 5 films one frame in two of the same hand)")


def _drift(p: argparse.ArgumentParser) -> None:
    p.add_argument("--drift", action="store_true",
                   help="a real camera's drift: the exposure wanders, and in half the hands the camera is nudged once for good")


def _common(p: argparse.ArgumentParser) -> None:
    _what_and_where(p)
    p.add_argument("--surfaces", default=None, metavar="FOLDER", help="also use the photos in FOLDER as table surfaces")


def _what_and_where(p: argparse.ArgumentParser) -> None:
    """How many, from which seed, into which folder, at which size and of which edition."""
    p.add_argument("--count", type=int, default=10, help="how many to render (default 10)")
    p.add_argument("--seed", type=int, default=0, help="the same seed writes the same files (default 0)")
    p.add_argument("--out", required=True, help="output folder (created)")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--edition", default="generic", help="edition whose faces are drawn (default: generic)")


def _blender_options(p: argparse.ArgumentParser) -> None:
    """How finely Blender renders, and which split (training or held out) the surfaces and lights come from."""
    p.add_argument("--samples", type=int, default=8, help="Cycles samples per pixel before denoising (default 8)")
    p.add_argument("--threads", type=int, default=2, help="Blender's render threads (default 2)")
    p.add_argument("--held-out", action="store_true",
                   help="the held-out split: surfaces and world lights no training scene uses (development data now)")
    p.add_argument("--test-split", action="store_true",
                   help="the test split: surfaces and lights no other split uses, to measure on only")


def _photo_spec(args: argparse.Namespace) -> PhotoSpec:
    from datasets.photoreal.stage import PhotoSpec

    return PhotoSpec(width=args.width, height=args.height, edition=args.edition, samples=args.samples,
                     threads=args.threads, held_out=args.held_out, test_split=args.test_split,
                     phone=getattr(args, "phone", False))


def _spec(args: argparse.Namespace, random_faces: float = 0.0) -> object:
    from pathlib import Path

    from datasets.scene import SceneSpec

    folder = Path(args.surfaces) if args.surfaces else None
    if folder is not None and not folder.is_dir():
        from borne.commands import CommandError

        raise CommandError(f"{args.surfaces}: not a folder of images")
    spec = SceneSpec(width=args.width, height=args.height, edition=args.edition, random_faces=random_faces, surface_folder=folder)
    spec.check()
    return spec


def run_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from datasets.edition import export_edition, load_edition

    written = export_edition(load_edition(args.edition), Path(args.out_dir))
    print(f"wrote {len(written)} faces to {args.out_dir}", file=sys.stderr)
    return 0


def run_sheet(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tqdm import tqdm

    from datasets.deck_sheet import deck_cards, write_deck_sheet
    from datasets.edition import load_edition

    edition = load_edition(args.edition)
    with tqdm(total=len(deck_cards()), desc="cards", unit="card") as bar:
        pages = write_deck_sheet(edition, Path(args.out_pdf), progress=bar.update)
    print(f"wrote {args.out_pdf}: {len(deck_cards())} cards on {pages} pages; print at 100 %", file=sys.stderr)
    return 0


def run_scenes(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from datasets.generate import generate_scenes

    t = time.perf_counter()
    spec = _spec(args, args.random_faces)
    generate_scenes(Path(args.out), count=args.count, seed=args.seed, spec=spec, scheme=args.classes)  # type: ignore[arg-type]
    print(f"wrote {args.count} scenes to {args.out} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return 0


def run_sequences(args: argparse.Namespace) -> int:
    from pathlib import Path

    from borne.commands import CommandError
    from datasets.sequence import generate_sequence

    if args.count < 1:
        raise CommandError(f"--count must be at least 1, not {args.count}")
    spec = _spec(args)
    for i in range(args.count):
        out = Path(args.out) / f"seq_{i:04d}"
        summary = generate_sequence(out, seed=args.seed * 100003 + i, spec=spec, sides=args.sides,  # type: ignore[arg-type]
                                    max_frames=args.max_frames, video=not args.no_video, fps=args.fps,
                                    drift=args.drift)
        print(f"{out}: {summary['frames']} frames, {summary['plays']} plays, video {summary['video']}", file=sys.stderr)
    return 0


def run_photos(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tqdm import tqdm

    from borne.commands import CommandError
    from datasets.photoreal.photos import generate_photos

    if args.count < 1:
        raise CommandError(f"--count must be at least 1, not {args.count}")
    spec = _photo_spec(args)
    t = time.perf_counter()
    with tqdm(total=args.count, desc="photos", unit="scene") as bar:
        generate_photos(Path(args.out), count=args.count, seed=args.seed, spec=spec, start=args.start, progress=bar.update)
    print(f"{args.out}: {args.count} photo-real scenes in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return 0


def run_photo_sequences(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tqdm import tqdm

    from borne.commands import CommandError
    from datasets.photoreal.photos import BLENDER, blender_available
    from datasets.photoreal.sequences import generate_photo_sequence

    if args.count < 1:
        raise CommandError(f"--count must be at least 1, not {args.count}")
    if args.max_frames is not None and args.max_frames < 1:
        raise CommandError(f"--max-frames must be at least 1, not {args.max_frames}")
    if args.start < 0:
        raise CommandError(f"--start must be 0 or more, not {args.start}")
    spec = _photo_spec(args)
    spec.check()  # before any progress bar is drawn
    if not blender_available():
        raise CommandError(f"{BLENDER}: not found; photo-real sequences need Blender (apt-get install blender)")
    root = Path(args.out)
    for i in range(args.start, args.start + args.count):
        out = root / f"hand_{i:03d}"
        t = time.perf_counter()
        bars: list[tqdm] = []  # drawn once the hand is planned: a refused folder leaves no empty bar behind

        def tick(done: int, total: int, bars: list[tqdm] = bars, i: int = i) -> None:
            if not bars:  # frames already written count, but not in the rate
                bars.append(tqdm(total=total, initial=done, desc=f"hand {i}", unit="frame"))
            bars[0].update(done - bars[0].n)

        try:
            summary = generate_photo_sequence(out, seed=args.seed + i, spec=spec, sides=args.sides,
                                              max_frames=args.max_frames, progress=tick, video=not args.no_video,
                                              cache=root / ".textures", fps=args.fps, drift=args.drift)
        finally:
            for bar in bars:
                bar.close()
        print(f"{out}: {summary['frames']} frames ({summary['rendered']} written in {time.perf_counter() - t:.0f} s, {summary['reused']} of them "
              f"a still table finished from the frame before), "
              f"{summary['plays']} plays, video {summary['video']}", file=sys.stderr)
    return 0
