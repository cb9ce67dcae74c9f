"""``borne replay``: run the live pipeline over a video file or a folder of frames (CONTRACT.md §6)."""

from __future__ import annotations

import argparse

LOOKING_SIZE = (640, 360)
"""Without ``--layout``, the pipeline is made before the first frame: the default zones of a picture this size
stand in until the sides are found (nothing is counted with them)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="follow a recorded hand (a video file or a folder of frames) and print the hand reached",
        description="Run the live camera pipeline over SOURCE (a video file, or a folder of JPEG/PNG frames "
        "sorted by file name) as if it came from a camera, and print the hand state reached at the end as JSON: "
        "per side the distance and safeties (as `borne detect` without cards), draw_pile, and the events, one per "
        "card the pipeline decided was played; also the flags raised, a confidence per side and the hand record. "
        "Without --layout the sides are found from the table (the draw pile in the middle, each side's first cards "
        "around it) and their zones widened as cards land past them.",
    )
    p.add_argument("source", metavar="SOURCE")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="the table layout (CONTRACT.md §4); without it the sides are found from the table as the "
                        "hand starts, and printed with their zones and up (found_sides)")
    p.add_argument("--edition", default="generic",
                   help="deck edition: an enrolled one, or `unknown` (a deck nobody enrolled: distance cards by their "
                        "numerals, other cards unknown; default: the built-in generic edition)")
    p.add_argument("--goal", type=int, choices=(700, 1000), default=None,
                   help="the hand's goal (default: 700 for 2 or 3 sides, 1000 otherwise)")
    p.add_argument("--fps", type=float, default=10.0, help="frame rate of a folder of frames (default 10)")
    p.add_argument("--truth-boxes", metavar="TRUTH_DIR", default=None,
                   help="for testing: replay the true boxes of a rendered sequence (its truth/ folder) "
                   "instead of running the trained detector")
    p.add_argument("--progress", action="store_true", help="show a progress line on stderr")
    p.set_defaults(func=_replay)


def _replay(args: argparse.Namespace) -> int:
    import json
    import sys

    from borne.commands import CommandError
    from vision.feeding import run_source
    from vision.pipeline import Pipeline
    from vision.read.frame_reader import FrameReader
    from vision.sources import FolderSource, FrameSource, SourceError, open_source
    from vision.table.layout import TableLayout
    from vision.table.seating import Seating

    if args.fps <= 0:
        raise CommandError(f"--fps must be above 0, not {args.fps}")
    seating = None
    if args.layout is not None:
        layout = TableLayout.from_file(args.layout)
        if len(layout.sides) < 2:
            raise CommandError(f"{args.layout}: a hand needs at least two sides in the layout")
    else:
        seating = Seating()
        layout = TableLayout.default(*LOOKING_SIZE)
    try:
        source: FrameSource = open_source(args.source, replay=True)
    except SourceError as e:
        raise CommandError(str(e)) from None
    if isinstance(source, FolderSource):
        source.fps = args.fps
    before = None
    if args.truth_boxes is not None:
        from vision.read.models import load_video_recogniser
        from vision.read.replay_detector import TruthReplayDetector

        detector = TruthReplayDetector(args.truth_boxes)
        reader = FrameReader(detector, load_video_recogniser(args.edition))
        before = detector.seek
    else:
        reader = FrameReader.from_models(args.edition, moved_only=False)  # read whole, at a few views only
    pipeline = Pipeline(reader, layout, goal=args.goal, before_read=before, seating=seating,
                        fps=getattr(source, "fps", None))
    warned = False

    def report(result: object) -> None:
        nonlocal warned
        last = pipeline.last
        if last is not None and last.reading.too_small and not warned:
            warned = True
            print(f"borne replay: cards are about {last.reading.typical_card_px:.0f} px long, too small to read "
                  "reliably: move the camera closer or use a higher resolution", file=sys.stderr)
        if args.progress and pipeline.frames % 10 == 0:
            print(f"\rframe {pipeline.frames}  {pipeline.frames_per_second:.1f} frames/s", end="", file=sys.stderr)

    with source:
        run_source(source, pipeline, on_result=report)
    if args.progress:
        print(file=sys.stderr)
    if pipeline.frames == 0:
        raise CommandError(f"{args.source}: no frame could be read ({source.stats.corrupt} corrupt)")
    out = pipeline.replay_json()
    if seating is not None:
        out["found_sides"] = True
        for side in out["sides"]:
            side.update({k: v for k, v in pipeline.layout.zone_of(side["side"]).to_json().items() if k != "side"})
    out["frames"] = pipeline.frames
    out["corrupt_frames"] = source.stats.corrupt
    print(json.dumps(out, ensure_ascii=False))
    return 0
